package match

import (
	"context"
	"fmt"
	"io"
	"math"
)

// PrecisionBatch is the number of game indices a run to a precision plays
// between two looks at its intervals (SimulatePrecise), the dungeon's
// batch (sim.PrecisionBatch). It is fixed, so the games a run decides on
// depend on nothing but the results.
const PrecisionBatch = 2000

// SimulatePrecise is Simulate until the run is precise to p (a fraction
// above 0 and below 1: 0.01 is one percentage point), cfg.Games being the
// ceiling. The games are played in batches of PrecisionBatch game
// indices, in order; after each batch that leaves the ceiling unreached
// it looks at the intervals (SimResult.Precise) and stops if they are all
// narrow enough. The games it plays are therefore the first N, N a
// multiple of PrecisionBatch or the ceiling, whatever cfg.Workers; the
// result is that of Simulate with Games N but for Requested (N),
// Precision (p) and MaxGames (the ceiling). A p outside (0, 1) is an
// error.
func SimulatePrecise(ctx context.Context, cfg SimConfig, p float64) (*SimResult, error) {
	if !(p > 0 && p < 1) {
		return nil, fmt.Errorf("a precision is a half-width above 0 and below 1 (100 percentage points), not %g", p)
	}
	cfg.precision = p
	return Simulate(ctx, cfg)
}

// SweepPrecise is Sweep with every value played by SimulatePrecise to p:
// each value stops on its own, cfg.Sim.Games the ceiling of each.
func SweepPrecise(ctx context.Context, cfg SweepConfig, p float64) (*SweepResult, error) {
	if !(p > 0 && p < 1) {
		return nil, fmt.Errorf("a precision is a half-width above 0 and below 1 (100 percentage points), not %g", p)
	}
	cfg.Sim.precision = p
	return Sweep(ctx, cfg)
}

// HalfWidths returns the half-widths of the 95% intervals a run to a
// precision looks at, in the order of the cells: each seat position's
// (by position - 1), its win rate's Wilson interval or, for a game scored
// by payoff (ByPayoff), its mean payoff's normal interval (PayoffMean);
// then, for a game with seat options, each option value's win rate's
// Wilson interval, option by option. A Wilson half-width is (hi - lo)/2
// of the interval as printed (clamped to [0, 1]).
func (r *SimResult) HalfWidths() []float64 {
	var out []float64
	for p, k := range r.Wins {
		if r.ByPayoff {
			_, lo, hi := r.PayoffMean(p)
			out = append(out, (hi-lo)/2)
			continue
		}
		lo, hi := Wilson(k, r.Games)
		out = append(out, (hi-lo)/2)
	}
	for _, t := range r.Options {
		for v := range t.Values {
			lo, hi := Wilson(t.Wins[v], t.Games[v])
			out = append(out, (hi-lo)/2)
		}
	}
	return out
}

// Precise reports whether every interval of HalfWidths is at most p wide
// on each side. A run of fewer than two games played to their end is
// never precise (a mean payoff's interval needs two).
func (r *SimResult) Precise(p float64) bool {
	if r.Games < 2 {
		return false
	}
	for _, h := range r.HalfWidths() {
		if h > p {
			return false
		}
	}
	return true
}

// writePrecision writes the line saying how a run to a precision decided
// its games (nothing for a run of a fixed number of games).
func (r *SimResult) writePrecision(w io.Writer) {
	if r.Precision <= 0 {
		return
	}
	verdict := fmt.Sprintf("precise after %d games", r.Requested)
	switch {
	case r.Games+r.Failed < r.Requested:
		verdict = "interrupted"
	case !r.Precise(r.Precision):
		verdict = fmt.Sprintf("not precise at the ceiling, %d games", r.Requested)
	}
	opts := ""
	if len(r.Options) > 0 {
		opts = " (and every seat option value's win rate's)"
	}
	if r.ByPayoff {
		fmt.Fprintf(w, "precision: played until every seat position's mean payoff's 95%% interval%s was within +-%g (scored by payoff: --precision %s in hundredths of the payoff), in batches of %d games (ceiling %d games): %s\n",
			opts, r.Precision, fmtPP(r.Precision), PrecisionBatch, r.MaxGames, verdict)
		fmt.Fprint(w, "mean payoff by position, 95% interval:")
		for p := range r.Payoff {
			m, lo, hi := r.PayoffMean(p)
			fmt.Fprintf(w, "  %d: %+.3f [%+.3f, %+.3f]", p+1, m, lo, hi)
		}
		fmt.Fprintln(w)
		return
	}
	fmt.Fprintf(w, "precision: played until every seat position's win rate's 95%% interval%s was within +-%s pp, in batches of %d games (ceiling %d games): %s\n",
		opts, fmtPP(r.Precision), PrecisionBatch, r.MaxGames, verdict)
}

// fmtPP is a fraction in percentage points, without trailing zeros.
func fmtPP(p float64) string {
	return fmt.Sprint(math.Round(p*100*1e9) / 1e9)
}

// writeSweepPrecision writes a sweep's line saying that each value (or
// pair) was played to a precision (nothing for a sweep of a fixed number
// of games).
func writeSweepPrecision(w io.Writer, first *SimResult) {
	if first.Precision <= 0 {
		return
	}
	fmt.Fprintf(w, "precision: each value played until every seat position's win rate's 95%% interval (a game scored by payoff: its mean payoff's, in hundredths of the payoff) was within +-%s pp, in batches of %d games (ceiling %d games)\n",
		fmtPP(first.Precision), PrecisionBatch, first.MaxGames)
}

// precisionNote is " (not precise at the ceiling)" for a run to a
// precision played to its ceiling without being precise, else "".
func precisionNote(r *SimResult) string {
	if r.Precision > 0 && r.Games+r.Failed >= r.Requested && !r.Precise(r.Precision) {
		return " (not precise at the ceiling)"
	}
	return ""
}
