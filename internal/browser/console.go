package browser

import (
	"encoding/json"
	"regexp"
	"strings"

	cdplog "github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/runtime"
)

// The console: what a page logged, and the check that nothing unexpected was.

// Entry is one console message, uncaught exception or browser log entry.
type Entry struct {
	Kind   string // "console", "exception" or "log"
	Level  string // "log", "info", "warning", "error", ...
	Source string // the browser log's source ("security", "network", ...)
	Text   string
	URL    string
}

func (e Entry) String() string {
	s := e.Kind + " " + e.Level
	if e.Source != "" {
		s += " [" + e.Source + "]"
	}
	s += ": " + e.Text
	if e.URL != "" {
		s += " (" + e.URL + ")"
	}
	return s
}

// Console returns every entry recorded so far.
func (p *Page) Console() []Entry {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]Entry(nil), p.entries...)
}

// violation matches the browser's report of a Content-Security-Policy or
// Trusted Types violation.
var violation = regexp.MustCompile(`(?i)content security policy|trusted ?types?|trusted(html|script|scripturl)\b|refused to (load|execute|connect|apply|evaluate|create|frame)`)

// Unexpected returns the entries that match none of the expected patterns
// (console errors and warnings, exceptions, log entries of level warning or
// error; plain logs and infos are the page's business) and every CSP or
// Trusted Types violation, expected or not.
func (p *Page) Unexpected(expected ...*regexp.Regexp) []Entry {
	var bad []Entry
	for _, e := range p.Console() {
		if violation.MatchString(e.Text) {
			bad = append(bad, e)
			continue
		}
		if e.Level != "error" && e.Level != "warning" && e.Kind != "exception" {
			continue
		}
		ok := false
		for _, re := range expected {
			if re.MatchString(e.String()) {
				ok = true
				break
			}
		}
		if !ok {
			bad = append(bad, e)
		}
	}
	return bad
}

// CheckConsole fails the test if the console holds an entry Unexpected
// returns.
func (p *Page) CheckConsole(expected ...*regexp.Regexp) {
	p.t.Helper()
	if bad := p.Unexpected(expected...); len(bad) > 0 {
		var b strings.Builder
		for _, e := range bad {
			b.WriteString("\n  " + e.String())
		}
		p.t.Errorf("the console holds %d unexpected entries:%s", len(bad), b.String())
	}
}

func short(s string) string {
	if len(s) > 200 {
		return s[:200] + "..."
	}
	return s
}

// record keeps the console's messages.
func (p *Page) record(ev any) {
	var e Entry
	switch ev := ev.(type) {
	case *runtime.EventConsoleAPICalled:
		var parts []string
		for _, a := range ev.Args {
			switch {
			case len(a.Value) > 0:
				var s string
				if json.Unmarshal(a.Value, &s) == nil {
					parts = append(parts, s)
				} else {
					parts = append(parts, string(a.Value))
				}
			case a.Description != "":
				parts = append(parts, a.Description)
			default:
				parts = append(parts, string(a.Type))
			}
		}
		e = Entry{Kind: "console", Level: string(ev.Type), Text: strings.Join(parts, " ")}
	case *runtime.EventExceptionThrown:
		d := ev.ExceptionDetails
		text := d.Text
		if d.Exception != nil && d.Exception.Description != "" {
			text += " " + d.Exception.Description
		}
		e = Entry{Kind: "exception", Level: "error", Text: text, URL: d.URL}
	case *cdplog.EventEntryAdded:
		e = Entry{Kind: "log", Level: string(ev.Entry.Level), Source: string(ev.Entry.Source), Text: ev.Entry.Text, URL: ev.Entry.URL}
	default:
		return
	}
	p.mu.Lock()
	p.entries = append(p.entries, e)
	p.mu.Unlock()
}
