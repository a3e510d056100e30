package browser

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/fairboard/fairboard/internal/repo"
)

// LayoutReport is what [Page.Layout] found.
type LayoutReport struct {
	// Width is the viewport's width; ScrollWidth the document's.
	Width, ScrollWidth int
	// Controls is how many visible controls were checked.
	Controls int
	// Bad lists each problem: the page wider than its window, a control
	// covered by another element at its own centre.
	Bad []string
}

// layoutScript measures the page: its scroll width against the window, and
// for every visible control (buttons, links, form fields, anything
// focusable) the element found at the control's centre once it is
// scrolled into view, which must be the control or inside it.
const layoutScript = `(() => {
  const describe = (el) => {
    if (!el) return "nothing";
    let s = el.tagName.toLowerCase();
    if (el.id) s += "#" + el.id;
    if (el.className && typeof el.className === "string") s += "." + el.className.trim().split(/\s+/).join(".");
    const label = (el.getAttribute("aria-label") || el.textContent || "").trim().slice(0, 40);
    return label ? s + " (" + JSON.stringify(label) + ")" : s;
  };
  const bad = [];
  const de = document.documentElement;
  if (de.scrollWidth > window.innerWidth) {
    bad.push("the page is " + de.scrollWidth + " px wide in a " + window.innerWidth + " px window");
  }
  const sx = window.scrollX, sy = window.scrollY;
  const sel = "button, a[href], input, select, textarea, summary, [tabindex]:not([tabindex='-1'])";
  let n = 0;
  for (const el of document.querySelectorAll(sel)) {
    const r0 = el.getBoundingClientRect();
    if (r0.width === 0 || r0.height === 0 || getComputedStyle(el).visibility === "hidden" || el.closest("[hidden]")) continue;
    n++;
    el.scrollIntoView({block: "center", inline: "center"});
    const r = el.getBoundingClientRect();
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    if (!hit || !(hit === el || el.contains(hit))) {
      bad.push(describe(el) + " is covered at its centre by " + describe(hit));
    }
    if (r.right > window.innerWidth + 0.5 || r.left < -0.5) {
      bad.push(describe(el) + " spans x " + Math.round(r.left) + ".." + Math.round(r.right) + " outside the " + window.innerWidth + " px window");
    }
  }
  window.scrollTo(sx, sy);
  return {width: window.innerWidth, scrollWidth: de.scrollWidth, controls: n, bad};
})()`

// Layout measures the page as it is now (see [LayoutReport]).
func (p *Page) Layout() LayoutReport {
	p.t.Helper()
	var r LayoutReport
	p.Eval(layoutScript, &r)
	return r
}

// CheckLayout fails the test if the page scrolls sideways or a control is
// not the element at its own centre; what names the screen in the message.
func (p *Page) CheckLayout(what string) LayoutReport {
	p.t.Helper()
	r := p.Layout()
	if r.Controls == 0 {
		p.t.Errorf("%s: no visible control to check", what)
	}
	if len(r.Bad) > 0 {
		p.t.Errorf("%s at %d px: %s", what, r.Width, strings.Join(r.Bad, "; "))
	}
	return r
}

// Violation is one rule axe-core found broken, with the elements that
// break it.
type Violation struct {
	ID     string   `json:"id"`
	Impact string   `json:"impact"`
	Help   string   `json:"help"`
	Nodes  []string `json:"nodes"`
}

func (v Violation) String() string {
	return fmt.Sprintf("%s (%s): %s: %s", v.ID, v.Impact, v.Help, strings.Join(v.Nodes, ", "))
}

// axeSource is node_modules/axe-core/axe.min.js, read once (tests in
// parallel may ask at once).
var axeSource = sync.OnceValues(func() (string, error) {
	path, err := AxePath()
	if err != nil {
		return "", err
	}
	b, err := os.ReadFile(path)
	return string(b), err
})

// AxePath is axe-core's script in the repository's node_modules (npm ci
// installs it from package-lock.json).
func AxePath() (string, error) {
	root, err := repo.Root()
	if err != nil {
		return "", err
	}
	return filepath.Join(root, "node_modules", "axe-core", "axe.min.js"), nil
}

// Axe runs axe-core on the page as it is now and returns its violations.
// axe-core's script is evaluated through the DevTools protocol, so the
// page's Content-Security-Policy does not stop it (and the page needs no
// exception for it). A missing node_modules/axe-core fails the test: npm ci
// installs it.
func (p *Page) Axe() []Violation {
	p.t.Helper()
	src, err := axeSource()
	if err != nil {
		p.t.Fatalf("axe-core: %v (run npm ci --ignore-scripts)", err)
	}
	var loaded bool
	p.Eval(`typeof window.axe === "object"`, &loaded)
	if !loaded {
		p.Eval(src+"\n;undefined", nil)
	}
	var vs []Violation
	p.Eval(`axe.run(document, {resultTypes: ["violations"]}).then((r) => r.violations.map((v) => ({
  id: v.id, impact: v.impact || "", help: v.help, nodes: v.nodes.map((n) => n.target.join(" ")) })))`, &vs)
	return vs
}

// CheckAxe fails the test if axe-core reports a violation; what names the
// screen in the message.
func (p *Page) CheckAxe(what string) {
	p.t.Helper()
	if vs := p.Axe(); len(vs) > 0 {
		var b strings.Builder
		for _, v := range vs {
			b.WriteString("\n  " + v.String())
		}
		p.t.Errorf("%s: axe-core reports %d violations:%s", what, len(vs), b.String())
	}
}

// T is the test the page belongs to.
func (p *Page) T() testing.TB { return p.t }
