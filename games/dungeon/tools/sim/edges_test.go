package sim

import (
	"math"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/rng"
)

// drawGames draws n 4-player games (one seat per class) whose winner's
// class is drawn with the probabilities p (none if they sum below 1).
func drawGames(t *testing.T, s *rng.Stream, n int, p [numClasses]float64) []GameRecord {
	t.Helper()
	out := make([]GameRecord, n)
	for g := range out {
		out[g] = GameRecord{WinnerClass: -1, ClassSeats: [4]uint8{1, 1, 1, 1}}
		u := s.Float01(rng.TagTestOnly, nil)
		for c := range numClasses {
			if u < p[c] {
				out[g].WinnerClass = int8(c)
				break
			}
			u -= p[c]
		}
	}
	return out
}

// The noise-corrected objective is unbiased: over many runs of 200 games
// from known class win probabilities, its mean is the true sum of squared
// edges (computed by hand), where the raw sum of squared estimated edges
// exceeds it by the sampling variance (also by hand: Σ p(1−p)/n less the
// fair share's share). And the delta method's variance of an edge matches
// the edges' spread across the runs.
func TestObjectiveIsUnbiased(t *testing.T) {
	s, err := rng.NewSeeded("objective")
	require.NoError(t, err)
	p := [numClasses]float64{0.40, 0.25, 0.20, 0.15} // every game has a winner: fair share 0.25
	const truth = 0.0225 + 0 + 0.0025 + 0.01         // Σ (p − 0.25)²
	const runs, n = 6000, 200
	var corrected, raw, predicted float64
	var edges [numClasses]moments
	for range runs {
		m := momentsOf(drawGames(t, s, n, p), nil, 4)
		obj, lo, hi := m.Objective()
		require.Less(t, lo, obj)
		require.Greater(t, hi, obj)
		corrected += obj
		for c := range numClasses {
			e, v := m.Edge(c)
			raw += e * e
			predicted += v
			edges[c].add(e)
		}
	}
	corrected, raw, predicted = corrected/runs, raw/runs, predicted/runs/numClasses
	// The sampling variance the raw sum carries: with one winner a game, the
	// fair share is exactly 0.25 in every run, so Var(ê_c) = p(1−p)/n.
	bias := 0.0
	for c := range numClasses {
		bias += p[c] * (1 - p[c]) / n
	}
	t.Logf("truth %.5f, corrected mean %.5f, raw mean %.5f (bias %.5f by hand)", truth, corrected, raw, bias)
	require.InDelta(t, truth, corrected, 0.0006, "the corrected objective is unbiased")
	require.InDelta(t, truth+bias, raw, 0.0006, "the raw sum carries the sampling variance")
	for c := range numClasses {
		empirical := edges[c].variance()
		require.InDelta(t, p[c]*(1-p[c])/n, empirical, 0.1*empirical, "class %d: the edges' spread across runs", c)
	}
	require.InDelta(t, bias/numClasses, predicted, 0.05*predicted, "the delta method's variance, on average")
}

// With games without a winner the fair share moves with the sample; the
// edge's variance then counts it: the delta method's variance matches the
// spread across runs, computed here from the runs themselves.
func TestEdgeVarianceCountsTheFairShare(t *testing.T) {
	s, err := rng.NewSeeded("edge-variance")
	require.NoError(t, err)
	p := [numClasses]float64{0.30, 0.20, 0.20, 0.10} // 20% of games have no winner
	var e0 moments
	var v0 float64
	const runs = 3000
	for range runs {
		m := momentsOf(drawGames(t, s, 300, p), nil, 4)
		e, v := m.Edge(0)
		e0.add(e)
		v0 += v
		require.InDelta(t, m.Rate(0)-m.Fair(), e, 1e-12)
	}
	require.InDelta(t, 0.30-0.8/4, e0.mean, 0.003)
	require.InDelta(t, e0.variance(), v0/runs, 0.07*e0.variance())
	// Var(w0 − h/4) per game: w0 − h/4 is 3/4 w.p. 0.3, −1/4 w.p. 0.5, 0 w.p. 0.2.
	perGame := 0.3*0.75*0.75 + 0.5*0.0625 - math.Pow(0.3*0.75-0.5*0.25, 2)
	require.InDelta(t, perGame/300, v0/runs, 0.05*perGame/300, "by hand")
}

// Moments merged from two halves are the moments of the whole.
func TestClassMomentsMerge(t *testing.T) {
	s, err := rng.NewSeeded("merge")
	require.NoError(t, err)
	recs := drawGames(t, s, 500, [numClasses]float64{0.3, 0.3, 0.2, 0.2})
	recs[7].Failed = true
	whole := momentsOf(recs, nil, 4)
	a, b := momentsOf(recs[:200], nil, 4), momentsOf(recs[200:], nil, 4)
	a.Merge(b)
	require.Equal(t, whole, a)
	require.EqualValues(t, 499, whole.N, "a failed game is left out")
}
