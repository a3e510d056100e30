package browser

import "fmt"

// Both are the two viewports every screen of the page is checked at: a
// desktop's 1280 px and a phone's 390 px.
var Both = []Viewport{Desktop, Phone}

// Viewport returns the viewport SetViewport last set (the zero Viewport
// before any).
func (p *Page) Viewport() Viewport { return p.vp }

// AtEach resizes the page to each of vs in turn, calling fn at each (the
// page is not reloaded: the screen it shows is checked as it reflows),
// and then back to the viewport it had.
func (p *Page) AtEach(vs []Viewport, fn func(v Viewport)) {
	p.t.Helper()
	was := p.vp
	for _, v := range vs {
		p.SetViewport(v)
		// Resized: wait until the page's window has the new width.
		p.WaitFor(fmt.Sprintf(`window.innerWidth === %d`, v.Width))
		fn(v)
	}
	if was.Width != 0 {
		p.SetViewport(was)
		p.WaitFor(fmt.Sprintf(`window.innerWidth === %d`, was.Width))
	}
}

// SetHidden makes the page report itself in the background
// (document.hidden true, visibilityState "hidden") or in the foreground,
// and tells it with a visibilitychange event, as when its tab is switched
// away from and back to; it lasts until the next navigation.
func (p *Page) SetHidden(hidden bool) {
	p.t.Helper()
	state := "visible"
	if hidden {
		state = "hidden"
	}
	p.Eval(fmt.Sprintf(`(() => {
  Object.defineProperty(document, "hidden", {configurable: true, get: () => %t});
  Object.defineProperty(document, "visibilityState", {configurable: true, get: () => %q});
  document.dispatchEvent(new Event("visibilitychange"));
})()`, hidden, state), nil)
}
