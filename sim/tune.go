package sim

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/fairboard/fairboard/engine"
	"github.com/fairboard/fairboard/rng"
)

// The tuner (gamectl sim tune) looks for values of some numbers of a
// ruleset that meet a balance target, such as "every class wins within its
// fair share ± 2 pp". It minimises the noise-corrected sum of squared class
// edges (ClassMoments.Objective) with an N-tuple bandit evolutionary
// algorithm (NTBEA: Lucas, Liu and Perez-Liebana 2018, as the TAG
// framework tunes its agents), in generations of a few candidates each
// evaluated on the same games, then confirms the best candidate on games
// of its own, with a budget set aside for it from the start.
//
// A run lives in a directory: state.json (everything needed to go on),
// base.json (the ruleset tuned), the parts of the generation being played
// (gen-<g>/part-<k>-of-<n>.json), and the outputs: tune.csv, rules.json,
// report.html. Every decision is a function of the state and of the games'
// results, never of the time or of how the games were split, so a run
// stopped and resumed, or played as the tasks of a Cloud Run job, makes
// the same decisions.

// TuneFormat names the layout of state.json.
const TuneFormat = "fairboard-tune/1"

// TuneFiles are the outputs a tuning run writes into its directory.
var TuneFiles = []string{"tune.csv", "rules.json", "report.html"}

// The tuner's fixed choices.
const (
	tuneBatch      = 8    // candidates per generation
	tuneTargetGens = 20   // generations the plan aims at
	tuneMaxPerEval = 2000 // games of one evaluation, at most
	tuneGridPoints = 16   // values of a dimension's grid, at most
	tuneExhaustive = 64   // a grid this small is searched whole
	tuneNeighbours = 64   // mutants NTBEA scores per generation
	tuneConfirmPct = 20   // per cent of the budget set aside to confirm
	tuneUCB        = 1.0  // NTBEA's exploration, in spreads of the fitness
)

// TuneParam is one number tuned: its path, base value, range and the grid
// of values the search moves on. A real-valued number (a weight) is
// searched as a real and written rounded to a whole number, as the
// ruleset's validation requires of weights.
type TuneParam struct {
	Path   string    `json:"path"`
	Base   float64   `json:"base"`
	Lo     float64   `json:"lo"`
	Hi     float64   `json:"hi"`
	Real   bool      `json:"real,omitempty"`
	Ranged bool      `json:"ranged,omitempty"` // the range was given (else validation's)
	Values []float64 `json:"values"`
}

// TuneTarget is the band every class's win rate must lie in: the fair
// share ± Half (Fair), or Center ± Half; fractions.
type TuneTarget struct {
	Spec   string  `json:"spec"`
	Fair   bool    `json:"fair"`
	Center float64 `json:"center,omitempty"`
	Half   float64 `json:"half"`
}

// DefaultTarget is every class within its fair share ± 2 pp.
const DefaultTarget = "fair±2"

// ParseTarget reads --target: "fair±P" (or "fair+-P", "±P", "+-P"), the
// fair share ± P percentage points; "C±P" (or "C+-P"), C% ± P pp; or
// "LO:HI", a band of win rates in per cent.
func ParseTarget(spec string) (TuneTarget, error) {
	t := TuneTarget{Spec: spec}
	bad := func(why string) (TuneTarget, error) {
		return t, fmt.Errorf("--target %q: %s (want fair±P, C±P or LO:HI, in per cent)", spec, why)
	}
	s := strings.ReplaceAll(strings.TrimSpace(spec), "+-", "±")
	num := func(x string) (float64, bool) {
		v, err := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(x), "%"), 64)
		return v, err == nil && !math.IsNaN(v) && !math.IsInf(v, 0)
	}
	if lo, hi, ok := strings.Cut(s, ":"); ok {
		l, ok1 := num(lo)
		h, ok2 := num(hi)
		if !ok1 || !ok2 {
			return bad("LO and HI must be numbers")
		}
		if !(0 <= l && l < h && h <= 100) {
			return bad("want 0 <= LO < HI <= 100")
		}
		t.Center, t.Half = (l+h)/200, (h-l)/200
		return t, nil
	}
	c, p, ok := strings.Cut(s, "±")
	if !ok {
		return bad("no ± and no :")
	}
	half, okh := num(p)
	if !okh || !(half > 0 && half < 50) {
		return bad("the ± half-width must be above 0 and below 50 pp")
	}
	t.Half = half / 100
	switch c = strings.TrimSpace(c); c {
	case "", "fair":
		t.Fair = true
	default:
		v, okc := num(c)
		if !okc || !(v > 0 && v < 100) {
			return bad("the centre must be fair or a per cent above 0 and below 100")
		}
		t.Center = v / 100
	}
	return t, nil
}

