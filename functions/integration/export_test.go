package integration

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/functest"
	"github.com/fairboard/fairboard/games/dungeon/engine"
	"github.com/fairboard/fairboard/games/dungeon/server/export"
	"github.com/fairboard/fairboard/games/dungeon/server/export/exporttest"
	"github.com/fairboard/fairboard/games/dungeon/server/service"
)

// answer is the whole callable answer (status, message, details or
// result) of a call, as JSON, for comparing two answers.
func answer(t *testing.T, e *env, fn, tok string, data map[string]any) string {
	t.Helper()
	body, err := json.Marshal(map[string]any{"data": data})
	require.NoError(t, err)
	a, err := e.c.Raw(context.Background(), fn, tok, body)
	require.NoError(t, err)
	b, err := json.Marshal(a)
	require.NoError(t, err)
	return string(b)
}

// code returns a callable error's status and details.code.
func code(err error) (string, string) {
	var fe *functest.Error
	if !errors.As(err, &fe) {
		return "", ""
	}
	c, _ := fe.Details["code"].(string)
	return fe.Status, c
}

// gamectlVerify writes the export and runs the built `gamectl verify` on
// it: exit code, stdout, stderr.
func gamectlVerify(t *testing.T, b []byte) (int, string, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "export.json")
	require.NoError(t, os.WriteFile(path, b, 0o644))
	cmd := exec.Command(gamectl(t), "verify", path)
	var out, errs strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &errs
	err := cmd.Run()
	var exit *exec.ExitError
	switch {
	case err == nil:
		return 0, out.String(), errs.String()
	case errors.As(err, &exit):
		return exit.ExitCode(), out.String(), errs.String()
	}
	t.Fatal(err)
	return -1, "", ""
}

