package sim

import (
	"fmt"
	"html"
	"math"
	"strings"

	"github.com/fairboard/fairboard/games/dungeon/tools/bot"

	"github.com/fairboard/fairboard/internal/htmlpage"
)

// maxSearch bounds N of a --by-skill level (the search bot's own bound).
const maxSearch = bot.MaxSimulations

// reportHTML renders a by-skill run: what was played, each class's edge
// at each level (a chart and a table), and the verdicts.
func (s *Skill) reportHTML() []byte {
	var b strings.Builder
	e := html.EscapeString
	b.WriteString(htmlpage.Head("Balance by skill") + "<h1>Balance by skill</h1>\n")
	if s.Partial {
		b.WriteString("<p class=\"warn\">Partial: the run was stopped before every level was played; the levels shown are complete.</p>\n")
	}
	names := make([]string, len(s.Levels))
	for i, l := range s.Levels {
		names[i] = "<code>" + e(l.Name) + "</code>"
	}
	fmt.Fprintf(&b, "<p>The same %d games (seed <code>%s</code>, %d players, classes rotated by the balanced design) played at %d skill levels, "+
		"every seat of a table the same bot: %s.</p>\n", s.Games, e(s.Seed), s.Players, len(s.Levels), strings.Join(names, ", "))
	fmt.Fprintf(&b, "<p class=\"note\">A class's edge is its win rate less the fair share, with a 95%% interval (delta method). "+
		"The difference of edges between a level and the first is computed game by game on the same seeds; its interval is "+
		"adjusted across the classes by Holm's method. The edge <b>holds</b> under skill when that interval lies inside ±%s pp, "+
		"<b>changes</b> when it lies outside, and is <b>inconclusive</b> otherwise, with the games per level that would settle it.</p>\n",
		FormatNumber(100*s.Margin))
	b.WriteString(s.edgeChart())
	b.WriteString("<h2>Edges by level</h2>\n<table><tr><th>class</th><th>level</th><th>win rate</th><th>edge</th>" +
		"<th>difference from " + names[0] + "</th><th>Holm's p</th><th>verdict</th></tr>\n")
	for _, ed := range s.Edges {
		diff, p, verdict := "—", "—", "—"
		if d := s.diff(ed.Class, ed.Level); d != nil {
			diff = fmt.Sprintf("%+.1f pp [%+.1f, %+.1f]", 100*d.Diff, 100*d.Lo, 100*d.Hi)
			p = FormatP(d.PHolm)
			verdict = d.Verdict
			if d.Verdict == Inconclusive {
				if d.Settle > 0 {
					verdict += fmt.Sprintf(" (about %d games would settle it)", d.Settle)
				} else {
					verdict += " (on the margin: no number of games settles it)"
				}
			}
		}
		fmt.Fprintf(&b, "<tr><td>%s</td><td>%s</td><td class=n>%.1f%%</td><td class=n>%+.1f pp [%+.1f, %+.1f]</td><td class=n>%s</td><td class=n>%s</td><td>%s</td></tr>\n",
			e(ed.Class), e(ed.Level), 100*ed.Rate, 100*ed.Edge, 100*ed.Lo, 100*ed.Hi, e(diff), e(p), e(verdict))
	}
	b.WriteString("</table>\n<h2>Each level's headlines</h2>\n")
	for _, l := range s.Levels {
		fmt.Fprintf(&b, "<h3><code>%s</code></h3>\n", e(l.Name))
		for _, g := range []string{GroupClass, GroupSeat, GroupLength} {
			fmt.Fprintf(&b, "<h4>%s</h4>\n", e(g))
			writeMeasureTable(&b, filterMeasures(l.Results.Measures, g))
		}
	}
	b.WriteString(htmlpage.Tail)
	return []byte(b.String())
}

// edgeChart draws each class's edge at each level as a dot with its 95%
// whisker on an axis in percentage points, around 0 (the fair share),
// with the margin shaded.
func (s *Skill) edgeChart() string {
	if len(s.Edges) == 0 {
		return ""
	}
	labelW := 0.0
	m := s.Margin
	for _, ed := range s.Edges {
		labelW = math.Max(labelW, textWidth(ed.Class+" · "+ed.Level))
		m = math.Max(m, math.Max(math.Abs(ed.Lo), math.Abs(ed.Hi)))
	}
	m *= 1.1
	tick := func(v float64) string { return fmt.Sprintf("%+.0f pp", 100*v) }
	left := labelW + 2*gap
	right := textWidth(tick(m))/2 + gap
	left = math.Max(left, textWidth(tick(-m))/2+gap)
	plotW := chartWidth - left - right
	X := func(v float64) float64 { return left + plotW/2 + v/m*plotW/2 }
	h := len(s.Edges)*rowHeight + 40
	var b strings.Builder
	fmt.Fprintf(&b, `<svg class="chart" role="img" width="%d" height="%d" viewBox="0 0 %d %d" aria-label="Edge by class and level"><title>Edge by class and level</title>`,
		chartWidth, h, chartWidth, h)
	fmt.Fprintf(&b, `<rect x="%.1f" y="0" width="%.1f" height="%d" fill="#2ca02c" fill-opacity="0.12"/>`, X(-s.Margin), X(s.Margin)-X(-s.Margin), h-30)
	fmt.Fprintf(&b, `<line class="fair" x1="%.1f" x2="%.1f" y1="0" y2="%d" stroke="#555" stroke-dasharray="4 3"/>`, X(0), X(0), h-30)
	for i, ed := range s.Edges {
		y := float64(i*rowHeight) + float64(rowHeight)/2 + 2
		c := palette[ed.level%len(palette)]
		fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" text-anchor="end">%s</text>`, left-gap, y+4, html.EscapeString(ed.Class+" · "+ed.Level))
		fmt.Fprintf(&b, `<line x1="%.1f" x2="%.1f" y1="%.1f" y2="%.1f" stroke="%s" stroke-width="2"/>`, X(ed.Lo), X(ed.Hi), y, y, c)
		fmt.Fprintf(&b, `<circle cx="%.1f" cy="%.1f" r="4" fill="%s"><title>%s · %s: %+.1f pp [%+.1f, %+.1f]</title></circle>`,
			X(ed.Edge), y, c, html.EscapeString(ed.Class), html.EscapeString(ed.Level), 100*ed.Edge, 100*ed.Lo, 100*ed.Hi)
	}
	for _, v := range []float64{-m, -m / 2, 0, m / 2, m} {
		fmt.Fprintf(&b, `<text class="tick" x="%.1f" y="%d" text-anchor="middle">%s</text>`, X(v), h-12, tick(v))
	}
	b.WriteString("</svg>\n")
	return b.String()
}
