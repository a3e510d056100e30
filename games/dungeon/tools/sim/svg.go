package sim

import (
	"fmt"
	"html"
	"math"
	"strings"
)

// The report's charts are inline SVG written by hand: the page must open
// offline, with no script or style fetched from anywhere. Columns are sized
// from the text they hold (textWidth), so no label is clipped; the report
// test measures every text in headless Chromium to hold this to account.

const (
	chartWidth = 900
	rowHeight  = 22
	fontPx     = 12 // svg text size, set by htmlpage.CSS
	gap        = 8  // between a column's text and the next column
	minPlot    = 240
)

// textWidth estimates the width in pixels of s in a 12px sans-serif font,
// erring wide: per-character widths of DejaVu Sans (the widest of the usual
// fallbacks), rounded up.
func textWidth(s string) float64 {
	w := 0.0
	for _, r := range s {
		switch {
		case strings.ContainsRune("iljI.,:;'|!()[] ·", r):
			w += 4.2
		case strings.ContainsRune("mwMW%@—→", r):
			w += 12
		case r >= 'A' && r <= 'Z':
			w += 9
		case r < 128:
			w += 7.8
		default:
			w += 10
		}
	}
	return math.Ceil(w)
}

// barSpec is what a bar chart draws: measures of one unit, and an optional
// fair-share line.
type barSpec struct {
	title string
	ms    []Measure
	fair  float64 // > 0: a dashed line at this rate, labelled
}

// barChart draws one horizontal bar per measure, its 95% interval as a
// whisker (none for values without an interval), and the fair-share line.
// All measures share one unit; rates are drawn on 0..100%.
func barChart(s barSpec) string {
	ms := s.ms
	if len(ms) == 0 {
		return ""
	}
	unit := ms[0].Unit
	labelW, valueW := 0.0, 0.0
	maxV := s.fair
	for _, m := range ms {
		if m.Unit != unit {
			panic("sim: one chart mixes units " + unit + " and " + m.Unit + " (" + m.ID + ")")
		}
		labelW = math.Max(labelW, textWidth(m.Label))
		valueW = math.Max(valueW, textWidth(FormatValue(m)))
		hi := m.Value
		if m.CI != nil {
			hi = math.Max(hi, m.CI.Hi)
		}
		maxV = math.Max(maxV, hi)
	}
	maxV = niceMax(maxV, unit == UnitShare)
	axisText := formatAxis(maxV, unit)
	labelW += gap
	valueW = math.Max(valueW, textWidth(axisText)/2) + 2*gap
	width := float64(chartWidth)
	if plot := width - labelW - valueW; plot < minPlot {
		width = labelW + valueW + minPlot
	}
	plot := width - labelW - valueW
	x := func(v float64) float64 { return labelW + plot*math.Max(0, v)/maxV }
	top := 6
	if s.fair > 0 {
		top = 22 // room for the fair-share label
	}
	h := top + rowHeight*len(ms) + 34
	var b strings.Builder
	fmt.Fprintf(&b, `<svg class="chart" data-unit="%s" role="img" aria-label="%s" xmlns="http://www.w3.org/2000/svg" width="%.0f" height="%d" viewBox="0 0 %.0f %d">`,
		html.EscapeString(unit), html.EscapeString(s.title), width, h, width, h)
	axisY := top + len(ms)*rowHeight + 4
	if s.fair > 0 { // under the bars and their text
		fx := x(s.fair)
		label := fmt.Sprintf("fair share %.1f%%", 100*s.fair)
		half := textWidth(label) / 2
		lx := math.Min(math.Max(fx, labelW+half), width-half-2)
		fmt.Fprintf(&b, `<line class="fair" x1="%.1f" x2="%.1f" y1="%d" y2="%d"/>`, fx, fx, top-2, axisY)
		fmt.Fprintf(&b, `<text x="%.1f" y="%d" text-anchor="middle" class="fairlbl">%s</text>`, lx, top-6, html.EscapeString(label))
	}
	for i, m := range ms {
		y := top + i*rowHeight
		fmt.Fprintf(&b, `<text x="%.0f" y="%d" text-anchor="end" class="lbl">%s</text>`, labelW-gap, y+15, html.EscapeString(m.Label))
		fmt.Fprintf(&b, `<rect class="bar" x="%.0f" y="%d" width="%.1f" height="%d"><title>%s</title></rect>`,
			labelW, y+4, x(m.Value)-labelW, rowHeight-8, html.EscapeString(m.Label+": "+describeForTitle(m)))
		if m.CI != nil {
			lo, hi := x(m.CI.Lo), x(m.CI.Hi)
			fmt.Fprintf(&b, `<path class="ci" d="M%.1f %dH%.1fM%.1f %dV%dM%.1f %dV%d"/>`, lo, y+11, hi, lo, y+6, y+16, hi, y+6, y+16)
		}
		fmt.Fprintf(&b, `<text x="%.1f" y="%d" class="val">%s</text>`, math.Max(x(m.Value), x(cihi(m)))+gap, y+15, html.EscapeString(FormatValue(m)))
	}
	fmt.Fprintf(&b, `<line class="axis" x1="%.0f" x2="%.1f" y1="%d" y2="%d"/>`, labelW, x(maxV), axisY, axisY)
	fmt.Fprintf(&b, `<text x="%.0f" y="%d" class="tick">0</text><text x="%.1f" y="%d" text-anchor="middle" class="tick">%s</text>`,
		labelW, axisY+15, x(maxV), axisY+15, html.EscapeString(axisText))
	if unit != UnitShare {
		fmt.Fprintf(&b, `<text x="%.1f" y="%d" text-anchor="middle" class="tick">%s</text>`, labelW+plot/2, axisY+15, html.EscapeString(unit))
	}
	b.WriteString(`</svg>`)
	return b.String()
}

