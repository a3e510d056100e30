package match

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"

	"github.com/fairboard/fairboard/game"
)

// GridConfig is a sweep over a grid of two numbers: the simulation Sim
// played once per pair of a value of the ruleset number at Param and one
// of the number at Param2 (two different paths of Sim.Def.Params()), on
// the same seeds (game i on "SEED#i" under every pair). Sim.Rules is the
// base ruleset (nil: the default); Sim.Players must be nil: the grid's
// own Players, if set, gets players.csv of every pair, each row led by
// the two values (header "value,value2," + PlayersHeaderOf(def), once).
type GridConfig struct {
	Sim             SimConfig
	Param, Param2   string
	Values, Values2 []float64
	Players         io.Writer
}

// GridPoint is one pair's simulation.
type GridPoint struct {
	Value, Value2 float64
	Rules         game.Ruleset
	Result        *SimResult
}

// GridResult is a grid's simulations, in the order of Values, then of
// Values2 within each (At).
type GridResult struct {
	Def             string
	Param, Param2   game.Param
	Base, Base2     float64 // the numbers in the base ruleset
	Values, Values2 []float64
	Points          []GridPoint
}

// At returns the point of the i-th value and the j-th value2, or nil if
// it was not played (a grid stopped early).
func (r *GridResult) At(i, j int) *GridPoint {
	k := i*len(r.Values2) + j
	if i < 0 || j < 0 || j >= len(r.Values2) || k >= len(r.Points) {
		return nil
	}
	return &r.Points[k]
}

// GridRules checks a grid's values before any game is played: param and
// param2 must be two different Params of def, each value list checked as
// SweepRules checks it (non-empty, every value within its number's range
// and whole for a whole number), and every pair accepted by the game's
// decoder; the errors name the path (and the range, or the pair). It
// returns base with each pair set (game.WithNumber, param then param2),
// in the order of values, then of values2 within each.
func GridRules(def game.Definition, base game.Ruleset, param string, values []float64, param2 string, values2 []float64) (p, p2 game.Param, rules []game.Ruleset, err error) {
	if param == param2 {
		return p, p2, nil, fmt.Errorf("a grid needs two different numbers: %s is given twice", param)
	}
	if base == nil {
		base = def.DefaultRuleset()
	}
	p, rules1, err := SweepRules(def, base, param, values)
	if err != nil {
		return p, p2, nil, err
	}
	if p2, _, err = SweepRules(def, base, param2, values2); err != nil {
		return p, p2, nil, err
	}
	for i, r1 := range rules1 {
		for _, v2 := range values2 {
			r, err := game.WithNumber(def, r1, param2, v2)
			if err != nil {
				return p, p2, nil, fmt.Errorf("%s = %g, %s = %g: %w", param, values[i], param2, v2, err)
			}
			rules = append(rules, r)
		}
	}
	return p, p2, rules, nil
}

// SweepGrid plays cfg.Sim under each pair, values in order and values2 in
// order within each, on the same seeds; the results do not depend on
// cfg.Sim.Workers. Every pair is checked first (GridRules): nothing is
// played if one is refused. When ctx is done it returns the points played
// so far (the last possibly partial: its Games + Failed < Requested) and
// ctx's error.
func SweepGrid(ctx context.Context, cfg GridConfig) (*GridResult, error) {
	if cfg.Sim.Players != nil {
		return nil, errors.New("a grid writes players.csv through GridConfig.Players, not Sim.Players")
	}
	def := cfg.Sim.Def
	if def == nil {
		return nil, errors.New("a grid needs a game")
	}
	base := cfg.Sim.Rules
	if base == nil {
		base = def.DefaultRuleset()
	}
	p, p2, rules, err := GridRules(def, base, cfg.Param, cfg.Values, cfg.Param2, cfg.Values2)
	if err != nil {
		return nil, err
	}
	res := &GridResult{Def: def.Name(), Param: p, Param2: p2, Values: cfg.Values, Values2: cfg.Values2}
	if res.Base, err = game.Number(def, base, cfg.Param); err != nil {
		return nil, err
	}
	if res.Base2, err = game.Number(def, base, cfg.Param2); err != nil {
		return nil, err
	}
	var pw *prefixWriter
	if cfg.Players != nil {
		pw = &prefixWriter{w: bufio.NewWriter(cfg.Players), head: "value,value2,"}
		defer pw.w.Flush() // what was played, also when stopped early
	}
	for k, r := range rules {
		if err := ctx.Err(); err != nil {
			return res, err
		}
		v, v2 := cfg.Values[k/len(cfg.Values2)], cfg.Values2[k%len(cfg.Values2)]
		sc := cfg.Sim
		sc.Rules = r
		if pw != nil {
			pw.prefix, pw.skip, pw.first = gridNum(v)+","+gridNum(v2)+",", k > 0, true
			sc.Players = pw
		}
		sr, err := Simulate(ctx, sc)
		if sr != nil {
			res.Points = append(res.Points, GridPoint{Value: v, Value2: v2, Rules: r, Result: sr})
		}
		if err != nil {
			return res, err
		}
		if sr.Games+sr.Failed < sr.Requested {
			return res, ctx.Err()
		}
	}
	if pw != nil {
		if err := pw.w.Flush(); err != nil {
			return res, fmt.Errorf("writing players.csv: %w", err)
		}
	}
	return res, nil
}

