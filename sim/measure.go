package sim

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
type Measure struct {
	ID    string    `json:"id"`
	Group string    `json:"group"`
	Label string    `json:"label"`
	Kind  Kind      `json:"kind"`
	Value float64   `json:"value"`
	K     int64     `json:"k,omitempty"`
	N     int64     `json:"n"`
	CI    *Interval `json:"ci,omitempty"`
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
// seeds, with the difference B - A and whether it is significant.
type Comparison struct {
	ID    string  `json:"id"`
	Group string  `json:"group"`
	Label string  `json:"label"`
	Kind  Kind    `json:"kind"`
	A     Measure `json:"a"`
	B     Measure `json:"b"`
	Diff  Diff    `json:"diff"`
}

// Value returns a plain derived number (a percentile, say).
func Value(id, group, label string, v float64, n int64) Measure {
	return Measure{ID: id, Group: group, Label: label, Kind: KindValue, Value: v, N: n}
}

// Compare pairs the measures of A and B by ID (in A's order) and computes
// each difference: rates by the two-proportion test, means whose paired
// per-game differences are in paired (by ID) by the paired t-test, other
// means by Welch's approximation, counts by their plain difference.
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
		c := Comparison{ID: ma.ID, Group: ma.Group, Label: ma.Label, Kind: ma.Kind, A: ma, B: mb}
		switch ma.Kind {
		case KindRate:
			c.Diff = DiffRates(ma.K, ma.N, mb.K, mb.N)
		case KindMean:
			if pm, ok := paired[ma.ID]; ok {
				c.Diff = DiffPaired(pm)
			} else if um, ok := unpairedMeans[ma.ID]; ok {
				c.Diff = DiffWelch(um[0], um[1])
			} else {
				c.Diff = Diff{Delta: mb.Value - ma.Value, P: 1}
			}
		default:
			c.Diff = Diff{Delta: mb.Value - ma.Value, CI: Interval{mb.Value - ma.Value, mb.Value - ma.Value}, P: 1}
		}
		out = append(out, c)
	}
	return out
}
