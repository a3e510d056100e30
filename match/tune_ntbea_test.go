package match_test

import (
	"bytes"
	"context"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/games/pig"
	"github.com/fairboard/fairboard/match"
)

// unfairPig is Pig at goal 1 with a d6: the first seat wins 6/7 of the
// random bots' games (its first roll wins unless it is a 1).
func unfairPig(t *testing.T) game.Ruleset {
	t.Helper()
	r, err := game.WithNumber(pig.Definition{}, pig.Definition{}.DefaultRuleset(), "goal", 1)
	require.NoError(t, err)
	return r
}

func ntbeaPig(t *testing.T, budget, workers int) *match.NTBEARun {
	t.Helper()
	sc := pigSim(400, "ntbea", workers)
	sc.Rules = unfairPig(t)
	st, err := match.NewNTBEA(match.TuneConfig{Sim: sc, Params: []match.TuneParam{{Path: "goal", Lo: 1, Hi: 30}, {Path: "dieSides", Lo: 2, Hi: 10}}}, budget)
	require.NoError(t, err)
	return st
}

func report(st *match.NTBEARun) string {
	var b bytes.Buffer
	st.WriteReport(&b)
	return b.String()
}

// From Pig at goal 1 (the first seat's exact edge +35.7 points), NTBEA
// over goal and the die's sides (a grid of 16 x 9 points, too large to
// play whole within the budget) finds a ruleset whose exact edge (the
// test's solver, from the rules alone) is under 3 points, and its
// confirmation on fresh seeds agrees with that exact value. The run does
// not depend on the workers, and a run saved after two generations and
// resumed ends exactly as the run never stopped.
func TestNTBEAPigFromAnUnfairStart(t *testing.T) {
	st := ntbeaPig(t, 48, 2)
	require.Equal(t, match.NTBEAPlan{Batch: 8, Generations: 6, Grid: 144}, st.Plan)
	require.Equal(t, []float64{1, 3, 5, 7, 9, 11, 13, 15, 16, 18, 20, 22, 24, 26, 28, 30}, st.Params[0].Values, "16 values, by hand")
	require.NoError(t, st.Run(context.Background(), 0, nil))
	text := report(st)
	t.Log("\n" + text)
	require.True(t, st.Done())
	start := randomPigFirst(1, 6) - 0.5
	require.InDelta(t, 6.0/7-0.5, start, 1e-9)
	chosen := st.Candidates[st.Chosen].Values
	exact := randomPigFirst(int(chosen[0]), int(chosen[1]))
	t.Logf("chosen goal %g sides %g: exact first-seat rate %.4f", chosen[0], chosen[1], exact)
	require.Less(t, math.Abs(exact-0.5), 0.03)
	c := st.Confirm
	require.Equal(t, "ntbea/confirm", c.Seed)
	require.Equal(t, int64(400), c.Games)
	se := math.Sqrt(exact * (1 - exact) / float64(c.Games))
	require.InDelta(t, exact, float64(c.Wins[0])/float64(c.Games), 4*se, "the confirmation agrees with the exact rate")
	require.Len(t, st.History, 6)
	require.Len(t, st.Fitness, 48)
	for g, h := range st.History {
		require.Len(t, h.Candidates, 8)
		require.Equal(t, g+1, h.Number)
	}
	evals := 0
	for _, c := range st.Candidates {
		evals += len(c.Evals)
		if c.Pooled == nil {
			require.Empty(t, c.Evals)
			continue
		}
		// Every evaluation's games pooled: one winner a game.
		require.Equal(t, int64(400*len(c.Evals)), c.Pooled.Games)
		require.Equal(t, c.Pooled.Games, c.Pooled.Wins[0]+c.Pooled.Wins[1])
		require.Equal(t, st.Seed+"/gen"+strconv.Itoa(c.FirstGen), c.Pooled.Seed, "its first evaluation's seed")
	}
	require.Equal(t, 48, evals, "the budget, spent")

	again := ntbeaPig(t, 48, 1)
	require.NoError(t, again.Run(context.Background(), 0, nil))
	a, err := st.JSON()
	require.NoError(t, err)
	b, err := again.JSON()
	require.NoError(t, err)
	require.Equal(t, string(a), string(b), "one worker or two")
	require.Equal(t, text, report(again))

	part := ntbeaPig(t, 48, 2)
	var saved []byte
	require.NoError(t, part.Run(context.Background(), 2, func(r *match.NTBEARun) error {
		saved, err = r.JSON()
		return err
	}))
	require.Contains(t, report(part), "stopped after generation 2 of 6")
	resumed, err := match.ResumeNTBEA(saved, ntbeaPig(t, 48, 1))
	require.NoError(t, err)
	require.NoError(t, resumed.Run(context.Background(), 0, nil))
	b, err = resumed.JSON()
	require.NoError(t, err)
	require.Equal(t, string(a), string(b), "stopped and resumed")

	_, err = match.ResumeNTBEA(saved, ntbeaPig(t, 56, 1))
	require.ErrorContains(t, err, "another tuning run: a budget of 56, the run's is 48")
	bad := strings.Replace(string(saved), `"number": 2`, `"number": 5`, 1)
	require.NotEqual(t, string(saved), bad)
	_, err = match.ResumeNTBEA([]byte(bad), ntbeaPig(t, 48, 1))
	require.ErrorContains(t, err, "does not hold together")
	_, err = match.ResumeNTBEA([]byte(`{"format":"x"}`), ntbeaPig(t, 48, 1))
	require.ErrorContains(t, err, `format "x"`)
}

