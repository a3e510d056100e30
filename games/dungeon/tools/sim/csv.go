package sim

import (
	"bytes"
	"encoding/csv"
	"strconv"
)

func ff(v float64) string { return strconv.FormatFloat(v, 'g', 10, 64) }

// measuresCSV is every measure, one per row (ruleset B's too, when
// comparing, with ruleset "B").
func (r *Results) measuresCSV() []byte {
	var buf bytes.Buffer
	w := csv.NewWriter(&buf)
	w.Write([]string{"ruleset", "id", "group", "label", "kind", "value", "k", "n", "ci_lo", "ci_hi", "unit", "fair_share"})
	row := func(set string, m Measure) {
		lo, hi, fair := "", "", ""
		if m.CI != nil {
			lo, hi = ff(m.CI.Lo), ff(m.CI.Hi)
		}
		if m.FairShare > 0 {
			fair = ff(m.FairShare)
		}
		w.Write([]string{set, m.ID, m.Group, m.Label, string(m.Kind), ff(m.Value),
			strconv.FormatInt(m.K, 10), strconv.FormatInt(m.N, 10), lo, hi, m.Unit, fair})
	}
	for _, m := range r.Measures {
		row("A", m)
	}
	for _, m := range r.MeasuresB {
		row("B", m)
	}
	w.Flush()
	return buf.Bytes()
}

// comparisonCSV is one row per compared measure: A, B, B - A (fractions
// for rates), and where a test is meaningful its interval, p-value, the
// Holm-adjusted p-value and the test; significant is Holm-adjusted p <
// 0.05. The cells of an untested measure (a percentile) are empty.
func (r *Results) comparisonCSV() []byte {
	var buf bytes.Buffer
	w := csv.NewWriter(&buf)
	w.Write([]string{"id", "group", "label", "kind", "a", "b", "diff", "diff_ci_lo", "diff_ci_hi", "p", "significant", "p_holm", "test", "unit"})
	for _, c := range r.Comparisons {
		lo, hi, p, ph, test := "", "", "", "", ""
		if c.Test != nil {
			lo, hi, p, test = ff(c.Test.CI.Lo), ff(c.Test.CI.Hi), ff(c.Test.P), c.Test.Test
		}
		if c.PHolm != nil {
			ph = ff(*c.PHolm)
		}
		w.Write([]string{c.ID, c.Group, c.Label, string(c.Kind), ff(c.A.Value), ff(c.B.Value),
			ff(c.Delta), lo, hi, p, strconv.FormatBool(c.Significant), ph, test, c.A.Unit})
	}
	w.Flush()
	return buf.Bytes()
}

// roundsCSV is the game-length histogram: games per number of rounds.
func (r *Results) roundsCSV() []byte {
	var buf bytes.Buffer
	w := csv.NewWriter(&buf)
	head := []string{"rounds", "games"}
	if r.TallyB != nil {
		head = append(head, "games_b")
	}
	w.Write(head)
	n := len(r.Tally.RoundsHist.Counts)
	if r.TallyB != nil {
		n = max(n, len(r.TallyB.RoundsHist.Counts))
	}
	at := func(h Hist, i int) int64 {
		if i < len(h.Counts) {
			return h.Counts[i]
		}
		return 0
	}
	for i := 0; i < n; i++ {
		a := at(r.Tally.RoundsHist, i)
		b := int64(0)
		if r.TallyB != nil {
			b = at(r.TallyB.RoundsHist, i)
		}
		if a == 0 && b == 0 {
			continue
		}
		rec := []string{strconv.Itoa(i), strconv.FormatInt(a, 10)}
		if r.TallyB != nil {
			rec = append(rec, strconv.FormatInt(b, 10))
		}
		w.Write(rec)
	}
	w.Flush()
	return buf.Bytes()
}
