package ntbea_test

import (
	"math"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/ntbea"
	"github.com/fairboard/fairboard/rng"
)

func TestKeys(t *testing.T) {
	require.Equal(t, []string{"0=4"}, ntbea.Keys([]int{4}))
	require.Equal(t, []string{"0=1", "1=0", "*=1,0"}, ntbea.Keys([]int{1, 0}))
	require.Equal(t, []string{"0=1", "1=2", "2=3", "0=1,1=2", "0=1,2=3", "1=2,2=3", "*=1,2,3"}, ntbea.Keys([]int{1, 2, 3}))
	// Nine dimensions: no pairs (36 of them would swamp the singles).
	require.Len(t, ntbea.Keys(make([]int, 9)), 10)
}

// UCB against the formula worked by hand: two evaluations, of (0,1) with
// fitness 2 and of (0,0) with fitness 4; their sample spread is sqrt(2).
func TestUCBByHand(t *testing.T) {
	tuples := map[string]*ntbea.Stat{}
	ntbea.Add(tuples, []int{0, 1}, 2)
	ntbea.Add(tuples, []int{0, 0}, 4)
	require.Equal(t, ntbea.Stat{N: 2, Sum: 6}, *tuples["0=0"])
	require.Equal(t, ntbea.Stat{N: 1, Sum: 2}, *tuples["*=0,1"])
	fitness := []float64{2, 4}
	// (0,1): tuple 0=0 seen twice (mean 3), 1=1 and *=0,1 once (mean 2).
	s, l := math.Sqrt(2), math.Log(3)
	want := (3 + s*math.Sqrt(l/2.5) + 2*(2+s*math.Sqrt(l/1.5))) / 3
	require.InDelta(t, want, ntbea.UCB(tuples, fitness, []int{0, 1}, 1), 1e-12)
	// (1,2): no tuple seen, mean 0; c = 0.5 halves the bonus.
	want = 0.5 * s * math.Sqrt(l/0.5)
	require.InDelta(t, want, ntbea.UCB(tuples, fitness, []int{1, 2}, 0.5), 1e-12)
	// One evaluation: the spread is 1; the spread is never below 1.
	require.InDelta(t, 3+math.Sqrt(math.Log(2)/2.5), ntbea.UCB(tuples, fitness[:1], []int{0}, 1), 1e-12)
	require.InDelta(t, 3+math.Sqrt(math.Log(3)/2.5), ntbea.UCB(tuples, []float64{3, 3.5}, []int{0}, 1), 1e-12)
}

// script returns a draw function that plays back the given values, each
// checked to lie in [0, n), and reports how many were drawn.
func script(t *testing.T, vs ...int) (func(n int) int, func() int) {
	i := 0
	return func(n int) int {
			require.Less(t, i, len(vs), "more draws than scripted")
			v := vs[i]
			require.True(t, v >= 0 && v < n, "draw %d: %d not in [0, %d)", i, v, n)
			i++
			return v
		}, func() int {
			return i
		}
}

func TestMutateByHand(t *testing.T) {
	sizes, cur := []int{5, 5}, []int{2, 2}
	for _, c := range []struct {
		draws []int
		want  []int
	}{
		// d0 stays (1); d1 moves (0), a step (0), down (0).
		{[]int{1, 0, 0, 0}, []int{2, 1}},
		// d0 moves (0), a jump (1) to the 3rd other value (2 -> 3, as
		// values at or above the current one shift up); d1 stays.
		{[]int{0, 1, 2, 1}, []int{3, 2}},
		// Nothing moves on the first pass; then d0 steps up, d1 stays.
		{[]int{1, 1, 0, 0, 1, 1}, []int{3, 2}},
		// A step down at the low end is held there.
		{[]int{0, 0, 0, 1}, []int{1, 2}},
	} {
		draw, n := script(t, c.draws...)
		require.Equal(t, c.want, ntbea.Mutate(draw, sizes, cur), "%v", c.draws)
		require.Equal(t, len(c.draws), n(), "%v: every draw used", c.draws)
	}
	require.Equal(t, []int{2, 2}, cur, "cur is not changed")
	draw, _ := script(t, 0, 0, 0)
	require.Equal(t, []int{0}, ntbea.Mutate(draw, []int{3}, []int{0}), "held at 0")
}

func TestGridByHand(t *testing.T) {
	require.Equal(t, []float64{1, 2, 3, 4, 5}, ntbea.Grid(1, 5, 3, 16, false, true))
	// Five points over 0..100; the base 37 replaces 25, its nearest.
	require.Equal(t, []float64{0, 37, 50, 75, 100}, ntbea.Grid(0, 100, 37, 5, false, true))
	require.Equal(t, []float64{0, 25, 50, 75, 100}, ntbea.Grid(0, 100, 200, 5, false, true), "a base out of range is not added")
	require.Equal(t, []float64{1, 10, 100}, ntbea.Grid(1, 100, 0, 3, true, true), "geometric")
	require.Equal(t, []float64{0, 0.25, 0.5, 0.75, 1}, ntbea.Grid(0, 1, 0.5, 5, true, false))
	require.Equal(t, []float64{0, 1}, ntbea.Grid(0, 1, 0, 5, true, true), "rounded, repeats dropped")
	require.Equal(t, 1, ntbea.Nearest([]float64{0, 2, 4}, 3), "ties: the first")
}

