package main

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/games/dungeon/engine"
	"github.com/fairboard/fairboard/games/dungeon/server/export"
	"github.com/fairboard/fairboard/games/dungeon/server/export/exporttest"
	"github.com/fairboard/fairboard/games/dungeon/tools/bot/bottest"
)

// playExport plays a bot game with gamectl play and returns its export.
func playExport(t *testing.T, args ...string) *export.Export {
	t.Helper()
	path := filepath.Join(t.TempDir(), "game.json")
	code, _, errs := runCmd(append([]string{"play", "--export", path}, args...)...)
	require.Zero(t, code, errs)
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	x, err := export.Decode(b)
	require.NoError(t, err)
	return x
}

// verifyExport writes x and runs gamectl verify on it.
func verifyExport(t *testing.T, x *export.Export) (int, string, string) {
	t.Helper()
	b, err := x.Encode()
	require.NoError(t, err)
	path := filepath.Join(t.TempDir(), "x.json")
	require.NoError(t, os.WriteFile(path, b, 0o644))
	return runCmd("verify", path)
}

// clone deep-copies an export through its own encoding.
func clone(t *testing.T, x *export.Export) *export.Export {
	t.Helper()
	b, err := x.Encode()
	require.NoError(t, err)
	c, err := export.Decode(b)
	require.NoError(t, err)
	return c
}

// The good fair export verifies; each tampered copy is refused (exit 1)
// with a message that names what is wrong.
func TestVerifyFairExportAndTamperedCopies(t *testing.T) {
	// A fixed server seed, so that the game (and which actions the cases
	// move) is the same at every run: swapping two identical actions (two
	// combat rounds of one player, say) changes nothing and rightly
	// verifies, so the cases must move actions that differ.
	good := playExport(t, "--mode", "fair", "--server-seed-hex", strings.Repeat("d1", 32), "--entropy", "a1b2c3,,00ff",
		"--players", "4", "--bots", "cautious,aggressive,aggressive,cautious")
	code, out, errs := verifyExport(t, good)
	require.Zero(t, code, errs)
	require.Regexp(t, `^ok: fair game bot-fair: \d+ actions replayed, \d+ events matched, \d+ draws recomputed, \d+ cards drawn as committed, \d+ shuffles opened\n$`, out)

	reveal := len(good.Log) - 1
	setReveal := func(x *export.Export, f func(*engine.Fairness)) {
		e := exporttest.Event(t, x, reveal)
		f(e.Fair)
		exporttest.SetEvent(x, reveal, e)
	}
	cases := []struct {
		name   string
		tamper func(x *export.Export)
		want   []string
	}{
		{"one dice value changed", func(x *export.Export) {
			i := exporttest.Find(t, x, engine.EvDiceRolled)
			e := exporttest.Event(t, x, i)
			e.Value = e.Value%e.Sides + 1
			exporttest.SetEvent(x, i, e)
		}, []string{"DiceRolled.value: expected", "event seq"}},
		{"two cards of a revealed order swapped", func(x *export.Export) {
			o := x.Fairness.Shuffles[2].Order
			o[1], o[4] = o[4], o[1]
		}, []string{"fairness.shuffles[2].order[1]: expected"}},
		{"a wrong server seed (export and log alike)", func(x *export.Export) {
			x.Fairness.ServerSeedHex = strings.Repeat("0", 64)
			setReveal(x, func(f *engine.Fairness) { f.ServerSeedHex = x.Fairness.ServerSeedHex })
		}, []string{"fairness.serverSeedHex", "does not open the commitment"}},
		{"a wrong server seed (export only)", func(x *export.Export) {
			x.Fairness.ServerSeedHex = strings.Repeat("1", 64)
		}, []string{"fairness.serverSeedHex", "not what the game revealed"}},
		{"one contribution changed (export and log alike)", func(x *export.Export) {
			x.Fairness.ContributionsHex[2] = "00fe"
			setReveal(x, func(f *engine.Fairness) { f.ContributionsHex[2] = "00fe" })
		}, []string{"fairness.gameSeedHex", "not SHA-256 of the server seed and the contributions"}},
		{"one contribution changed (in the join and everywhere)", func(x *export.Export) {
			x.Fairness.ContributionsHex[0] = "a1b2c4"
			setReveal(x, func(f *engine.Fairness) { f.ContributionsHex[0] = "a1b2c4" })
			for i := range x.Actions {
				if x.Actions[i].Kind == engine.ActJoin && x.Actions[i].Actor == "p1" {
					x.Actions[i].Entropy = "a1b2c4"
				}
			}
		}, []string{"fairness.gameSeedHex"}},
		{"an action dropped", func(x *export.Export) {
			x.Actions = append(x.Actions[:40], x.Actions[41:]...)
		}, []string{"at action 40", "rejected: stale_version", "dropped, moved"}},
		{"an action moved", func(x *export.Export) {
			a := x.Actions[30]
			copy(x.Actions[30:], x.Actions[31:36])
			x.Actions[35] = a
		}, []string{"at action 30", "rejected", "dropped, moved"}},
		{"an action moved, versions renumbered", func(x *export.Export) {
			x.Actions[30], x.Actions[31] = x.Actions[31], x.Actions[30]
			x.Actions[30].Version, x.Actions[31].Version = 30, 31
		}, []string{"at action 30"}},
		{"a ruleset number changed", func(x *export.Export) {
			x.Rules = []byte(strings.Replace(string(x.Rules), `"startHp":10`, `"startHp":9`, 1))
		}, []string{"rules: expected", "the ruleset was changed"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			x := clone(t, good)
			c.tamper(x)
			code, out, errs := verifyExport(t, x)
			require.Equal(t, 1, code, "stdout %s stderr %s", out, errs)
			require.Empty(t, out)
			require.Equal(t, 1, strings.Count(errs, "\n"), "one line: %s", errs)
			for _, w := range c.want {
				require.Contains(t, errs, w)
			}
			t.Log(strings.TrimSpace(errs))
		})
	}
}

