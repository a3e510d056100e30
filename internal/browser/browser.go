// Package browser is the one harness of the project's browser tests:
// headless Chromium driven from Go with chromedp over the DevTools protocol
// (a pipe, no port). It starts the browser with the flags this closed
// network needs, opens pages in separate browser contexts (each its own
// cookies and storage: one player each), and gives the checks every page
// test shares. A package of many page tests shares one process ([Shared],
// stopped in TestMain), each test's pages in contexts of their own; a test
// that needs flags of its own starts its own ([Start]). The checks:
//
//   - the console: every message, uncaught exception and browser log entry
//     is recorded; [Page.CheckConsole] fails on any entry but the expected
//     ones, and on any Content-Security-Policy or Trusted Types violation
//     whatever the expectations;
//   - waiting on the page's state ([Page.WaitFor]): a JavaScript condition
//     re-checked whenever the DOM changes, never a sleep;
//   - screenshots, the viewport (a phone with a mobile user agent, or a
//     desktop window), keyboard input;
//   - layout: nothing scrolls sideways (scrollWidth) and every control is
//     the element found at its own centre ([Page.Layout]);
//   - accessibility: axe-core from the repository's node_modules, injected
//     through the DevTools protocol ([Page.Axe]).
//
// Every helper takes the test and fails it on an error: a browser test reads
// as the steps a person would take.
package browser

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

// Path returns the Chromium binary, or skips the test when there is none,
// except under CI (CI=true), where a missing browser fails it.
func Path(t testing.TB) string {
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

// Flags are the command-line flags every test's Chromium runs with: headless,
// no sandbox (the tests run as root), no GPU, and nothing that reaches the
// network on its own (QUIC, background networking, component updates,
// sync). A fresh profile directory is added per browser. The last three
// keep every page running at full speed though only one can be in front:
// a test's pages are players at their own screens, and a page in the
// background has its timers throttled (to once a minute after five minutes),
// which would stall a player's listeners and retries.
var Flags = []string{"headless", "no-sandbox", "disable-gpu", "disable-quic", "no-first-run",
	"disable-background-networking", "disable-component-update", "disable-sync",
	"disable-background-timer-throttling", "disable-backgrounding-occluded-windows", "disable-renderer-backgrounding"}

// Timeout bounds one step (a navigation, an evaluation, a wait).
const Timeout = 60 * time.Second

// Browser is one headless Chromium process: a test's own ([Start]) or a
// test binary's ([Shared]).
type Browser struct {
	root context.Context // the browser's first tab: keeps the process
}

// Start starts headless Chromium for the test (skipping it when there is no
// browser; see [Path]); it is stopped at the test's end. extra are more
// flags, as name=value ("host-resolver-rules=MAP play.test 127.0.0.1") or
// a name alone. A package of many page tests shares one process instead
// ([Shared]); Start is for a test that needs flags of its own.
func Start(t testing.TB, extra ...string) *Browser {
	t.Helper()
	bin := Path(t)
	root, cancel, err := launch(bin, t.TempDir(), extra)
	if err != nil {
		t.Fatalf("starting %s: %v", bin, err)
	}
	t.Cleanup(cancel)
	return &Browser{root: root}
}

// allocatorOptions are the options of a Chromium started from bin with its
// profile in dir: [Flags], a 1280x900 window, and the extra flags.
func allocatorOptions(bin, dir string, extra []string) []chromedp.ExecAllocatorOption {
	opts := []chromedp.ExecAllocatorOption{chromedp.ExecPath(bin), chromedp.UserDataDir(dir),
		chromedp.WindowSize(1280, 900), chromedp.Flag("hide-scrollbars", true), chromedp.Flag("mute-audio", true)}
	for _, f := range Flags {
		opts = append(opts, chromedp.Flag(f, true))
	}
	for _, f := range extra {
		if name, value, ok := strings.Cut(f, "="); ok {
			opts = append(opts, chromedp.Flag(name, value))
		} else {
			opts = append(opts, chromedp.Flag(f, true))
		}
	}
	return opts
}

// Page is one tab, in a browser context of its own.
type Page struct {
	t   testing.TB
	ctx context.Context

	mu      sync.Mutex
	entries []Entry
	// vp is the viewport SetViewport last set.
	vp Viewport
}

// Viewport is a page's size and device.
type Viewport struct {
	Width, Height int64
	// Mobile emulates a phone: a mobile viewport, touch, and MobileUA.
	Mobile bool
}

// The viewports the page tests use.
var (
	Phone   = Viewport{Width: 390, Height: 844, Mobile: true}
	Desktop = Viewport{Width: 1280, Height: 900}
)

// MobileUA is the user agent of a phone (Chromium on Android), sent with a
// Mobile viewport.
const MobileUA = "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Mobile Safari/537.36"

// NewPage opens a blank tab in a new browser context (its own cookies,
// storage and IndexedDB: another player), recording its console.
func (b *Browser) NewPage(t testing.TB) *Page {
	t.Helper()
	ctx, cancel := chromedp.NewContext(b.root, chromedp.WithNewBrowserContext())
	return openTab(t, ctx, cancel)
}

// openTab makes the tab of ctx a Page.
func openTab(t testing.TB, ctx context.Context, cancel context.CancelFunc) *Page {
	t.Helper()
	t.Cleanup(cancel)
	p := &Page{t: t, ctx: ctx}
	// Each page behaves as the focused one (focus and keyboard events, the
	// visibility the page sees): each is a player at their own screen.
	if err := chromedp.Do(ctx, chromedp.Navigate("about:blank"), chromedp.Func(func(ctx context.Context, _ *chromedp.Target) error {
		_, err := chromedp.Call(ctx, emulation.SetFocusEmulationEnabled, emulation.SetFocusEmulationEnabledParams{Enabled: true})
		return err
	})); err != nil {
		t.Fatalf("new page: %v", err)
	}
	if err := chromedp.Listen(ctx, p.record); err != nil {
		t.Fatalf("listen: %v", err)
	}
	return p
}

// NewTab opens a blank tab in the page's browser context (the same
// cookies, storage and IndexedDB: the same person in a second tab),
// recording its console.
func (p *Page) NewTab(t testing.TB) *Page {
	t.Helper()
	ctx, cancel := chromedp.NewContext(p.ctx)
	return openTab(t, ctx, cancel)
}

// Context is the page's chromedp context, for actions the helpers lack.
func (p *Page) Context() context.Context { return p.ctx }

// Do runs chromedp actions on the page, failing the test on an error.
func (p *Page) Do(steps ...chromedp.Action[chromedp.Void]) {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, Timeout)
	defer cancel()
	if err := chromedp.Do(ctx, steps...); err != nil {
		p.t.Fatalf("%v", err)
	}
}

