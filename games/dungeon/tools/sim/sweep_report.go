package sim

import (
	"fmt"
	"html"
	"math"
	"sort"
	"strings"

	"github.com/fairboard/fairboard/internal/htmlpage"
)

// Balance are the balance objectives of a run: the spread of the class
// win rates (highest minus lowest), the first turn-order position's edge
// over the fair share, both fractions, and the mean game length in rounds.
type Balance struct {
	Spread, FirstEdge, Length float64
}

// BalanceOf computes the balance objectives of a tally.
func BalanceOf(t *Tally, players int) Balance {
	var b Balance
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, w := range t.Class {
		if w.Played == 0 {
			continue
		}
		r := float64(w.Won) / float64(w.Played)
		lo, hi = math.Min(lo, r), math.Max(hi, r)
	}
	if hi >= lo {
		b.Spread = hi - lo
	}
	if t.Order[0].Played > 0 {
		b.FirstEdge = float64(t.Order[0].Won)/float64(t.Order[0].Played) - t.FairShare(players)
	}
	b.Length = t.Rounds.Mean()
	return b
}

// series is one line of a sweep chart: a value and a 95% band per x.
type series struct {
	name      string
	y, lo, hi []float64
}

var palette = []string{"#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2", "#17becf"}

// lineChart draws series against numeric x values, each with its interval
// band, and a dashed reference line (fair, per x) if not nil. pct prints
// the y axis in percent.
func lineChart(title, xLabel string, xs []float64, ss []series, fair []float64, pct bool) string {
	const w, h, left, top, bottom = chartWidth, 300, 70, 30, 40
	right := 30.0
	for _, s := range ss {
		right = math.Max(right, textWidth(s.name)+2*gap)
	}
	if fair != nil {
		right = math.Max(right, textWidth(fairLabel)+2*gap)
	}
	plotW, plotH := w-left-right, float64(h-top-bottom)
	xmin, xmax := xs[0], xs[len(xs)-1]
	for _, x := range xs {
		xmin, xmax = math.Min(xmin, x), math.Max(xmax, x)
	}
	if xmax == xmin {
		xmin, xmax = xmin-1, xmax+1
	}
	ymin, ymax := math.Inf(1), math.Inf(-1)
	for _, s := range ss {
		for i := range s.y {
			ymin, ymax = math.Min(ymin, s.lo[i]), math.Max(ymax, s.hi[i])
		}
	}
	for _, f := range fair {
		ymin, ymax = math.Min(ymin, f), math.Max(ymax, f)
	}
	pad := (ymax - ymin) * 0.08
	if pad == 0 {
		pad = math.Max(math.Abs(ymax)*0.1, 0.01)
	}
	ymin, ymax = ymin-pad, ymax+pad
	if pct {
		ymin = math.Max(ymin, 0)
	}
	X := func(x float64) float64 { return left + (x-xmin)/(xmax-xmin)*plotW }
	Y := func(y float64) float64 { return top + (1-(y-ymin)/(ymax-ymin))*plotH }
	var b strings.Builder
	fmt.Fprintf(&b, `<svg class="chart" role="img" width="%d" height="%d" viewBox="0 0 %d %d"><title>%s</title>`, w, h, w, h, html.EscapeString(title))
	fmt.Fprintf(&b, `<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="#999"/>`, left, h-bottom, left+int(plotW), h-bottom)
	for k := 0; k <= 4; k++ {
		v := ymin + (ymax-ymin)*float64(k)/4
		lab := fmt.Sprintf("%.1f", v)
		if pct {
			lab = fmt.Sprintf("%.1f%%", 100*v)
		}
		fmt.Fprintf(&b, `<text x="%d" y="%.1f" text-anchor="end">%s</text><line x1="%d" x2="%.1f" y1="%.1f" y2="%.1f" stroke="#eee"/>`,
			left-gap, Y(v)+4, lab, left, left+plotW, Y(v), Y(v))
	}
	for _, x := range xs {
		fmt.Fprintf(&b, `<text x="%.1f" y="%d" text-anchor="middle">%s</text>`, X(x), h-bottom+16, FormatNumber(x))
	}
	fmt.Fprintf(&b, `<text x="%.1f" y="%d" text-anchor="middle">%s</text>`, left+plotW/2, h-4, html.EscapeString(xLabel))
	if fair != nil {
		var pts []string
		for i, x := range xs {
			pts = append(pts, fmt.Sprintf("%.1f,%.1f", X(x), Y(fair[i])))
		}
		fmt.Fprintf(&b, `<polyline class="fair" points="%s" fill="none" stroke="#555" stroke-dasharray="5,4"/>`, strings.Join(pts, " "))
	}
	// Each line is named at its right end; names whose lines end close
	// together are moved apart (spreadLabels), the fair share's too.
	last := len(xs) - 1
	var ends []lineLabel
	if fair != nil {
		ends = append(ends, lineLabel{y: Y(fair[last]), text: fairLabel, color: "#555"})
	}
	for k, s := range ss {
		c := palette[k%len(palette)]
		var band, line []string
		for i, x := range xs {
			band = append(band, fmt.Sprintf("%.1f,%.1f", X(x), Y(s.hi[i])))
			line = append(line, fmt.Sprintf("%.1f,%.1f", X(x), Y(s.y[i])))
		}
		for i := len(xs) - 1; i >= 0; i-- {
			band = append(band, fmt.Sprintf("%.1f,%.1f", X(xs[i]), Y(s.lo[i])))
		}
		fmt.Fprintf(&b, `<polygon points="%s" fill="%s" fill-opacity="0.15" stroke="none"/>`, strings.Join(band, " "), c)
		fmt.Fprintf(&b, `<polyline points="%s" fill="none" stroke="%s" stroke-width="2"/>`, strings.Join(line, " "), c)
		ends = append(ends, lineLabel{y: Y(s.y[last]), text: s.name, color: c})
	}
	spreadLabels(ends, float64(top)/2, float64(h-bottom))
	for _, e := range ends {
		fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" fill="%s">%s</text>`, X(xs[last])+gap, e.y+4, e.color, html.EscapeString(e.text))
	}
	b.WriteString("</svg>")
	return b.String()
}

