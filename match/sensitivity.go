package match

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sort"

	"github.com/fairboard/fairboard/game"
)

// DefaultStep is sensitivity's nudge: a tenth of each number's range.
const DefaultStep = 0.1

// SensitivityConfig is a sensitivity analysis: the simulation Sim under
// its ruleset (Sim.Rules, nil: the default) and under each of Params
// (paths of Sim.Def.Params(); empty: all of them) nudged one step down
// and one step up, on the same seeds. Step is the nudge as a fraction of
// the number's range (Max - Min), in (0, 1]; 0 means DefaultStep.
type SensitivityConfig struct {
	Sim    SimConfig
	Params []string
	Step   float64
}

// Objective is a simulation's imbalance: the largest absolute edge over
// the fair share 1/seats, over the seat positions (Position) and over the
// seat options' values (Option, 0 for a game without seat options), with
// the cell that has it (a position index, or an index into the option
// cells: option 0's values, then option 1's, ...).
type Objective struct {
	Position, Option         float64
	PositionCell, OptionCell int
}

// Effect is the change a nudge makes to the size of one cell's edge, on
// paired seeds: Cell is the cell (an index into SensitivityResult.Cells)
// whose absolute edge is the largest in the base or the nudged run, and
// Delta = |e'| - |e|, e and e' its edge (rate - 1/seats) in the base and
// nudged runs: positive is further from fair. Lo and Hi are its normal 95%
// interval from the games' paired differences (see Sensitivity).
type Effect struct {
	Cell          int
	Delta, Lo, Hi float64
}

// Nudge is one nudged value of a number and what it did.
type Nudge struct {
	Value     float64
	Result    *SimResult
	Objective Objective
	Position  Effect // on the largest seat-position edge
	Option    Effect // on the largest option-value edge (zero without options)
}

// ParamEffect is one number's nudges (one or two: a number at an edge of
// its range, or whose step rounds to nothing there, is nudged one way) and
// Size, the largest |Delta| over them of the ranking objective (the option
// edge for a game with seat options, the position edge otherwise).
type ParamEffect struct {
	Param  game.Param
	Base   float64
	Nudges []Nudge
	Size   float64
}

// SensitivityResult is the base simulation and the numbers ranked by Size,
// largest first (ties in the order of Params).
type SensitivityResult struct {
	Def       string
	Step      float64
	Base      *SimResult
	Objective Objective
	Cells     []string // the cells' names: "position 1", ..., then "OPTION=VALUE"
	Seats     int
	HasOption bool
	Params    []ParamEffect
}

// NudgeValues returns a number's nudged values: base -/+ step*(Max-Min),
// clamped to the range, rounded for an integer param (to the nearest, a
// half away from zero; at least 1 away from
// base); a value equal to base is left out, so a number at an edge gets
// one value (and a param whose range is a point, none).
func NudgeValues(p game.Param, base, step float64) []float64 {
	d := step * (p.Max - p.Min)
	var out []float64
	for _, dir := range []float64{-1, 1} {
		v := base + dir*d
		if p.Integer {
			v = math.Round(v)
			if v == base {
				v = base + dir
			}
		}
		v = math.Min(p.Max, math.Max(p.Min, v))
		if v != base {
			out = append(out, v)
		}
	}
	return out
}

// cells describes a game's cells: the positions, then each option's
// values (option o's at optStart[o]).
type cells struct {
	nPos     int
	optStart []int
	opts     []game.SeatOption
	seats    int
}

func (c *cells) n() int { return c.nPos + c.optStart[len(c.optStart)-1] }

// wins returns the wins of game r by cell: each position's winner
// indicator, then each option value's winning seats.
func (c *cells) wins(r *gameResult) []int16 {
	out := make([]int16, c.n())
	for s, won := range r.won {
		if !won {
			continue
		}
		out[r.pos[s]]++
		for o, idx := range r.opts {
			out[c.nPos+c.optStart[o]+idx[s]]++
		}
	}
	return out
}

