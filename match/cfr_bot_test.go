package match_test

import (
	"context"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/games/kuhn"
	"github.com/fairboard/fairboard/games/pig"
	"github.com/fairboard/fairboard/match"
	"github.com/fairboard/fairboard/rng"
)

// writeKuhnStrategy solves Kuhn for iterations and writes the strategy
// file to a new directory, returning it and the solution.
func writeKuhnStrategy(t *testing.T, iterations int) (string, *match.Solution) {
	t.Helper()
	sol, err := match.SolveCFR(kuhn.Def, nil, 2, iterations)
	require.NoError(t, err)
	dir := t.TempDir()
	f, err := os.Create(filepath.Join(dir, match.StrategyFileName))
	require.NoError(t, err)
	require.NoError(t, match.WriteStrategy(f, sol, kuhn.Def.DefaultRuleset()))
	require.NoError(t, f.Close())
	return dir, sol
}

// The bot cfr:DIR plays the strategy written: its table is the
// solution's, its exact evaluation the solution's, and in simulation
// against the random bot its mean payoff agrees with the exact value of
// that pair (EvaluatePolicy, a second way to the same figure).
func TestCFRBotRoundTrip(t *testing.T) {
	dir, sol := writeKuhnStrategy(t, 500)
	name := "cfr:" + dir
	require.NoError(t, match.CheckBot(kuhn.Def, name))
	s, _ := rng.NewSeeded("cfr")
	b, err := match.NewBot(kuhn.Def, name, s)
	require.NoError(t, err)
	require.Equal(t, name, b.Name())
	tb, ok := b.(match.TableBot)
	require.True(t, ok)
	for _, is := range sol.Infos {
		p, err := tb.Probs(is.Seat, is.Key, is.Moves)
		require.NoError(t, err)
		require.InDeltaSlice(t, is.Probs, p, 1e-15, is.Key)
	}
	bv, err := match.EvaluateBots(kuhn.Def, nil, [2]match.Bot{b, b}, 0, nil)
	require.NoError(t, err)
	require.Zero(t, bv.Sampled)
	require.InDelta(t, sol.Value[0], bv.Value[0], 1e-12)
	require.InDelta(t, sol.Exploitability, bv.Exploitability, 1e-12)

	// cfr:DIR in seat 0, random in seat 1: the exact value, then the
	// simulation's mean payoff within 4 standard errors of it.
	exact, err := match.EvaluatePolicy(kuhn.Def, nil, 2, func(seat int, key string, legal []game.Move) ([]float64, error) {
		if seat == 0 {
			return tb.Probs(seat, key, legal)
		}
		return match.UniformPolicy(seat, key, legal)
	})
	require.NoError(t, err)
	const games = 20000
	res, err := match.Simulate(context.Background(), match.SimConfig{Def: kuhn.Def, Games: games, Seed: "cfr-sim", Seats: 2,
		Bots: []string{name, "random"}, Workers: 2})
	require.NoError(t, err)
	require.Equal(t, int64(games), res.Games, res.Failures)
	mean := res.Payoff[0] / games // position 1 is seat 0
	const se = 2.0 / 141          // payoffs within ±2: sd <= 2, over sqrt(20000)
	t.Logf("cfr vs random: exact %.5f, simulated %.5f", exact.Value[0], mean)
	require.InDelta(t, exact.Value[0], mean, 4*se)

	m, names, err := match.Play(kuhn.Def, match.PlayConfig{Config: match.Config{Mode: rng.ModeSeeded, Seed: "one", Seats: make([]game.Seat, 2)},
		Bots: []string{name}})
	require.NoError(t, err)
	require.True(t, m.Over())
	require.Equal(t, []string{name, name}, names)
}

// mutateStrategy writes dir's strategy file changed by f (on its JSON
// as maps) to a new directory.
func mutateStrategy(t *testing.T, dir string, f func(m map[string]any)) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, match.StrategyFileName))
	require.NoError(t, err)
	var m map[string]any
	require.NoError(t, json.Unmarshal(b, &m))
	f(m)
	out := t.TempDir()
	b, err = json.Marshal(m)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(out, match.StrategyFileName), b, 0o644))
	return out
}

