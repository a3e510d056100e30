package ntbea_test

import (
	"math"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/ntbea"
)

// The edges of the package's definitions, each expected value worked by
// hand from the doc comments (and NTBEA's definition: Lucas, Liu and
// Perez-Liebana 2018).

// Pairs are kept up to 8 dimensions: 8 singles, 8*7/2 = 28 pairs and the
// whole point.
func TestKeysEightDimensions(t *testing.T) {
	keys := ntbea.Keys(make([]int, 8))
	require.Len(t, keys, 8+28+1)
	require.Equal(t, "0=0,1=0", keys[8])
	require.Equal(t, "6=0,7=0", keys[35])
}

// The spread is the sample standard deviation: fitness 0, 2, 4 has mean 2
// and squared deviations 4+0+4 over n-1 = 2, so a spread of 2. A point
// whose one tuple was never seen has mean 0 and n = 0, and E = 3.
func TestUCBThreeEvaluations(t *testing.T) {
	want := 2 * math.Sqrt(math.Log(4)/0.5)
	require.InDelta(t, want, ntbea.UCB(map[string]*ntbea.Stat{}, []float64{0, 2, 4}, []int{0}, 1), 1e-12)
}

// scriptN is script (ntbea_test.go) that also checks each draw's bound:
// draws lists (n, value) pairs, n the bound draw must be called with.
func scriptN(t *testing.T, draws ...[2]int) (func(n int) int, func() int) {
	i := 0
	return func(n int) int {
			require.Less(t, i, len(draws), "more draws than scripted")
			require.Equal(t, draws[i][0], n, "draw %d: bound", i)
			v := draws[i][1]
			i++
			return v
		}, func() int {
			return i
		}
}

func TestMutateBounds(t *testing.T) {
	for _, c := range []struct {
		name       string
		sizes, cur []int
		draws      [][2]int
		want       []int
	}{
		// One dimension always moves (draw(1) is 0); a step (0) up (1)
		// from the top value 2 of 3 is held there.
		{"held at the top", []int{3}, []int{2}, [][2]int{{1, 0}, {2, 0}, {2, 1}}, []int{2}},
		// d0 moves (0) with a jump (1) among its 4 other values: the 3rd
		// (index 2) of 0, 1, 3, 4 is 3; d1 stays (1).
		{"a jump draws among the other values", []int{5, 5}, []int{2, 2}, [][2]int{{2, 0}, {2, 1}, {4, 2}, {2, 1}}, []int{3, 2}},
		// d0 has one value: a jump has nowhere to go and draws nothing;
		// d1 stays. The point is unchanged, but a dimension did move.
		{"a jump in a dimension of one value", []int{1, 3}, []int{0, 1}, [][2]int{{2, 0}, {2, 1}, {2, 1}}, []int{0, 1}},
	} {
		draw, n := scriptN(t, c.draws...)
		require.Equal(t, c.want, ntbea.Mutate(draw, c.sizes, c.cur), c.name)
		require.Equal(t, len(c.draws), n(), "%s: every draw used", c.name)
	}
}

// Neighbours on one dimension of 5 values from 2 (each draw(1) is 0: the
// dimension always moves), scored by a table: the distinct mutants not
// skipped, best first, ties in the order drawn, each scored once.
func TestNeighboursByHand(t *testing.T) {
	draw, n := scriptN(t,
		[2]int{1, 0}, [2]int{2, 1}, [2]int{4, 3}, // jump to the 4th other value: 4
		[2]int{1, 0}, [2]int{2, 0}, [2]int{2, 1}, // step up: 3
		[2]int{1, 0}, [2]int{2, 1}, [2]int{4, 0}, // jump to 0: skipped
		[2]int{1, 0}, [2]int{2, 0}, [2]int{2, 1}, // step up: 3 again
		[2]int{1, 0}, [2]int{2, 1}, [2]int{4, 1}, // jump to 1
		[2]int{1, 0}, [2]int{2, 0}, [2]int{2, 0}, // step down: 1 again
	)
	score := map[int]float64{4: 1, 3: 5, 1: 1, 0: 9}
	scored := map[int]int{}
	got := ntbea.Neighbours(draw, []int{5}, []int{2}, 6,
		func(idx []int) bool { return idx[0] == 0 },
		func(idx []int) float64 { scored[idx[0]]++; return score[idx[0]] })
	require.Equal(t, 18, n(), "every draw used")
	require.Equal(t, [][]int{{3}, {4}, {1}}, got)
	for v, k := range scored {
		require.Equal(t, 1, k, "%d scored once", v)
	}
}