// count returns the seat-games of cell k in game i: 1 for a position, the
// seats dealt the value for an option value (the deal depends on i only).
func (c *cells) count(i int64, k int) float64 {
	if k < c.nPos {
		return 1
	}
	k -= c.nPos
	for o, idx := range dealIndexes(c.opts, i, c.seats) {
		if k < c.optStart[o+1]-c.optStart[o] {
			n := 0.0
			for _, v := range idx {
				if v == k {
					n++
				}
			}
			return n
		}
		k -= c.optStart[o+1] - c.optStart[o]
	}
	return 0
}

// Sensitivity plays the base and every nudge on the same seeds and ranks
// the numbers. Every path is checked first (an unknown one is an error
// naming the known ones); the step must be in (0, 1]. Any game that fails
// to finish is an error naming it (a paired difference needs every game).
//
// The effect's interval: for the tracked cell (Effect), with G games, f =
// 1/seats, w_i and w'_i its wins in game i in the base and nudged runs (a
// position's winner indicator; an option value's winning seats), c_i its
// seat-games in game i (1 for a position; for an option value the seats
// dealt it, the same in both runs: the deal depends on i only), N the sum
// of the c_i, and s, s' the signs of the base and nudged edges (taken as
// observed; a zero edge takes the other's sign): x_i = s'(w'_i - c_i f) -
// s(w_i - c_i f), Delta = sum x_i / N = |e'| - |e|, and its standard error
// sqrt(G * s2) / N, s2 the sample variance of the x_i; the interval is
// Delta -/+ 1.96 se, a normal interval over independent games whose
// pairing (the same seed in both runs) removes the variance they share.
// Treating the signs as fixed is exact when neither edge is near 0; an
// edge within its noise of 0 makes |e| biased upward, so read a small
// base edge's effects as changes of the rate, away from fair.
func Sensitivity(ctx context.Context, cfg SensitivityConfig) (*SensitivityResult, error) {
	def := cfg.Sim.Def
	if def == nil {
		return nil, errors.New("a sensitivity analysis needs a game")
	}
	if cfg.Sim.Players != nil {
		return nil, errors.New("a sensitivity analysis writes no players.csv")
	}
	step := cfg.Step
	if step == 0 {
		step = DefaultStep
	}
	if !(step > 0 && step <= 1) {
		return nil, fmt.Errorf("the step must be a fraction of each range in (0, 1], not %g", cfg.Step)
	}
	if cfg.Sim.Rules == nil {
		cfg.Sim.Rules = def.DefaultRuleset()
	}
	paths := cfg.Params
	if len(paths) == 0 {
		for _, p := range def.Params() {
			paths = append(paths, p.Path)
		}
	}
	type planned struct {
		p      game.Param
		base   float64
		values []float64
		rules  []game.Ruleset
	}
	var plan []planned
	seen := map[string]bool{}
	for _, path := range paths {
		if seen[path] {
			return nil, fmt.Errorf("%s is listed twice", path)
		}
		seen[path] = true
		p, err := game.ParamOf(def, path)
		if err != nil {
			return nil, err
		}
		b, err := game.Number(def, cfg.Sim.Rules, path)
		if err != nil {
			return nil, err
		}
		vals := NudgeValues(p, b, step)
		_, rules, err := SweepRules(def, cfg.Sim.Rules, path, vals)
		if err != nil && len(vals) > 0 {
			return nil, err
		}
		plan = append(plan, planned{p, b, vals, rules})
	}

	opts := def.Seats().Options
	cl := &cells{nPos: cfg.Sim.Seats, optStart: []int{0}, opts: opts, seats: cfg.Sim.Seats}
	var names []string
	for s := range cfg.Sim.Seats {
		names = append(names, fmt.Sprintf("position %d", s+1))
	}
	for _, o := range opts {
		cl.optStart = append(cl.optStart, cl.optStart[len(cl.optStart)-1]+len(o.Values))
		for _, v := range o.Values {
			names = append(names, o.Name+"="+v)
		}
	}
	run := func(sc SimConfig, label string) (*SimResult, [][]int16, error) {
		var rec [][]int16
		sc.onGame = func(i int64, r *gameResult) { rec = append(rec, cl.wins(r)) }
		r, err := Simulate(ctx, sc)
		if err != nil {
			return r, nil, err
		}
		if r.Games+r.Failed < r.Requested {
			return r, nil, fmt.Errorf("interrupted after %d of %d games of %s: %w", r.Games+r.Failed, r.Requested, label, ctx.Err())
		}
		if r.Failed > 0 {
			return r, nil, fmt.Errorf("%d games of %s could not be played to their end (first: %s)", r.Failed, label, r.Failures[0])
		}
		return r, rec, nil
	}
	res := &SensitivityResult{Def: def.Name(), Step: step, Cells: names, Seats: cl.nPos, HasOption: len(opts) > 0}
	base, baseRec, err := run(cfg.Sim, "the base ruleset")
	if err != nil {
		return nil, err
	}
	res.Base, res.Objective = base, objectiveOf(base)
	for _, pl := range plan {
		pe := ParamEffect{Param: pl.p, Base: pl.base}
		for k, v := range pl.values {
			sc := cfg.Sim
			sc.Rules = pl.rules[k]
			r, rec, err := run(sc, fmt.Sprintf("%s = %g", pl.p.Path, v))
			if err != nil {
				return nil, err
			}
			n := Nudge{Value: v, Result: r, Objective: objectiveOf(r)}
			n.Position = pairedEffect(cl, base, r, baseRec, rec, 0, cl.nPos)
			key := math.Abs(n.Position.Delta)
			if res.HasOption {
				n.Option = pairedEffect(cl, base, r, baseRec, rec, cl.nPos, cl.n())
				key = math.Abs(n.Option.Delta)
			}
			pe.Nudges = append(pe.Nudges, n)
			pe.Size = math.Max(pe.Size, key)
		}
		res.Params = append(res.Params, pe)
	}
	sort.SliceStable(res.Params, func(a, b int) bool { return res.Params[a].Size > res.Params[b].Size })
	return res, nil
}

