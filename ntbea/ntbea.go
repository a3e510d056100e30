// Package ntbea is the arithmetic of the N-tuple bandit evolutionary
// algorithm (NTBEA: Lucas, Liu and Perez-Liebana 2018, as the TAG framework
// tunes its agents), shared by the tuners: the dungeon's (sim, "gamectl sim
// tune") and every game's on the definition (match, "gamectl sim tune
// --game NAME --search ntbea").
//
// A search moves on a grid: dimension d takes sizes[d] values, and a point
// is a vector of indices idx[d] in [0, sizes[d]). The package keeps no
// state of its own: the statistics (a map of tuple keys to Stat, and every
// evaluation's fitness in order) belong to the caller, which saves them as
// it likes, and the randomness comes from the caller's draw function, so
// that a search is a function of its seed alone. Fitness is higher for
// better points. Nothing here plays a game or knows one.
package ntbea

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// Stat is an N-tuple's statistics: evaluations and summed fitness.
type Stat struct {
	N   int64   `json:"n"`
	Sum float64 `json:"sum"`
}

// Key names a grid point: its indices joined by commas ("3,0,12").
func Key(idx []int) string {
	var b strings.Builder
	for i, v := range idx {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.Itoa(v))
	}
	return b.String()
}

// Keys returns the keys of the N-tuples of a grid point: each dimension
// alone ("d=i"), each pair when there are 3 to 8 dimensions
// ("d=i,e=j"), and the whole point when there are 2 or more ("*=" + Key).
func Keys(idx []int) []string {
	d := len(idx)
	var out []string
	for i := range d {
		out = append(out, fmt.Sprintf("%d=%d", i, idx[i]))
	}
	if d > 2 && d <= 8 {
		for i := range d {
			for j := i + 1; j < d; j++ {
				out = append(out, fmt.Sprintf("%d=%d,%d=%d", i, idx[i], j, idx[j]))
			}
		}
	}
	if d > 1 {
		out = append(out, "*="+Key(idx))
	}
	return out
}

// Add records one evaluation of point idx with fitness fit in every tuple
// of the point (tuples is filled as needed; the caller appends fit to its
// list of fitnesses).
func Add(tuples map[string]*Stat, idx []int, fit float64) {
	for _, k := range Keys(idx) {
		t := tuples[k]
		if t == nil {
			t = &Stat{}
			tuples[k] = t
		}
		t.N++
		t.Sum += fit
	}
}

// UCB returns NTBEA's optimistic value of a grid point: the mean over its
// tuples of the tuple's mean fitness plus c spreads of the fitness times
// sqrt(ln(E+1) / (n+0.5)), E the evaluations so far (len(fitness)) and n
// the tuple's. The spread is the sample standard deviation of fitness, at
// least 1 (1 with fewer than two evaluations). A tuple never evaluated
// counts a mean of 0.
func UCB(tuples map[string]*Stat, fitness []float64, idx []int, c float64) float64 {
	total := float64(len(fitness))
	scale := 1.0
	if len(fitness) > 1 {
		// Welford's running variance (sample, n-1).
		var n, mean, m2 float64
		for _, f := range fitness {
			n++
			d := f - mean
			mean += d / n
			m2 += d * (f - mean)
		}
		scale = math.Max(1, math.Sqrt(m2/(n-1)))
	}
	keys := Keys(idx)
	v := 0.0
	for _, k := range keys {
		t := tuples[k]
		n, mean := 0.0, 0.0
		if t != nil {
			n, mean = float64(t.N), t.Sum/float64(t.N)
		}
		v += mean + c*scale*math.Sqrt(math.Log(total+1)/(n+0.5))
	}
	return v / float64(len(keys))
}