func TestBestAndOrderTies(t *testing.T) {
	vals := []float64{3, 1, 2, 1, 0}
	value := func(i int) (float64, bool) { return vals[i], i < 4 } // the 5th unknown
	require.Equal(t, 1, ntbea.Best(5, 7, value), "the lowest known, the first on ties")
	require.Equal(t, 7, ntbea.Best(5, 7, func(int) (float64, bool) { return 0, false }), "none known: the fallback")
	vals = []float64{2, 1, 2, 1, 0}
	require.Equal(t, []int{1, 3, 0, 2}, ntbea.Order(5, value), "lowest first, ties in index order")
}

func TestGridEdges(t *testing.T) {
	// 5 whole numbers for 4 points: 4 values spread evenly over 0..4
	// (0, 4/3, 8/3, 4), rounded.
	require.Equal(t, []float64{0, 1, 3, 4}, ntbea.Grid(0, 4, -1, 4, false, true))
	// 3 whole numbers for 5 points: the whole numbers, not 10, 10.5, ...
	require.Equal(t, []float64{10, 11, 12}, ntbea.Grid(10, 12, -1, 5, false, false))
	// As many whole numbers as points: exactly the whole numbers, unrounded
	// (an even spread in floating point gives (15/22)*22 = 14.999999999999998).
	var whole []float64
	for v := range 23 {
		whole = append(whole, float64(v))
	}
	require.Equal(t, whole, ntbea.Grid(0, 22, -1, 23, false, false))
	// A real range spanning a factor of exactly 10 is geometric: 1,
	// sqrt(10) = 3.16..., 10, rounded (linear would give 5.5).
	require.Equal(t, []float64{1, 3, 10}, ntbea.Grid(1, 10, 0, 3, true, true))
	// A factor of 4: linear, 2, 5, 8.
	require.Equal(t, []float64{2, 5, 8}, ntbea.Grid(2, 8, 0, 3, true, false))
	// A factor of 100 from 2: 2, 2*sqrt(100) = 20, 200.
	require.Equal(t, []float64{2, 20, 200}, ntbea.Grid(2, 200, 0, 3, true, true))
	// The range's ends are in range: linear over [0.2, 1.8] (a factor of
	// 9) is 0.2, 1, 1.8, rounded 0, 1, 2; a base at either end replaces
	// its nearest value.
	require.Equal(t, []float64{0.2, 1, 2}, ntbea.Grid(0.2, 1.8, 0.2, 3, true, true))
	require.Equal(t, []float64{0, 1, 1.8}, ntbea.Grid(0.2, 1.8, 1.8, 3, true, true))
}

// A played candidate numbered 0 is played, not a point still to play: on
// the 2x2 grid ((0,0) (1,0) (0,1) (1,1) in Point's order), with (0,0)
// candidate 0 and (1,0) the current one, both played, a batch of 3 is the
// current one and the two points not yet played; a batch of 5 then lists
// the played ones by score, best first, (0,0) last.
func TestProposeExhaustiveFirstCandidate(t *testing.T) {
	sp := &space{sizes: []int{2, 2}}
	c0, cur := sp.Candidate([]int{0, 0}), sp.Candidate([]int{1, 0})
	sp.sum[c0], sp.n[c0] = 5, 1
	sp.sum[cur], sp.n[cur] = 1, 1
	pts := func(cs []int) (out [][]int) {
		for _, c := range cs {
			out = append(out, sp.points[c])
		}
		return out
	}
	step := ntbea.Step{Current: cur, Batch: 3, Exhaustive: true, Grid: 4}
	require.Equal(t, [][]int{{1, 0}, {0, 1}, {1, 1}}, pts(ntbea.Propose(sp, step)))
	step.Batch = 5
	require.Equal(t, [][]int{{1, 0}, {0, 1}, {1, 1}, {0, 0}}, pts(ntbea.Propose(sp, step)))
}

// A mutant whose values are refused is not made a candidate: on one
// dimension of 3 values from 1, the two mutants 0 (refused) and 2; no
// evaluation yet, so both score 0 and keep the order drawn.
func TestProposeRefusedMutant(t *testing.T) {
	sp := &space{sizes: []int{3}, refused: func(idx []int) bool { return idx[0] == 0 }}
	cur := sp.Candidate([]int{1})
	draw, n := scriptN(t,
		[2]int{1, 0}, [2]int{2, 0}, [2]int{2, 0}, // step down: 0
		[2]int{1, 0}, [2]int{2, 0}, [2]int{2, 1}, // step up: 2
	)
	gen := ntbea.Propose(sp, ntbea.Step{Current: cur, Batch: 3, Tries: 2, C: 1, Draw: draw, Tuples: map[string]*ntbea.Stat{}})
	require.Equal(t, 6, n())
	require.Equal(t, []int{cur, 1}, gen)
	require.Equal(t, [][]int{{1}, {2}}, sp.points, "no candidate made of the refused point")
	require.True(t, slices.Equal(sp.points[gen[1]], []int{2}))
}
