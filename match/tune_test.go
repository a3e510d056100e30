package match_test

import (
	"bytes"
	"context"
	"math"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/games/pig"
	"github.com/fairboard/fairboard/match"
)

// The tuner over Pig's goal with random bots picks the goal whose exact
// first-seat edge (randomPigFirst, from the rules alone) is the smallest
// of the grid, confirms it on other seeds, and meets a band that holds
// the exact edge with room for the noise, not one that does not.
func TestTunePigGoal(t *testing.T) {
	exact := map[float64]float64{}
	for _, g := range []float64{10, 20, 30, 40} {
		exact[g] = math.Abs(randomPigFirst(int(g), 6) - 0.5)
	}
	t.Logf("exact edges: %v", exact)
	run := func(target float64, workers int) (*match.TuneResult, string) {
		res, err := match.Tune(context.Background(), match.TuneConfig{Sim: pigSim(3000, "tune", workers),
			Params: []match.TuneParam{{Path: "goal", Lo: 10, Hi: 40}}, Levels: 4, Target: target})
		require.NoError(t, err)
		var b bytes.Buffer
		res.WriteReport(&b)
		return res, b.String()
	}
	res, text := run(0.01, 2)
	t.Log("\n" + text)
	_, again := run(0.01, 1)
	require.Equal(t, text, again)
	require.Len(t, res.Candidates, 4)
	best := res.Candidates[0].Values[0]
	for g, e := range exact {
		require.LessOrEqual(t, exact[best], e, "goal %g is fairer than the tuner's %g", g, best)
	}
	require.Equal(t, `{"goal":40,"dieSides":6}`, res.Confirm.Rules)
	require.Equal(t, "tune/confirm", res.Confirm.Seed)
	require.Equal(t, "tune/search", res.Candidates[0].Result.Seed)
	// The exact edge at 40 is above 1 point: a 1-point band is not met.
	require.Greater(t, exact[40], 0.01)
	require.False(t, res.Met)
	require.Contains(t, text, "verdict: not met")
	// A band of the exact edge plus 3 points holds the 95% interval
	// (about +-1.8 points at 3000 games).
	res, text = run(exact[40]+0.03, 2)
	require.True(t, res.Met, text)
	require.Contains(t, text, "verdict: met")
}

func TestTuneScore(t *testing.T) {
	// Two seats, 100 games, 60 and 40 wins: edges +-0.1, each less its
	// noise 0.6*0.4/100.
	r := &match.SimResult{Seats: 2, Games: 100, Wins: []int64{60, 40}}
	require.InDelta(t, 2*(0.01-0.0024), match.TuneScore(r), 1e-12)
	// Its standard error's bound: per cell, the spread of the square of a
	// normal estimate of mean 0.1 and variance 0.0024, Var(X^2) = 4 mu^2
	// sigma^2 + 2 sigma^4; the two cells' squares are equal, so the bound
	// (their sum) is exact here.
	require.InDelta(t, 2*math.Sqrt(4*0.01*0.0024+2*0.0024*0.0024), match.TuneScoreSE(r), 1e-12)
	require.Equal(t, []float64{1, 3, 5}, match.TuneGrid(pig.Definition{}.Params()[0], 1, 5, 3))
	require.Equal(t, []float64{1, 2}, match.TuneGrid(pig.Definition{}.Params()[0], 1, 2, 5), "repeats dropped")
}

func TestTuneRefusals(t *testing.T) {
	for _, c := range []struct {
		cfg  match.TuneConfig
		want string
	}{
		{match.TuneConfig{Sim: pigSim(10, "s", 1)}, "needs at least one number (of goal, dieSides)"},
		{match.TuneConfig{Sim: pigSim(10, "s", 1), Params: []match.TuneParam{{Path: "speed"}}}, "known: goal, dieSides"},
		{match.TuneConfig{Sim: pigSim(10, "s", 1), Params: []match.TuneParam{{Path: "goal"}, {Path: "goal"}}}, "goal is listed twice"},
		{match.TuneConfig{Sim: pigSim(10, "s", 1), Params: []match.TuneParam{{Path: "goal", Lo: 0, Hi: 5}}}, "goal: the range 0:5 must lie within [1, 10000]"},
		{match.TuneConfig{Sim: pigSim(10, "s", 1), Params: []match.TuneParam{{Path: "goal", Lo: 9, Hi: 5}}}, "goal: the range 9:5"},
		{match.TuneConfig{Sim: pigSim(10, "s", 1), Params: []match.TuneParam{{Path: "goal"}}, Levels: -1}, "levels must be at least 1"},
		{match.TuneConfig{Sim: pigSim(10, "s", 1), Params: []match.TuneParam{{Path: "goal"}}, Target: 1}, "target band must be above 0 and below 1"},
		{match.TuneConfig{Sim: pigSim(10, "s", 1), Params: []match.TuneParam{{Path: "goal"}, {Path: "dieSides"}}, Levels: 15}, "more than 200 candidates"},
	} {
		_, err := match.Tune(context.Background(), c.cfg)
		require.ErrorContains(t, err, c.want)
	}
}
