package sim

import (
	"fmt"
	"slices"

	"github.com/fairboard/fairboard/ntbea"
	"github.com/fairboard/fairboard/rng"
)

// TunePlan is how the budget is spent: generations of Batch candidates,
// each evaluated on PerEval games, then Confirm games for the best.
type TunePlan struct {
	Batch       int   `json:"batch"`
	PerEval     int64 `json:"perEval"`
	Generations int   `json:"generations"`
	Confirm     int64 `json:"confirm"`
	Block       int64 `json:"block"`
	Exhaustive  bool  `json:"exhaustive"` // the grid is searched whole first
	Grid        int64 `json:"grid"`       // points of the grid
}

// planTune splits the budget. It fails if the budget cannot pay for two
// generations and a confirmation of a balanced block each.
func planTune(games, block int64, grid int64) (TunePlan, error) {
	p := TunePlan{Block: block, Grid: grid, Batch: tuneBatch}
	if grid < int64(p.Batch) {
		p.Batch = int(grid)
	}
	roundUp := func(v int64) int64 { return (v + block - 1) / block * block }
	p.Confirm = max(block, roundUp(games*tuneConfirmPct/100))
	tune := games - p.Confirm
	p.PerEval = tune / int64(p.Batch*tuneTargetGens) / block * block
	p.PerEval = min(max(p.PerEval, block), tuneMaxPerEval/block*block)
	if p.PerEval < block {
		p.PerEval = block
	}
	p.Generations = int(tune / (int64(p.Batch) * p.PerEval))
	if p.Generations < 2 {
		need := 2*int64(p.Batch)*block + block
		return p, fmt.Errorf("--games %d is too small for a tuning run: it needs at least %d games (two generations of %d candidates on %d games each, and a confirmation that is %d%% of the budget)",
			games, need*100/(100-tuneConfirmPct)+block, p.Batch, block, tuneConfirmPct)
	}
	p.Exhaustive = grid <= tuneExhaustive && grid*p.PerEval <= tune/2
	return p, nil
}

// TuneCandidate is one point evaluated: its grid indices, values, the
// games it was played on (pooled), and each evaluation's objective.
type TuneCandidate struct {
	Index      []int        `json:"index"`
	Values     []float64    `json:"values"`
	FirstGen   int          `json:"firstGen"`
	Evals      []float64    `json:"evals"` // each evaluation's objective (fractions squared)
	Moments    ClassMoments `json:"moments"`
	Infeasible string       `json:"infeasible,omitempty"`
}

// TuneGeneration is the generation being played: its number, the
// candidates (indices into Candidates), the seed of its games and how many
// games each candidate plays.
type TuneGeneration struct {
	Number     int    `json:"number"`
	Candidates []int  `json:"candidates"`
	Seed       string `json:"seed"`
	Games      int64  `json:"games"`
	Confirm    bool   `json:"confirm,omitempty"`
}

// GenSummary records a folded generation.
type GenSummary struct {
	Number  int     `json:"number"`
	Games   int64   `json:"games"`   // games played so far, this generation's included
	Best    int     `json:"best"`    // the recommended candidate after it
	BestObj float64 `json:"bestObj"` // its objective (pooled)
	Pairing float64 `json:"pairing"` // mean correlation of the candidates' per-game class terms
	Pairs   int     `json:"pairs"`
}

// TuneResult is the confirmation's verdict.
type TuneResult struct {
	Candidate  int            `json:"candidate"`
	Games      int64          `json:"games"`
	Moments    ClassMoments   `json:"moments"`
	Fair       float64        `json:"fair"`
	Lo         float64        `json:"lo"` // the band
	Hi         float64        `json:"hi"`
	Classes    []ClassOutcome `json:"classes"`
	Met        bool           `json:"met"`
	Infeasible bool           `json:"infeasible,omitempty"`
	Verdict    string         `json:"verdict"`
}

// ClassOutcome is one class's confirmed win rate with its 95% interval.
type ClassOutcome struct {
	Class   string  `json:"class"`
	Rate    float64 `json:"rate"`
	Lo      float64 `json:"lo"`
	Hi      float64 `json:"hi"`
	Inside  bool    `json:"inside"`
	Outside bool    `json:"outside"` // the whole interval is outside the band
}

