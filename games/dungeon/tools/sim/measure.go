package sim

import (
	"math"
	"sort"
)

// Kind says how a measure is read: a rate (K of N, with a Wilson interval),
// a mean (of a per-game or per-event quantity, with a t interval) or a plain
// count.
type Kind string

// The kinds of measure.
const (
	KindRate  Kind = "rate"
	KindMean  Kind = "mean"
	KindCount Kind = "count"
	KindValue Kind = "value" // a derived number such as a percentile
)

// Measure is one number of the results, with everything needed to read it
// without the raw data: its group (one chart of the report), its label
// within the group, its value and, for rates and means, the sample size and
// the 95% interval.
//
// Rates are fractions in 0..1 here and in the CSVs; the report and the
// terminal print them as percentages, and differences of rates in
// percentage points.
type Measure struct {
	ID    string    `json:"id"`
	Group string    `json:"group"`
	Label string    `json:"label"`
	Kind  Kind      `json:"kind"`
	Unit  string    `json:"unit"` // UnitShare for rates; what a mean or value counts otherwise
	Value float64   `json:"value"`
	K     int64     `json:"k,omitempty"`
	N     int64     `json:"n"`
	CI    *Interval `json:"ci,omitempty"`
	// FairShare is, for a win rate, the rate it would have if nothing
	// mattered (Tally.FairShare); 0 for other measures.
	FairShare float64 `json:"fairShare,omitempty"`
}

// Edge returns a win rate's difference from its fair share, with the
// interval of the rate shifted by the same amount.
func (m Measure) Edge() (float64, Interval) {
	d := m.Value - m.FairShare
	if m.CI == nil {
		return d, Interval{d, d}
	}
	return d, Interval{m.CI.Lo - m.FairShare, m.CI.Hi - m.FairShare}
}

// Rate returns a rate measure k/n with its Wilson interval.
func Rate(id, group, label string, k, n int64) Measure {
	v := 0.0
	if n > 0 {
		v = float64(k) / float64(n)
	}
	ci := Wilson(k, n)
	return Measure{ID: id, Group: group, Label: label, Kind: KindRate, Value: v, K: k, N: n, CI: &ci}
}

// Mean returns a mean measure with its t interval.
func Mean(id, group, label string, m Moments) Measure {
	ci := m.CI()
	return Measure{ID: id, Group: group, Label: label, Kind: KindMean, Value: m.Mean(), N: m.N, CI: &ci}
}

// Count returns a plain count.
func Count(id, group, label string, n int64) Measure {
	return Measure{ID: id, Group: group, Label: label, Kind: KindCount, Value: float64(n), N: n}
}

// Comparison is one measure under ruleset A and ruleset B, on the same
// seeds, with the difference B - A and, where a test is meaningful, its
// interval, p-value and Holm-adjusted p-value.
type Comparison struct {
	ID    string  `json:"id"`
	Group string  `json:"group"`
	Label string  `json:"label"`
	Kind  Kind    `json:"kind"`
	A     Measure `json:"a"`
	B     Measure `json:"b"`
	Delta float64 `json:"delta"` // B - A (a fraction for rates)
	// Test is the test of the difference: nil where none is meaningful (a
	// percentile, a count, a rate or mean with an empty side).
	Test *Diff `json:"test,omitempty"`
	// PHolm is Test.P adjusted by Holm's method over every tested
	// comparison of the run (the family), and Significant says PHolm <
	// 0.05: with dozens of measures compared at once, the unadjusted p < 0.05
	// would flag about one in twenty unchanged measures by chance alone.
	PHolm       *float64 `json:"pHolm,omitempty"`
	Significant bool     `json:"significant"`
}

// Value returns a plain derived number (a percentile, say).
func Value(id, group, label string, v float64, n int64) Measure {
	return Measure{ID: id, Group: group, Label: label, Kind: KindValue, Value: v, N: n}
}

// Compare pairs the measures of A and B by ID (in A's order) and computes
// each difference: rates by the two-proportion test, means whose paired
// per-game differences are in paired (by ID) by the paired t-test, other
// means by Welch's approximation; values and counts get their difference
// only. The p-values are then adjusted by Holm's method over all of them.
func Compare(a, b []Measure, paired map[string]Moments, unpairedMeans map[string][2]Moments) []Comparison {
	byID := make(map[string]Measure, len(b))
	for _, m := range b {
		byID[m.ID] = m
	}
	out := make([]Comparison, 0, len(a))
	for _, ma := range a {
		mb, ok := byID[ma.ID]
		if !ok {
			continue
		}
		c := Comparison{ID: ma.ID, Group: ma.Group, Label: ma.Label, Kind: ma.Kind, A: ma, B: mb, Delta: mb.Value - ma.Value}
		var d Diff
		tested := false
		switch ma.Kind {
		case KindRate:
			d, tested = DiffRates(ma.K, ma.N, mb.K, mb.N), ma.N > 0 && mb.N > 0
			d.Test = "two-proportion z"
		case KindMean:
			if pm, ok := paired[ma.ID]; ok {
				d, tested = DiffPaired(pm), pm.N >= 2
				d.Test = "paired t"
			} else if um, ok := unpairedMeans[ma.ID]; ok {
				d, tested = DiffWelch(um[0], um[1]), um[0].N >= 2 && um[1].N >= 2
				d.Test = "Welch t"
			}
		}
		if tested {
			c.Test = &d
		}
		out = append(out, c)
	}
	holm(out)
	return out
}

// holm sets PHolm and Significant of every tested comparison by Holm's
// step-down method (Holm 1979): with the m p-values sorted ascending, the
// i-th (1-based) is adjusted to max over j <= i of min(1, (m - j + 1) p_j).
// It controls the chance of calling any unchanged measure significant at
// 5% over the whole family, whatever the dependence between the tests.
func holm(cs []Comparison) {
	var idx []int
	for i := range cs {
		if cs[i].Test != nil {
			idx = append(idx, i)
		}
	}
	sort.SliceStable(idx, func(a, b int) bool { return cs[idx[a]].Test.P < cs[idx[b]].Test.P })
	m, running := len(idx), 0.0
	for rank, i := range idx {
		running = math.Max(running, math.Min(1, float64(m-rank)*cs[i].Test.P))
		p := running
		cs[i].PHolm = &p
		cs[i].Significant = p < 0.05
	}
}