// Band returns the band of win rates under a fair share.
func (t TuneTarget) Band(fair float64) (lo, hi float64) {
	c := t.Center
	if t.Fair {
		c = fair
	}
	return c - t.Half, c + t.Half
}

// String says the target in words.
func (t TuneTarget) String() string {
	if t.Fair {
		return fmt.Sprintf("every class within its fair share ± %s pp", FormatNumber(100*t.Half))
	}
	return fmt.Sprintf("every class within %s%% ± %s pp", FormatNumber(100*t.Center), FormatNumber(100*t.Half))
}

// ParseTuneParam reads --param PATH[=LO:HI].
func ParseTuneParam(s string) (path string, lo, hi float64, ranged bool, err error) {
	path, r, ranged := strings.Cut(s, "=")
	path = strings.TrimSpace(path)
	if path == "" {
		return "", 0, 0, false, fmt.Errorf("--param %q: no path", s)
	}
	if !ranged {
		return path, 0, 0, false, nil
	}
	a, b, ok := strings.Cut(r, ":")
	lo, err1 := strconv.ParseFloat(strings.TrimSpace(a), 64)
	hi, err2 := strconv.ParseFloat(strings.TrimSpace(b), 64)
	if !ok || err1 != nil || err2 != nil || math.IsNaN(lo) || math.IsNaN(hi) || math.IsInf(lo, 0) || math.IsInf(hi, 0) {
		return "", 0, 0, false, fmt.Errorf("--param %q: want PATH=LO:HI with LO and HI numbers", s)
	}
	if !(lo < hi) {
		return "", 0, 0, false, fmt.Errorf("--param %q: LO must be below HI", s)
	}
	return path, lo, hi, true, nil
}

// TuneSpec is a tuning run as given: the ruleset, the numbers and their
// ranges, the run's seed, budget, bots and target.
type TuneSpec struct {
	Base      Config // Seed, Games (the whole budget), Players, Bots, Classes, Workers, A
	RulesJSON []byte
	Params    []TuneParamSpec
	Target    TuneTarget
}

// TuneParamSpec is one --param.
type TuneParamSpec struct {
	Path   string
	Lo, Hi float64
	Ranged bool
}

// realParam reports whether the number at path is real-valued: the
// ruleset's weights (of composition options and loot outcomes) are its
// only real numbers.
func realParam(path string) bool { return strings.HasSuffix(path, ".weight") }

// probeCap bounds the range of a number its validation does not bound:
// it is searched up to twice its base value or its base value + 10,
// whichever is further (and as far below its base value).
func probeCap(base float64) float64 { return math.Max(math.Abs(base), 10) }

// accepts reports whether the ruleset accepts the number at path set to v
// (every other number at its base value), with the reason if not.
func accepts(rulesJSON []byte, path string, v float64, cfg *Config) error {
	r, err := WithParams(rulesJSON, Param{Path: path, Value: v})
	if err != nil {
		return err
	}
	c := *cfg
	c.A = Ruleset{Rules: r, Source: "probe"}
	return c.Validate()
}

