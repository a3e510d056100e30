package match

import (
	"fmt"
	"io"
	"math"
	"strings"
)

// z975 is the 0.975 quantile of the standard normal.
const z975 = 1.959963984540054

// Wilson returns the Wilson score 95% interval of k successes in n trials
// ([0, 1] for n = 0), the interval the dungeon's simulations use
// (sim.Wilson).
func Wilson(k, n int64) (lo, hi float64) {
	if n <= 0 {
		return 0, 1
	}
	p, nf, z2 := float64(k)/float64(n), float64(n), z975*z975
	den := 1 + z2/nf
	centre := (p + z2/(2*nf)) / den
	half := z975 * math.Sqrt(p*(1-p)/nf+z2/(4*nf*nf)) / den
	return math.Max(0, centre-half), math.Min(1, centre+half)
}

// WriteSummary writes the run in a few lines: the games, the seat-position
// win rates (1 = first to act) with their 95% intervals and edges over
// the fair share, and the mean payoff by position; then, for a game with
// seat options, the same by each option's value.
func (r *SimResult) WriteSummary(w io.Writer) {
	fmt.Fprintf(w, "%s: %d games, seed %q (game i: %s#i), %d seats, ruleset %s, bots %s\n",
		r.Def, r.Games, r.Seed, r.Seed, r.Seats, r.Rules, strings.Join(r.Bots, ","))
	r.writePrecision(w)
	if played := r.Games + r.Failed; played < r.Requested {
		fmt.Fprintf(w, "partial: interrupted after %d of %d games\n", played, r.Requested)
	}
	if r.Games > 0 {
		fmt.Fprintf(w, "moves per game: %.1f\n", float64(r.Moves)/float64(r.Games))
	}
	fair := 1 / float64(r.Seats)
	fmt.Fprintf(w, "\nwin rate by position (1 = first to act; fair share %.1f%%; edge in percentage points)\n", 100*fair)
	for p, k := range r.Wins {
		lo, hi := Wilson(k, r.Games)
		rate := 0.0
		if r.Games > 0 {
			rate = float64(k) / float64(r.Games)
		}
		fmt.Fprintf(w, "  position %d  %5.1f%%  95%% [%.1f, %.1f]  (%d/%d)  edge %+.1f  mean payoff %.4f\n",
			p+1, 100*rate, 100*lo, 100*hi, k, r.Games, 100*(rate-fair), r.Payoff[p]/math.Max(1, float64(r.Games)))
	}
	writeOptions(w, r.Options, r.Seats)
	if r.Failed > 0 {
		fmt.Fprintf(w, "\n%d games failed; first: %s\n", r.Failed, r.Failures[0])
	}
}
