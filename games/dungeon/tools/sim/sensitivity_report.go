package sim

import (
	"fmt"
	"html"
	"math"
	"strings"

	"github.com/fairboard/fairboard/internal/htmlpage"
)

// reportTop is how many numbers each ranking of the report shows.
const reportTop = 15

// reportHTML renders the analysis: for each objective, the numbers that
// move it most, as a tornado chart (the down and the up nudge's effect
// with their intervals) and a table; then the nudges the ruleset refused.
func (s *Sensitivity) reportHTML() []byte {
	var b strings.Builder
	e := html.EscapeString
	b.WriteString(htmlpage.Head("Sensitivity") + "<h1>Which numbers matter</h1>\n")
	if s.Partial {
		b.WriteString("<p class=\"warn\">Partial: the analysis was stopped before every nudge was played.</p>\n")
	}
	played, refused := s.Played()
	fmt.Fprintf(&b, "<p>Every number of the ruleset moved one step (%s) down and up, each played on the same %d games (seed %q, %d players) "+
		"as the unchanged ruleset, and compared with it game by game: %d nudges played, %d refused by the ruleset. "+
		"The unchanged ruleset has a class win-rate spread of %.1f pp, a first-position edge of %s and games of %.2f rounds on average.</p>\n",
		e(s.Step), s.Games, e(s.Seed), s.Players, played, refused, 100*s.Base.Spread, pp(s.Base.FirstEdge), s.Base.Length)
	b.WriteString("<p class=\"note\">Effects are the nudged ruleset minus the unchanged one, with 95% intervals " +
		"(Student's t on the paired games; for the spread, the delta method with the highest and lowest classes taken as known). " +
		"An effect whose interval holds 0 may be noise. Blue: one step down; red: one step up.</p>\n")
	for obj := range numObjectives {
		rs := s.Ranked(obj)
		if len(rs) > reportTop {
			rs = rs[:reportTop]
		}
		fmt.Fprintf(&b, "<h2>Effect on the %s</h2>\n%s\n", objectiveLabels[obj], tornado(objectiveLabels[obj], rs, obj))
		b.WriteString("<table><tr><th>number</th><th>base</th><th>one step down</th><th>one step up</th></tr>\n")
		for _, r := range rs {
			fmt.Fprintf(&b, "<tr><td>%s</td><td>%s</td><td>%s</td><td>%s</td></tr>\n", e(r.Param), FormatNumber(r.Base),
				nudgeCell(r.Down, obj), nudgeCell(r.Up, obj))
		}
		b.WriteString("</table>\n")
	}
	if refused > 0 {
		b.WriteString("<h2>Nudges the ruleset refuses</h2>\n<table><tr><th>number</th><th>value</th><th>why</th></tr>\n")
		for _, n := range s.Nudges {
			if n.Refused != "" {
				fmt.Fprintf(&b, "<tr><td>%s</td><td>%s</td><td>%s</td></tr>\n", e(n.Param), FormatNumber(n.Value), e(n.Refused))
			}
		}
		b.WriteString("</table>\n")
	}
	b.WriteString(htmlpage.Tail)
	return []byte(b.String())
}

func nudgeCell(n *Nudge, obj int) string {
	if n == nil {
		return "refused"
	}
	return FormatNumber(n.Value) + ": " + html.EscapeString(FormatEffect(obj, n.Effects[obj]))
}

// tornado draws, per number, the down and up nudges' effects as bars
// from zero with their 95% interval whiskers.
func tornado(title string, rs []RankedParam, obj int) string {
	if len(rs) == 0 {
		return ""
	}
	scale := 1.0
	unit := " rounds"
	if obj != ObjLength {
		scale, unit = 100, " pp"
	}
	labelW := 0.0
	for _, r := range rs {
		labelW = math.Max(labelW, textWidth(r.Param))
	}
	left := labelW + 2*gap
	m := 0.0
	for _, r := range rs {
		for _, n := range []*Nudge{r.Down, r.Up} {
			if n != nil {
				e := n.Effects[obj]
				m = math.Max(m, math.Max(math.Abs(e.Lo), math.Abs(e.Hi)))
			}
		}
	}
	if m == 0 {
		m = 1
	}
	ticks := []float64{-m, -m / 2, 0, m / 2, m}
	tickLabel := func(v float64) string { return fmt.Sprintf("%+.2g%s", v*scale, unit) }
	// The outer tick labels are centred on the plot's ends: leave room for
	// their halves.
	right := math.Max(20, textWidth(tickLabel(m))/2+gap)
	left = math.Max(left, textWidth(tickLabel(-m))/2+gap)
	plotW := chartWidth - left - right
	h := len(rs)*rowHeight*2 + 40
	X := func(v float64) float64 { return left + plotW/2 + v/m*plotW/2*0.95 }
	var b strings.Builder
	fmt.Fprintf(&b, `<svg class="chart" role="img" width="%d" height="%d" viewBox="0 0 %d %d"><title>%s</title>`, chartWidth, h, chartWidth, h, html.EscapeString(title))
	for i, r := range rs {
		y := float64(i*rowHeight*2 + 4)
		fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" text-anchor="end">%s</text>`, left-gap, y+rowHeight+4, html.EscapeString(r.Param))
		for k, n := range []*Nudge{r.Down, r.Up} {
			if n == nil {
				continue
			}
			e := n.Effects[obj]
			yy := y + float64(k*rowHeight) + 3
			x0, x1 := X(0), X(e.Estimate)
			c := []string{"#1f77b4", "#d62728"}[k]
			fmt.Fprintf(&b, `<rect x="%.1f" y="%.1f" width="%.1f" height="%d" fill="%s" fill-opacity="0.7"><title>%s = %s: %s</title></rect>`,
				math.Min(x0, x1), yy, math.Abs(x1-x0), rowHeight-6, c, html.EscapeString(n.Param), FormatNumber(n.Value), html.EscapeString(FormatEffect(obj, e)))
			fmt.Fprintf(&b, `<line x1="%.1f" x2="%.1f" y1="%.1f" y2="%.1f" stroke="#222"/>`, X(e.Lo), X(e.Hi), yy+float64(rowHeight-6)/2, yy+float64(rowHeight-6)/2)
		}
	}
	fmt.Fprintf(&b, `<line x1="%.1f" x2="%.1f" y1="0" y2="%d" stroke="#555"/>`, X(0), X(0), h-30)
	for _, v := range ticks {
		fmt.Fprintf(&b, `<text x="%.1f" y="%d" text-anchor="middle">%s</text>`, X(v), h-12, tickLabel(v))
	}
	b.WriteString("</svg>")
	return b.String()
}
