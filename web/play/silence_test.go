package play_test

import (
	"context"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/fetch"
	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/web/play/bundle"
)

// holdListeners makes the page's Firestore listeners silent from now on:
// DevTools holds every new request of their channel
// (google.firestore.v1.Firestore/Listen) and never answers it, as a
// listener seen to stay silent for a minute on a loaded emulator; the
// page's other requests (the functions) go through.
func holdListeners(t *testing.T, p *player) {
	t.Helper()
	require.NoError(t, chromedp.Listen(p.Context(), func(ev any) {
		_ = ev // a *fetch.EventRequestPaused: held, never continued
	}))
	p.Do(chromedp.Func(func(ctx context.Context, _ *chromedp.Target) error {
		_, err := chromedp.Call(ctx, fetch.Enable, fetch.EnableParams{Patterns: []*fetch.RequestPattern{{URLPattern: "*google.firestore.v1.Firestore/Listen*"}}})
		return err
	}))
}

// silentRun has Ann create a crypto game and Ben, whose page's listeners
// are silent from the start, join it; Ann starts it, and silentRun
// reports whether Ben's page showed the start within wait (it learns
// nothing from its listeners).
func silentRun(t *testing.T, appJS []byte, wait time.Duration) bool {
	srv := emuServer(t)
	srv.appJS = appJS
	ann, ben := twoGuests(t, srv)
	holdListeners(t, ben)
	id := ann.create("crypto", "warrior")
	ben.open(srv.URL, id)
	ben.join(1, "scout")
	ownerSees(ann, `document.querySelectorAll("#players li").length === 2 && document.querySelector('#action-buttons button[data-kind="start"]')`)
	ann.act()
	ann.WaitFor(`document.getElementById("game").dataset.phase === "playing"`)
	deadline := time.Now().Add(wait)
	for time.Now().Before(deadline) {
		if ben.state().Phase == "playing" {
			return true
		}
		time.Sleep(200 * time.Millisecond)
	}
	return false
}

// ownerSees waits for cond on Ann's page, which learns of Ben's join
// from its own listeners, never held. In the control her page is built
// without looking again too, so one of her listeners staying silent on a
// loaded emulator (what holdListeners makes of Ben's) would leave her
// waiting for the join, failing the control by chance (seen at load 8):
// after 20 s without it her page is reloaded, and reads the game itself.
// What the test looks at is Ben's page, never reloaded.
func ownerSees(ann *player, cond string) {
	ann.t.Helper()
	if ann.Await(cond, 20*time.Second) == nil {
		return
	}
	ann.Reload()
	ann.WaitFor(cond)
}

// TestSilentListenerInChromium: with its Firestore listeners silent
// (their requests held, never answered), a crypto game's page still shows
// the other player's action (the owner's start), by reading the game
// itself after 5 s without news; the page built without that
// (--define:LOOK_AGAIN=false, the positive control) shows nothing in the
// same time. The two runs (each its own server, game and pages) wait side
// by side; they count as page tests off the emulators (pageTest): a create,
// a join and a start, their listeners held.
func TestSilentListenerInChromium(t *testing.T) {
	t.Parallel()
	t.Run("shipped", func(t *testing.T) {
		pageTest(t, false)
		require.True(t, silentRun(t, nil, 12*time.Second), "Ben's page showed Ann's action, its listeners silent")
	})
	t.Run("without looking again", func(t *testing.T) {
		pageTest(t, false)
		require.False(t, silentRun(t, noLookAgain(t), 12*time.Second), "without looking again, the silent page shows nothing (the control)")
	})
}

// noLookAgain is the page built with --define:LOOK_AGAIN=false (no read
// after a silence), built once for the package.
func noLookAgain(t *testing.T) []byte {
	t.Helper()
	b, err := noLookAgainBuild()
	require.NoError(t, err)
	return b
}

var noLookAgainBuild = sync.OnceValues(func() ([]byte, error) {
	dir, err := os.MkdirTemp("", "fairboard-nolookagain-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	out := filepath.Join(dir, "app.js")
	if err := bundle.Build(out, "--define:LOOK_AGAIN=false"); err != nil {
		return nil, err
	}
	return os.ReadFile(out)
})

// silentTableRun has Ann create a Pig table on the emulators and Ben,
// whose page's listeners are silent from the start, join it; Ann starts
// it, and silentTableRun reports whether Ben's page showed the start
// within wait (it learns nothing from its listeners: once seated, it
// follows the table by them and no longer polls).
func silentTableRun(t *testing.T, appJS []byte, wait time.Duration) bool {
	srv, _ := emuTableServer(t)
	srv.appJS = appJS
	ann, ben := twoGuests(t, srv)
	holdListeners(t, ben)
	id := ann.createTable("pig", "crypto", nil)
	ben.open(srv.URL, id)
	ben.joinTable()
	ben.WaitFor(`document.getElementById("table").dataset.live === "1"`)
	ownerSees(ann, `!document.getElementById("tg-start").hidden`)
	ann.Click("#tg-start")
	ann.WaitFor(`document.getElementById("table").dataset.phase === "playing"`)
	deadline := time.Now().Add(wait)
	for time.Now().Before(deadline) {
		if ben.String(`document.getElementById("table").dataset.phase`) == "playing" {
			return true
		}
		time.Sleep(200 * time.Millisecond)
	}
	return false
}

// TestSilentTableListenerInChromium (issue 30): with its Firestore
// listeners silent, a table's page (Pig) still shows the other player's
// action (the owner's start) by reading the table after 5 s without
// news; the page built without that (--define:LOOK_AGAIN=false, the
// positive control) shows nothing in the same time.
func TestSilentTableListenerInChromium(t *testing.T) {
	t.Parallel()
	t.Run("shipped", func(t *testing.T) {
		pageTest(t, false)
		require.True(t, silentTableRun(t, nil, 12*time.Second), "Ben's table page showed Ann's start, its listeners silent")
	})
	t.Run("without looking again", func(t *testing.T) {
		pageTest(t, false)
		require.False(t, silentTableRun(t, noLookAgain(t), 12*time.Second), "without looking again, the silent table page shows nothing (the control)")
	})
}
