package match

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"

	"github.com/fairboard/fairboard/game"
)

// SweepConfig is a sweep: the simulation Sim played once per value of the
// ruleset number at Param (a path of Sim.Def.Params()), on the same seeds
// (game i on "SEED#i" under every value). Sim.Rules is the base ruleset
// (nil: the default); Sim.Players must be nil: the sweep's own Players,
// if set, gets players.csv of every value, each row led by a value column
// (header "value," + PlayersHeaderOf(def), once).
type SweepConfig struct {
	Sim     SimConfig
	Param   string
	Values  []float64
	Players io.Writer
}

// SweepPoint is one value's simulation.
type SweepPoint struct {
	Value  float64
	Rules  game.Ruleset
	Result *SimResult
}

// SweepResult is a sweep's simulations, in the order of the values.
type SweepResult struct {
	Def    string
	Param  game.Param
	Base   float64 // the number in the base ruleset
	Points []SweepPoint
}

// SweepRules checks a sweep's values before any game is played: param must
// be one of def's Params (else the error names the known paths) and values
// must be non-empty, each within the param's range (and whole for an
// integer param: the error names the path and the range) and accepted by
// the game's decoder. It returns base with each value set (game.WithNumber).
func SweepRules(def game.Definition, base game.Ruleset, param string, values []float64) (game.Param, []game.Ruleset, error) {
	p, err := game.ParamOf(def, param)
	if err != nil {
		return p, nil, err
	}
	if len(values) == 0 {
		return p, nil, fmt.Errorf("a sweep of %s needs at least one value (range [%g, %g])", param, p.Min, p.Max)
	}
	if base == nil {
		base = def.DefaultRuleset()
	}
	out := make([]game.Ruleset, len(values))
	for k, v := range values {
		if err := game.CheckParam(p, v); err != nil {
			return p, nil, err
		}
		if out[k], err = game.WithNumber(def, base, param, v); err != nil {
			return p, nil, fmt.Errorf("%s = %g: %w", param, v, err)
		}
	}
	return p, out, nil
}

