package sim

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// The report and the terminal print numbers the same way: rates as
// percentages, differences of rates in percentage points ("pp"), and
// p-values as "p = 0.023" or "p < 0.001" (never "p = 0").

// FormatValue renders a measure's value: "26.2%" for a rate, "13.76" for
// a mean, "14" for a percentile.
func FormatValue(m Measure) string {
	switch m.Kind {
	case KindRate:
		return fmt.Sprintf("%.1f%%", 100*m.Value)
	case KindMean:
		return fmt.Sprintf("%.2f", m.Value)
	case KindValue:
		return strconv.FormatFloat(m.Value, 'g', 6, 64)
	}
	return strconv.FormatInt(m.N, 10)
}

// FormatInterval renders a measure's 95% interval in its unit ("[25.6,
// 26.8]%" reads "[25.6%, 26.8%]"), or "" when it has none.
func FormatInterval(m Measure) string {
	if m.CI == nil {
		return ""
	}
	if m.Kind == KindRate {
		return fmt.Sprintf("[%.1f, %.1f]", 100*m.CI.Lo, 100*m.CI.Hi)
	}
	return fmt.Sprintf("[%.2f, %.2f]", m.CI.Lo, m.CI.Hi)
}

// FormatEdge renders a win rate's difference from its fair share with its
// interval: "+1.2 pp [+0.6, +1.8]".
func FormatEdge(m Measure) string {
	d, iv := m.Edge()
	return fmt.Sprintf("%s pp [%s, %s]", signed(100*d, 1), signed(100*iv.Lo, 1), signed(100*iv.Hi, 1))
}

// signed formats v with a sign and the given decimals, and 0 without one
// (not "-0.0" for a tiny negative).
func signed(v float64, decimals int) string {
	s := strconv.FormatFloat(v, 'f', decimals, 64)
	if strings.Trim(s, "-+0.") == "" {
		return strings.TrimPrefix(s, "-")
	}
	if v > 0 {
		return "+" + s
	}
	return s
}

// FormatDelta renders a comparison's B - A in the measure's unit: "+1.2 pp"
// for rates, "+0.35" for means and values.
func FormatDelta(c Comparison) string {
	switch c.Kind {
	case KindRate:
		return signed(100*c.Delta, 1) + " pp"
	case KindValue:
		return signed(c.Delta, 0)
	}
	return signed(c.Delta, 2)
}

// FormatDeltaCI renders the interval of B - A, or "—" where no test is
// meaningful.
func FormatDeltaCI(c Comparison) string {
	if c.Test == nil {
		return "—"
	}
	if c.Kind == KindRate {
		return fmt.Sprintf("[%s, %s] pp", signed(100*c.Test.CI.Lo, 1), signed(100*c.Test.CI.Hi, 1))
	}
	return fmt.Sprintf("[%s, %s]", signed(c.Test.CI.Lo, 2), signed(c.Test.CI.Hi, 2))
}

// FormatP renders a p-value: "p < 0.001" below a thousandth, three
// decimals below a hundredth ("p = 0.004"), else two ("p = 0.23"), and
// "p > 0.99" for what would round to 1.
func FormatP(p float64) string {
	switch {
	case math.IsNaN(p):
		return "—"
	case p < 0.001:
		return "p < 0.001"
	case p >= 0.995:
		return "p > 0.99"
	case p < 0.01:
		return fmt.Sprintf("p = %.3f", p)
	}
	return fmt.Sprintf("p = %.2f", p)
}