// prepareParam works out a number's range and grid.
func prepareParam(rulesJSON []byte, ps TuneParamSpec, cfg *Config) (TuneParam, error) {
	base, err := ParamValue(rulesJSON, ps.Path)
	if err != nil {
		return TuneParam{}, fmt.Errorf("--param %s: %w", ps.Path, err)
	}
	p := TuneParam{Path: ps.Path, Base: base, Real: realParam(ps.Path), Ranged: ps.Ranged}
	if ps.Ranged {
		p.Lo, p.Hi = ps.Lo, ps.Hi
		if !p.Real && (p.Lo != math.Trunc(p.Lo) || p.Hi != math.Trunc(p.Hi)) {
			return p, fmt.Errorf("--param %s=%s:%s: this number is whole; give a whole range", ps.Path, FormatNumber(ps.Lo), FormatNumber(ps.Hi))
		}
		for _, v := range []float64{p.Lo, p.Hi} {
			if err := accepts(rulesJSON, p.Path, math.Round(v), cfg); err != nil {
				return p, fmt.Errorf("--param %s=%s:%s: %s is refused: %w", ps.Path, FormatNumber(ps.Lo), FormatNumber(ps.Hi), FormatNumber(v), err)
			}
		}
	} else {
		// The range validation allows, the other numbers at their base
		// values: from the base value outwards until a value is refused
		// (up to probeCap where validation sets no bound).
		if err := accepts(rulesJSON, p.Path, base, cfg); err != nil {
			return p, fmt.Errorf("--param %s: the base value %s is refused: %w", ps.Path, FormatNumber(base), err)
		}
		limit := probeCap(base)
		p.Lo, p.Hi = base, base
		for v := base - 1; v >= base-limit && accepts(rulesJSON, p.Path, v, cfg) == nil; v-- {
			p.Lo = v
		}
		for v := base + 1; v <= base+limit && accepts(rulesJSON, p.Path, v, cfg) == nil; v++ {
			p.Hi = v
		}
		if p.Lo == p.Hi {
			return p, fmt.Errorf("--param %s: the ruleset allows no other value than %s; nothing to tune", ps.Path, FormatNumber(base))
		}
	}
	p.Values = grid(p)
	return p, nil
}

// grid returns the values the search moves on: every whole number of the
// range if there are at most tuneGridPoints, else tuneGridPoints values
// spread over it (geometrically for a real range spanning a factor of 10
// or more), the base value in place of the nearest when it is in range.
func grid(p TuneParam) []float64 {
	var vs []float64
	if !p.Real && p.Hi-p.Lo+1 <= tuneGridPoints {
		for v := p.Lo; v <= p.Hi; v++ {
			vs = append(vs, v)
		}
	} else {
		geo := p.Real && p.Lo > 0 && p.Hi/p.Lo >= 10
		for i := range tuneGridPoints {
			f := float64(i) / float64(tuneGridPoints-1)
			v := p.Lo + f*(p.Hi-p.Lo)
			if geo {
				v = p.Lo * math.Pow(p.Hi/p.Lo, f)
			}
			v = math.Round(v) // whole numbers, weights included (validation wants them whole)
			if len(vs) == 0 || vs[len(vs)-1] != v {
				vs = append(vs, v)
			}
		}
	}
	if p.Base >= p.Lo && p.Base <= p.Hi && !slices.Contains(vs, p.Base) {
		near := 0
		for i, v := range vs {
			if math.Abs(v-p.Base) < math.Abs(vs[near]-p.Base) {
				near = i
			}
		}
		vs[near] = p.Base
		slices.Sort(vs)
		vs = slices.Compact(vs)
	}
	return vs
}

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