// SweepGridPrecise is SweepGrid with every pair played by SimulatePrecise
// to p: each pair stops on its own, cfg.Sim.Games the ceiling of each.
func SweepGridPrecise(ctx context.Context, cfg GridConfig, p float64) (*GridResult, error) {
	if !(p > 0 && p < 1) {
		return nil, fmt.Errorf("a precision is a half-width above 0 and below 1 (100 percentage points), not %g", p)
	}
	cfg.Sim.precision = p
	return SweepGrid(ctx, cfg)
}

func gridNum(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

// GridHeader is a grid's sweep.csv header: SweepHeader with the second
// number's value after the first's. One row per pair and position, then
// per pair one row per seat option's value (as in SweepHeader).
const GridHeader = "value,value2,position,games,wins,rate,lo,hi,edge,mean_payoff"

// WriteCSV writes the grid's sweep.csv (GridHeader).
func (r *GridResult) WriteCSV(w io.Writer) error {
	bw := bufio.NewWriter(w)
	bw.WriteString(GridHeader + "\n")
	row := func(pt *GridPoint, cell string, k, n int64, payoff float64) {
		lo, hi := Wilson(k, n)
		rate := 0.0
		if n > 0 {
			rate = float64(k) / float64(n)
		}
		fmt.Fprintf(bw, "%s,%s,%s,%d,%d,%s,%s,%s,%s,%s\n", fnum(pt.Value), fnum(pt.Value2), csvField(cell), n, k, fnum(rate), fnum(lo), fnum(hi),
			fnum(rate-1/float64(pt.Result.Seats)), fnum(payoff/math.Max(1, float64(n))))
	}
	for i := range r.Points {
		res := r.Points[i].Result
		for p, k := range res.Wins {
			row(&r.Points[i], strconv.Itoa(p+1), k, res.Games, res.Payoff[p])
		}
	}
	for i := range r.Points {
		for _, t := range r.Points[i].Result.Options {
			for v, name := range t.Values {
				row(&r.Points[i], t.Name+"="+name, t.Wins[v], t.Games[v], t.Payoff[v])
			}
		}
	}
	return bw.Flush()
}

// WriteTable writes the grid as the one-number sweep's table
// (SweepResult.WriteTable), a block per pair.
func (r *GridResult) WriteTable(w io.Writer) {
	if len(r.Points) == 0 {
		fmt.Fprintf(w, "%s: sweep of %s × %s: no pair played\n", r.Def, r.Param.Path, r.Param2.Path)
		return
	}
	first := r.Points[0].Result
	fmt.Fprintf(w, "%s: sweep of %s × %s (base %g × %g, ranges [%g, %g] and [%g, %g]), seed %q (game i: %s#i under every pair), %d seats, bots %s\n",
		r.Def, r.Param.Path, r.Param2.Path, r.Base, r.Base2, r.Param.Min, r.Param.Max, r.Param2.Min, r.Param2.Max,
		first.Seed, first.Seed, first.Seats, joinComma(first.Bots))
	writeSweepPrecision(w, first)
	fmt.Fprintf(w, "win rate by position (1 = first to act; fair share %.1f%%): rate, 95%% interval, edge in percentage points\n", 100/float64(first.Seats))
	for _, pt := range r.Points {
		res := pt.Result
		fmt.Fprintf(w, "  %s = %g, %s = %g   %d games%s", r.Param.Path, pt.Value, r.Param2.Path, pt.Value2, res.Games, precisionNote(res))
		writePointRates(w, res)
	}
}
