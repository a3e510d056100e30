package match

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"

	"github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/ntbea"
	"github.com/fairboard/fairboard/rng"
)

// The NTBEA tuner of a game (TuneNTBEA) searches the same objective as the
// grid (TuneScore: the seat positions' squared edges, or the seat options'
// values', less their noise) with the dungeon's N-tuple bandit
// evolutionary algorithm (package ntbea, whose arithmetic the dungeon's
// tuner uses too): in generations of candidates played on common seeds,
// the current best played again beside the most promising mutants of it,
// then the best confirmed on fresh seeds. Every decision is a function of
// the state and of the games' results: a run saved between generations
// and resumed ends as a run never stopped.

// The NTBEA tuner's fixed choices (the dungeon's: sim/tune.go).
const (
	// DefaultNTBEABudget is the default budget in evaluations: a
	// candidate played on the run's games counts one.
	DefaultNTBEABudget = 80
	ntbeaBatch         = 8   // candidates per generation, at most
	ntbeaGridPoints    = 16  // values of a number's grid, at most
	ntbeaExhaustive    = 64  // a grid this small is played whole first
	ntbeaTries         = 64  // mutants scored per generation
	ntbeaUCB           = 1.0 // exploration, in spreads of the fitness
)

// NTBEAFormat names the layout of a saved NTBEA run.
const NTBEAFormat = "fairboard-game-tune/1"

// ntbeaTag tags the search's draws.
const ntbeaTag rng.Tag = "match.tune.mutate"

// NTBEAParam is a number searched: its range, its value in the base
// ruleset and the grid of values the search moves on.
type NTBEAParam struct {
	Path   string    `json:"path"`
	Lo     float64   `json:"lo"`
	Hi     float64   `json:"hi"`
	Base   float64   `json:"base"`
	Values []float64 `json:"values"`
}

// NTBEAPlan is how the budget is spent: Generations of at most Batch
// candidates; Exhaustive when the grid (Grid points, at most 64 and at
// most half the budget) is played whole first.
type NTBEAPlan struct {
	Batch       int   `json:"batch"`
	Generations int   `json:"generations"`
	Exhaustive  bool  `json:"exhaustive"`
	Grid        int64 `json:"grid"`
}

// NTBEACandidate is a point of the grid: its values, the generation that
// proposed it, each evaluation's score, and its games pooled (nil before
// it is played). Infeasible says why the game refuses its values.
type NTBEACandidate struct {
	Index      []int      `json:"index"`
	Values     []float64  `json:"values"`
	FirstGen   int        `json:"firstGen"`
	Evals      []float64  `json:"evals"`
	Pooled     *SimResult `json:"pooled,omitempty"`
	Infeasible string     `json:"infeasible,omitempty"`
}

// NTBEAGen is a generation played: its seed, its candidates, and the
// recommended candidate after it with its pooled score and that score's
// standard error.
type NTBEAGen struct {
	Number     int     `json:"number"`
	Seed       string  `json:"seed"`
	Candidates []int   `json:"candidates"`
	Best       int     `json:"best"`
	BestScore  float64 `json:"bestScore"`
	BestSE     float64 `json:"bestSE"`
}

// NTBEARun is an NTBEA tuning run of a game: its settings, plan, search
// state and results; JSON to save and resume (SaveFile, LoadNTBEA).
type NTBEARun struct {
	Format     string                 `json:"format"`
	Game       string                 `json:"game"`
	Rules      string                 `json:"rules"` // the base ruleset, canonical JSON
	Seed       string                 `json:"seed"`
	Games      int64                  `json:"games"` // per evaluation, and to confirm
	Seats      int                    `json:"seats"`
	Bots       []string               `json:"bots"`
	Target     float64                `json:"target"`
	Budget     int                    `json:"budget"`
	Params     []NTBEAParam           `json:"params"`
	Plan       NTBEAPlan              `json:"plan"`
	RNG        string                 `json:"rng"` // the search's stream (rng.Stream.State)
	RNGSeq     uint64                 `json:"rngSeq"`
	Current    int                    `json:"current"`
	Candidates []NTBEACandidate       `json:"candidates"`
	Tuples     map[string]*ntbea.Stat `json:"tuples"`
	Fitness    []float64              `json:"fitness"`
	History    []NTBEAGen             `json:"history"`
	Confirm    *SimResult             `json:"confirm,omitempty"` // the best's games on fresh seeds
	Chosen     int                    `json:"chosen"`            // the candidate confirmed
	Met        bool                   `json:"met"`

	sim SimConfig // Def, Rules (the base), Bots, Seats, Workers
}