// TestFairGameExportedAndVerified (issue 9, section 3): a whole fair game
// with player entropy through the functions and both emulators (create,
// joins and start without action ids), exported with exportGame by a
// seated player and verified by the export package and by the built
// `gamectl verify`; then copies with one dice value changed, two cards of
// a revealed order swapped, a wrong server seed, one contribution changed,
// an action dropped, an action moved and a ruleset number changed are
// each refused, naming what is wrong. Before the end, exportGame and
// getShuffle refuse the players (not finished) and strangers (as a game
// that does not exist).
func TestFairGameExportedAndVerified(t *testing.T) {
	e := newEnv(t, nil)
	ctx := context.Background()
	ps := players(t, 4)
	stranger := token(t, "stranger")
	const id = "fair-export"
	checkedEarly := false
	g := functest.Game{ID: id, Mode: "fair", Anonymous: true,
		Entropy: []string{"9f86d081884c7d65", "", "0123456789abcdef0123456789abcdef", strings.Repeat("ee", 64)},
		After: func(fn string, _ functest.Player, res json.RawMessage) error {
			var r functest.Result
			if err := json.Unmarshal(res, &r); err != nil || r.Version != 12 {
				return err
			}
			checkedEarly = true
			for _, call := range []struct {
				fn   string
				data map[string]any
			}{{"exportGame", map[string]any{"gameId": id}}, {"getShuffle", map[string]any{"gameId": id}}} {
				st, c := code(e.c.Call(ctx, call.fn, ps[1].Token, call.data, nil))
				require.Equal(t, "FAILED_PRECONDITION", st, call.fn)
				require.Equal(t, "not_finished", c, call.fn)
				missing := map[string]any{"gameId": "no-such-game"}
				require.Equal(t, answer(t, e, call.fn, stranger, missing), answer(t, e, call.fn, stranger, call.data),
					"a stranger's %s of a game in play answers as for a missing game", call.fn)
			}
			return nil
		}}
	_, _, err := functest.Play(ctx, e.c, g, ps, eng.Rules())
	require.NoError(t, err)
	require.True(t, checkedEarly)

	var raw json.RawMessage
	require.NoError(t, e.c.Call(ctx, "exportGame", ps[2].Token, map[string]any{"gameId": id}, &raw))
	var owners json.RawMessage
	require.NoError(t, e.c.Call(ctx, "exportGame", ps[0].Token, map[string]any{"gameId": id}, &owners))
	require.JSONEq(t, string(raw), string(owners), "every member gets the same export")
	require.Equal(t, answer(t, e, "exportGame", stranger, map[string]any{"gameId": "no-such-game"}),
		answer(t, e, "exportGame", stranger, map[string]any{"gameId": id}), "a stranger's export answers as for a missing game")

	rep, err := export.Verify(raw)
	require.NoError(t, err)
	require.True(t, rep.Replayed)
	good, err := export.Decode(raw)
	require.NoError(t, err)
	require.Equal(t, rep.Actions, len(good.Actions))
	require.Equal(t, g.Entropy, good.Fairness.ContributionsHex)
	for i, a := range good.Actions[:6] {
		require.Equal(t, []engine.ActionKind{"create", "join", "join", "join", "join", "start"}[i], a.Kind)
	}
	ex, out, errs := gamectlVerify(t, raw)
	require.Zero(t, ex, "gamectl verify: %s %s", out, errs)
	require.Regexp(t, `^ok: fair game fair-export: \d+ actions replayed, \d+ events matched, \d+ draws recomputed, \d+ cards drawn as committed, \d+ shuffles opened\n$`, out)
	t.Log(strings.TrimSpace(out))

	// Tampered copies.
	// Two neighbouring actions that differ (moving identical ones would
	// change nothing, and rightly verify).
	moved := -1
	for k := 10; k < len(good.Actions)-1; k++ {
		a, b := good.Actions[k], good.Actions[k+1]
		if a.Kind != b.Kind || a.Actor != b.Actor {
			moved = k
			break
		}
	}
	require.Positive(t, moved)
	mid := len(good.Actions) / 2
	cases := []struct {
		name   string
		tamper func(x *export.Export)
		want   []string
	}{
		{"one dice value changed", func(x *export.Export) {
			i := exporttest.Find(t, x, engine.EvDiceRolled)
			ev := exporttest.Event(t, x, i)
			ev.Value = ev.Value%ev.Sides + 1
			exporttest.SetEvent(x, i, ev)
		}, []string{"DiceRolled.value: expected", "event seq"}},
		{"two cards of a revealed order swapped", func(x *export.Export) {
			o := x.Fairness.Shuffles[3].Order
			o[0], o[2] = o[2], o[0]
		}, []string{"fairness.shuffles[3].order[0]: expected"}},
		{"a wrong server seed", func(x *export.Export) {
			x.Fairness.ServerSeedHex = strings.Repeat("5a", 32)
		}, []string{"fairness.serverSeedHex"}},
		{"one contribution changed", func(x *export.Export) {
			x.Fairness.ContributionsHex[2] = "0123456789abcdef0123456789abcdee"
		}, []string{"fairness.contributionsHex"}},
		{"an action dropped", func(x *export.Export) {
			x.Actions = slices.Delete(x.Actions, mid, mid+1)
		}, []string{"at action " + strconv.Itoa(mid), "rejected", "dropped, moved"}},
		{"an action moved", func(x *export.Export) {
			x.Actions[moved], x.Actions[moved+1] = x.Actions[moved+1], x.Actions[moved]
		}, []string{"at action " + strconv.Itoa(moved), "rejected", "dropped, moved"}},
		{"a ruleset number changed", func(x *export.Export) {
			r := strings.Replace(string(x.Rules), `"startHp":10`, `"startHp":9`, 1)
			require.NotEqual(t, string(x.Rules), r)
			x.Rules = []byte(r)
		}, []string{"rules: expected", "the ruleset was changed"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			x, err := export.Decode(raw)
			require.NoError(t, err)
			c.tamper(x)
			b, err := x.Encode()
			require.NoError(t, err)
			_, err = export.Verify(b)
			var d *export.Divergence
			require.ErrorAs(t, err, &d)
			ex, out, errs := gamectlVerify(t, b)
			require.Equal(t, 1, ex, "stdout %s stderr %s", out, errs)
			for _, w := range c.want {
				require.Contains(t, err.Error(), w)
				require.Contains(t, errs, w)
			}
			t.Log(strings.TrimSpace(errs))
		})
	}

	// getShuffle gives the export's shuffles; the first, the t1 treasure
	// deck on a fresh stream, is chacha20-spec-v1 of the game seed, as
	// verifyShuffle confirms.
	var sh service.Shuffles
	require.NoError(t, e.c.Call(ctx, "getShuffle", ps[3].Token, map[string]any{"gameId": id}, &sh))
	require.Len(t, sh.Shuffles, len(good.Fairness.Shuffles))
	for i, s := range sh.Shuffles {
		xs := good.Fairness.Shuffles[i]
		require.Equal(t, []any{xs.DeckID, xs.Seq, xs.Order, xs.SaltHex}, []any{s.DeckID, s.Seq, s.Order, s.SaltHex})
		require.Equal(t, "chacha20-spec-v1", s.Algorithm)
		require.Equal(t, good.Fairness.GameSeedHex, s.SeedHex)
		require.True(t, s.Verifiable)
	}
	var one service.Shuffles
	require.NoError(t, e.c.Call(ctx, "getShuffle", ps[0].Token, map[string]any{"gameId": id, "deckId": "enemy.t1"}, &one))
	require.NotEmpty(t, one.Shuffles)
	for _, s := range one.Shuffles {
		require.Equal(t, "enemy.t1", s.DeckID)
	}
	first := sh.Shuffles[0]
	deck := eng.Rules().InitialDeck(engine.DeckTreasureT1)
	claimed := make([]string, len(first.Order))
	for i, c := range first.Order {
		claimed[i] = strconv.Itoa(slices.Index(deck, c))
	}
	var v struct {
		Valid   bool     `json:"valid"`
		Actual  []string `json:"actual_deck"`
		Matches bool     `json:"matches"`
	}
	require.NoError(t, e.c.Call(ctx, "verifyShuffle", ps[3].Token,
		map[string]any{"algorithm": "chacha20-spec-v1", "seed": first.SeedHex, "claimed_deck": claimed}, &v))
	require.True(t, v.Valid && v.Matches, "%v vs %v", claimed, v.Actual)
}