// Mutate returns a neighbour of the grid point cur (cur itself is not
// changed): each dimension moves with probability 1/D (D = len(cur); the
// draws repeat until at least one does), half the time one step along its
// grid (up or down with equal chance, held at the ends), else to any
// other of its values. draw(n) must return an integer uniform in [0, n),
// n >= 1; sizes[d] >= 1 is dimension d's number of values.
func Mutate(draw func(n int) int, sizes, cur []int) []int {
	idx := slices.Clone(cur)
	d := len(idx)
	moved := false
	for !moved {
		for i := range idx {
			n := sizes[i]
			if draw(d) != 0 {
				continue
			}
			moved = true
			if draw(2) == 0 {
				step := 1
				if draw(2) == 0 {
					step = -1
				}
				idx[i] = min(max(idx[i]+step, 0), n-1)
			} else if n > 1 {
				v := draw(n - 1)
				if v >= cur[i] {
					v++
				}
				idx[i] = v
			}
		}
	}
	return idx
}

// Neighbours draws tries mutants of cur (Mutate) and returns the distinct
// ones that skip does not exclude, by score (UCB, as a closure) highest
// first, ties in the order drawn. Each mutant is scored once.
func Neighbours(draw func(n int) int, sizes, cur []int, tries int, skip func(idx []int) bool, score func(idx []int) float64) [][]int {
	type scored struct {
		idx   []int
		score float64
	}
	var ms []scored
	for range tries {
		idx := Mutate(draw, sizes, cur)
		if skip(idx) || slices.ContainsFunc(ms, func(x scored) bool { return slices.Equal(x.idx, idx) }) {
			continue
		}
		ms = append(ms, scored{idx, score(idx)})
	}
	sort.SliceStable(ms, func(a, b int) bool { return ms[a].score > ms[b].score })
	out := make([][]int, len(ms))
	for i, m := range ms {
		out[i] = m.idx
	}
	return out
}

// Point returns the n-th point of the grid in the order an exhaustive
// search plays it (the first dimension turning fastest), n in
// [0, product of sizes).
func Point(n int64, sizes []int) []int {
	idx := make([]int, len(sizes))
	for d := range idx {
		idx[d] = int(n % int64(sizes[d]))
		n /= int64(sizes[d])
	}
	return idx
}

// Best returns the index in [0, n) of the lowest value(i) among the
// candidates whose value is known (ok), the first on ties, or fallback if
// none is.
func Best(n, fallback int, value func(i int) (v float64, ok bool)) int {
	best, bestV := fallback, math.Inf(1)
	for i := range n {
		if v, ok := value(i); ok && v < bestV {
			best, bestV = i, v
		}
	}
	return best
}

// Grid returns the values a dimension moves on over [lo, hi], lo < hi:
// every whole number of the range when !real and there are at most
// points of them; else points values spread evenly over the range
// (geometrically for a real range with lo > 0 spanning a factor of 10 or
// more), rounded to whole numbers when round, repeats dropped. The base
// value, when in range, replaces the nearest value (the lower on ties).
// Ascending.
func Grid(lo, hi, base float64, points int, real, round bool) []float64 {
	var vs []float64
	if !real && hi-lo+1 <= float64(points) {
		for v := lo; v <= hi; v++ {
			vs = append(vs, v)
		}
	} else {
		geo := real && lo > 0 && hi/lo >= 10
		for i := range points {
			f := float64(i) / float64(points-1)
			v := lo + f*(hi-lo)
			if geo {
				v = lo * math.Pow(hi/lo, f)
			}
			if round {
				v = math.Round(v)
			}
			if len(vs) == 0 || vs[len(vs)-1] != v {
				vs = append(vs, v)
			}
		}
	}
	if base >= lo && base <= hi && !slices.Contains(vs, base) {
		near := Nearest(vs, base)
		vs[near] = base
		slices.Sort(vs)
		vs = slices.Compact(vs)
	}
	return vs
}

// Nearest returns the index of the value of vs nearest v (the first on
// ties); vs must not be empty.
func Nearest(vs []float64, v float64) int {
	k := 0
	for i := range vs {
		if math.Abs(vs[i]-v) < math.Abs(vs[k]-v) {
			k = i
		}
	}
	return k
}