// Done reports whether the run has its verdict.
func (st *NTBEARun) Done() bool { return st.Confirm != nil }

// NewNTBEA checks an NTBEA tuning run and returns its first state: cfg as
// for Tune but Levels must be 0 (the search's grid is its own: every whole
// value of a number's range if there are at most 16, else 16 values spread
// over it, the base ruleset's value among them); budget is the number of
// evaluations (0: DefaultNTBEABudget), at least two generations' worth.
// Each number's range must hold two values or more, whole for a whole
// number. Nothing is played.
func NewNTBEA(cfg TuneConfig, budget int) (*NTBEARun, error) {
	var levelsErr error
	if cfg.Levels != 0 {
		levelsErr = errors.New("levels are the grid search's: NTBEA moves on its own grid")
	}
	def := cfg.Sim.Def
	var params []NTBEAParam
	grid := int64(1)
	_, target, err := cfg.setup(levelsErr, func(p game.Param, tp TuneParam) error {
		if !(tp.Lo < tp.Hi) {
			return fmt.Errorf("%s: the range %g:%g holds one value: nothing to tune", tp.Path, tp.Lo, tp.Hi)
		}
		if p.Integer && (tp.Lo != math.Trunc(tp.Lo) || tp.Hi != math.Trunc(tp.Hi)) {
			return fmt.Errorf("%s: the range %g:%g: this number is whole; give a whole range", tp.Path, tp.Lo, tp.Hi)
		}
		base, err := game.Number(def, cfg.Sim.Rules, tp.Path)
		if err != nil {
			return err
		}
		np := NTBEAParam{Path: tp.Path, Lo: tp.Lo, Hi: tp.Hi, Base: base,
			Values: ntbea.Grid(tp.Lo, tp.Hi, base, ntbeaGridPoints, !p.Integer, p.Integer)}
		params = append(params, np)
		grid = min(grid*int64(len(np.Values)), 1<<40)
		return nil
	})
	if err != nil {
		return nil, err
	}
	if budget == 0 {
		budget = DefaultNTBEABudget
	}
	plan := NTBEAPlan{Batch: int(min(ntbeaBatch, grid)), Grid: grid}
	plan.Generations = budget / plan.Batch
	if budget < 0 || plan.Generations < 2 {
		return nil, fmt.Errorf("a budget of %d evaluations is too small: NTBEA needs at least %d (two generations of %d candidates)", budget, 2*plan.Batch, plan.Batch)
	}
	plan.Exhaustive = grid <= ntbeaExhaustive && grid <= int64(plan.Generations*plan.Batch)/2
	if err := cfg.Sim.check(); err != nil {
		return nil, err // the games, seed, workers, seats and bots, checked before any search
	}
	st := &NTBEARun{Format: NTBEAFormat, Game: def.Name(), Rules: string(cfg.Sim.Rules.CanonicalJSON()), Seed: cfg.Sim.Seed,
		Games: cfg.Sim.Games, Seats: cfg.Sim.Seats, Bots: cfg.Sim.Bots, Target: target, Budget: budget, Params: params, Plan: plan,
		Tuples: map[string]*ntbea.Stat{}, sim: cfg.Sim}
	s, err := rng.NewSeeded("fairboard/game-tune/v1:" + cfg.Sim.Seed)
	if err != nil {
		return nil, fmt.Errorf("the seed: %w", err)
	}
	st.saveRNG(s)
	base := make([]int, len(params))
	for d, p := range params {
		base[d] = ntbea.Nearest(p.Values, p.Base)
	}
	st.Current = st.candidate(base)
	if why := st.Candidates[st.Current].Infeasible; why != "" {
		return nil, fmt.Errorf("the base values are refused: %s", why)
	}
	return st, nil
}

