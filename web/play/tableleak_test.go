package play_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/chromedp/cdproto/fetch"
	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/internal/browser"
	"github.com/fairboard/fairboard/web/play/bundle"
)

// The positive control of ownKeysSent, in the browser: Alice's page runs
// a test build of the WebAssembly (-tags leaktest, served to her tab
// alone in place of play.wasm; the page served never has tableLeak)
// whose seat publishes its own key of its own card with its deal keys,
// as trustseat's Leak does in the table tests. The same check that finds
// nothing in TestTrustlessKuhnReloadInChromium and
// TestTrustlessLeducInChromium names that key.
func TestTrustlessLeakCaughtInChromium(t *testing.T) {
	var leaky []byte
	pageTestAfter(t, true, func() { // the build before the test's turn
		wasm := filepath.Join(t.TempDir(), "leak.wasm")
		cmd := exec.Command("go", "build", "-tags", "leaktest", "-o", wasm, bundle.WasmPackage)
		cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm", "CGO_ENABLED=0")
		out, err := cmd.CombinedOutput()
		require.NoError(t, err, string(out))
		leaky, err = os.ReadFile(wasm)
		require.NoError(t, err)
	})

	srv, _ := emuTableServer(t)
	b := chrome.Browser(t)
	url := srv.URL + "/play/"
	alice := &player{Page: b.NewPage(t), t: t, name: "alice"}
	alice.SetViewport(browser.Desktop)
	ctx := alice.Context()
	require.NoError(t, chromedp.Listen(ctx, func(ev any) {
		if e, ok := ev.(*fetch.EventRequestPaused); ok {
			go func() {
				_, _ = chromedp.Call(ctx, fetch.FulfillRequest, fetch.FulfillRequestParams{RequestID: e.RequestID, ResponseCode: 200,
					ResponseHeaders: []*fetch.HeaderEntry{{Name: "Content-Type", Value: "application/wasm"}}, Body: leaky})
			}()
		}
	}))
	alice.Do(chromedp.Func(func(ctx context.Context, _ *chromedp.Target) error {
		_, err := chromedp.Call(ctx, fetch.Enable, fetch.EnableParams{Patterns: []*fetch.RequestPattern{{URLPattern: "*/play.wasm*"}}})
		return err
	}))
	alice.OnNewDocument(dealLog)
	alice.Navigate(url)
	bob := newPlayer(t, b, "bob", browser.Phone, url)
	players := []*player{alice, bob}
	for _, p := range players {
		p.signInGuest()
	}
	require.True(t, isTrue(alice, `typeof fairboard.tableLeak === "function"`), "Alice's tab runs the test build")
	require.True(t, isTrue(bob, `typeof fairboard.tableLeak === "undefined"`), "the page served has no leak")
	twoPageTable(t, srv, "kuhn", players, func(id string) {
		require.True(t, isTrue(alice, `fairboard.tableLeak("`+id+`", "`+alice.uid+`").ok`))
	})
	// Wait for Alice's page's deal keys (any), then apply the check.
	alice.WaitFor(`JSON.parse(sessionStorage.getItem("fb-deal-log") || "[]").some((b) => ((JSON.parse(b).data || {}).deal || {}).keys)`, 2*time.Minute)
	require.Equal(t, "seat 0's key of position 0", ownKeysSent(t, alice, 0, []int{0})[0])
}