// TuneState is a tuning run: its configuration, plan, search and results.
type TuneState struct {
	Format     string                 `json:"format"`
	Command    []string               `json:"command,omitempty"`
	Seed       string                 `json:"seed"`
	Games      int64                  `json:"games"`
	Players    int                    `json:"players"`
	Bots       []string               `json:"bots"`
	Classes    []string               `json:"classes,omitempty"`
	Source     string                 `json:"source"`
	RulesHash  string                 `json:"rulesHash"`
	Target     TuneTarget             `json:"target"`
	Params     []TuneParam            `json:"params"`
	Plan       TunePlan               `json:"plan"`
	RNG        string                 `json:"rng"` // the tuner's stream (rng.Stream.State)
	RNGSeq     uint64                 `json:"rngSeq"`
	Used       int64                  `json:"used"`
	Current    int                    `json:"current"` // the candidate the search moves from
	Candidates []TuneCandidate        `json:"candidates"`
	Tuples     map[string]*ntbea.Stat `json:"tuples"`
	Pending    *TuneGeneration        `json:"pending,omitempty"`
	History    []GenSummary           `json:"history"`
	Result     *TuneResult            `json:"result,omitempty"`
	Stopped    string                 `json:"stopped,omitempty"` // why the last run stopped short of the end
	Fitness    []float64              `json:"fitness"`           // every evaluation's fitness, in order

	rules []byte // base.json
}

// Done reports whether the run has its verdict.
func (st *TuneState) Done() bool { return st.Result != nil }

// PrepareTune checks a tuning run and returns its initial state, with the
// first generation proposed. Nothing is played or written.
func PrepareTune(spec *TuneSpec) (*TuneState, error) {
	cfg := spec.Base
	cfg.Games = max(cfg.Games, 1)
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if len(spec.Params) == 0 {
		return nil, fmt.Errorf("name at least one --param")
	}
	st := &TuneState{Format: TuneFormat, Seed: spec.Base.Seed, Games: spec.Base.Games, Players: spec.Base.Players,
		Bots: spec.Base.Bots, Source: spec.Base.A.Source, RulesHash: spec.Base.A.Rules.Hash(), Target: spec.Target,
		Tuples: map[string]*ntbea.Stat{}, rules: spec.RulesJSON}
	for _, c := range spec.Base.Classes {
		st.Classes = append(st.Classes, string(c))
	}
	gridSize := int64(1)
	for i, ps := range spec.Params {
		for _, q := range spec.Params[:i] {
			if q.Path == ps.Path {
				return nil, fmt.Errorf("--param %s is given twice", ps.Path)
			}
		}
		p, err := prepareParam(spec.RulesJSON, ps, &cfg)
		if err != nil {
			return nil, err
		}
		st.Params = append(st.Params, p)
		gridSize = min(gridSize*int64(len(p.Values)), 1<<40)
	}
	plan, err := planTune(spec.Base.Games, cfg.Block(), gridSize)
	if err != nil {
		return nil, err
	}
	st.Plan = plan
	s, err := rng.NewSeeded("fairboard/tune/v1:" + spec.Base.Seed)
	if err != nil {
		return nil, fmt.Errorf("--seed: %w", err)
	}
	st.saveRNG(s)
	base := make([]int, len(st.Params))
	for i, p := range st.Params {
		base[i] = ntbea.Nearest(p.Values, p.Base)
	}
	st.Current = st.candidate(base)
	if st.Candidates[st.Current].Infeasible != "" {
		return nil, fmt.Errorf("the base values are refused: %s", st.Candidates[st.Current].Infeasible)
	}
	if err := st.propose(); err != nil {
		return nil, err
	}
	return st, nil
}

func (st *TuneState) stream() *rng.Stream {
	s, err := rng.Restore(st.RNG, "", rng.WithSeq(st.RNGSeq))
	if err != nil {
		panic("sim: the tuner's saved stream is corrupt: " + err.Error()) // checked on load
	}
	return s
}

func (st *TuneState) saveRNG(s *rng.Stream) {
	st.RNG, _ = s.State() // a seeded stream always saves
	st.RNGSeq = s.Seq()
}

// find returns the index of the candidate at grid point idx, or -1.
func (st *TuneState) find(idx []int) int {
	for i := range st.Candidates {
		if slices.Equal(st.Candidates[i].Index, idx) {
			return i
		}
	}
	return -1
}

// refused returns why the ruleset refuses the values of grid point idx
// ("" if it accepts them).
func (st *TuneState) refused(idx []int) string {
	values := make([]float64, len(idx))
	for d, i := range idx {
		values[d] = st.Params[d].Values[i]
	}
	if _, err := WithParams(st.rules, st.set(values)...); err != nil {
		return err.Error()
	}
	return ""
}

// candidate returns the index of the candidate at grid point idx, adding
// it (with the ruleset's verdict on its values) if it is new.
func (st *TuneState) candidate(idx []int) int {
	if i := st.find(idx); i >= 0 {
		return i
	}
	c := TuneCandidate{Index: slices.Clone(idx), FirstGen: len(st.History) + 1, Moments: ClassMoments{Players: st.Players}}
	for d, i := range idx {
		c.Values = append(c.Values, st.Params[d].Values[i])
	}
	if _, err := WithParams(st.rules, st.set(c.Values)...); err != nil {
		c.Infeasible = err.Error()
	}
	st.Candidates = append(st.Candidates, c)
	return len(st.Candidates) - 1
}
