package browser_test

import (
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"syscall"
	"testing"

	"github.com/chromedp/chromedp/kb"
	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/internal/browser"
)

// pages serves small test pages under a strict Content-Security-Policy
// with Trusted Types required, as the project's own pages are served.
func pages(t *testing.T) *httptest.Server {
	files := map[string]string{
		"/clean.html": `<!doctype html><html lang="en"><head><meta name="viewport" content="width=device-width, initial-scale=1"><title>clean</title><script src="/clean.js"></script></head>
<body><main><h1>Clean</h1><button id="go" type="button">Go</button><p id="out"></p></main></body></html>`,
		"/clean.js": `document.addEventListener("DOMContentLoaded", () => {
  document.getElementById("go").addEventListener("click", () => {
    setTimeout(() => { document.getElementById("out").textContent = "clicked"; }, 300);
  });
  document.getElementById("go").addEventListener("keydown", (e) => { if (e.key === "x") document.getElementById("out").textContent = "key x"; });
});`,
		"/broken.html": `<!doctype html><html lang="en"><head><title>broken</title><script>window.inline = 1;</script><script src="/broken.js"></script></head>
<body><main><h1>Broken</h1>
<button id="unnamed" type="button"></button>
<div style="width: 3000px">wide</div>
<button id="covered" type="button">Covered</button>
<div style="position: fixed; inset: 0; background: rgba(0,0,0,0.1)"></div></main></body></html>`,
		"/broken.js": `document.addEventListener("DOMContentLoaded", () => {
  try { document.body.insertAdjacentHTML("beforeend", "<p>sink</p>"); } catch (e) {}
  console.error("a page error");
});`,
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, ok := files[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Security-Policy", "default-src 'none'; script-src 'self'; style-src 'unsafe-inline'; require-trusted-types-for 'script'; trusted-types 'none'")
		if strings.HasSuffix(r.URL.Path, ".js") {
			w.Header().Set("Content-Type", "text/javascript")
		} else {
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
		}
		w.Write([]byte(body))
	}))
	t.Cleanup(srv.Close)
	return srv
}

// A clean page passes every check; a page that breaks each (an inline
// script and an HTML sink refused by its policy, a console error, a
// button without a name, a page wider than its window, a covered button)
// is caught by each: the positive controls of the checks the page tests
// rely on.
func TestChecksCatchWhatTheyCheck(t *testing.T) {
	srv := pages(t)
	b := browser.Start(t)

	clean := b.NewPage(t)
	clean.SetViewport(browser.Phone)
	clean.Navigate(srv.URL + "/clean.html")
	clean.WaitFor(`document.getElementById("go")`)
	clean.Click("#go")
	clean.WaitFor(`document.getElementById("out").textContent === "clicked"`)
	clean.Eval(`document.getElementById("go").focus()`, nil)
	clean.Key("x")
	clean.WaitFor(`document.getElementById("out").textContent === "key x"`)
	require.Equal(t, "390", clean.String("window.innerWidth"))
	require.Contains(t, clean.String("navigator.userAgent"), "Mobile")
	r := clean.Layout()
	require.Empty(t, r.Bad)
	require.Equal(t, 1, r.Controls)
	require.Empty(t, clean.Axe())
	require.Empty(t, clean.Unexpected())
	png := clean.Screenshot(t.TempDir() + "/clean.png")
	require.Equal(t, "\x89PNG", string(png[:4]))
	clean.Key(kb.Tab)

	broken := b.NewPage(t)
	broken.Navigate(srv.URL + "/broken.html")
	broken.WaitFor(`document.readyState === "complete"`)
	// Both violations, and the console error unless it is expected.
	broken.WaitFor(`true`)
	bad := broken.Unexpected(regexp.MustCompile(`a page error`))
	var csp, tt int
	for _, e := range bad {
		switch {
		case strings.Contains(e.Text, "inline script"):
			csp++
		case strings.Contains(strings.ToLower(e.Text), "trustedhtml"):
			tt++
		}
	}
	require.NotZero(t, csp, "the inline script's CSP violation: %v", bad)
	require.NotZero(t, tt, "the HTML sink's Trusted Types violation: %v", bad)
	require.Len(t, broken.Unexpected(regexp.MustCompile(`a page error`), regexp.MustCompile(`.*`)), len(bad),
		"an expected pattern never hides a CSP violation")
	var errs int
	for _, e := range broken.Unexpected() {
		if strings.Contains(e.Text, "a page error") {
			errs++
		}
	}
	require.Equal(t, 1, errs, "an unexpected console error is reported")

	r = broken.Layout()
	joined := strings.Join(r.Bad, "\n")
	require.Contains(t, joined, "px wide in a 1280 px window")
	require.Contains(t, joined, "button#covered")
	var ids []string
	for _, v := range broken.Axe() {
		ids = append(ids, v.ID)
	}
	require.Contains(t, ids, "button-name")

	// Two pages are two browser contexts: storage is not shared.
	clean.Eval(`localStorage.setItem("who", "clean")`, nil)
	other := b.NewPage(t)
	other.Navigate(srv.URL + "/clean.html")
	require.Equal(t, "null", other.String(`localStorage.getItem("who")`))
}

