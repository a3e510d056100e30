package browser

import (
	"context"
	"os"
	"path/filepath"

	"github.com/chromedp/chromedp"
)

// A person's input on a page: clicks, typing, keys, files, and screenshots.

// Click clicks the element the CSS selector finds (with the mouse, at its
// centre, as a person would; it waits for the element to be visible).
func (p *Page) Click(selector string) {
	p.t.Helper()
	p.Do(chromedp.Click(chromedp.CSS(selector), chromedp.NodeVisible))
}

// Type focuses the element and types text into it.
func (p *Page) Type(selector, text string) {
	p.t.Helper()
	p.Do(chromedp.SendKeys(chromedp.CSS(selector), text, chromedp.NodeVisible))
}

// Key sends one key (a kb constant such as kb.Tab, or a character) to the
// focused element.
func (p *Page) Key(key string) {
	p.t.Helper()
	p.Do(chromedp.KeyEvent(key))
}

// SetFile chooses a file in a file input, as a person would; the input
// fires its change event.
func (p *Page) SetFile(selector, path string) {
	p.t.Helper()
	p.Do(chromedp.SetUploadFiles(chromedp.CSS(selector), []string{path}))
}

// Screenshot saves a PNG of the viewport to path and returns its bytes.
func (p *Page) Screenshot(path string) []byte {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, Timeout)
	defer cancel()
	b, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	if err != nil {
		p.t.Fatalf("screenshot: %v", err)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		p.t.Fatal(err)
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		p.t.Fatal(err)
	}
	return b
}