func (st *NTBEARun) saveRNG(s *rng.Stream) {
	st.RNG, _ = s.State() // a seeded stream always saves
	st.RNGSeq = s.Seq()
}

// rules returns the base ruleset with the given values.
func (st *NTBEARun) rules(values []float64) (game.Ruleset, error) {
	r := st.sim.Rules
	for d, p := range st.Params {
		var err error
		if r, err = game.WithNumber(st.sim.Def, r, p.Path, values[d]); err != nil {
			return nil, err
		}
	}
	return r, nil
}

func (st *NTBEARun) values(idx []int) []float64 {
	out := make([]float64, len(idx))
	for d, i := range idx {
		out[d] = st.Params[d].Values[i]
	}
	return out
}

func (st *NTBEARun) find(idx []int) int {
	return slices.IndexFunc(st.Candidates, func(c NTBEACandidate) bool { return slices.Equal(c.Index, idx) })
}

// candidate returns the candidate at idx, added (with the game's verdict
// on its values) if new.
func (st *NTBEARun) candidate(idx []int) int {
	if c := st.find(idx); c >= 0 {
		return c
	}
	c := NTBEACandidate{Index: slices.Clone(idx), Values: st.values(idx), FirstGen: len(st.History) + 1}
	if _, err := st.rules(c.Values); err != nil {
		c.Infeasible = err.Error()
	}
	st.Candidates = append(st.Candidates, c)
	return len(st.Candidates) - 1
}

// score returns candidate c's pooled score plus one standard error (lower
// is better), and whether it was played.
func (st *NTBEARun) score(c int) (float64, bool) {
	p := st.Candidates[c].Pooled
	if p == nil || st.Candidates[c].Infeasible != "" {
		return 0, false
	}
	return TuneScore(p) + TuneScoreSE(p), true
}

// ntbeaSpace is the run's candidates as NTBEA's proposal sees them.
type ntbeaSpace struct{ st *NTBEARun }

func (n ntbeaSpace) Sizes() []int {
	out := make([]int, len(n.st.Params))
	for d, p := range n.st.Params {
		out[d] = len(p.Values)
	}
	return out
}

func (n ntbeaSpace) Len() int                    { return len(n.st.Candidates) }
func (n ntbeaSpace) Index(c int) []int           { return n.st.Candidates[c].Index }
func (n ntbeaSpace) Find(idx []int) int          { return n.st.find(idx) }
func (n ntbeaSpace) Candidate(idx []int) int     { return n.st.candidate(idx) }
func (n ntbeaSpace) Allowed(c int) bool          { return n.st.Candidates[c].Infeasible == "" }
func (n ntbeaSpace) Score(c int) (float64, bool) { return n.st.score(c) }
func (n ntbeaSpace) Refused(idx []int) bool {
	_, err := n.st.rules(n.st.values(idx))
	return err != nil
}

// Run plays the run's generations from where it stands, at most gens of
// them (0: all), calling save (if not nil) after each, then, once every
// generation is played, confirms the best candidate on Games fresh games
// (seed Seed + "/confirm") and saves again. Generation g plays each of its
// candidates on Games games of seed Seed + "/gen" + g. It stops with
// ctx's error when ctx is done, the generation being played dropped.
func (st *NTBEARun) Run(ctx context.Context, gens int, save func(*NTBEARun) error) error {
	for played := 0; !st.Done() && (gens == 0 || played < gens); played++ {
		if err := st.step(ctx); err != nil {
			return err
		}
		if save != nil {
			if err := save(st); err != nil {
				return err
			}
		}
	}
	return nil
}

