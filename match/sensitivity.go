package match

import (
	"context"
	"errors"
	"fmt"
	"io"
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

// Effect is the change a nudge makes to one cell's edge, on paired seeds:
// Delta is the nudged rate minus the base rate of the cell that has the
// base's largest absolute edge, signed so that a positive Delta moves that
// edge away from fair (it is rate' - rate when the base edge is >= 0, and
// rate - rate' when it is below 0). Lo and Hi are its normal 95% interval
// from the games' paired differences (see Sensitivity).
type Effect struct {
	Delta, Lo, Hi float64
}

// Nudge is one nudged value of a number and what it did.
type Nudge struct {
	Value     float64
	Result    *SimResult
	Objective Objective
	Position  Effect // on the base's largest seat-position edge
	Option    Effect // on the base's largest option-value edge (zero without options)
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
// clamped to the range, rounded for an integer param (at least 1 away from
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

// pairs holds the base's wins by game, then cell.
type pairs struct {
	base [][]int16
}

// cellWins returns the wins of game r by cell: each position's winner
// indicator, then each option value's winning seats.
func cellWins(r *gameResult, nPos int, optStart []int, into []int16) []int16 {
	into = into[:0]
	for range nPos + optStart[len(optStart)-1] {
		into = append(into, 0)
	}
	for s, won := range r.won {
		if !won {
			continue
		}
		into[r.pos[s]]++
		for o, idx := range r.opts {
			into[nPos+optStart[o]+idx[s]]++
		}
	}
	return into
}

// Sensitivity plays the base and every nudge on the same seeds and ranks
// the numbers. Every path is checked first (an unknown one is an error
// naming the known ones); the step must be in (0, 1]. Any game that fails
// to finish is an error naming it (a paired difference needs every game).
//
// The effect's interval: with G games, d_i the nudged minus the base wins
// of the tracked cell in game i (a position's winner indicator: -1, 0 or
// 1; an option value's winning seats of that game, whose seat count is
// the same under both rulesets, the deal depending on i only) and N the
// cell's seat-games (G for a position), Delta = sum d_i / N and its
// standard error sqrt(G * s2) / N, s2 the sample variance of the d_i; the
// interval is Delta -/+ 1.96 se (a normal interval: the games are
// independent, and the pairing removes the variance the seeds share).
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
	optStart := []int{0}
	cells := []string{}
	for s := range cfg.Sim.Seats {
		cells = append(cells, fmt.Sprintf("position %d", s+1))
	}
	for _, o := range opts {
		optStart = append(optStart, optStart[len(optStart)-1]+len(o.Values))
		for _, v := range o.Values {
			cells = append(cells, o.Name+"="+v)
		}
	}
	nPos := cfg.Sim.Seats
	pr := &pairs{}
	run := func(sc SimConfig, label string) (*SimResult, error) {
		r, err := Simulate(ctx, sc)
		if err != nil {
			return r, err
		}
		if r.Games+r.Failed < r.Requested {
			return r, fmt.Errorf("interrupted after %d of %d games of %s: %w", r.Games+r.Failed, r.Requested, label, ctx.Err())
		}
		if r.Failed > 0 {
			return r, fmt.Errorf("%d games of %s could not be played to their end (first: %s)", r.Failed, label, r.Failures[0])
		}
		return r, nil
	}
	base := cfg.Sim
	var buf []int16
	base.onGame = func(i int64, r *gameResult) {
		buf = cellWins(r, nPos, optStart, buf)
		pr.base = append(pr.base, append([]int16(nil), buf...))
	}
	res := &SensitivityResult{Def: def.Name(), Step: step, Cells: cells, Seats: nPos, HasOption: len(opts) > 0}
	var err error
	if res.Base, err = run(base, "the base ruleset"); err != nil {
		return nil, err
	}
	res.Objective = objectiveOf(res.Base)
	posCell, optCell := res.Objective.PositionCell, nPos+res.Objective.OptionCell
	posSign := edgeSign(cellRate(res.Base, posCell, nPos), nPos)
	optSign := 0.0
	if res.HasOption {
		optSign = edgeSign(cellRate(res.Base, optCell, nPos), nPos)
	}
	for _, pl := range plan {
		pe := ParamEffect{Param: pl.p, Base: pl.base}
		for k, v := range pl.values {
			sc := cfg.Sim
			sc.Rules = pl.rules[k]
			sums, sqs := make([]float64, len(cells)), make([]float64, len(cells))
			sc.onGame = func(i int64, r *gameResult) {
				buf = cellWins(r, nPos, optStart, buf)
				for c := range cells {
					d := float64(buf[c] - pr.base[i][c])
					sums[c] += d
					sqs[c] += d * d
				}
			}
			r, err := run(sc, fmt.Sprintf("%s = %g", pl.p.Path, v))
			if err != nil {
				return nil, err
			}
			n := Nudge{Value: v, Result: r, Objective: objectiveOf(r)}
			G := float64(r.Games)
			n.Position = effect(sums[posCell], sqs[posCell], G, G, posSign)
			if res.HasOption {
				n.Option = effect(sums[optCell], sqs[optCell], G, float64(cellGames(res.Base, optCell, nPos)), optSign)
			}
			pe.Nudges = append(pe.Nudges, n)
			key := math.Abs(n.Position.Delta)
			if res.HasOption {
				key = math.Abs(n.Option.Delta)
			}
			pe.Size = math.Max(pe.Size, key)
		}
		res.Params = append(res.Params, pe)
	}
	sort.SliceStable(res.Params, func(a, b int) bool { return res.Params[a].Size > res.Params[b].Size })
	return res, nil
}

// effect is the paired effect of sums and squares of G differences over N
// seat-games, signed by sign.
func effect(sum, sq, G, N, sign float64) Effect {
	if G < 1 || N <= 0 {
		return Effect{}
	}
	delta := sum / N
	s2 := 0.0
	if G > 1 {
		s2 = math.Max(0, (sq-sum*sum/G)/(G-1))
	}
	half := z975 * math.Sqrt(G*s2) / N
	if sign < 0 {
		return Effect{-delta, -delta - half, -delta + half}
	}
	return Effect{delta, delta - half, delta + half}
}

func edgeSign(rate float64, seats int) float64 {
	if rate < 1/float64(seats) {
		return -1
	}
	return 1
}

// cellGames and cellRate are a result's seat-games and win rate of cell c.
func cellGames(r *SimResult, c, nPos int) int64 {
	if c < nPos {
		return r.Games
	}
	c -= nPos
	for _, t := range r.Options {
		if c < len(t.Values) {
			return t.Games[c]
		}
		c -= len(t.Values)
	}
	return 0
}

func cellRate(r *SimResult, c, nPos int) float64 {
	n := cellGames(r, c, nPos)
	if n == 0 {
		return 0
	}
	if c < nPos {
		return float64(r.Wins[c]) / float64(n)
	}
	c -= nPos
	for _, t := range r.Options {
		if c < len(t.Values) {
			return float64(t.Wins[c]) / float64(n)
		}
		c -= len(t.Values)
	}
	return 0
}

// objectiveOf returns r's largest absolute position and option edges
// (ties: the first cell).
func objectiveOf(r *SimResult) Objective {
	var o Objective
	fair := 1 / float64(r.Seats)
	for c := range r.Wins {
		if e := math.Abs(cellRate(r, c, r.Seats) - fair); e > o.Position {
			o.Position, o.PositionCell = e, c
		}
	}
	c := 0
	for _, t := range r.Options {
		for v := range t.Values {
			if e := math.Abs(cellRate(r, r.Seats+c, r.Seats) - fair); e > o.Option && t.Games[v] > 0 {
				o.Option, o.OptionCell = e, c
			}
			c++
		}
	}
	return o
}

// WriteRanking writes the ranking: the base objective, then per number,
// largest effect first, each nudge's objective and effects with their 95%
// intervals (percentage points).
func (r *SensitivityResult) WriteRanking(w io.Writer) {
	b := r.Base
	fmt.Fprintf(w, "%s: sensitivity, step %.4g of each range, %d games a ruleset, seed %q (game i: %s#i under every ruleset), %d seats, bots %s\n",
		r.Def, r.Step, b.Games, b.Seed, b.Seed, b.Seats, joinComma(b.Bots))
	fmt.Fprintf(w, "base ruleset %s: largest position edge %.1f pp (%s)", b.Rules, 100*r.Objective.Position, r.Cells[r.Objective.PositionCell])
	if r.HasOption {
		fmt.Fprintf(w, ", largest option edge %.1f pp (%s)", 100*r.Objective.Option, r.Cells[r.Seats+r.Objective.OptionCell])
	}
	fmt.Fprintln(w)
	if r.HasOption {
		fmt.Fprintf(w, "ranked by the effect on the largest option edge (%s); effects in percentage points, + = further from fair, 95%% paired interval\n", r.Cells[r.Seats+r.Objective.OptionCell])
	} else {
		fmt.Fprintf(w, "ranked by the effect on the largest position edge (%s); effects in percentage points, + = further from fair, 95%% paired interval\n", r.Cells[r.Objective.PositionCell])
	}
	for rank, pe := range r.Params {
		fmt.Fprintf(w, "%2d. %s (base %g, range [%g, %g]): largest effect %.1f\n", rank+1, pe.Param.Path, pe.Base, pe.Param.Min, pe.Param.Max, 100*pe.Size)
		if len(pe.Nudges) == 0 {
			fmt.Fprintln(w, "      not nudged: its range is a single value")
		}
		for _, n := range pe.Nudges {
			fmt.Fprintf(w, "      = %-8g position edge %+6.1f [%+.1f, %+.1f] (max %.1f)", n.Value,
				100*n.Position.Delta, 100*n.Position.Lo, 100*n.Position.Hi, 100*n.Objective.Position)
			if r.HasOption {
				fmt.Fprintf(w, "  option edge %+6.1f [%+.1f, %+.1f] (max %.1f)", 100*n.Option.Delta, 100*n.Option.Lo, 100*n.Option.Hi, 100*n.Objective.Option)
			}
			fmt.Fprintln(w)
		}
	}
}
