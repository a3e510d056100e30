package verify_test

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/games/dungeon/engine"
	"github.com/fairboard/fairboard/games/dungeon/policy"
	"github.com/fairboard/fairboard/games/dungeon/server/export"
	"github.com/fairboard/fairboard/games/dungeon/server/export/exporttest"
	"github.com/fairboard/fairboard/games/dungeon/tools/bot"
	"github.com/fairboard/fairboard/games/dungeon/tools/bot/bottest"
	"github.com/fairboard/fairboard/internal/browser"
	"github.com/fairboard/fairboard/web/verify"
)

// The page, in a real headless Chromium, verifies a good export and refuses
// a tampered one, and the same for a fair Pig table's record: the verdicts come from the WebAssembly, the files are
// handed to the page's own file input as a player would choose them.
func TestPageVerdictsInChromium(t *testing.T) {
	b := browser.Start(t)
	dir := t.TempDir()
	good, bad := exports(t, dir)
	tl, tlBad := trustlessExports(t, dir)
	rec, recBad := writeRecords(t, dir)

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

	page := b.NewPage(t)
	page.Navigate(srv.URL + "/verify/")
	page.WaitFor(`document.getElementById("verdict-title").textContent === "Ready"`)
	for _, c := range []struct {
		file, status, want string
	}{
		{good, "ok", "ok: fair game"},
		{bad, "diverged", "DiceRolled.value: expected"},
		{tl, "ok", "ok: trustless game browser-tl"},
		{tlBad, "diverged", "a changed link"},
		{rec, "ok", "ok: pig record (fair game)"},
		{recBad, "diverged", "diverges at log entry"},
		{filepath.Join(dir, "notes.json"), "invalid", "not a fairboard-export/v1 export"},
	} {
		page.Eval(`document.getElementById("verdict").dataset.status = "pending"`, nil)
		page.SetFile("#file", c.file)
		page.WaitFor(`document.getElementById("verdict").dataset.status !== "pending" && document.getElementById("verdict").dataset.status !== ""`)
		status := page.String(`document.getElementById("verdict").dataset.status`)
		msg := page.String(`document.getElementById("verdict-message").textContent`)
		require.Equal(t, c.status, status, "%s: %s", filepath.Base(c.file), msg)
		require.Contains(t, msg, c.want)
		t.Logf("%s: %s: %s", filepath.Base(c.file), status, msg)
	}
	page.CheckConsole()
	mu.Lock()
	defer mu.Unlock()
	require.Empty(t, uploads, "the page sent nothing but requests for its own files")
}

// exports writes a good fair export, a copy with one die changed, and a
// JSON file that is no export.
func exports(t *testing.T, dir string) (good, bad string) {
	t.Helper()
	eng := engine.NewReference(engine.DefaultRules())
	r := bot.NewRunner(eng)
	r.Record = true
	var g engine.Game
	seats := []bot.Seat{{Class: engine.ClassWarrior, Policy: policy.Cautious{}}, {Class: engine.ClassMonk, Policy: policy.Aggressive{}},
		{Class: engine.ClassDuelist, Policy: policy.Aggressive{}}, {Class: engine.ClassScout, Policy: policy.Cautious{}}}
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

// trustlessExports writes a trustless game's export, and a copy with one
// reveal's link changed.
func trustlessExports(t *testing.T, dir string) (good, bad string) {
	t.Helper()
	x, _ := bottest.Trustless(t, "browser-tl", 3, nil)
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