// Sweep plays cfg.Sim under each value, in order, on the same seeds; the
// results do not depend on cfg.Sim.Workers. Every value is checked first
// (SweepRules): nothing is played if one is refused. When ctx is done it
// returns the points played so far (the last possibly partial: its
// Games + Failed < Requested) and ctx's error.
func Sweep(ctx context.Context, cfg SweepConfig) (*SweepResult, error) {
	if cfg.Sim.Players != nil {
		return nil, errors.New("a sweep writes players.csv through SweepConfig.Players, not Sim.Players")
	}
	def := cfg.Sim.Def
	if def == nil {
		return nil, errors.New("a sweep needs a game")
	}
	base := cfg.Sim.Rules
	if base == nil {
		base = def.DefaultRuleset()
	}
	p, rules, err := SweepRules(def, base, cfg.Param, cfg.Values)
	if err != nil {
		return nil, err
	}
	b, err := game.Number(def, base, cfg.Param)
	if err != nil {
		return nil, err
	}
	res := &SweepResult{Def: def.Name(), Param: p, Base: b}
	var pw *prefixWriter
	if cfg.Players != nil {
		pw = &prefixWriter{w: bufio.NewWriter(cfg.Players), head: "value,"}
		defer pw.w.Flush() // what was played, also when stopped early
	}
	for k, v := range cfg.Values {
		if err := ctx.Err(); err != nil {
			return res, err
		}
		sc := cfg.Sim
		sc.Rules = rules[k]
		if pw != nil {
			pw.prefix, pw.skip, pw.first = strconv.FormatFloat(v, 'g', -1, 64)+",", k > 0, true
			sc.Players = pw
		}
		r, err := Simulate(ctx, sc)
		if r != nil {
			res.Points = append(res.Points, SweepPoint{Value: v, Rules: rules[k], Result: r})
		}
		if err != nil {
			return res, err
		}
		if r.Games+r.Failed < r.Requested {
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

// prefixWriter writes each line with a prefix (head before the header's
// first line, the value of the point before a row), dropping the first
// line (the header) when skip.
type prefixWriter struct {
	w      *bufio.Writer
	head   string // "value,": the header's prefix
	prefix string
	skip   bool
	first  bool // at the first line of a point
	mid    bool // inside a line
	drop   bool // dropping the current line
}

func (p *prefixWriter) Write(b []byte) (int, error) {
	n := len(b)
	for len(b) > 0 {
		if !p.mid {
			p.drop = p.first && p.skip
			if !p.drop {
				if p.first {
					p.w.WriteString(p.head)
				} else {
					p.w.WriteString(p.prefix)
				}
			}
			p.mid = true
		}
		i := bytes.IndexByte(b, '\n')
		line := b
		if i >= 0 {
			line = b[:i+1]
		}
		if !p.drop {
			if _, err := p.w.Write(line); err != nil {
				return 0, err
			}
		}
		b = b[len(line):]
		if i >= 0 {
			p.mid, p.first = false, false
		}
	}
	return n, nil
}

// SweepHeader is sweep.csv's header. One row per value and position
// (position 1 = first to act), then per value one row per seat option's
// value, its position column "OPTION=VALUE": games (seat-games for an
// option value), wins, rate = wins/games, lo and hi its Wilson 95%
// interval, edge = rate - 1/seats, mean_payoff over those games.
const SweepHeader = "value,position,games,wins,rate,lo,hi,edge,mean_payoff"

// WriteCSV writes sweep.csv (SweepHeader).
func (r *SweepResult) WriteCSV(w io.Writer) error {
	bw := bufio.NewWriter(w)
	bw.WriteString(SweepHeader + "\n")
	row := func(v float64, cell string, k, n int64, payoff float64, seats int) {
		lo, hi := Wilson(k, n)
		rate := 0.0
		if n > 0 {
			rate = float64(k) / float64(n)
		}
		fmt.Fprintf(bw, "%s,%s,%d,%d,%s,%s,%s,%s,%s\n", fnum(v), csvField(cell), n, k, fnum(rate), fnum(lo), fnum(hi),
			fnum(rate-1/float64(seats)), fnum(payoff/math.Max(1, float64(n))))
	}
	for _, pt := range r.Points {
		res := pt.Result
		for p, k := range res.Wins {
			row(pt.Value, strconv.Itoa(p+1), k, res.Games, res.Payoff[p], res.Seats)
		}
	}
	for _, pt := range r.Points {
		res := pt.Result
		for _, t := range res.Options {
			for v, name := range t.Values {
				row(pt.Value, t.Name+"="+name, t.Wins[v], t.Games[v], t.Payoff[v], res.Seats)
			}
		}
	}
	return bw.Flush()
}

func fnum(v float64) string { return strconv.FormatFloat(v, 'g', 6, 64) }

// WriteTable writes the sweep as a table: per value the games, each
// position's win rate with its Wilson 95% interval and edge over the fair
// share (percentage points), then each seat option value's.
func (r *SweepResult) WriteTable(w io.Writer) {
	if len(r.Points) == 0 {
		fmt.Fprintf(w, "%s: sweep of %s: no value played\n", r.Def, r.Param.Path)
		return
	}
	first := r.Points[0].Result
	fmt.Fprintf(w, "%s: sweep of %s (base %g, range [%g, %g]), seed %q (game i: %s#i under every value), %d seats, bots %s\n",
		r.Def, r.Param.Path, r.Base, r.Param.Min, r.Param.Max, first.Seed, first.Seed, first.Seats, joinComma(first.Bots))
	writeSweepPrecision(w, first)
	fmt.Fprintf(w, "win rate by position (1 = first to act; fair share %.1f%%): rate, 95%% interval, edge in percentage points\n", 100/float64(first.Seats))
	for _, pt := range r.Points {
		res := pt.Result
		fmt.Fprintf(w, "  %s = %-8g %d games%s", r.Param.Path, pt.Value, res.Games, precisionNote(res))
		writePointRates(w, res)
	}
}

// rateCell is "53.1% [52.1, 54.1] edge +3.1" for k wins in n against fair.
func rateCell(k, n int64, fair float64) string {
	lo, hi := Wilson(k, n)
	rate := 0.0
	if n > 0 {
		rate = float64(k) / float64(n)
	}
	return fmt.Sprintf("%5.1f%%  95%% [%5.1f, %5.1f]  edge %+5.1f", 100*rate, 100*lo, 100*hi, 100*(rate-fair))
}

func joinComma(s []string) string {
	var b bytes.Buffer
	for i, x := range s {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(x)
	}
	return b.String()
}

// writePointRates ends a sweep point's heading line (partial, failed) and
// writes its rate by position, then, in a game scored by payoff
// (ByPayoff), each position's mean payoff with its normal 95% interval
// and edge over the fair payoff (PayoffMean, FairPayoff), then its rate
// by seat option value, each rate against the fair share.
func writePointRates(w io.Writer, res *SimResult) {
	if res.Games+res.Failed < res.Requested {
		fmt.Fprintf(w, " (partial: %d of %d)", res.Games+res.Failed, res.Requested)
	}
	if res.Failed > 0 {
		fmt.Fprintf(w, " (%d failed)", res.Failed)
	}
	fmt.Fprintln(w)
	fair := 1 / float64(res.Seats)
	for p, k := range res.Wins {
		fmt.Fprintf(w, "      position %d  %s\n", p+1, rateCell(k, res.Games, fair))
	}
	if res.ByPayoff {
		fp := res.FairPayoff()
		for p := range res.Payoff {
			mean, lo, hi := res.PayoffMean(p)
			fmt.Fprintf(w, "      position %d  mean payoff %+.4f  95%% [%+.4f, %+.4f]  edge %+.4f (fair %+.4f)\n", p+1, mean, lo, hi, mean-fp, fp)
		}
	}
	for _, t := range res.Options {
		for v, name := range t.Values {
			fmt.Fprintf(w, "      %s=%-10s %s\n", t.Name, name, rateCell(t.Wins[v], t.Games[v], fair))
		}
	}
}
