package browser

import (
	"os"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/target"
	"github.com/chromedp/chromedp"
)

// Process is the browser's process, for the tests of Shared.
func Process(b *Browser) *os.Process { return chromedp.FromContext(b.root).Browser.Process() }

// Stopped is closed once the browser's first tab (and so the process, for
// the tests) is gone.
func Stopped(b *Browser) <-chan struct{} { return b.root.Done() }

// BrowserContexts lists the browser contexts the process holds besides
// its default one.
func BrowserContexts(b *Browser) ([]string, error) {
	r, err := chromedp.CallBrowser(b.root, target.GetBrowserContexts, cdp.Empty{})
	var ids []string
	for _, id := range r.BrowserContextIDs {
		ids = append(ids, string(id))
	}
	return ids, err
}
