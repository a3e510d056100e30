package sim

import (
	"fmt"
	"html"
	"math"
	"strings"
)

// The report's charts are inline SVG written by hand: the page must open
// offline, with no script or style fetched from anywhere.

const (
	chartWidth = 720
	labelWidth = 170
	valueWidth = 150
	rowHeight  = 22
)

// barChart draws one horizontal bar per measure with its 95% interval as a
// whisker. Rates are drawn on [0, 1]; means and counts on [0, max].
func barChart(title string, ms []Measure) string {
	if len(ms) == 0 {
		return ""
	}
	maxV := 0.0
	for _, m := range ms {
		hi := m.Value
		if m.CI != nil {
			hi = math.Max(hi, m.CI.Hi)
		}
		maxV = math.Max(maxV, hi)
	}
	if ms[0].Kind == KindRate {
		maxV = math.Max(maxV, 1e-9)
		if maxV > 0.5 {
			maxV = 1
		}
	}
	if maxV <= 0 {
		maxV = 1
	}
	plot := float64(chartWidth - labelWidth - valueWidth)
	x := func(v float64) float64 { return labelWidth + plot*math.Max(0, v)/maxV }
	h := rowHeight*len(ms) + 30
	var b strings.Builder
	fmt.Fprintf(&b, `<svg class="chart" role="img" aria-label="%s" xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d">`,
		html.EscapeString(title), chartWidth, h, chartWidth, h)
	for i, m := range ms {
		y := 10 + i*rowHeight
		fmt.Fprintf(&b, `<text x="%d" y="%d" text-anchor="end" class="lbl">%s</text>`, labelWidth-8, y+14, html.EscapeString(m.Label))
		fmt.Fprintf(&b, `<rect class="bar" x="%d" y="%d" width="%.1f" height="%d"><title>%s</title></rect>`,
			labelWidth, y+3, x(m.Value)-labelWidth, rowHeight-6, html.EscapeString(m.Label+": "+formatValue(m)))
		if m.CI != nil {
			fmt.Fprintf(&b, `<line class="ci" x1="%.1f" x2="%.1f" y1="%d" y2="%d"/>`, x(m.CI.Lo), x(m.CI.Hi), y+11, y+11)
			fmt.Fprintf(&b, `<line class="ci" x1="%.1f" x2="%.1f" y1="%d" y2="%d"/>`, x(m.CI.Lo), x(m.CI.Lo), y+6, y+16)
			fmt.Fprintf(&b, `<line class="ci" x1="%.1f" x2="%.1f" y1="%d" y2="%d"/>`, x(m.CI.Hi), x(m.CI.Hi), y+6, y+16)
		}
		fmt.Fprintf(&b, `<text x="%d" y="%d" class="val">%s</text>`, chartWidth-valueWidth+6, y+14, html.EscapeString(formatValue(m)))
	}
	axisY := 10 + len(ms)*rowHeight + 4
	fmt.Fprintf(&b, `<line class="axis" x1="%d" x2="%.1f" y1="%d" y2="%d"/>`, labelWidth, x(maxV), axisY, axisY)
	fmt.Fprintf(&b, `<text x="%d" y="%d" class="tick">0</text><text x="%.1f" y="%d" text-anchor="end" class="tick">%s</text>`,
		labelWidth, axisY+14, x(maxV), axisY+14, formatAxis(maxV, ms[0].Kind))
	b.WriteString(`</svg>`)
	return b.String()
}

// histChart draws a histogram of whole-number values as vertical bars.
func histChart(title string, h Hist, xLabel string) string {
	total := h.Total()
	if total == 0 {
		return ""
	}
	lo, hi := 0, len(h.Counts)-1
	for lo < hi && h.Counts[lo] == 0 {
		lo++
	}
	for hi > lo && h.Counts[hi] == 0 {
		hi--
	}
	var maxC int64
	for _, c := range h.Counts[lo : hi+1] {
		maxC = max(maxC, c)
	}
	const height, left, bottom = 200, 50, 30
	n := hi - lo + 1
	bw := float64(chartWidth-left-10) / float64(n)
	var b strings.Builder
	fmt.Fprintf(&b, `<svg class="chart" role="img" aria-label="%s" xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d">`,
		html.EscapeString(title), chartWidth, height+bottom, chartWidth, height+bottom)
	for i := 0; i < n; i++ {
		c := h.Counts[lo+i]
		bh := float64(height-10) * float64(c) / float64(maxC)
		fmt.Fprintf(&b, `<rect class="bar" x="%.1f" y="%.1f" width="%.1f" height="%.1f"><title>%d: %d games (%.1f%%)</title></rect>`,
			left+float64(i)*bw+1, float64(height)-bh, math.Max(1, bw-2), bh, lo+i, c, 100*float64(c)/float64(total))
		if n <= 40 || i%5 == 0 {
			fmt.Fprintf(&b, `<text x="%.1f" y="%d" text-anchor="middle" class="tick">%d</text>`, left+(float64(i)+0.5)*bw, height+14, lo+i)
		}
	}
	fmt.Fprintf(&b, `<line class="axis" x1="%d" x2="%d" y1="%d" y2="%d"/>`, left, chartWidth-10, height, height)
	fmt.Fprintf(&b, `<text x="4" y="14" class="tick">%d</text><text x="%d" y="%d" text-anchor="middle" class="tick">%s</text>`,
		maxC, chartWidth/2, height+28, html.EscapeString(xLabel))
	b.WriteString(`</svg>`)
	return b.String()
}

// compareChart draws, per measure, the A and B values side by side with
// their intervals, and marks significant differences.
func compareChart(title string, cs []Comparison) string {
	if len(cs) == 0 {
		return ""
	}
	ms := make([]Measure, 0, 2*len(cs))
	for _, c := range cs {
		a, b := c.A, c.B
		a.Label = c.Label + " · A"
		mark := ""
		if c.Diff.Significant {
			mark = " *"
		}
		b.Label = c.Label + " · B" + mark
		ms = append(ms, a, b)
	}
	return barChart(title, ms)
}

// formatValue renders a measure's value for labels and tables.
func formatValue(m Measure) string {
	switch m.Kind {
	case KindRate:
		s := fmt.Sprintf("%.1f%% (%d/%d)", 100*m.Value, m.K, m.N)
		return s
	case KindMean:
		if m.CI != nil {
			return fmt.Sprintf("%.2f [%.2f, %.2f]", m.Value, m.CI.Lo, m.CI.Hi)
		}
		return fmt.Sprintf("%.2f", m.Value)
	case KindValue:
		return fmt.Sprintf("%g", m.Value)
	default:
		return fmt.Sprintf("%d", m.N)
	}
}

func formatAxis(v float64, k Kind) string {
	if k == KindRate {
		return fmt.Sprintf("%.0f%%", 100*v)
	}
	return fmt.Sprintf("%.3g", v)
}
