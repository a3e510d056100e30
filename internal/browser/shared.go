package browser

import (
	"context"
	"os"
	"sync"
	"testing"

	"github.com/chromedp/chromedp"
)

// Shared is one Chromium process for a whole test binary. Starting
// Chromium costs a second or more on a loaded machine, and a package of
// page tests would start it dozens of times; each test takes the shared
// process instead ([Shared.Browser]) and opens its pages in browser
// contexts of their own ([Browser.NewPage]: their own cookies, storage,
// IndexedDB, Web Locks and cache), which are disposed at the test's end.
// Tests share the process and nothing a page can see. Declare it at
// package level and stop it in TestMain:
//
//	var chrome = browser.NewShared()
//	func TestMain(m *testing.M) { code := m.Run(); chrome.Stop(); os.Exit(code) }
//
// Its methods are safe for concurrent use (tests run with t.Parallel may
// take it at once).
type Shared struct {
	extra []string

	mu     sync.Mutex
	b      *Browser
	cancel func() // stops the process
	dir    string // its profile directory
	starts int
}

// NewShared returns a Shared started with [Flags] and the extra flags (as
// for [Start]) on its first use; nothing starts yet.
func NewShared(extra ...string) *Shared { return &Shared{extra: extra} }

// Browser returns the shared browser, starting it on the first call and
// again if the process has died (a crash fails the tests that had pages in
// it, not the ones after). It skips the test when there is no Chromium, or
// fails it under CI (see [Path]); it fails the test if Chromium cannot
// start. The browser outlives the test: only its pages are the test's.
func (s *Shared) Browser(t testing.TB) *Browser {
	t.Helper()
	bin := Path(t)
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.b != nil && s.b.root.Err() == nil {
		return s.b
	}
	if s.b != nil {
		t.Logf("the shared Chromium has stopped (%v); starting it again", context.Cause(s.b.root))
		s.stopLocked()
	}
	dir, err := os.MkdirTemp("", "fairboard-chromium-")
	if err != nil {
		t.Fatalf("a profile directory for Chromium: %v", err)
	}
	root, cancel, err := launch(bin, dir, s.extra)
	if err != nil {
		os.RemoveAll(dir)
		t.Fatalf("starting %s: %v", bin, err)
	}
	s.b, s.cancel, s.dir = &Browser{root: root}, cancel, dir
	s.starts++
	return s.b
}

// Starts is how many times the process was started (1 in a run without a
// crash; 0 before the first Browser).
func (s *Shared) Starts() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.starts
}

// Stop stops the process, if one runs, and removes its profile; call it
// once every test is done (TestMain, after m.Run). Browser may start the
// process again after it.
func (s *Shared) Stop() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.stopLocked()
}

func (s *Shared) stopLocked() {
	if s.cancel != nil {
		s.cancel()
		os.RemoveAll(s.dir)
	}
	s.b, s.cancel, s.dir = nil, nil, ""
}

// launch starts Chromium with its profile in dir and opens its first tab,
// which keeps the process; cancel stops it (and waits for it to exit).
func launch(bin, dir string, extra []string) (root context.Context, cancel func(), err error) {
	alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(), allocatorOptions(bin, dir, extra)...)
	root, cancelRoot := chromedp.NewContext(alloc)
	cancel = func() {
		cancelRoot()
		cancelAlloc()
	}
	if err := chromedp.Do(root, chromedp.Navigate("about:blank")); err != nil {
		cancel()
		return nil, nil, err
	}
	return root, cancel, nil
}