// AtEach shows the page at each viewport and puts it back as it was;
// SetHidden makes the page see itself in the background and back, with
// the event a page listens to.
func TestAtEachAndSetHidden(t *testing.T) {
	srv := pages(t)
	b := browser.Start(t)
	p := b.NewPage(t)
	p.SetViewport(browser.Desktop)
	p.Navigate(srv.URL + "/clean.html")
	p.WaitFor(`document.getElementById("go")`)
	var widths []string
	p.AtEach(browser.Both, func(v browser.Viewport) {
		widths = append(widths, p.String("String(window.innerWidth)"))
	})
	require.Equal(t, []string{"1280", "390"}, widths)
	require.Equal(t, "1280", p.String("String(window.innerWidth)"), "back to the page's own viewport")
	require.Equal(t, browser.Desktop, p.Viewport())

	p.Eval(`window.seen = []; document.addEventListener("visibilitychange", () => window.seen.push(document.visibilityState + " " + document.hidden))`, nil)
	require.Equal(t, "false", p.String("String(document.hidden)"), "control: a page in the foreground")
	p.SetHidden(true)
	p.SetHidden(false)
	var seen []string
	p.Eval(`window.seen`, &seen)
	require.Equal(t, []string{"hidden true", "visible false"}, seen)
}

// A Shared browser is one process for many tests: each test's pages are
// browser contexts of their own (storage set by one test's page is not
// seen by the next test's; a second tab of the same context does see it,
// the positive control), disposed at the test's end; a process that died
// is started again; Stop ends it.
func TestSharedBrowser(t *testing.T) {
	srv := pages(t)
	s := browser.NewShared()
	t.Cleanup(s.Stop)
	var first *browser.Browser
	t.Run("first test", func(t *testing.T) {
		first = s.Browser(t)
		p := first.NewPage(t)
		p.Navigate(srv.URL + "/clean.html")
		p.Eval(`localStorage.setItem("who", "first")`, nil)
		tab := p.NewTab(t)
		tab.Navigate(srv.URL + "/clean.html")
		require.Equal(t, "first", tab.String(`localStorage.getItem("who")`), "control: a tab of the same context shares its storage")
		ids, err := browser.BrowserContexts(first)
		require.NoError(t, err)
		require.Len(t, ids, 1, "the page's own context")
	})
	t.Run("second test", func(t *testing.T) {
		b := s.Browser(t)
		require.Same(t, first, b, "the same process")
		ids, err := browser.BrowserContexts(b)
		require.NoError(t, err)
		require.Empty(t, ids, "the first test's context was disposed at its end")
		p := b.NewPage(t)
		p.Navigate(srv.URL + "/clean.html")
		require.Equal(t, "null", p.String(`localStorage.getItem("who")`), "nothing of the first test's pages")
	})
	require.Equal(t, 1, s.Starts())

	// A crashed process is replaced.
	require.NoError(t, browser.Process(first).Kill())
	<-browser.Stopped(first)
	t.Run("after a crash", func(t *testing.T) {
		b := s.Browser(t)
		require.NotSame(t, first, b)
		p := b.NewPage(t)
		p.Navigate(srv.URL + "/clean.html")
		require.Equal(t, "Clean", p.String(`document.querySelector("h1").textContent`))
	})
	require.Equal(t, 2, s.Starts())

	// Stop ends the process.
	proc := browser.Process(s.Browser(t))
	s.Stop()
	_, err := proc.Wait()
	require.Error(t, err, "the process was already reaped: it has exited")
	require.Error(t, proc.Signal(syscall.Signal(0)), "no process left")
}