// tupleStat is an N-tuple's statistics: evaluations and summed fitness.
type tupleStat struct {
	N   int64   `json:"n"`
	Sum float64 `json:"sum"`
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
	Format     string                `json:"format"`
	Command    []string              `json:"command,omitempty"`
	Seed       string                `json:"seed"`
	Games      int64                 `json:"games"`
	Players    int                   `json:"players"`
	Bots       []string              `json:"bots"`
	Classes    []string              `json:"classes,omitempty"`
	Source     string                `json:"source"`
	RulesHash  string                `json:"rulesHash"`
	Target     TuneTarget            `json:"target"`
	Params     []TuneParam           `json:"params"`
	Plan       TunePlan              `json:"plan"`
	RNG        string                `json:"rng"` // the tuner's stream (rng.Stream.State)
	RNGSeq     uint64                `json:"rngSeq"`
	Used       int64                 `json:"used"`
	Current    int                   `json:"current"` // the candidate the search moves from
	Candidates []TuneCandidate       `json:"candidates"`
	Tuples     map[string]*tupleStat `json:"tuples"`
	Pending    *TuneGeneration       `json:"pending,omitempty"`
	History    []GenSummary          `json:"history"`
	Result     *TuneResult           `json:"result,omitempty"`
	Stopped    string                `json:"stopped,omitempty"` // why the last run stopped short of the end
	Fitness    []float64             `json:"fitness"`           // every evaluation's fitness, in order

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
		Tuples: map[string]*tupleStat{}, rules: spec.RulesJSON}
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
		base[i] = nearest(p.Values, p.Base)
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

func nearest(vs []float64, v float64) int {
	k := 0
	for i := range vs {
		if math.Abs(vs[i]-v) < math.Abs(vs[k]-v) {
			k = i
		}
	}
	return k
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

// key names a grid point.
func key(idx []int) string {
	var b strings.Builder
	for i, v := range idx {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.Itoa(v))
	}
	return b.String()
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

// The files of a run directory.
const (
	tuneStateFile = "state.json"
	tuneBaseFile  = "base.json"
)

// LoadTune reads the run in dir.
func LoadTune(dir string) (*TuneState, error) {
	b, err := os.ReadFile(filepath.Join(dir, tuneStateFile))
	if err != nil {
		return nil, err
	}
	st := &TuneState{}
	if err := json.Unmarshal(b, st); err != nil {
		return nil, fmt.Errorf("%s: %w", filepath.Join(dir, tuneStateFile), err)
	}
	if st.Format != TuneFormat {
		return nil, fmt.Errorf("%s: format %q, want %q", filepath.Join(dir, tuneStateFile), st.Format, TuneFormat)
	}
	if st.rules, err = os.ReadFile(filepath.Join(dir, tuneBaseFile)); err != nil {
		return nil, err
	}
	r, err := engine.LoadRules(st.rules)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", filepath.Join(dir, tuneBaseFile), err)
	}
	if r.Hash() != st.RulesHash {
		return nil, fmt.Errorf("%s is not the ruleset this run tunes (hash %s, want %s)", filepath.Join(dir, tuneBaseFile), r.Hash(), st.RulesHash)
	}
	if _, err := rng.Restore(st.RNG, "", rng.WithSeq(st.RNGSeq)); err != nil {
		return nil, fmt.Errorf("%s: the tuner's stream: %w", filepath.Join(dir, tuneStateFile), err)
	}
	if st.Tuples == nil {
		st.Tuples = map[string]*tupleStat{}
	}
	if st.Pending == nil && !st.Done() {
		return nil, fmt.Errorf("%s: no generation pending and no result", filepath.Join(dir, tuneStateFile))
	}
	return st, nil
}

// Save writes state.json and base.json into dir (atomically each).
func (st *TuneState) Save(dir string) error {
	b, err := json.MarshalIndent(st, "", " ")
	if err != nil {
		return err
	}
	if err := writeFileAtomic(filepath.Join(dir, tuneBaseFile), st.rules); err != nil {
		return err
	}
	return writeFileAtomic(filepath.Join(dir, tuneStateFile), append(b, '\n'))
}