// step plays the next generation, or the confirmation.
func (st *NTBEARun) step(ctx context.Context) error {
	w, err := st.Next()
	if err != nil || w == nil {
		return err
	}
	results, err := w.Play(ctx)
	if err != nil {
		return err
	}
	return w.Fold(results)
}

// Next returns the run's next step (nil once done): generation
// len(History)+1, its candidates proposed (added to the run's), or the
// confirmation of the best once every generation is played. Its Fold
// takes the games and moves the run on.
func (st *NTBEARun) Next() (*TuneWork, error) {
	if st.Done() {
		return nil, nil
	}
	g := len(st.History) + 1
	if g > st.Plan.Generations {
		best := ntbea.Best(len(st.Candidates), st.Current, st.score)
		rules, err := st.rules(st.Candidates[best].Values)
		if err != nil {
			return nil, err
		}
		return &TuneWork{Name: "confirm", Seed: st.Seed + "/confirm", Games: st.Games, Values: [][]float64{st.Candidates[best].Values}, sim: st.sim,
			rules: []game.Ruleset{rules}, fold: func(res []*SimResult) error {
				st.Confirm, st.Chosen, st.Met = res[0], best, TuneMet(res[0], st.Target)
				return nil
			}}, nil
	}
	s, err := rng.Restore(st.RNG, "", rng.WithSeq(st.RNGSeq))
	if err != nil {
		return nil, fmt.Errorf("the search's saved stream: %w", err)
	}
	draw := func(n int) int {
		v, err := s.UniformInt(0, int64(n-1), ntbeaTag, nil)
		if err != nil {
			panic("match: " + err.Error()) // n >= 1 always
		}
		return int(v)
	}
	gen := NTBEAGen{Number: g, Seed: st.Seed + "/gen" + strconv.Itoa(g)}
	gen.Candidates = ntbea.Propose(ntbeaSpace{st}, ntbea.Step{Current: st.Current, Batch: st.Plan.Batch, Exhaustive: st.Plan.Exhaustive,
		Grid: st.Plan.Grid, Tries: ntbeaTries, C: ntbeaUCB, Draw: draw, Tuples: st.Tuples, Fitness: st.Fitness})
	w := &TuneWork{Name: "gen-" + strconv.Itoa(g), Seed: gen.Seed, Games: st.Games, sim: st.sim}
	for _, c := range gen.Candidates {
		rules, err := st.rules(st.Candidates[c].Values)
		if err != nil {
			return nil, err
		}
		w.rules, w.Values = append(w.rules, rules), append(w.Values, st.Candidates[c].Values)
	}
	w.fold = func(results []*SimResult) error {
		// Every game of the generation is in: fold it.
		for k, c := range gen.Candidates {
			cand := &st.Candidates[c]
			obj := TuneScore(results[k])
			cand.Evals = append(cand.Evals, obj)
			cand.Pooled = poolResults(cand.Pooled, results[k])
			fit := -1e4 * obj // pp^2, higher is better
			st.Fitness = append(st.Fitness, fit)
			ntbea.Add(st.Tuples, cand.Index, fit)
		}
		st.saveRNG(s)
		st.Current = ntbea.Best(len(st.Candidates), st.Current, st.score)
		gen.Best = st.Current
		gen.BestScore, gen.BestSE = TuneScore(st.Candidates[st.Current].Pooled), TuneScoreSE(st.Candidates[st.Current].Pooled)
		st.History = append(st.History, gen)
		return nil
	}
	return w, nil
}

// simulateAll plays sc's games to the last: a run stopped early is an
// error (ctx's).
func simulateAll(ctx context.Context, sc SimConfig) (*SimResult, error) {
	r, err := Simulate(ctx, sc)
	if err != nil {
		return nil, err
	}
	if r.Games+r.Failed < r.Requested {
		return nil, fmt.Errorf("interrupted: %w", ctx.Err())
	}
	return r, nil
}