// infoAt returns the file's entry of seat at key.
func infoAt(m map[string]any, seat int, key string) map[string]any {
	for _, x := range m["infos"].([]any) {
		is := x.(map[string]any)
		if is["seat"].(float64) == float64(seat) && is["key"] == key {
			return is
		}
	}
	panic("no " + key)
}

// A strategy file for another game or ruleset, or not a strategy, is
// refused at load with its file and problem named; the file unchanged
// (the positive control) loads.
func TestCFRBotRefusesBadFiles(t *testing.T) {
	dir, _ := writeKuhnStrategy(t, 50)
	require.NoError(t, match.CheckBotRules(kuhn.Def, nil, "cfr:"+mutateStrategy(t, dir, func(map[string]any) {})))
	notJSON := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(notJSON, match.StrategyFileName), []byte("value -0.05 exploitability 0.01\n"), 0o644))
	for _, c := range []struct {
		name string
		dir  string
		want string
	}{
		{"no directory", filepath.Join(dir, "missing"), "strategy " + filepath.Join(dir, "missing", match.StrategyFileName) + ": stat"},
		{"not JSON", notJSON, "not a strategy file"},
		{"another format", mutateStrategy(t, dir, func(m map[string]any) { m["format"] = "other" }), `format "other", want "fairboard-cfr-strategy"`},
		{"a later version", mutateStrategy(t, dir, func(m map[string]any) { m["version"] = 2 }), "version 2; this build reads version 1"},
		{"an unknown field", mutateStrategy(t, dir, func(m map[string]any) { m["extra"] = 1 }), `unknown field "extra"`},
		{"another game", mutateStrategy(t, dir, func(m map[string]any) { m["game"] = "pig" }), "is for the game pig, not kuhn"},
		{"another ruleset", mutateStrategy(t, dir, func(m map[string]any) { m["rulesHash"] = "abc" }), "was solved under the ruleset abc, not this game's " + kuhn.Def.DefaultRuleset().Hash()},
		{"a seat 2", mutateStrategy(t, dir, func(m map[string]any) { infoAt(m, 1, "Kb")["seat"] = 2 }), `seat 2 at "Kb": want 0 or 1`},
		{"a key twice", mutateStrategy(t, dir, func(m map[string]any) { infoAt(m, 1, "Kb")["key"] = "Qb" }), `seat 1's key "Qb" twice`},
		{"a bad sum", mutateStrategy(t, dir, func(m map[string]any) { infoAt(m, 0, "K")["probs"] = []float64{0.5, 0.6} }), `seat 0 at "K": the probabilities [0.5 0.6] sum to 1.1, not 1`},
		{"a negative probability", mutateStrategy(t, dir, func(m map[string]any) { infoAt(m, 0, "K")["probs"] = []float64{1.5, -0.5} }), "probability 1 is -0.5"},
		{"a move kind", mutateStrategy(t, dir, func(m map[string]any) {
			infoAt(m, 0, "K")["moves"].([]any)[0].(map[string]any)["kind"] = "fold"
		}), `seat 0 at "K": kuhn has no move kind "fold"`},
	} {
		t.Run(c.name, func(t *testing.T) {
			name := "cfr:" + c.dir
			err := match.CheckBotRules(kuhn.Def, nil, name)
			require.ErrorContains(t, err, "bot "+name+": strategy ")
			require.ErrorContains(t, err, c.want)
			s, _ := rng.NewSeeded("x")
			_, err = match.NewBot(kuhn.Def, name, s)
			require.ErrorContains(t, err, c.want)
			_, _, err = match.Play(kuhn.Def, match.PlayConfig{Config: match.Config{Mode: rng.ModeSeeded, Seed: "x", Seats: make([]game.Seat, 2)}, Bots: []string{name}})
			require.ErrorContains(t, err, c.want)
		})
	}
	// Kuhn's file for Pig: another game, by name.
	require.ErrorContains(t, match.CheckBot(pig.Def, "cfr:"+dir), "is for the game kuhn, not pig")
	for _, bad := range []string{"cfr", "cfr:"} {
		require.ErrorContains(t, match.CheckBot(kuhn.Def, bad), `the strategy bot is cfr:DIR`)
	}
	_, err := match.NewBot(kuhn.Def, "cfr:"+dir, nil)
	require.ErrorContains(t, err, "the strategy bot needs a stream")
}

