package match_test

import (
	"bytes"
	"context"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/games/kuhn"
	"github.com/fairboard/fairboard/match"
)

// wilsonHalf is the half-width of the Wilson score 95% interval of k
// successes in n trials, from its formula (Wilson 1927; Agresti and Coull
// 1998): z sqrt(p(1-p)/n + z^2/(4n^2)) / (1 + z^2/n), z = 1.959964, written
// here apart from match.Wilson.
func wilsonHalf(k, n int64) float64 {
	const z = 1.959963984540054
	p, nf := float64(k)/float64(n), float64(n)
	return z * math.Sqrt(p*(1-p)/nf+z*z/(4*nf*nf)) / (1 + z*z/nf)
}

// widest is the largest Wilson half-width over the positions of r.
func widest(r *match.SimResult) float64 {
	w := 0.0
	for _, k := range r.Wins {
		w = math.Max(w, wilsonHalf(k, r.Games))
	}
	return w
}

// A run to a precision stops at the first batch of 2,000 games at which
// every position's Wilson half-width is within P: the half-widths of the
// games it played are, those of one batch fewer (a plain run of them) are
// not. It is the plain run of the games it decided on, whatever the
// workers.
func TestSimulatePreciseStopsAtTheFirstPreciseBatch(t *testing.T) {
	const p = 0.016 // 1.6 points: about 4,000 games at 52%
	var runs []*match.SimResult
	for _, w := range []int{1, 2} {
		r, err := match.SimulatePrecise(context.Background(), pigSim(40000, "precise", w), p)
		require.NoError(t, err)
		runs = append(runs, r)
	}
	require.Equal(t, runs[0], runs[1], "the same games whatever --workers")
	r := runs[0]
	n := r.Requested
	require.Equal(t, n, r.Games)
	require.EqualValues(t, 40000, r.MaxGames)
	require.Equal(t, p, r.Precision)
	require.Zero(t, n%match.PrecisionBatch)
	require.GreaterOrEqual(t, n, int64(2*match.PrecisionBatch), "a first batch too wide, else the test shows nothing")
	require.Less(t, n, int64(40000))
	require.LessOrEqual(t, widest(r), p)

	before, err := match.Simulate(context.Background(), pigSim(n-match.PrecisionBatch, "precise", 2))
	require.NoError(t, err)
	require.Greater(t, widest(before), p, "one batch fewer was not precise")

	plain, err := match.Simulate(context.Background(), pigSim(n, "precise", 1))
	require.NoError(t, err)
	plain.Precision, plain.MaxGames = p, 40000
	require.Equal(t, plain, r)

	var b bytes.Buffer
	r.WriteSummary(&b)
	require.Contains(t, b.String(), "\nprecision: played until every seat position's win rate's 95% interval was within +-1.6 pp, in batches of 2000 games (ceiling 40000 games): precise after ")
}

// The ceiling holds: a precision out of reach plays --games (here not a
// multiple of the batch) and says so.
func TestSimulatePreciseCeiling(t *testing.T) {
	r, err := match.SimulatePrecise(context.Background(), pigSim(3100, "ceiling", 2), 0.005)
	require.NoError(t, err)
	require.EqualValues(t, 3100, r.Games)
	require.EqualValues(t, 3100, r.Requested)
	require.EqualValues(t, 3100, r.MaxGames)
	require.Greater(t, widest(r), 0.005)
	require.False(t, r.Precise(0.005))
	var b bytes.Buffer
	r.WriteSummary(&b)
	require.Contains(t, b.String(), "(ceiling 3100 games): not precise at the ceiling, 3100 games\n")

	for _, bad := range []float64{0, -0.01, 1, math.NaN()} {
		_, err := match.SimulatePrecise(context.Background(), pigSim(10, "x", 1), bad)
		require.ErrorContains(t, err, "a precision is a half-width above 0 and below 1")
	}
}

// Kuhn poker is scored by payoff (chips): its positions' mean payoffs'
// normal intervals decide, 1.96 sample standard deviations over sqrt(n),
// computed here from players.csv's payoffs.
func TestSimulatePrecisePayoff(t *testing.T) {
	const p = 0.06
	cfg := match.SimConfig{Def: kuhn.Definition{}, Games: 40000, Seed: "precise-kuhn", Seats: 2, Bots: []string{"random"}, Workers: 2}
	var pl bytes.Buffer
	cfg.Players = &pl
	r, err := match.SimulatePrecise(context.Background(), cfg, p)
	require.NoError(t, err)
	require.True(t, r.ByPayoff)
	n := r.Requested
	require.Zero(t, n%match.PrecisionBatch)
	require.GreaterOrEqual(t, n, int64(2*match.PrecisionBatch))
	require.Less(t, n, int64(40000))

	// The payoffs by position, game by game, from players.csv.
	lines := strings.Split(strings.TrimSpace(pl.String()), "\n")
	head := strings.Split(lines[0], ",")
	col := func(name string) int {
		for i, h := range head {
			if h == name {
				return i
			}
		}
		t.Fatalf("no %s column", name)
		return -1
	}
	pc, yc := col("position"), col("payoff")
	pay := [2][]float64{}
	for _, l := range lines[1:] {
		f := strings.Split(l, ",")
		x, err := strconv.ParseFloat(f[yc], 64)
		require.NoError(t, err)
		pos := f[pc][0] - '1'
		pay[pos] = append(pay[pos], x)
	}
	half := func(xs []float64) float64 {
		m := 0.0
		for _, x := range xs {
			m += x
		}
		m /= float64(len(xs))
		v := 0.0
		for _, x := range xs {
			v += (x - m) * (x - m)
		}
		return 1.96 * math.Sqrt(v/float64(len(xs)-1)/float64(len(xs)))
	}
	at := func(k int64) float64 {
		return math.Max(half(pay[0][:k]), half(pay[1][:k]))
	}
	require.Len(t, pay[0], int(n))
	require.LessOrEqual(t, at(n), p)
	require.Greater(t, at(n-match.PrecisionBatch), p)
	for i, h := range r.HalfWidths() {
		require.InDelta(t, half(pay[i]), h, 1e-12)
	}
}

// A sweep (and a grid) to a precision stops each value on its own: every
// point is the run to that precision of its ruleset alone.
func TestSweepPreciseStopsEachValue(t *testing.T) {
	const p = 0.016
	s, err := match.SweepPrecise(context.Background(), match.SweepConfig{Sim: pigSim(20000, "sp", 2), Param: "goal", Values: []float64{1, 100}}, p)
	require.NoError(t, err)
	g, err := match.SweepGridPrecise(context.Background(), match.GridConfig{Sim: pigSim(20000, "sp", 1), Param: "goal", Values: []float64{1, 100},
		Param2: "dieSides", Values2: []float64{6}}, p)
	require.NoError(t, err)
	var games []int64
	for k, pt := range s.Points {
		cfg := pigSim(20000, "sp", 1)
		cfg.Rules = pt.Rules
		alone, err := match.SimulatePrecise(context.Background(), cfg, p)
		require.NoError(t, err)
		require.Equal(t, alone, pt.Result)
		require.Equal(t, alone, g.Points[k].Result)
		games = append(games, alone.Games)
	}
	t.Log("games decided on:", games)
	require.NotEqual(t, games[0], games[1], "goal 1 (first seat 6/7) is precise sooner than goal 100")
	var b bytes.Buffer
	s.WriteTable(&b)
	require.Contains(t, b.String(), "\nprecision: each value played until every seat position's win rate's 95% interval")
}
