package sim

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"

	"github.com/fairboard/fairboard/engine"
	"github.com/fairboard/fairboard/rng"
)

// set returns the values as ruleset parameters.
func (st *TuneState) set(values []float64) []Param {
	out := make([]Param, len(values))
	for d, v := range values {
		out[d] = Param{Path: st.Params[d].Path, Value: v}
	}
	return out
}

// Rules returns the ruleset of candidate c.
func (st *TuneState) Rules(c int) (*engine.Ruleset, error) {
	return WithParams(st.rules, st.set(st.Candidates[c].Values)...)
}

// estimate returns a candidate's pooled objective and its standard error.
func (c *TuneCandidate) estimate() (obj, se float64) {
	s, lo, hi := c.Moments.Objective()
	return s, (hi - lo) / (2 * z975)
}

// recommend returns the candidate the tuner would keep: among those
// played, the lowest objective allowing for its noise (the estimate plus
// one standard error), so that a candidate lucky on few games does not
// win over one measured well.
func (st *TuneState) recommend() int {
	best, bestV := st.Current, math.Inf(1)
	for i := range st.Candidates {
		c := &st.Candidates[i]
		if c.Infeasible != "" || c.Moments.N == 0 {
			continue
		}
		obj, se := c.estimate()
		if v := obj + se; v < bestV {
			best, bestV = i, v
		}
	}
	return best
}

// tupleKeys returns the keys of the N-tuples of a grid point: each
// dimension alone, each pair (up to 8 dimensions), and the whole point.
func (st *TuneState) tupleKeys(idx []int) []string {
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
		out = append(out, "*="+key(idx))
	}
	return out
}

// ucb returns NTBEA's optimistic value of a grid point: the mean over its
// tuples of the tuple's mean fitness plus an exploration bonus.
func (st *TuneState) ucb(idx []int) float64 {
	total := float64(len(st.Fitness))
	scale := 1.0
	if len(st.Fitness) > 1 {
		var m moments
		for _, f := range st.Fitness {
			m.add(f)
		}
		scale = math.Max(1, math.Sqrt(m.variance()))
	}
	keys := st.tupleKeys(idx)
	v := 0.0
	for _, k := range keys {
		t := st.Tuples[k]
		n, mean := 0.0, 0.0
		if t != nil {
			n, mean = float64(t.N), t.Sum/float64(t.N)
		}
		v += mean + tuneUCB*scale*math.Sqrt(math.Log(total+1)/(n+0.5))
	}
	return v / float64(len(keys))
}

// propose sets Pending to the next generation: the confirmation once the
// tuning budget is spent, else the current candidate (re-evaluated) and
// the most promising others (the next untried grid points while an
// exhaustive grid lasts, then NTBEA's best-scoring mutants).
func (st *TuneState) propose() error {
	g := len(st.History) + 1
	if g > st.Plan.Generations {
		best := st.recommend()
		st.Pending = &TuneGeneration{Number: g, Candidates: []int{best}, Seed: st.Seed + "/confirm", Games: st.Plan.Confirm, Confirm: true}
		return nil
	}
	gen := &TuneGeneration{Number: g, Seed: st.Seed + "/gen" + strconv.Itoa(g), Games: st.Plan.PerEval}
	in := func(c int) bool { return slices.Contains(gen.Candidates, c) }
	add := func(c int) {
		if !in(c) && st.Candidates[c].Infeasible == "" && len(gen.Candidates) < st.Plan.Batch {
			gen.Candidates = append(gen.Candidates, c)
		}
	}
	add(st.Current)
	s := st.stream()
	defer st.saveRNG(s)
	if st.Plan.Exhaustive {
		// Every grid point once, in order, then the best again.
		idx := make([]int, len(st.Params))
		for n := int64(0); n < st.Plan.Grid && len(gen.Candidates) < st.Plan.Batch; n++ {
			r := n
			for d := range idx {
				idx[d] = int(r % int64(len(st.Params[d].Values)))
				r /= int64(len(st.Params[d].Values))
			}
			if c := st.find(idx); c >= 0 && st.Candidates[c].Moments.N > 0 {
				continue
			}
			if st.refused(idx) == "" {
				add(st.candidate(idx))
			}
		}
		order := make([]int, len(st.Candidates))
		for i := range order {
			order[i] = i
		}
		sort.SliceStable(order, func(a, b int) bool {
			oa, sa := st.Candidates[order[a]].estimate()
			ob, sb := st.Candidates[order[b]].estimate()
			return oa+sa < ob+sb
		})
		for _, c := range order {
			if st.Candidates[c].Moments.N > 0 {
				add(c)
			}
		}
	} else {
		type scored struct {
			idx   []int
			score float64
		}
		var ms []scored
		cur := st.Candidates[st.Current].Index
		for range tuneNeighbours {
			idx := st.mutate(s, cur)
			if c := st.find(idx); (c >= 0 && in(c)) || slices.ContainsFunc(ms, func(x scored) bool { return slices.Equal(x.idx, idx) }) {
				continue
			}
			ms = append(ms, scored{idx, st.ucb(idx)})
		}
		sort.SliceStable(ms, func(a, b int) bool { return ms[a].score > ms[b].score })
		for _, m := range ms {
			if len(gen.Candidates) == st.Plan.Batch {
				break
			}
			if c := st.find(m.idx); c >= 0 || st.refused(m.idx) == "" {
				add(st.candidate(m.idx))
			}
		}
	}
	if len(gen.Candidates) == 0 {
		return errors.New("no candidate the ruleset accepts")
	}
	st.Pending = gen
	return nil
}

// mutate returns a neighbour of the grid point cur: each dimension moves
// with probability 1/D (at least one does), half the time one step along
// its grid, else to any other of its values.
func (st *TuneState) mutate(s *rng.Stream, cur []int) []int {
	idx := slices.Clone(cur)
	d := len(idx)
	moved := false
	for !moved {
		for i := range idx {
			n := len(st.Params[i].Values)
			if uniform(s, d) != 0 {
				continue
			}
			moved = true
			if uniform(s, 2) == 0 {
				step := 1
				if uniform(s, 2) == 0 {
					step = -1
				}
				idx[i] = min(max(idx[i]+step, 0), n-1)
			} else if n > 1 {
				v := uniform(s, n-1)
				if v >= cur[i] {
					v++
				}
				idx[i] = v
			}
		}
	}
	return idx
}

// uniform draws an integer in [0, n) from the tuner's stream.
func uniform(s *rng.Stream, n int) int {
	v, err := s.UniformInt(0, int64(n-1), tuneTag, nil)
	if err != nil {
		panic("sim: " + err.Error())
	}
	return int(v)
}

// tuneTag tags the tuner's draws.
const tuneTag rng.Tag = "sim.tune.mutate"
