package verify_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/bot"
	"github.com/fairboard/fairboard/engine"
	"github.com/fairboard/fairboard/export"
	"github.com/fairboard/fairboard/export/exporttest"
	"github.com/fairboard/fairboard/reducers"
	"github.com/fairboard/fairboard/web/verify"
)

// The page, in a real headless Chromium, verifies a good export and refuses
// a tampered one: the verdicts come from the WebAssembly, the files are
// handed to the page's own file input as a player would choose them.
func TestPageVerdictsInChromium(t *testing.T) {
	bin := chromium(t)
	dir := t.TempDir()
	good, bad := exports(t, dir)
	tl, tlBad := trustlessExports(t, dir)

	var mu sync.Mutex
	var uploads []string // any request but for the page's own files
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet || !strings.HasPrefix(r.URL.Path, "/verify/") {
			mu.Lock()
			uploads = append(uploads, r.Method+" "+r.URL.Path)
			mu.Unlock()
		}
		http.StripPrefix("/verify", verify.Handler()).ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)

	b := startChromium(t, bin)
	page := b.newPage(srv.URL + "/verify/")
	page.waitFor(`document.getElementById("verdict-title").textContent === "Ready"`)
	for _, c := range []struct {
		file, status, want string
	}{
		{good, "ok", "ok: fair game"},
		{bad, "diverged", "DiceRolled.value: expected"},
		{tl, "ok", "ok: trustless game browser-tl"},
		{tlBad, "diverged", "a changed link"},
		{filepath.Join(dir, "notes.json"), "invalid", "not a fairboard-export/v1 export"},
	} {
		page.eval(`document.getElementById("verdict").dataset.status = "pending"`)
		page.setFile("#file", c.file)
		page.waitFor(`document.getElementById("verdict").dataset.status !== "pending" && document.getElementById("verdict").dataset.status !== ""`)
		status := page.eval(`document.getElementById("verdict").dataset.status`)
		msg := page.eval(`document.getElementById("verdict-message").textContent`)
		require.Equal(t, c.status, status, "%s: %s", filepath.Base(c.file), msg)
		require.Contains(t, msg, c.want)
		t.Logf("%s: %s: %s", filepath.Base(c.file), status, msg)
	}
	mu.Lock()
	defer mu.Unlock()
	require.Empty(t, uploads, "the page sent nothing but requests for its own files")
}

// exports writes a good fair export, a copy with one die changed, and a
// JSON file that is no export.
func exports(t *testing.T, dir string) (good, bad string) {
	t.Helper()
	eng := engine.New(engine.DefaultRules(), reducers.Table())
	r := bot.NewRunner(eng)
	r.Record = true
	var g engine.Game
	seats := []bot.Seat{{Class: engine.ClassWarrior, Policy: bot.Cautious{}}, {Class: engine.ClassMonk, Policy: bot.Aggressive{}},
		{Class: engine.ClassDuelist, Policy: bot.Aggressive{}}, {Class: engine.ClassScout, Policy: bot.Cautious{}}}
	require.NoError(t, r.PlayWith(&g, bot.Config{Create: engine.Action{GameID: "browser", Mode: "fair",
		ServerSeed: strings.Repeat("5e", 32)}, Entropy: []string{"c0de"}}, seats))
	x, err := export.Build(&g, eng.Rules(), r.Actions(), r.Events())
	require.NoError(t, err)
	b, err := x.Encode()
	require.NoError(t, err)
	good = filepath.Join(dir, "good.json")
	require.NoError(t, os.WriteFile(good, b, 0o644))
	i := exporttest.Find(t, x, engine.EvDiceRolled)
	e := exporttest.Event(t, x, i)
	e.Value = e.Value%e.Sides + 1
	exporttest.SetEvent(x, i, e)
	b, err = x.Encode()
	require.NoError(t, err)
	bad = filepath.Join(dir, "tampered.json")
	require.NoError(t, os.WriteFile(bad, b, 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "notes.json"), []byte(`{"notes":"not an export"}`), 0o644))
	return good, bad
}

// chromium returns the headless browser, or skips the test when there is
// none, except under CI (CI=true), where a missing browser fails the run.
func chromium(t *testing.T) string {
	t.Helper()
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("CI") == "true" {
		t.Fatal("no chromium on PATH; scripts/test.sh installs Debian's chromium package")
	}
	t.Skip("no chromium on PATH (install Debian's chromium package to run this test)")
	return ""
}

// browser is headless Chromium driven over the DevTools protocol on a pipe
// (--remote-debugging-pipe: commands on fd 3, replies and events on fd 4,
// each a JSON message ended by a NUL byte). Nothing listens on a port.
type browser struct {
	t    *testing.T
	w    *os.File
	r    *bufio.Reader
	next int
}