// pairedEffect tracks the cell of [from, to) whose absolute edge is the
// largest in a or b (ties: the first) and returns its Effect (see
// Sensitivity) from the runs' per-game wins ra and rb.
func pairedEffect(cl *cells, a, b *SimResult, ra, rb [][]int16, from, to int) Effect {
	fair := 1 / float64(cl.seats)
	best, size := from, -1.0
	for c := from; c < to; c++ {
		e := math.Max(math.Abs(cellRate(a, c, cl.nPos)-fair), math.Abs(cellRate(b, c, cl.nPos)-fair))
		if e > size+1e-12 { // ties (two seats' mirrored edges, to rounding): the first
			best, size = c, e
		}
	}
	ea, eb := cellRate(a, best, cl.nPos)-fair, cellRate(b, best, cl.nPos)-fair
	sa, sb := sign(ea), sign(eb)
	switch {
	case ea == 0:
		sa = sb
	case eb == 0:
		sb = sa
	}
	G := float64(len(ra))
	var sum, sq, N float64
	for i := range ra {
		c := cl.count(int64(i), best)
		x := sb*(float64(rb[i][best])-c*fair) - sa*(float64(ra[i][best])-c*fair)
		sum += x
		sq += x * x
		N += c
	}
	if G < 1 || N == 0 {
		return Effect{Cell: best}
	}
	s2 := 0.0
	if G > 1 {
		s2 = math.Max(0, (sq-sum*sum/G)/(G-1))
	}
	delta, half := sum/N, z975*math.Sqrt(G*s2)/N
	return Effect{Cell: best, Delta: delta, Lo: delta - half, Hi: delta + half}
}

func sign(x float64) float64 {
	if x < 0 {
		return -1
	}
	return 1
}