// Seeded games replay from their revealed seed; crypto games are checked as
// far as they can be: their commitments open and the cards drawn follow the
// committed orders, but a changed die goes unseen (documented).
func TestVerifySeededAndCryptoExports(t *testing.T) {
	seeded := playExport(t, "--seed", "verify-1", "--players", "3")
	code, out, errs := verifyExport(t, seeded)
	require.Zero(t, code, errs)
	require.Contains(t, out, "ok: seeded game bot-verify-1")
	x := clone(t, seeded)
	x.Fairness.Seed = "verify-2"
	e := exporttest.Event(t, x, len(x.Log)-1)
	e.Fair.Seed = "verify-2"
	exporttest.SetEvent(x, len(x.Log)-1, e)
	code, _, errs = verifyExport(t, x)
	require.Equal(t, 1, code)
	require.Contains(t, errs, `actions[0].seed: expected "verify-2", found "verify-1"`)
	x.Actions[0].Seed = "verify-2"
	code, _, errs = verifyExport(t, x)
	require.Equal(t, 1, code)
	require.Contains(t, errs, "DeckShuffled.commitment", "another seed shuffles otherwise")

	crypto := playExport(t, "--mode", "crypto", "--players", "2")
	code, out, errs = verifyExport(t, crypto)
	require.Zero(t, code, errs)
	require.Contains(t, out, "ok as far as a crypto game can be checked")
	require.Contains(t, out, "cannot be recomputed")

	x = clone(t, crypto)
	o := x.Fairness.Shuffles[0].Order
	o[0], o[1] = o[1], o[0]
	code, _, errs = verifyExport(t, x)
	require.Equal(t, 1, code)
	require.Contains(t, errs, "fairness.shuffles[0]")
	require.Contains(t, errs, "not what DeckShuffled committed to")

	x = clone(t, crypto)
	i := exporttest.Find(t, x, engine.EvDiceRolled)
	e = exporttest.Event(t, x, i)
	e.Value = e.Value%e.Sides + 1
	exporttest.SetEvent(x, i, e)
	code, _, _ = verifyExport(t, x)
	require.Zero(t, code, "a crypto game's dice cannot be checked")
}

func TestVerifyBadInput(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string) string {
		p := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(p, []byte(content), 0o644))
		return p
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"verify"}, "give exactly one export file"},
		{[]string{"verify", "a", "b"}, "give exactly one export file"},
		{[]string{"verify", filepath.Join(dir, "missing.json")}, "cannot read the export"},
		{[]string{"verify", write("empty", "")}, "not a JSON object"},
		{[]string{"verify", write("array", "[1,2]")}, "not a JSON object"},
		{[]string{"verify", write("noformat", `{"mode":"fair"}`)}, `no "format" field`},
		{[]string{"verify", write("v2", `{"format":"fairboard-export/v2"}`)}, `format "fairboard-export/v2"`},
		{[]string{"verify", write("unknown", `{"format":"fairboard-export/v1","extra":1}`)}, `unknown field "extra"`},
		{[]string{"verify", write("mode", `{"format":"fairboard-export/v1","mode":"dice"}`)}, `mode "dice"`},
	} {
		code, _, errs := runCmd(c.args...)
		require.Equal(t, 2, code, "%v: %s", c.args, errs)
		require.Contains(t, errs, c.want)
	}
}