// SameRun reports why a run's flags do not match the state in its
// directory ("" when they do): a run resumes only with its own settings.
func (st *TuneState) SameRun(o *TuneState) string {
	switch {
	case st.Seed != o.Seed:
		return fmt.Sprintf("--seed %q, the run in the directory has %q", o.Seed, st.Seed)
	case st.Games != o.Games:
		return fmt.Sprintf("--games %d, the run in the directory has %d", o.Games, st.Games)
	case !slices.Equal(st.Bots, o.Bots):
		return fmt.Sprintf("--bots %s, the run in the directory has %s", strings.Join(o.Bots, ","), strings.Join(st.Bots, ","))
	case st.Players != o.Players:
		return fmt.Sprintf("--players %d, the run in the directory has %d", o.Players, st.Players)
	case st.RulesHash != o.RulesHash:
		return "another ruleset than the run in the directory's"
	case st.Target.Spec != o.Target.Spec:
		return fmt.Sprintf("--target %q, the run in the directory has %q", o.Target.Spec, st.Target.Spec)
	case len(st.Params) != len(o.Params):
		return fmt.Sprintf("%d --param, the run in the directory has %d", len(o.Params), len(st.Params))
	}
	for i := range st.Params {
		a, b := st.Params[i], o.Params[i]
		if a.Path != b.Path || a.Lo != b.Lo || a.Hi != b.Hi {
			return fmt.Sprintf("--param %s=%s:%s, the run in the directory has %s=%s:%s", b.Path, FormatNumber(b.Lo), FormatNumber(b.Hi),
				a.Path, FormatNumber(a.Lo), FormatNumber(a.Hi))
		}
	}
	return ""
}

// tunePart is the result of one task's slice of a generation.
type tunePart struct {
	Generation int    `json:"generation"`
	Proposal   string `json:"proposal"` // the generation's candidates, to match
	Task       int    `json:"task"`
	Tasks      int    `json:"tasks"`
	Units      [2]int64
	// Records holds, per candidate of the generation (in its order), the
	// records of the games of the slice, from game From.
	Slices []tuneSlice `json:"slices"`
}

type tuneSlice struct {
	From    int64        `json:"from"`
	Records []GameRecord `json:"records"`
	Failed  int64        `json:"failed"`
}

func (g *TuneGeneration) proposal() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d:%s:%d:", g.Number, g.Seed, g.Games)
	for _, c := range g.Candidates {
		b.WriteString(strconv.Itoa(c) + ",")
	}
	return b.String()
}

func partPath(dir string, gen, task, tasks int) string {
	return filepath.Join(genDir(dir, gen), fmt.Sprintf("part-%d-of-%d.json", task, tasks))
}

// genDir is the directory of generation gen's parts.
func genDir(dir string, gen int) string { return filepath.Join(dir, "gen-"+strconv.Itoa(gen)) }

// PlayPart plays task `task` of `tasks` of the pending generation (its
// contiguous slice of the candidates' games) with the base configuration's
// workers, and writes the part. If ctx is cancelled, nothing is written
// and the part is played again by the next call.
func (st *TuneState) PlayPart(ctx context.Context, dir string, task, tasks, workers int, progress *Progress) error {
	gen := st.Pending
	if gen == nil {
		return nil
	}
	path := partPath(dir, gen.Number, task, tasks)
	if _, err := os.Stat(path); err == nil {
		return nil // played already
	}
	units := int64(len(gen.Candidates)) * gen.Games
	lo, hi := units*int64(task)/int64(tasks), units*int64(task+1)/int64(tasks)
	part := tunePart{Generation: gen.Number, Proposal: gen.proposal(), Task: task, Tasks: tasks, Units: [2]int64{lo, hi}}
	for k, c := range gen.Candidates {
		a, b := max(lo, int64(k)*gen.Games), min(hi, int64(k+1)*gen.Games)
		if a >= b {
			continue
		}
		from, to := a-int64(k)*gen.Games, b-int64(k)*gen.Games
		r, err := st.Rules(c)
		if err != nil {
			return err
		}
		cfg := st.config(r, gen.Seed, to, workers)
		cfg.From = from
		cfg.Records = make([]GameRecord, to)
		o, err := Run(ctx, cfg, progress)
		if err != nil {
			return err
		}
		if o.Partial {
			return ctx.Err()
		}
		part.Slices = append(part.Slices, tuneSlice{From: from, Records: cfg.Records[from:to], Failed: o.FailedGames})
	}
	b, err := json.Marshal(part)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return writeFileAtomic(path, b)
}