// A grid small enough is played whole first: goal 1 to 4 with a d6, four
// points, the first generation plays them all.
func TestNTBEAExhaustive(t *testing.T) {
	sc := pigSim(200, "ntbea-small", 2)
	st, err := match.NewNTBEA(match.TuneConfig{Sim: sc, Params: []match.TuneParam{{Path: "goal", Lo: 1, Hi: 4}}}, 16)
	require.NoError(t, err)
	require.Equal(t, match.NTBEAPlan{Batch: 4, Generations: 4, Exhaustive: true, Grid: 4}, st.Plan)
	require.NoError(t, st.Run(context.Background(), 1, nil))
	var goals []float64
	for _, c := range st.History[0].Candidates {
		goals = append(goals, st.Candidates[c].Values[0])
	}
	require.Equal(t, []float64{4, 1, 2, 3}, goals, "the base (goal 100 is out of range: its nearest, 4) first, then the grid in order")
}

func TestNTBEARefusals(t *testing.T) {
	goal := []match.TuneParam{{Path: "goal", Lo: 10, Hi: 40}}
	for _, c := range []struct {
		cfg    match.TuneConfig
		budget int
		want   string
	}{
		{match.TuneConfig{Sim: pigSim(10, "s", 1)}, 0, "needs at least one number (of goal, dieSides)"},
		{match.TuneConfig{Sim: pigSim(10, "s", 1), Params: goal, Levels: 3}, 0, "levels are the grid search's"},
		{match.TuneConfig{Sim: pigSim(10, "s", 1), Params: goal, Target: 2}, 0, "target band must be above 0 and below 1"},
		{match.TuneConfig{Sim: pigSim(10, "s", 1), Params: []match.TuneParam{{Path: "speed"}}}, 0, "known: goal, dieSides"},
		{match.TuneConfig{Sim: pigSim(10, "s", 1), Params: []match.TuneParam{{Path: "goal", Lo: 5, Hi: 5}}}, 0, "goal: the range 5:5 holds one value: nothing to tune"},
		{match.TuneConfig{Sim: pigSim(10, "s", 1), Params: []match.TuneParam{{Path: "goal", Lo: 5, Hi: 9.5}}}, 0, "this number is whole; give a whole range"},
		{match.TuneConfig{Sim: pigSim(10, "s", 1), Params: goal}, 15, "a budget of 15 evaluations is too small: NTBEA needs at least 16"},
		{match.TuneConfig{Sim: pigSim(10, "s", 1), Params: []match.TuneParam{{Path: "goal", Lo: 1, Hi: 2}}}, 3, "needs at least 4 (two generations of 2 candidates)"},
		{match.TuneConfig{Sim: pigSim(10, "s", 1), Params: goal}, -8, "a budget of -8 evaluations is too small"},
		{match.TuneConfig{Sim: pigSim(0, "s", 1), Params: goal}, 0, "a simulation needs games >= 1"},
		{match.TuneConfig{Sim: match.SimConfig{Def: pig.Definition{}, Games: 10, Seed: "s", Seats: 7, Bots: []string{"random"}, Workers: 1}, Params: goal}, 0, "pig takes 2 to 6 seats, not 7"},
	} {
		_, err := match.NewNTBEA(c.cfg, c.budget)
		require.ErrorContains(t, err, c.want)
	}
}