// An information state absent from the table stops the game at play with
// the state named (no fallback), and the exact evaluation too.
func TestCFRBotAbsentState(t *testing.T) {
	dir, _ := writeKuhnStrategy(t, 50)
	gone := mutateStrategy(t, dir, func(m map[string]any) {
		var kept []any
		for _, x := range m["infos"].([]any) {
			if x.(map[string]any)["seat"].(float64) != 0 || len(x.(map[string]any)["key"].(string)) != 1 {
				kept = append(kept, x)
			}
		}
		m["infos"] = kept
	})
	name := "cfr:" + gone
	_, _, err := match.Play(kuhn.Def, match.PlayConfig{Config: match.Config{Mode: rng.ModeSeeded, Seed: "x", Seats: make([]game.Seat, 2)}, Bots: []string{name}})
	require.ErrorContains(t, err, "move 1: bot "+name+": seat 0's information state \"")
	require.ErrorContains(t, err, "is not in "+filepath.Join(gone, match.StrategyFileName))
	s, _ := rng.NewSeeded("x")
	b, err := match.NewBot(kuhn.Def, name, s)
	require.NoError(t, err)
	_, err = match.EvaluateBots(kuhn.Def, nil, [2]match.Bot{b, b}, 0, nil)
	require.ErrorContains(t, err, "is not in")
	// The positive control: the whole file plays.
	_, _, err = match.Play(kuhn.Def, match.PlayConfig{Config: match.Config{Mode: rng.ModeSeeded, Seed: "x", Seats: make([]game.Seat, 2)}, Bots: []string{"cfr:" + dir}})
	require.NoError(t, err)
}

// A bot without a table is asked at every information set; a bot that
// always bets, asked any number of times, has always-bet's figures
// (TestEvaluatePolicyKuhnAlwaysBet) with no sampling error, and the
// search bot's figures come with a standard error.
func TestEvaluateBotsSampled(t *testing.T) {
	always := alwaysBet{}
	bv, err := match.EvaluateBots(kuhn.Def, nil, [2]match.Bot{always, always}, 7, mustStream(t, "bootstrap"))
	require.NoError(t, err)
	require.Equal(t, 12, bv.Sampled)
	require.Equal(t, 7, bv.Samples)
	require.InDelta(t, 1.0/3, bv.Exploitability, 1e-12)
	require.Zero(t, bv.ExploitabilitySE)
	require.Zero(t, bv.ValueSE)

	m0, m1 := match.NewMCTS(20, mustStream(t, "m0")), match.NewMCTS(20, mustStream(t, "m1"))
	bv, err = match.EvaluateBots(kuhn.Def, nil, [2]match.Bot{m0, m1}, 30, mustStream(t, "bootstrap"))
	require.NoError(t, err)
	require.Equal(t, 12, bv.Sampled)
	require.Greater(t, bv.ExploitabilitySE, 0.0)
	require.False(t, math.IsNaN(bv.ValueSE))
	t.Logf("mcts:20: value %.4f ± %.4f, exploitability %.4f ± %.4f", bv.Value[0], bv.ValueSE, bv.Exploitability, bv.ExploitabilitySE)

	_, err = match.EvaluateBots(kuhn.Def, nil, [2]match.Bot{m0, m1}, 0, mustStream(t, "b"))
	require.ErrorContains(t, err, "want 1 to 100000 samples a set (not 0)")
}

type alwaysBet struct{}

func (alwaysBet) Name() string { return "always-bet" }
func (alwaysBet) Choose(_ game.State, _ int, legal []game.Move) game.Move {
	for _, m := range legal {
		if m.Kind == kuhn.KindBet {
			return m
		}
	}
	return legal[0]
}

func mustStream(t *testing.T, seed string) *rng.Stream {
	s, err := rng.NewSeeded(seed)
	require.NoError(t, err)
	return s
}
