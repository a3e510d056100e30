package sim

import "slices"

// PrecisionBatch is the number of games a run to a precision plays between
// two looks at its intervals (Config.Precision). It is fixed, so the games
// a run decides on depend on nothing but the results.
const PrecisionBatch = 2000

// headlineGroups hold the headline measures: the win rates by turn-order
// position, seat, class and bot policy.
var headlineGroups = []string{GroupOrder, GroupSeat, GroupClass, GroupBot}

// Headline reports whether m is a headline measure: a win rate by
// position, seat, class or bot policy (the class × bot cells, far smaller
// samples, are not).
func Headline(m Measure) bool { return slices.Contains(headlineGroups, m.Group) }

// HalfWidth returns half the width of m's 95% interval (0 for none).
func HalfWidth(m Measure) float64 {
	if m.CI == nil {
		return 0
	}
	return (m.CI.Hi - m.CI.Lo) / 2
}

// Precise reports whether every headline measure of the tally has a 95%
// interval half-width of at most p (a fraction). A tally without games is
// not precise.
func Precise(t *Tally, players int, p float64) bool {
	if t.Games == 0 {
		return false
	}
	for _, m := range t.Measures(players) {
		if Headline(m) && HalfWidth(m) > p {
			return false
		}
	}
	return true
}

// precise is Precise on the outcome's tallies (both, when comparing).
func (o *Outcome) precise(cfg *Config) bool {
	return Precise(o.A, cfg.Players, cfg.Precision) && (o.B == nil || Precise(o.B, cfg.Players, cfg.Precision))
}