func cihi(m Measure) float64 {
	if m.CI != nil {
		return m.CI.Hi
	}
	return m.Value
}

// describeForTitle is a bar's tooltip: the value, the interval and, for a
// rate, its count.
func describeForTitle(m Measure) string {
	s := FormatValue(m)
	if iv := FormatInterval(m); iv != "" {
		s += " " + iv
	}
	if m.Kind == KindRate {
		s += fmt.Sprintf(" (%d/%d)", m.K, m.N)
	}
	return s
}

// niceMax rounds an axis maximum up to 1, 2, 2.5 or 5 times a power of ten
// (rates: to a whole 10%, at most 100%).
func niceMax(v float64, rate bool) float64 {
	if rate {
		if v <= 0 {
			return 0.1
		}
		return math.Min(1, math.Ceil(v*10-1e-9)/10)
	}
	if v <= 0 {
		return 1
	}
	p := math.Pow(10, math.Floor(math.Log10(v)))
	for _, f := range []float64{1, 2, 2.5, 5, 10} {
		if f*p >= v-1e-12 {
			return f * p
		}
	}
	return 10 * p
}

func formatAxis(v float64, unit string) string {
	if unit == UnitShare {
		return fmt.Sprintf("%.0f%%", 100*v)
	}
	return fmt.Sprintf("%.3g", v)
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
	left := textWidth(fmt.Sprint(maxC)) + gap
	const height, bottom = 200, 34
	n := hi - lo + 1
	bw := (chartWidth - left - 10) / float64(n)
	// Label every k-th bar so that the numbers never touch.
	every := 1
	for float64(every)*bw < textWidth(fmt.Sprint(hi))+6 {
		every++
	}
	var b strings.Builder
	fmt.Fprintf(&b, `<svg class="chart" data-unit="games" role="img" aria-label="%s" xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d">`,
		html.EscapeString(title), chartWidth, height+bottom, chartWidth, height+bottom)
	for i := 0; i < n; i++ {
		c := h.Counts[lo+i]
		bh := float64(height-10) * float64(c) / float64(maxC)
		fmt.Fprintf(&b, `<rect class="bar" x="%.1f" y="%.1f" width="%.1f" height="%.1f"><title>%d: %d games (%.1f%%)</title></rect>`,
			left+float64(i)*bw+1, float64(height)-bh, math.Max(1, bw-2), bh, lo+i, c, 100*float64(c)/float64(total))
		if (lo+i)%every == 0 {
			fmt.Fprintf(&b, `<text x="%.1f" y="%d" text-anchor="middle" class="tick">%d</text>`, left+(float64(i)+0.5)*bw, height+14, lo+i)
		}
	}
	fmt.Fprintf(&b, `<line class="axis" x1="%.0f" x2="%d" y1="%d" y2="%d"/>`, left, chartWidth-10, height, height)
	fmt.Fprintf(&b, `<text x="4" y="14" class="tick">%d</text><text x="%d" y="%d" text-anchor="middle" class="tick">%s</text>`,
		maxC, chartWidth/2, height+30, html.EscapeString(xLabel+" (bar height: games)"))
	b.WriteString(`</svg>`)
	return b.String()
}

// compareChart draws, per measure, the A and B values side by side with
// their intervals, and marks the differences significant after Holm's
// correction.
func compareChart(title string, cs []Comparison, fair float64) string {
	if len(cs) == 0 {
		return ""
	}
	ms := make([]Measure, 0, 2*len(cs))
	for _, c := range cs {
		a, b := c.A, c.B
		a.Label = c.Label + " · A"
		mark := ""
		if c.Significant {
			mark = " *"
		}
		b.Label = c.Label + " · B" + mark
		ms = append(ms, a, b)
	}
	return barChart(barSpec{title: title, ms: ms, fair: fair})
}
