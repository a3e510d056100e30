package sim

import (
	"errors"
	"strconv"

	"github.com/fairboard/fairboard/games/dungeon/engine"
	"github.com/fairboard/fairboard/ntbea"
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
	return ntbea.Best(len(st.Candidates), st.Current, func(i int) (float64, bool) {
		c := &st.Candidates[i]
		if c.Infeasible != "" || c.Moments.N == 0 {
			return 0, false
		}
		obj, se := c.estimate()
		return obj + se, true
	})
}

// tuneSpace is the run's candidates as NTBEA's proposal sees them.
type tuneSpace struct{ st *TuneState }

func (t tuneSpace) Sizes() []int {
	out := make([]int, len(t.st.Params))
	for d, p := range t.st.Params {
		out[d] = len(p.Values)
	}
	return out
}

func (t tuneSpace) Len() int                { return len(t.st.Candidates) }
func (t tuneSpace) Index(c int) []int       { return t.st.Candidates[c].Index }
func (t tuneSpace) Find(idx []int) int      { return t.st.find(idx) }
func (t tuneSpace) Candidate(idx []int) int { return t.st.candidate(idx) }
func (t tuneSpace) Refused(idx []int) bool  { return t.st.refused(idx) != "" }
func (t tuneSpace) Allowed(c int) bool      { return t.st.Candidates[c].Infeasible == "" }

func (t tuneSpace) Score(c int) (float64, bool) {
	obj, se := t.st.Candidates[c].estimate()
	return obj + se, t.st.Candidates[c].Moments.N > 0
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
	s := st.stream()
	defer st.saveRNG(s)
	gen.Candidates = ntbea.Propose(tuneSpace{st}, ntbea.Step{Current: st.Current, Batch: st.Plan.Batch, Exhaustive: st.Plan.Exhaustive,
		Grid: st.Plan.Grid, Tries: tuneNeighbours, C: tuneUCB, Draw: func(n int) int { return uniform(s, n) }, Tuples: st.Tuples, Fitness: st.Fitness})
	if len(gen.Candidates) == 0 {
		return errors.New("no candidate the ruleset accepts")
	}
	st.Pending = gen
	return nil
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