// Order returns the indices in [0, n) whose value is known (ok), by value
// lowest first, ties in index order.
func Order(n int, value func(i int) (v float64, ok bool)) []int {
	var out []int
	var vs []float64
	for i := range n {
		if v, ok := value(i); ok {
			out, vs = append(out, i), append(vs, v)
		}
	}
	sort.Stable(byValue{out, vs})
	return out
}

type byValue struct {
	idx []int
	v   []float64
}

func (b byValue) Len() int           { return len(b.idx) }
func (b byValue) Less(i, j int) bool { return b.v[i] < b.v[j] }
func (b byValue) Swap(i, j int) {
	b.idx[i], b.idx[j] = b.idx[j], b.idx[i]
	b.v[i], b.v[j] = b.v[j], b.v[i]
}

// Space is a search's candidates as Propose sees them: the points played
// or proposed so far, each with an index of the caller's.
type Space interface {
	// Sizes returns the number of values of each dimension.
	Sizes() []int
	// Len returns the number of candidates, numbered from 0.
	Len() int
	// Index returns candidate c's point.
	Index(c int) []int
	// Find returns the candidate at point idx, or -1.
	Find(idx []int) int
	// Candidate returns the candidate at point idx, added if new (with
	// the caller's verdict on whether its values are allowed).
	Candidate(idx []int) int
	// Refused reports whether the values of point idx are not allowed.
	Refused(idx []int) bool
	// Allowed reports whether candidate c's values are allowed.
	Allowed(c int) bool
	// Score returns candidate c's objective allowing for its noise
	// (lower is better), and whether c was played.
	Score(c int) (v float64, played bool)
}

// Step is what Propose needs besides the space.
type Step struct {
	Current    int     // the candidate the search moves from
	Batch      int     // candidates in a generation, at most
	Exhaustive bool    // the grid is played whole first
	Grid       int64   // points of the grid (when Exhaustive)
	Tries      int     // mutants scored (when not Exhaustive)
	C          float64 // UCB's exploration, in spreads of the fitness
	Draw       func(n int) int
	Tuples     map[string]*Stat
	Fitness    []float64
}

// Propose returns the candidates of a generation, at most Batch, each
// allowed and listed once: the current one (played again), then, while
// an exhaustive grid lasts, the points not yet played in Point's order
// and the played ones by Score (best first); otherwise the best of Tries
// mutants of the current point by UCB. Only a non-exhaustive step draws.
func Propose(sp Space, s Step) []int {
	var gen []int
	in := func(c int) bool { return slices.Contains(gen, c) }
	add := func(c int) {
		if !in(c) && sp.Allowed(c) && len(gen) < s.Batch {
			gen = append(gen, c)
		}
	}
	add(s.Current)
	sizes := sp.Sizes()
	if s.Exhaustive {
		for n := int64(0); n < s.Grid && len(gen) < s.Batch; n++ {
			idx := Point(n, sizes)
			if c := sp.Find(idx); c >= 0 {
				if _, played := sp.Score(c); played {
					continue
				}
			}
			if !sp.Refused(idx) {
				add(sp.Candidate(idx))
			}
		}
		for _, c := range Order(sp.Len(), sp.Score) {
			add(c)
		}
		return gen
	}
	skip := func(idx []int) bool { c := sp.Find(idx); return c >= 0 && in(c) }
	ucb := func(idx []int) float64 { return UCB(s.Tuples, s.Fitness, idx, s.C) }
	for _, idx := range Neighbours(s.Draw, sizes, sp.Index(s.Current), s.Tries, skip, ucb) {
		if len(gen) == s.Batch {
			break
		}
		if sp.Find(idx) >= 0 || !sp.Refused(idx) {
			add(sp.Candidate(idx))
		}
	}
	return gen
}