// fairLabel names the fair-share line.
const fairLabel = "fair share"

// lineLabel is the name written at the right end of a line, centred on y.
type lineLabel struct {
	y           float64
	text, color string
}

// labelGap is the least distance between the centres of two end labels
// (12-pixel text and a little air).
const labelGap = 15

// spreadLabels moves the labels apart so that their centres are at least
// labelGap apart, each as near its line's end as it can be, and all within
// lo..hi (if they fit); it sorts them by y.
func spreadLabels(ls []lineLabel, lo, hi float64) {
	sort.SliceStable(ls, func(i, j int) bool { return ls[i].y < ls[j].y })
	for i := range ls {
		ls[i].y = math.Max(ls[i].y, lo)
		if i > 0 {
			ls[i].y = math.Max(ls[i].y, ls[i-1].y+labelGap)
		}
	}
	for i := len(ls) - 1; i >= 0; i-- {
		ls[i].y = math.Min(ls[i].y, hi)
		if i < len(ls)-1 {
			ls[i].y = math.Min(ls[i].y, ls[i+1].y-labelGap)
		}
	}
}

// heatMap draws a grid of values: rows are ys (param2), columns xs
// (param); darker is further from the best (lowest |v|).
func heatMap(title, xLabel, yLabel string, xs, ys []float64, v func(i, j int) float64, format func(float64) string) string {
	const cell, cellH, top = 70, 30, 30
	left := int(math.Max(80, textWidth(yLabel)+2*gap))
	w, h := left+cell*len(xs)+20, top+cellH*len(ys)+50
	w = max(w, int(textWidth(xLabel))+left)
	maxAbs := 0.0
	for i := range xs {
		for j := range ys {
			maxAbs = math.Max(maxAbs, math.Abs(v(i, j)))
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, `<svg class="chart heat" role="img" width="%d" height="%d" viewBox="0 0 %d %d"><title>%s</title>`, w, h, w, h, html.EscapeString(title))
	for j, y := range ys {
		fmt.Fprintf(&b, `<text x="%d" y="%d" text-anchor="end">%s</text>`, left-gap, top+cellH*j+cellH/2+4, FormatNumber(y))
		for i := range xs {
			a := 0.0
			if maxAbs > 0 {
				a = math.Abs(v(i, j)) / maxAbs
			}
			fmt.Fprintf(&b, `<rect x="%d" y="%d" width="%d" height="%d" fill="#d62728" fill-opacity="%.2f" stroke="#fff"/>`,
				left+cell*i, top+cellH*j, cell, cellH, 0.05+0.8*a)
			fmt.Fprintf(&b, `<text x="%d" y="%d" text-anchor="middle">%s</text>`, left+cell*i+cell/2, top+cellH*j+cellH/2+4, format(v(i, j)))
		}
	}
	for i, x := range xs {
		fmt.Fprintf(&b, `<text x="%d" y="%d" text-anchor="middle">%s</text>`, left+cell*i+cell/2, top+cellH*len(ys)+16, FormatNumber(x))
	}
	fmt.Fprintf(&b, `<text x="%d" y="%d">%s</text>`, left, h-6, html.EscapeString(xLabel+" →"))
	fmt.Fprintf(&b, `<text x="%d" y="%d">%s</text>`, 4, top-10, html.EscapeString(yLabel+" ↓"))
	b.WriteString("</svg>")
	return b.String()
}

func pp(v float64) string { return fmt.Sprintf("%+.1f pp", 100*v) }

// reportHTML renders the sweep's report: each headline measure against
// the value, with its 95% band and the fair share; for a grid, heat maps
// of the balance objectives.
func (s *Sweep) reportHTML() []byte {
	var b strings.Builder
	e := html.EscapeString
	b.WriteString(htmlpage.Head("Sweep: "+s.Param) + "<h1>Sweep of " + e(s.Param))
	if s.Param2 != "" {
		b.WriteString(" × " + e(s.Param2))
	}
	b.WriteString("</h1>\n")
	if s.Partial || len(s.Points) == 0 {
		b.WriteString("<p class=\"warn\">Partial: the sweep was stopped before every value was played.</p>\n")
	}
	if len(s.Points) == 0 {
		b.WriteString(htmlpage.Tail)
		return []byte(b.String())
	}
	first := s.Points[0].Results
	fmt.Fprintf(&b, "<p>Every value plays the same games: seed %q (game i: %s), %d players; %s. The base ruleset has %s = %s",
		e(s.Seed), e(first.Config.SeedScheme), s.Players, e(first.Config.DesignText), e(s.Param), FormatNumber(s.Base))
	if s.Param2 != "" {
		fmt.Fprintf(&b, " and %s = %s", e(s.Param2), FormatNumber(s.Base2))
	}
	b.WriteString(". Rates are percentages; bands and intervals are 95% (Wilson for rates, Student's t for means).</p>\n<table><tr><th>value</th>")
	if s.Param2 != "" {
		b.WriteString("<th>value2</th>")
	}
	b.WriteString("<th>games</th><th>class spread</th><th>first-position edge</th><th>mean rounds</th></tr>\n")
	for _, p := range s.Points {
		bal := BalanceOf(p.Results.Tally, s.Players)
		fmt.Fprintf(&b, "<tr><td>%s</td>", FormatNumber(p.Value))
		if s.Param2 != "" {
			fmt.Fprintf(&b, "<td>%s</td>", FormatNumber(p.Value2))
		}
		fmt.Fprintf(&b, "<td>%d</td><td>%.1f pp</td><td>%s</td><td>%.2f</td></tr>\n", p.Results.Done, 100*bal.Spread, pp(bal.FirstEdge), bal.Length)
	}
	b.WriteString("</table>\n")
	if s.Param2 == "" {
		s.writeLines(&b)
	} else {
		s.writeHeat(&b)
	}
	b.WriteString(htmlpage.Tail)
	return []byte(b.String())
}

// writeLines charts the headline groups and the mean length against the
// value.
func (s *Sweep) writeLines(b *strings.Builder) {
	xs := s.Values[:len(s.Points)]
	for _, g := range append(append([]string{}, headlineGroups...), GroupLength) {
		var ss []series
		var fair []float64
		for _, m := range filterMeasures(s.Points[0].Results.Measures, g) {
			if g == GroupLength && m.ID != "length.mean" {
				continue
			}
			sr := series{name: m.Label}
			for _, p := range s.Points {
				pm := measureByID(p.Results.Measures, m.ID)
				lo, hi := pm.Value, pm.Value
				if pm.CI != nil {
					lo, hi = pm.CI.Lo, pm.CI.Hi
				}
				sr.y, sr.lo, sr.hi = append(sr.y, pm.Value), append(sr.lo, lo), append(sr.hi, hi)
			}
			ss = append(ss, sr)
		}
		if len(ss) == 0 {
			continue
		}
		if g != GroupLength {
			for _, p := range s.Points {
				fair = append(fair, p.Results.Tally.FairShare(s.Players))
			}
		}
		fmt.Fprintf(b, "<h2>%s</h2>\n%s\n", html.EscapeString(g), lineChart(g, s.Param, xs, ss, fair, g != GroupLength))
	}
}

// writeHeat draws heat maps of the balance objectives and of each class's
// win rate over the grid.
func (s *Sweep) writeHeat(b *strings.Builder) {
	xs, ys := s.Values, s.Values2
	bal := func(i, j int) Balance { return BalanceOf(s.At(i, j).Results.Tally, s.Players) }
	maps := []struct {
		title string
		v     func(i, j int) float64
		f     func(float64) string
	}{
		{"Spread of class win rates (highest − lowest)", func(i, j int) float64 { return bal(i, j).Spread },
			func(v float64) string { return fmt.Sprintf("%.1f pp", 100*v) }},
		{"First-position edge over the fair share", func(i, j int) float64 { return bal(i, j).FirstEdge }, pp},
	}
	for _, c := range filterMeasures(s.Points[0].Results.Measures, GroupClass) {
		id := c.ID
		maps = append(maps, struct {
			title string
			v     func(i, j int) float64
			f     func(float64) string
		}{"Win rate of " + c.Label + " minus the fair share", func(i, j int) float64 {
			r := s.At(i, j).Results
			return measureByID(r.Measures, id).Value - r.Tally.FairShare(s.Players)
		}, pp})
	}
	b.WriteString("<p class=\"note\">Each cell is one run; the redder, the further from balance. Cells read as estimates: " +
		"a class's win rate has a 95% interval of about ±" + fmt.Sprintf("%.1f", 100*typicalHalfWidth(s)) + " pp here (see sweep.csv).</p>\n")
	for _, m := range maps {
		fmt.Fprintf(b, "<h2>%s</h2>\n%s\n", html.EscapeString(m.title), heatMap(m.title, s.Param, s.Param2, xs, ys, m.v, m.f))
	}
}

// typicalHalfWidth is the largest half-width of a class win rate over the
// points.
func typicalHalfWidth(s *Sweep) float64 {
	w := 0.0
	for _, p := range s.Points {
		for _, m := range filterMeasures(p.Results.Measures, GroupClass) {
			w = math.Max(w, HalfWidth(m))
		}
	}
	return w
}

func measureByID(ms []Measure, id string) Measure {
	for _, m := range ms {
		if m.ID == id {
			return m
		}
	}
	return Measure{ID: id}
}