// SetViewport sizes the page and, for a Mobile viewport, emulates a phone
// (touch and MobileUA); call it before Navigate.
func (p *Page) SetViewport(v Viewport) {
	p.t.Helper()
	p.vp = v
	opts := []chromedp.EmulateViewportOption{}
	ua := ""
	if v.Mobile {
		opts = append(opts, chromedp.EmulateMobile, chromedp.EmulateTouch, chromedp.EmulateScale(3))
		ua = MobileUA
	}
	p.Do(chromedp.EmulateViewport(v.Width, v.Height, opts...), chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		if ua == "" {
			return nil
		}
		_, err := chromedp.Call(ctx, emulation.SetUserAgentOverride, emulation.SetUserAgentOverrideParams{UserAgent: ua})
		return err
	}))
}

// Navigate loads url and waits for its load event.
func (p *Page) Navigate(url string) {
	p.t.Helper()
	p.Do(chromedp.Navigate(url))
}

// Reload reloads the page and waits for its load event.
func (p *Page) Reload() {
	p.t.Helper()
	p.Do(chromedp.Reload())
}

// OnNewDocument runs script in every document the page loads, before the
// page's own scripts (through the DevTools protocol, so the page's
// Content-Security-Policy does not apply to it).
func (p *Page) OnNewDocument(script string) {
	p.t.Helper()
	p.Do(chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		_, err := chromedp.Call(ctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: script})
		return err
	}))
}

// Eval evaluates a JavaScript expression in the page (awaiting it if it is
// a promise) and decodes its JSON value into out (nil to discard it).
func (p *Page) Eval(expr string, out any) {
	p.t.Helper()
	if err := p.eval(expr, out); err != nil {
		p.t.Fatalf("evaluating %s: %v", short(expr), err)
	}
}

func (p *Page) eval(expr string, out any) error {
	ctx, cancel := context.WithTimeout(p.ctx, Timeout)
	defer cancel()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[json.RawMessage](expr, chromedp.EvalAwaitPromise))
	if err != nil {
		if errors.Is(err, chromedp.ErrJSUndefined) && out == nil {
			return nil
		}
		return err
	}
	if out == nil {
		return nil
	}
	return json.Unmarshal(v, out)
}

// String evaluates expr and returns its value as a string.
func (p *Page) String(expr string) string {
	p.t.Helper()
	var s string
	p.Eval("String("+expr+")", &s)
	return s
}