// space is a test search: a grid of points, an objective known by hand,
// and the evaluations made so far.
type space struct {
	sizes   []int
	points  [][]int
	sum     []float64
	n       []int
	refused func(idx []int) bool
}

func (s *space) Sizes() []int      { return s.sizes }
func (s *space) Len() int          { return len(s.points) }
func (s *space) Index(c int) []int { return s.points[c] }
func (s *space) Find(idx []int) int {
	return slices.IndexFunc(s.points, func(p []int) bool { return slices.Equal(p, idx) })
}

func (s *space) Candidate(idx []int) int {
	if c := s.Find(idx); c >= 0 {
		return c
	}
	s.points, s.sum, s.n = append(s.points, slices.Clone(idx)), append(s.sum, 0), append(s.n, 0)
	return len(s.points) - 1
}

func (s *space) Refused(idx []int) bool { return s.refused != nil && s.refused(idx) }
func (s *space) Allowed(c int) bool     { return !s.Refused(s.points[c]) }
func (s *space) Score(c int) (float64, bool) {
	if s.n[c] == 0 {
		return 0, false
	}
	return s.sum[c] / float64(s.n[c]), true
}

// The exhaustive order worked by hand on a 2x3 grid (points in Point's
// order: (0,0) (1,0) (0,1) (1,1) (0,2) (1,2)), with (0,1) refused.
func TestProposeExhaustive(t *testing.T) {
	sp := &space{sizes: []int{2, 3}, refused: func(idx []int) bool { return slices.Equal(idx, []int{0, 1}) }}
	cur := sp.Candidate([]int{1, 1})
	step := ntbea.Step{Current: cur, Batch: 4, Exhaustive: true, Grid: 6}
	gen := ntbea.Propose(sp, step)
	pts := func(cs []int) (out [][]int) {
		for _, c := range cs {
			out = append(out, sp.points[c])
		}
		return out
	}
	require.Equal(t, [][]int{{1, 1}, {0, 0}, {1, 0}, {0, 2}}, pts(gen))
	require.Equal(t, 4, sp.Len(), "no candidate made of a point not proposed: (1,2) waits")
	for _, c := range gen {
		p := sp.points[c]
		sp.sum[c], sp.n[c] = float64(p[0]+p[1]), 1 // objective x+y
	}
	gen = ntbea.Propose(sp, step)
	// The current one, the last point not played, then the played by
	// objective: (0,0) 0, (1,0) 1, ((1,1) and (0,2), 2: listed already).
	require.Equal(t, [][]int{{1, 1}, {1, 2}, {0, 0}, {1, 0}}, pts(gen))
}

// runSearch searches the 9x9 grid for the minimum of (x-6)^2 + (y-2)^2
// (0 at (6,2), by hand), evaluated with noise uniform over {-1, 0, 1}/2,
// from the far corner (0,8), for gens generations of 8 candidates. It
// returns the recommended point and every generation's candidates.
func runSearch(t *testing.T, seed string, gens int) ([]int, [][][]int) {
	s, err := rng.NewSeeded(seed)
	require.NoError(t, err)
	draw := func(n int) int {
		v, err := s.UniformInt(0, int64(n-1), "test.ntbea", nil)
		require.NoError(t, err)
		return int(v)
	}
	sp := &space{sizes: []int{9, 9}}
	tuples := map[string]*ntbea.Stat{}
	var fitness []float64
	cur := sp.Candidate([]int{0, 8})
	var history [][][]int
	for range gens {
		gen := ntbea.Propose(sp, ntbea.Step{Current: cur, Batch: 8, Tries: 64, C: 1, Draw: draw, Tuples: tuples, Fitness: fitness})
		require.Equal(t, cur, gen[0], "the current point is played again")
		var pts [][]int
		for _, c := range gen {
			p := sp.points[c]
			dx, dy := float64(p[0]-6), float64(p[1]-2)
			obj := dx*dx + dy*dy + float64(draw(3)-1)/2
			sp.sum[c] += obj
			sp.n[c]++
			fitness = append(fitness, -obj)
			ntbea.Add(tuples, p, -obj)
			pts = append(pts, p)
		}
		history = append(history, pts)
		cur = ntbea.Best(sp.Len(), cur, sp.Score)
	}
	return sp.points[cur], history
}

// NTBEA on a noisy objective whose optimum is known finds it, well within
// the 81 points of the grid (fewer than 81 evaluations); and the search
// is a function of its seed: the same seed, the same candidates.
func TestSearchFindsTheOptimum(t *testing.T) {
	best, history := runSearch(t, "ntbea-test", 10)
	t.Logf("generations: %v", history)
	require.Equal(t, []int{6, 2}, best)
	again, history2 := runSearch(t, "ntbea-test", 10)
	require.Equal(t, best, again)
	require.Equal(t, history, history2)
	_, other := runSearch(t, "another seed", 10)
	require.NotEqual(t, history, other, "the seed matters")
}
