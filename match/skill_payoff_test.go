package match_test

import (
	"context"
	"math"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/games/kuhn"
	"github.com/fairboard/fairboard/games/pig"
	"github.com/fairboard/fairboard/match"
)

// PayoffMean by hand: payoffs 0, 1, 2 at position 1 (sum 3, squares 5):
// mean 1, sample variance (5 - 3·1²)/2 = 1, half-width 1.96/sqrt(3).
func TestPayoffMeanByHand(t *testing.T) {
	r := &match.SimResult{Games: 3, Payoff: []float64{3, -3}, Payoff2: []float64{5, 5}}
	m, lo, hi := r.PayoffMean(0)
	require.InDelta(t, 1, m, 1e-12)
	require.InDelta(t, 1-1.96/math.Sqrt(3), lo, 1e-12)
	require.InDelta(t, 1+1.96/math.Sqrt(3), hi, 1e-12)
	require.InDelta(t, 0, r.FairPayoff(), 1e-12)
}

// payoffLevel is a level whose position 1 has the given mean payoff and
// standard deviation 1 over 10,000 games (position 2 its opposite).
func payoffLevel(mean float64) match.SkillLevel {
	const n = 10000
	sum2 := n * (1 + mean*mean) // the sample variance about 1
	return match.SkillLevel{Bots: []string{"b"}, Result: &match.SimResult{Games: n, Seats: 2, Wins: []int64{0, 0}, ByPayoff: true,
		Payoff: []float64{n * mean, -n * mean}, Payoff2: []float64{sum2, sum2}}}
}

// In a game scored by payoff the verdicts are read in mean payoff: an
// edge of 0.1 (ten standard errors of 0.01) is one, an edge of 0.001 is
// none, whatever the win counts say.
func TestPayoffVerdicts(t *testing.T) {
	for _, c := range []struct {
		means []float64
		want  string
	}{
		{[]float64{0.1, 0.1}, "holds"},
		{[]float64{0.1, 0.001}, "vanishes"},
		{[]float64{0.001, -0.1}, "appears"},
		{[]float64{0.001, 0.001}, "none"},
	} {
		r := &match.SkillResult{Def: "x"}
		for _, m := range c.means {
			r.Levels = append(r.Levels, payoffLevel(m))
		}
		require.Equal(t, c.want, r.EdgeVerdict(0), "%v", c.means)
	}
}

// By skill over Kuhn poker's levels random and the solver's strategy:
// each level's mean payoff for the first position agrees with the exact
// value of that pair (EvaluatePolicy: 1/8 for two uniform players; the
// solution's value, near -1/18, for its strategy against itself), within
// four standard errors; Kuhn is scored by payoff, Pig is not.
func TestBySkillBotsOnPoker(t *testing.T) {
	dir, sol := writeKuhnStrategy(t, 500)
	uniform, err := match.EvaluatePolicy(kuhn.Def, nil, 2, match.UniformPolicy)
	require.NoError(t, err)
	require.InDelta(t, 0.125, uniform.Value[0], 1e-12, "uniform Kuhn by hand: 1/8")
	cfg := match.SimConfig{Def: kuhn.Def, Games: 6000, Seed: "skill-poker", Seats: 2, Bots: []string{"random"}, Workers: 2}
	res, err := match.BySkillBots(context.Background(), cfg, []string{"random", "cfr:" + dir})
	require.NoError(t, err)
	require.Len(t, res.Levels, 3)
	for i, want := range []float64{uniform.Value[0], uniform.Value[0], sol.Value[0]} {
		r := res.Levels[i].Result
		require.True(t, r.ByPayoff)
		m, lo, hi := r.PayoffMean(0)
		se := (hi - lo) / 2 / 1.96
		require.InDelta(t, want, m, 4*se, "level %d (%v)", i, res.Levels[i].Bots)
	}
	_, err = match.BySkillBots(context.Background(), cfg, []string{"bluff"})
	require.ErrorContains(t, err, `skill level "bluff"`)
	_, err = match.BySkillBots(context.Background(), cfg, nil)
	require.Error(t, err)

	p, err := match.Simulate(context.Background(), match.SimConfig{Def: pig.Def, Games: 50, Seed: "skill-pig", Seats: 2, Bots: []string{"random"}, Workers: 1})
	require.NoError(t, err)
	require.False(t, p.ByPayoff, "Pig's payoff is its win")
}
