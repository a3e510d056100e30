package match

import (
	"fmt"
	"math"
)

// PayoffMean returns position p's (p = position - 1) mean payoff over the
// games played and its 95% interval (normal approximation: mean ± 1.96
// standard errors, the sample standard deviation over sqrt(games)); the
// interval is the mean alone for fewer than two games.
func (r *SimResult) PayoffMean(p int) (mean, lo, hi float64) {
	n := float64(r.Games)
	if n < 1 {
		return 0, 0, 0
	}
	mean = r.Payoff[p] / n
	if n < 2 {
		return mean, mean, mean
	}
	v := (r.Payoff2[p] - n*mean*mean) / (n - 1)
	half := 1.96 * math.Sqrt(math.Max(v, 0)/n)
	return mean, mean - half, mean + half
}

// FairPayoff is the payoff every position would get in a balanced game:
// the mean over positions of their mean payoffs (0 in a two-player
// zero-sum game).
func (r *SimResult) FairPayoff() float64 {
	if r.Games < 1 {
		return 0
	}
	sum := 0.0
	for _, s := range r.Payoff {
		sum += s
	}
	return sum / float64(r.Games) / float64(len(r.Payoff))
}

// payoffEdge reports whether position p's mean payoff differs from the
// fair payoff: its 95% interval excludes it.
func (r *SimResult) payoffEdge(p int) bool {
	_, lo, hi := r.PayoffMean(p)
	fair := r.FairPayoff()
	return lo > fair || hi < fair
}

// payoffCell is a by-skill table's cell for a game scored by payoff.
func payoffCell(r *SimResult, p int) string {
	m, lo, hi := r.PayoffMean(p)
	return fmt.Sprintf("%+.3f [%+.3f, %+.3f] edge %+.3f", m, lo, hi, m-r.FairPayoff())
}