// config returns the run configuration of games under r.
func (st *TuneState) config(r *engine.Ruleset, seed string, games int64, workers int) *Config {
	cfg := &Config{Games: games, Seed: seed, Players: st.Players, Bots: st.Bots, Workers: max(workers, 1), Shards: 1,
		A: Ruleset{Rules: r, Source: "tune candidate"}}
	for _, c := range st.Classes {
		cfg.Classes = append(cfg.Classes, engine.Class(c))
	}
	return cfg
}

// collect returns the records of every candidate of the pending generation
// from a complete set of parts in dir, or nil if none is complete.
func (st *TuneState) collect(dir string) ([][]GameRecord, int64, error) {
	gen := st.Pending
	paths, err := filepath.Glob(filepath.Join(genDir(dir, gen.Number), "part-*-of-*.json"))
	if err != nil {
		return nil, 0, err
	}
	byTasks := map[int]map[int]*tunePart{}
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			return nil, 0, err
		}
		var part tunePart
		if err := json.Unmarshal(b, &part); err != nil {
			return nil, 0, fmt.Errorf("%s: %w", p, err)
		}
		if part.Generation != gen.Number || part.Proposal != gen.proposal() || part.Tasks < 1 {
			return nil, 0, fmt.Errorf("%s belongs to another generation than the one pending (%d)", p, gen.Number)
		}
		if byTasks[part.Tasks] == nil {
			byTasks[part.Tasks] = map[int]*tunePart{}
		}
		byTasks[part.Tasks][part.Task] = &part
	}
	counts := make([]int, 0, len(byTasks))
	for n := range byTasks {
		counts = append(counts, n)
	}
	slices.Sort(counts)
	for _, n := range counts {
		if len(byTasks[n]) != n {
			continue
		}
		recs := make([][]GameRecord, len(gen.Candidates))
		for k := range recs {
			recs[k] = make([]GameRecord, gen.Games)
		}
		var failed int64
		for t := range n {
			part := byTasks[n][t]
			lo := part.Units[0]
			for _, sl := range part.Slices {
				k := int((lo) / gen.Games)
				if k >= len(recs) || sl.From+int64(len(sl.Records)) > gen.Games {
					return nil, 0, fmt.Errorf("part %d of %d does not fit the generation", t, n)
				}
				copy(recs[k][sl.From:], sl.Records)
				lo = (int64(k) + 1) * gen.Games
				failed += sl.Failed
			}
		}
		return recs, failed, nil
	}
	return nil, 0, nil
}

// Fold adds the pending generation's games, once every part of it is in
// dir: the candidates' moments and the N-tuples' statistics, the pairing
// achieved, then the next generation (or the verdict after the
// confirmation). It reports whether it folded.
func (st *TuneState) Fold(dir string) (bool, error) {
	gen := st.Pending
	if gen == nil {
		return false, nil
	}
	recs, failed, err := st.collect(dir)
	if err != nil || recs == nil {
		return false, err
	}
	if failed > 0 {
		return false, fmt.Errorf("%d games of generation %d could not be played to their end (a bug of a bot or of the engine)", failed, gen.Number)
	}
	if gen.Confirm {
		st.confirm(gen, recs[0])
		st.Used += gen.Games
		st.Pending = nil
		return true, nil
	}
	terms := make([][][numClasses]float64, len(recs))
	for k, c := range gen.Candidates {
		m := momentsOf(recs[k], nil, st.Players)
		cand := &st.Candidates[c]
		cand.Moments.Merge(m)
		obj, _, _ := m.Objective()
		cand.Evals = append(cand.Evals, obj)
		fit := -1e4 * obj // pp², higher is better
		st.Fitness = append(st.Fitness, fit)
		for _, k := range st.tupleKeys(cand.Index) {
			t := st.Tuples[k]
			if t == nil {
				t = &tupleStat{}
				st.Tuples[k] = t
			}
			t.N++
			t.Sum += fit
		}
		terms[k] = m.edgeTerms(recs[k])
	}
	st.Used += int64(len(gen.Candidates)) * gen.Games
	pairing, pairs := pairingOf(terms)
	st.Current = st.recommend()
	obj, _ := st.Candidates[st.Current].estimate()
	st.History = append(st.History, GenSummary{Number: gen.Number, Games: st.Used, Best: st.Current, BestObj: obj, Pairing: pairing, Pairs: pairs})
	st.Pending = nil
	return true, st.propose()
}