func startChromium(t *testing.T, bin string) *browser {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	cmdR, cmdW, err := os.Pipe() // we write commands, Chromium reads fd 3
	require.NoError(t, err)
	outR, outW, err := os.Pipe() // Chromium writes fd 4, we read
	require.NoError(t, err)
	cmd := exec.CommandContext(ctx, bin, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync",
		"--user-data-dir="+t.TempDir(), "--remote-debugging-pipe", "about:blank")
	cmd.ExtraFiles = []*os.File{cmdR, outW}
	require.NoError(t, cmd.Start())
	cmdR.Close()
	outW.Close()
	t.Cleanup(func() {
		cmdW.Close() // Chromium exits when its command pipe closes
		done := make(chan struct{})
		go func() { cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			cmd.Process.Kill()
			<-done
		}
		cancel()
		outR.Close()
	})
	return &browser{t: t, w: cmdW, r: bufio.NewReader(outR)}
}

// call sends one command (to a page session if session is set) and returns
// its result, skipping the events that arrive meanwhile.
func (b *browser) call(session, method string, params any) json.RawMessage {
	b.t.Helper()
	b.next++
	id := b.next
	msg := map[string]any{"id": id, "method": method, "params": params}
	if session != "" {
		msg["sessionId"] = session
	}
	out, err := json.Marshal(msg)
	require.NoError(b.t, err)
	_, err = b.w.Write(append(out, 0))
	require.NoError(b.t, err)
	for {
		raw, err := b.r.ReadBytes(0)
		require.NoError(b.t, err, "reading Chromium's reply to %s", method)
		var reply struct {
			ID     int             `json:"id"`
			Result json.RawMessage `json:"result"`
			Error  *struct {
				Message string `json:"message"`
			} `json:"error"`
		}
		require.NoError(b.t, json.Unmarshal(raw[:len(raw)-1], &reply))
		if reply.ID != id {
			continue // an event, or a reply to nothing we wait for
		}
		require.Nil(b.t, reply.Error, "%s: %+v", method, reply.Error)
		return reply.Result
	}
}

// page is one tab.
type page struct {
	b       *browser
	session string
}

func (b *browser) newPage(url string) *page {
	var target struct{ TargetID string }
	require.NoError(b.t, json.Unmarshal(b.call("", "Target.createTarget", map[string]any{"url": "about:blank"}), &target))
	var att struct{ SessionID string }
	require.NoError(b.t, json.Unmarshal(b.call("", "Target.attachToTarget",
		map[string]any{"targetId": target.TargetID, "flatten": true}), &att))
	p := &page{b: b, session: att.SessionID}
	p.b.call(p.session, "Page.navigate", map[string]any{"url": url})
	return p
}

// eval evaluates a JavaScript expression in the page and returns its value
// as a string.
func (p *page) eval(expr string) string {
	var res struct {
		Result struct {
			Value any `json:"value"`
		} `json:"result"`
		ExceptionDetails any `json:"exceptionDetails"`
	}
	require.NoError(p.b.t, json.Unmarshal(p.b.call(p.session, "Runtime.evaluate",
		map[string]any{"expression": expr, "returnByValue": true}), &res))
	require.Nil(p.b.t, res.ExceptionDetails, "%s", expr)
	return fmt.Sprint(res.Result.Value)
}

// waitFor polls a JavaScript condition until it is true.
func (p *page) waitFor(cond string) {
	p.b.t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for time.Now().Before(deadline) {
		if p.eval("(() => { try { return !!("+cond+") } catch (e) { return false } })()") == "true" {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	p.b.t.Fatalf("timed out waiting for %s; the verdict reads %q", cond, p.eval(`document.body ? document.body.innerText : ""`))
}

// setFile chooses a file in the page's file input, as a player would; the
// input fires its change event.
func (p *page) setFile(selector, path string) {
	var doc struct {
		Root struct{ NodeID int } `json:"root"`
	}
	require.NoError(p.b.t, json.Unmarshal(p.b.call(p.session, "DOM.getDocument", map[string]any{}), &doc))
	var q struct{ NodeID int }
	require.NoError(p.b.t, json.Unmarshal(p.b.call(p.session, "DOM.querySelector",
		map[string]any{"nodeId": doc.Root.NodeID, "selector": selector}), &q))
	require.NotZero(p.b.t, q.NodeID, "no %s in the page", selector)
	p.b.call(p.session, "DOM.setFileInputFiles", map[string]any{"files": []string{path}, "nodeId": q.NodeID})
}

// trustlessExports writes a trustless game's export, and a copy with one
// reveal's link changed.
func trustlessExports(t *testing.T, dir string) (good, bad string) {
	t.Helper()
	x, _ := exporttest.Trustless(t, "browser-tl", 3, nil)
	b, err := x.Encode()
	require.NoError(t, err)
	good = filepath.Join(dir, "trustless.json")
	require.NoError(t, os.WriteFile(good, b, 0o644))
	var reveals []int
	for i, a := range x.Actions {
		if a.Kind == engine.ActReveal {
			reveals = append(reveals, i)
		}
	}
	x.Actions[reveals[4]].Link = x.Actions[reveals[9]].Link
	b, err = x.Encode()
	require.NoError(t, err)
	bad = filepath.Join(dir, "trustless-tampered.json")
	require.NoError(t, os.WriteFile(bad, b, 0o644))
	return good, bad
}
