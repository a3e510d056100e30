package browser

import (
	"fmt"
	"strings"
	"time"
)

// Waiting on the page's state, and what a failed wait shows.

// waitSlice is how long one evaluation of WaitFor waits in the page for a
// change before it answers; WaitFor then asks again. It bounds how late a
// condition on something that is neither the DOM nor a watched event
// (a variable of the page's script) is seen.
const waitSlice = 500 * time.Millisecond

// WaitFor waits until the JavaScript condition cond is true in the page: it
// is checked at once and again after every change of the DOM (a
// MutationObserver), of the window's size, of the focus and of the page's
// visibility, and at least every waitSlice, for up to timeout (Timeout if
// 0). It fails the test
// with the page's text when the time runs out. An exception in cond counts
// as false (the element is not there yet).
func (p *Page) WaitFor(cond string, timeout ...time.Duration) {
	p.t.Helper()
	d := Timeout
	if len(timeout) > 0 {
		d = timeout[0]
	}
	if err := p.wait(cond, d); err != nil {
		p.t.Fatalf("waiting for %s: %v; the page reads:\n%s\nits console's last entries:\n%s", cond, err, p.text(), p.recent(40))
	}
}

// Await is WaitFor for a condition a test can recover from: it returns
// the error when the time (d) runs out, and fails nothing.
func (p *Page) Await(cond string, d time.Duration) error { return p.wait(cond, d) }

// wait is WaitFor's loop, returning an error instead of failing.
func (p *Page) wait(cond string, d time.Duration) error {
	expr := `new Promise((resolve) => {
  const check = () => { try { return !!(` + cond + `); } catch (e) { return false; } };
  if (check()) { resolve(true); return; }
  const events = ["resize", "focusin", "focusout", "visibilitychange"];
  let timer;
  const done = (v) => { obs.disconnect(); for (const e of events) window.removeEventListener(e, changed, true); clearTimeout(timer); resolve(v); };
  const changed = () => { if (check()) done(true); };
  const obs = new MutationObserver(changed);
  obs.observe(document, {subtree: true, childList: true, attributes: true, characterData: true});
  for (const e of events) window.addEventListener(e, changed, true);
  timer = setTimeout(() => done(check()), ` + fmt.Sprint(waitSlice.Milliseconds()) + `);
})`
	deadline := time.Now().Add(d)
	for {
		var ok bool
		err := p.eval(expr, &ok)
		if err == nil && ok {
			return nil
		}
		if time.Now().After(deadline) {
			if err != nil {
				return err
			}
			return fmt.Errorf("timed out after %v", d)
		}
		if err != nil && !retryable(err) {
			return err
		}
	}
}

// retryable: errors of a page between two documents (a navigation or
// reload under way), after which the condition is asked again.
func retryable(err error) bool {
	s := err.Error()
	return strings.Contains(s, "Execution context was destroyed") || strings.Contains(s, "Cannot find context") ||
		strings.Contains(s, "Inspected target navigated") || strings.Contains(s, "uniqueContextId")
}

// recent is the console's last n entries, for failure messages.
func (p *Page) recent(n int) string {
	es := p.Console()
	if len(es) > n {
		es = es[len(es)-n:]
	}
	var b strings.Builder
	for _, e := range es {
		s := e.String()
		if len(s) > 300 {
			s = s[:300] + "..."
		}
		b.WriteString("  " + s + "\n")
	}
	return b.String()
}

// text is the page's visible text, for failure messages.
func (p *Page) text() string {
	var s string
	if err := p.eval(`document.body ? document.body.innerText : ""`, &s); err != nil {
		return "(unreadable: " + err.Error() + ")"
	}
	if len(s) > 4000 {
		s = s[:4000] + "..."
	}
	return s
}