// pairingOf returns the mean, over pairs of candidates and classes, of the
// correlation of their per-game class terms on the same games: how much
// the common seeds tie the candidates' games together (1: the same
// outcomes; 0: no more than independent games).
func pairingOf(terms [][][numClasses]float64) (float64, int) {
	var sum float64
	n := 0
	for a := range terms {
		for b := a + 1; b < len(terms); b++ {
			for c := range numClasses {
				if r, ok := correlation(terms[a], terms[b], c); ok {
					sum += r
					n++
				}
			}
		}
	}
	if n == 0 {
		return 0, 0
	}
	return sum / float64(n), n
}

func correlation(x, y [][numClasses]float64, c int) (float64, bool) {
	var sx, sy, sxx, syy, sxy, n float64
	for g := range x {
		a, b := x[g][c], y[g][c]
		sx, sy, sxx, syy, sxy, n = sx+a, sy+b, sxx+a*a, syy+b*b, sxy+a*b, n+1
	}
	vx, vy := sxx-sx*sx/n, syy-sy*sy/n
	if n < 3 || vx <= 0 || vy <= 0 {
		return 0, false
	}
	return (sxy - sx*sy/n) / math.Sqrt(vx*vy), true
}

// confirm judges the confirmation games of the candidate: met when every
// class's 95% interval lies inside the band; else not met within budget,
// or infeasible when an exhaustive grid shows every point missing it.
func (st *TuneState) confirm(gen *TuneGeneration, recs []GameRecord) {
	m := momentsOf(recs, nil, st.Players)
	res := &TuneResult{Candidate: gen.Candidates[0], Games: m.N, Moments: *m, Fair: m.Fair()}
	res.Lo, res.Hi = st.Target.Band(res.Fair)
	res.Met = true
	for c := range numClasses {
		if !m.Played(c) {
			continue
		}
		iv := Wilson(m.Sum[c], m.Sum[numClasses+c])
		o := ClassOutcome{Class: string(engine.Classes[c]), Rate: m.Rate(c), Lo: iv.Lo, Hi: iv.Hi}
		o.Inside = iv.Lo >= res.Lo && iv.Hi <= res.Hi
		o.Outside = iv.Hi < res.Lo || iv.Lo > res.Hi
		res.Met = res.Met && o.Inside
		res.Classes = append(res.Classes, o)
	}
	switch {
	case res.Met:
		res.Verdict = "met: " + st.Target.String() + ", every class's 95% interval inside the band"
	case st.gridShowsInfeasible():
		res.Infeasible = true
		res.Verdict = fmt.Sprintf("infeasible: the whole grid (%d value combinations) was played and every combination has a class whose 95%% interval lies outside the band", st.Plan.Grid)
	default:
		res.Verdict = "not met within budget: the closest candidate and its intervals are below"
	}
	st.Result = res
}

// gridShowsInfeasible reports whether the grid was searched whole and
// every point of it has a class whose interval lies wholly outside the
// band (under that point's own fair share).
func (st *TuneState) gridShowsInfeasible() bool {
	if !st.Plan.Exhaustive {
		return false
	}
	seen := int64(0)
	for i := range st.Candidates {
		c := &st.Candidates[i]
		if c.Moments.N == 0 {
			if c.Infeasible != "" {
				seen++ // the ruleset refuses it: it cannot meet anything
			}
			continue
		}
		seen++
		lo, hi := st.Target.Band(c.Moments.Fair())
		out := false
		for k := range numClasses {
			if c.Moments.Played(k) {
				iv := Wilson(c.Moments.Sum[k], c.Moments.Sum[numClasses+k])
				out = out || iv.Hi < lo || iv.Lo > hi
			}
		}
		if !out {
			return false
		}
	}
	return seen == st.Plan.Grid
}

