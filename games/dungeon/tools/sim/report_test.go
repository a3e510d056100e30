package sim

import (
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// Holm's method on p = 0.01, 0.04, 0.03, 0.005 (m = 4), by hand: sorted
// 0.005, 0.01, 0.03, 0.04 times 4, 3, 2, 1 gives 0.02, 0.03, 0.06, 0.04;
// the running maximum makes them 0.02, 0.03, 0.06, 0.06. Only the first
// two stay below 0.05; an untested comparison is left out of the family.
func TestHolm(t *testing.T) {
	cs := []Comparison{
		{ID: "a", Test: &Diff{P: 0.01}}, {ID: "b", Test: &Diff{P: 0.04}}, {ID: "none"},
		{ID: "c", Test: &Diff{P: 0.03}}, {ID: "d", Test: &Diff{P: 0.005}},
	}
	holm(cs)
	want := map[string]float64{"a": 0.03, "b": 0.06, "c": 0.06, "d": 0.02}
	for _, c := range cs {
		if c.ID == "none" {
			require.Nil(t, c.PHolm)
			require.False(t, c.Significant)
			continue
		}
		require.InDeltaf(t, want[c.ID], *c.PHolm, 1e-12, "%s", c.ID)
		require.Equalf(t, want[c.ID] < 0.05, c.Significant, "%s", c.ID)
	}
}

func TestFormat(t *testing.T) {
	for p, want := range map[float64]string{0: "p < 0.001", 1e-300: "p < 0.001", 0.000999: "p < 0.001", 0.001: "p = 0.001",
		0.0042: "p = 0.004", 0.023: "p = 0.02", 0.5: "p = 0.50", 0.994: "p = 0.99", 0.996: "p > 0.99", 1: "p > 0.99"} {
		require.Equalf(t, want, FormatP(p), "%v", p)
	}
	rate := Comparison{Kind: KindRate, Delta: 0.0123, Test: &Diff{CI: Interval{-0.0004, 0.0251}}}
	require.Equal(t, "+1.2 pp", FormatDelta(rate))
	require.Equal(t, "[0.0, +2.5] pp", FormatDeltaCI(rate), "no \"-0.0\"")
	require.Equal(t, "-0.35", FormatDelta(Comparison{Kind: KindMean, Delta: -0.35}))
	require.Equal(t, "+1", FormatDelta(Comparison{Kind: KindValue, Delta: 1}))
	require.Equal(t, "—", FormatDeltaCI(Comparison{Kind: KindValue, Delta: 1}))
	m := Rate("x", "g", "l", 262, 1000)
	m.FairShare = 0.25
	require.Equal(t, "26.2%", FormatValue(m))
	// Wilson(262, 1000), by hand: centre (0.262 + 1.96²/2000) / (1 + 1.96²/1000)
	// = 0.26291, half-width 1.96·sqrt(0.262·0.738/1000 + 1.96²/4e6) / 1.00384
	// = 0.02722, so [0.2357, 0.2901]: an edge of [-1.4, +4.0] pp over 25%.
	require.Equal(t, "+1.2 pp [-1.4, +4.0]", FormatEdge(m))
}

// The report's traps, each closed: no chart mixes units, overlapping
// categories are explained, percentiles get no interval or p-value,
// differences are in percentage points, no "p=0", fair-share lines on the
// win-rate charts, and Holm's correction stated.
func TestReportIsHonest(t *testing.T) {
	weak := weakScout(t)
	cfg := testConfig(400, 2)
	cfg.B = &Ruleset{Rules: weak, Source: "weak-scout.json"}
	r := run(t, cfg)
	page := string(r.reportHTML())

	for _, g := range groupsOf(r.Measures) {
		units := map[string]bool{}
		for _, m := range filterMeasures(r.Measures, g) {
			units[m.Unit] = true
		}
		require.Lenf(t, units, 1, "group %q mixes units %v", g, units)
	}
	require.NotRegexp(t, `p ?= ?0(\.0*)?[^.0-9]`, page, "a p-value printed as 0")
	require.Contains(t, page, "p &lt; 0.001")
	require.Contains(t, page, "Holm")
	require.Contains(t, page, "multiple comparisons")
	require.Regexp(t, `[+-]\d+\.\d pp`, page)
	require.Contains(t, page, "the rows overlap the ways games end")
	require.Contains(t, page, "the shares sum to 100%")
	for _, g := range []string{GroupOrder, GroupSeat, GroupClass, GroupBot} {
		chart := regexp.MustCompile(`<svg class="chart"[^>]*aria-label="` + regexp.QuoteMeta(g) + `"[^>]*>.*?</svg>`).FindString(page)
		require.NotEmptyf(t, chart, "%s chart", g)
		require.Containsf(t, chart, `class="fair"`, "%s: fair-share line", g)
		require.Containsf(t, chart, "fair share 25.0%", "%s: fair-share label", g)
	}
	for _, c := range r.Comparisons {
		switch {
		case strings.HasPrefix(c.ID, "length.p"):
			require.Nilf(t, c.Test, "%s: a percentile is not tested", c.ID)
		case c.Kind == KindRate || c.Kind == KindMean:
			require.NotNilf(t, c.Test, "%s", c.ID)
		}
	}
	p90 := regexp.MustCompile(`<tr[^>]*><td>90th percentile</td>.*?</tr>`).FindString(page)
	require.NotEmpty(t, p90)
	require.Equal(t, 4, strings.Count(p90, "—"), "interval, test, p and Holm's p of a percentile are dashes: %s", p90)
	cls := regexp.MustCompile(`<tr[^>]*><td>scout( \*)?</td>.*?</tr>`).FindString(page)
	require.Regexp(t, `<td class=n>-\d+\.\d pp</td>`, cls, "a rate's difference in percentage points")
}

// Sanity of the fair share: a tally with no-winner games lowers it.
func TestFairShare(t *testing.T) {
	tl := &Tally{Games: 100, NoWinner: 20}
	require.InDelta(t, 0.2, tl.FairShare(4), 1e-12) // 80 games with a winner over 4 players
	require.Zero(t, (&Tally{}).FairShare(4))
}