func TestPlayModeFlags(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"play"}, "--seed is required in seeded mode"},
		{[]string{"play", "--mode", "dice"}, `--mode "dice"`},
		{[]string{"play", "--mode", "fair", "--seed", "x"}, "--seed is for seeded games"},
		{[]string{"play", "--seed", "x", "--entropy", "00"}, "not seeded ones"},
		{[]string{"play", "--mode", "crypto", "--entropy", "00"}, "--entropy is for fair games only"},
		{[]string{"play", "--mode", "fair", "--server-seed-hex", "ABCD"}, "--server-seed-hex: fair: invalid input: a server seed is 64 hex digits"},
		{[]string{"play", "--mode", "fair", "--entropy", "00,zz"}, "--entropy: seat 1: fair: invalid input: entropy is not hex"},
		{[]string{"play", "--mode", "fair", "--players", "2", "--entropy", "00,01,02"}, "3 contributions for 2 players"},
		{[]string{"play", "--seed", "x", "--export", filepath.Join(t.TempDir(), "no", "dir.json")}, "--export"},
	} {
		code, _, errs := runCmd(c.args...)
		require.Equal(t, 2, code, "%v: %s", c.args, errs)
		require.Contains(t, errs, c.want)
	}
	// A given server seed makes the same fair game every time.
	seed := strings.Repeat("3c", 32)
	a := playExport(t, "--mode", "fair", "--server-seed-hex", seed, "--entropy", "01")
	b := playExport(t, "--mode", "fair", "--server-seed-hex", seed, "--entropy", "01")
	require.Equal(t, a.Log, b.Log)
	require.Equal(t, seed, a.Fairness.ServerSeedHex)
}

// gamectl serve's mux serves the verifier page at /verify/.
func TestServeMountsVerifyPage(t *testing.T) {
	srv := httptest.NewServer(mountVerifyPage(http.NewServeMux()))
	t.Cleanup(srv.Close)
	for path, want := range map[string]string{"/verify/": "text/html; charset=utf-8", "/verify/verify.wasm": "application/wasm"} {
		resp, err := http.Get(srv.URL + path)
		require.NoError(t, err)
		resp.Body.Close()
		require.Equal(t, http.StatusOK, resp.StatusCode, path)
		require.Equal(t, want, resp.Header.Get("Content-Type"), path)
	}
}

// --json and --audit-out work in fair and crypto modes as in seeded mode:
// the log is the export's, the audit (server side) keeps the head preview
// that the log does not show.
func TestPlayFairJSONAndAudit(t *testing.T) {
	for _, mode := range []string{"fair", "crypto"} {
		dir := t.TempDir()
		auditPath, exportPath := filepath.Join(dir, "audit.jsonl"), filepath.Join(dir, "x.json")
		code, out, errs := runCmd("play", "--mode", mode, "--players", "2", "--json", "--audit-out", auditPath, "--export", exportPath)
		require.Zero(t, code, errs)
		lines := strings.Split(strings.TrimSpace(out), "\n")
		b, err := os.ReadFile(exportPath)
		require.NoError(t, err)
		x, err := export.Decode(b)
		require.NoError(t, err)
		require.Len(t, lines, len(x.Log))
		for i := range lines {
			require.JSONEq(t, string(x.Log[i]), lines[i])
		}
		require.NotContains(t, out, "headPreview")
		a, err := os.ReadFile(auditPath)
		require.NoError(t, err)
		require.Contains(t, string(a), `"headPreview":[`)
		require.Contains(t, strings.SplitN(string(a), "\n", 2)[0], `"tag":"deck.initShuffle.treasure.t1"`)
	}
}

// A trustless game's export, at its end and in the middle of a round,
// verifies with a summary that names the mode; a tampered copy is refused
// (exit 1), naming the kind of tampering.
func TestVerifyTrustlessExport(t *testing.T) {
	good, _ := bottest.Trustless(t, "tl-cli", 3, nil)
	code, out, errs := verifyExport(t, good)
	require.Zero(t, code, errs)
	require.Regexp(t, `^ok: trustless game tl-cli: \d+ actions replayed, \d+ events matched, \d+ rounds of 3 seats closed, \d+ links checked against their chains, \d+ signatures verified, \d+ draws recomputed from the rounds' streams, \d+ cards drawn from the public piles\n$`, out)

	mid, _ := bottest.Trustless(t, "tl-mid", 3, func(g *engine.Game) bool {
		pd := g.Public.Trustless.Pending
		return pd != nil && pd.Index == 12 && len(pd.Reveals) == 1
	})
	code, out, errs = verifyExport(t, mid)
	require.Zero(t, code, errs)
	require.Contains(t, out, "; round 12 is open (its links stay secret until it closes)\n")

	bad := clone(t, good)
	i := exporttest.Find(t, bad, engine.EvDiceRolled)
	e := exporttest.Event(t, bad, i)
	e.Value = e.Value%e.Sides + 1
	exporttest.SetEvent(bad, i, e)
	code, _, errs = verifyExport(t, bad)
	require.Equal(t, 1, code)
	require.Contains(t, errs, "DiceRolled.value: expected")
	require.Contains(t, errs, "(a draw that is not the stream's: ")
}