// Outputs writes tune.csv, rules.json (the recommended candidate, or the
// confirmed one) and report.html into dir.
func (st *TuneState) Outputs(dir string) error {
	best := st.recommend()
	if st.Result != nil {
		best = st.Result.Candidate
	}
	data, err := ParamsJSON(st.rules, st.set(st.Candidates[best].Values)...)
	if err != nil {
		return err
	}
	if err := writeFileAtomic(filepath.Join(dir, "rules.json"), data); err != nil {
		return err
	}
	if err := writeFileAtomic(filepath.Join(dir, "tune.csv"), st.CSV()); err != nil {
		return err
	}
	return writeFileAtomic(filepath.Join(dir, "report.html"), st.reportHTML())
}

// CSV returns tune.csv: one row per candidate played (its values, games,
// objective with its interval, and each class's win rate with its
// interval), then the confirmation's row.
func (st *TuneState) CSV() []byte {
	var b strings.Builder
	head := []string{"candidate", "phase", "first_generation", "evaluations", "games"}
	for _, p := range st.Params {
		head = append(head, p.Path)
	}
	head = append(head, "objective", "objective_lo", "objective_hi", "rms_edge", "fair_share")
	for _, c := range engine.Classes {
		head = append(head, "rate_"+string(c), "lo_"+string(c), "hi_"+string(c))
	}
	writeCSVRow(&b, head)
	row := func(i int, phase string, evals int, m *ClassMoments) {
		c := &st.Candidates[i]
		r := []string{strconv.Itoa(i), phase, strconv.Itoa(c.FirstGen), strconv.Itoa(evals), strconv.FormatInt(m.N, 10)}
		for _, v := range c.Values {
			r = append(r, FormatNumber(v))
		}
		obj, lo, hi := m.Objective()
		r = append(r, ff(obj), ff(lo), ff(hi), ff(math.Sqrt(math.Max(obj, 0)/numClasses)), ff(m.Fair()))
		for k := range numClasses {
			if !m.Played(k) {
				r = append(r, "", "", "")
				continue
			}
			iv := Wilson(m.Sum[k], m.Sum[numClasses+k])
			r = append(r, ff(m.Rate(k)), ff(iv.Lo), ff(iv.Hi))
		}
		writeCSVRow(&b, r)
	}
	for i := range st.Candidates {
		if st.Candidates[i].Moments.N > 0 {
			row(i, "tuning", len(st.Candidates[i].Evals), &st.Candidates[i].Moments)
		}
	}
	if st.Result != nil {
		row(st.Result.Candidate, "confirmation", 1, &st.Result.Moments)
	}
	return []byte(b.String())
}

func writeCSVRow(b *strings.Builder, fields []string) {
	for i, f := range fields {
		if i > 0 {
			b.WriteByte(',')
		}
		b.Write(appendCSVField(nil, f))
	}
	b.WriteByte('\n')
}

// TuneDirFiles are what a tuning run keeps in its directory besides the
// outputs: PrepareTuneDir removes a previous run's parts only with them.
var tuneDirFiles = []string{tuneStateFile, tuneBaseFile}

// ClearTuneDir removes a finished or abandoned run's files from dir (its
// state, base, parts and outputs), leaving other files.
func ClearTuneDir(dir string) error {
	for _, f := range append(append([]string{}, tuneDirFiles...), TuneFiles...) {
		if err := os.Remove(filepath.Join(dir, f)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
	}
	gens, _ := filepath.Glob(filepath.Join(dir, "gen-*"))
	for _, g := range gens {
		if err := os.RemoveAll(g); err != nil {
			return err
		}
	}
	return nil
}
