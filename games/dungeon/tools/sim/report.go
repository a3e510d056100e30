package sim

import (
	"fmt"
	"html"
	"slices"
	"strings"

	"github.com/fairboard/fairboard/internal/htmlpage"
)

// groupNotes say how to read a group: what its shares add up to, what
// overlaps, which interval is drawn.
var groupNotes = map[string]string{
	GroupOrder:            "Turn order is rolled at the start of each game. The dashed line is the fair share: the win rate every position would have if the order did not matter.",
	GroupSeat:             "The dashed line is the fair share: the win rate every seat would have if seating did not matter.",
	GroupClass:            "The dashed line is the fair share: the win rate every class would have if classes were balanced.",
	GroupBot:              "The dashed line is the fair share: the win rate every policy would have if policies did not matter.",
	GroupClassBot:         "Each class played by each bot policy; the design plays every combination equally often, so each cell compares like with like.",
	GroupSeatBot:          "Each seat played by each bot policy. The dashed line is the fair share.",
	GroupLengthBot:        "The mean length of the games each policy played in: a game counts once for each policy seated at its table, so with mixed tables these overlap (with one policy per table, as --by-skill plays, they are each table's length). Student's t interval.",
	GroupLength:           "Percentiles are whole rounds read from the games' histogram (rounds.csv); they carry no interval. The mean's interval is Student's t.",
	GroupEnds:             "Each game ends in exactly one of these ways: the shares sum to 100%.",
	GroupEndsAlso:         "These games are counted above too: the rows overlap the ways games end. When several players are tied furthest along at the end, a bracket of duels among them decides the winner, however the game ended.",
	GroupKnockoutsByClass: "Knock-outs suffered per player-game of each class, with Student's t interval.",
	GroupDuelOffers:       "Every duel offer is either cancelled or fought: the shares sum to 100% of the offers.",
	GroupDuelsFought:      "Each row has its own denominator, named in its label: duels fought, then duels with a winner.",
	GroupLoot:             "Each tier's shares sum to 100% of that tier's loot rolls.",
}

// fairGroups carry the fair-share line.
var fairGroups = []string{GroupOrder, GroupSeat, GroupClass, GroupBot, GroupClassBot, GroupSeatBot}

// reportHTML renders the self-contained report: no script, no stylesheet
// and no image is fetched; the charts are inline SVG.
func (r *Results) reportHTML() []byte {
	var b strings.Builder
	e := html.EscapeString
	b.WriteString(htmlpage.Head("Balance simulation: " + r.Config.Seed))
	b.WriteString("<h1>Balance simulation</h1>\n")
	if r.Partial {
		fmt.Fprintf(&b, "<p class=\"warn\">Partial results: the run was stopped after %d of %d games.</p>\n", r.Done, r.Range[1]-r.Range[0])
	}
	if r.FailedGames > 0 {
		fmt.Fprintf(&b, "<p class=\"warn\">%d games could not be played to their end and are left out; the first: %s</p>\n",
			r.FailedGames, e(r.Failures[0].Seed+": "+r.Failures[0].Error))
	}
	for _, a := range r.Config.Aliases {
		fmt.Fprintf(&b, "<p class=\"warn alias\">%s</p>\n", e(a))
	}
	r.writeRunTable(&b)
	fmt.Fprintf(&b, "<h2>Design</h2>\n<p class=\"design\">%s</p>\n", e(r.Config.DesignText))
	b.WriteString("<p class=\"note\">Bars are values; whiskers are 95% intervals (Wilson for rates, Student's t for means); " +
		"percentiles have none. Win rates are read against the fair share (the dashed line); their edge is the difference in percentage points (pp). " +
		"Every rate here can be recomputed from <code>players.csv</code> (one row per player and game; " +
		"<code>players_b.csv</code> for ruleset B).</p>\n")
	if r.Comparisons != nil {
		r.writeComparison(&b)
	}
	title := "Results"
	if r.Comparisons != nil {
		title = "Ruleset A in detail"
	}
	fmt.Fprintf(&b, "<h2>%s</h2>\n", title)
	fair := r.Tally.FairShare(r.Config.Players)
	for _, g := range groupsOf(r.Measures) {
		ms := filterMeasures(r.Measures, g)
		fmt.Fprintf(&b, "<h3>%s</h3>\n", e(g))
		if n, ok := groupNotes[g]; ok {
			fmt.Fprintf(&b, "<p class=\"note\">%s</p>\n", e(n))
		}
		if g == GroupLength {
			b.WriteString(histChart("Games by length in rounds", r.Tally.RoundsHist, "rounds"))
		} else {
			f := 0.0
			if slices.Contains(fairGroups, g) {
				f = fair
			}
			for _, run := range byUnit(ms) {
				b.WriteString(barChart(barSpec{title: g, ms: run, fair: f}))
			}
		}
		b.WriteString("\n")
		if g == GroupClassBot {
			writeClassBotTable(&b, r.Tally, ms)
			continue
		}
		writeMeasureTable(&b, ms)
	}
	b.WriteString(htmlpage.Tail)
	return []byte(b.String())
}

func (r *Results) writeRunTable(b *strings.Builder) {
	e := html.EscapeString
	b.WriteString("<table class=\"run\">")
	row := func(k, v string) { fmt.Fprintf(b, "<tr><th>%s</th><td>%s</td></tr>", e(k), v) }
	row("games", fmt.Sprintf("%d (indices %d–%d)", r.Done, r.Range[0], r.Range[0]+r.Done-1))
	row("seed", "<code>"+e(r.Config.Seed)+"</code>; game i plays <code>"+e(r.Config.SeedScheme)+"</code>")
	row("players", fmt.Sprint(r.Config.Players))
	row("classes", e(strings.Join(r.Config.Classes, ", ")))
	row("bots", e(strings.Join(r.Config.Bots, ", ")))
	row("design", "<code>"+e(r.Config.Design)+"</code>")
	row("ruleset A", e(r.Rules.Source)+" <code>"+e(short(r.Rules.Hash))+"</code>")
	if r.CompareWith != nil {
		row("ruleset B", e(r.CompareWith.Source)+" <code>"+e(short(r.CompareWith.Hash))+"</code>")
	}
	row("command", "<code>"+e(strings.Join(r.Command, " "))+"</code>")
	row("version", e(r.Version))
	for _, n := range []struct {
		what string
		r    *Replay
	}{{"shortest game", r.Shortest}, {"longest game", r.Longest}} {
		if n.r != nil {
			row(n.what, fmt.Sprintf("%d rounds: <code>%s</code>", n.r.Rounds, e(n.r.Command)))
		}
	}
	b.WriteString("</table>\n")
}

func (r *Results) writeComparison(b *strings.Builder) {
	e := html.EscapeString
	tested := 0
	for _, c := range r.Comparisons {
		if c.Test != nil {
			tested++
		}
	}
	fmt.Fprintf(b, "<h2>Ruleset B against A</h2>\n<p class=\"note holm\">Same seeds for both (common random numbers). "+
		"Differences are B − A, in percentage points (pp) for rates. Rates are tested by the two-proportion z-test, "+
		"per-game means by the paired t-test, other means by Welch's t-test; percentiles are not tested. "+
		"<strong>%d measures are tested at once, so the p-values are corrected for multiple comparisons by Holm's method</strong>: "+
		"<span class=\"sig\">*</span> marks a difference whose Holm-adjusted p-value is below 0.05, which keeps the chance of "+
		"flagging any unchanged measure below 5%%.</p>\n", tested)
	fair := r.Tally.FairShare(r.Config.Players)
	for _, g := range groupsOf(r.Measures) {
		cs := filterComparisons(r.Comparisons, g)
		if len(cs) == 0 {
			continue
		}
		f := 0.0
		if slices.Contains(fairGroups, g) {
			f = fair
		}
		fmt.Fprintf(b, "<h3>%s</h3>\n%s\n", e(g), compareChart(g, cs, f))
		b.WriteString("<table class=\"cmp\"><tr><th></th><th>A</th><th>B</th><th>B − A</th><th>95% interval</th><th>test</th><th>p</th><th>p (Holm)</th></tr>")
		for _, c := range cs {
			sig, mark := "", ""
			if c.Significant {
				sig, mark = " class=\"sig\"", " *"
			}
			test, p, ph := "—", "—", "—"
			if c.Test != nil {
				test, p = c.Test.Test, FormatP(c.Test.P)
			}
			if c.PHolm != nil {
				ph = FormatP(*c.PHolm)
			}
			fmt.Fprintf(b, "<tr%s><td>%s%s</td><td class=n>%s</td><td class=n>%s</td><td class=n>%s</td><td class=n>%s</td><td>%s</td><td class=n>%s</td><td class=n>%s</td></tr>",
				sig, e(c.Label), mark, e(FormatValue(c.A)), e(FormatValue(c.B)), e(FormatDelta(c)), e(FormatDeltaCI(c)), e(test), e(p), e(ph))
		}
		b.WriteString("</table>\n")
	}
}

// writeMeasureTable lists a group's measures: value, interval, count and,
// for win rates, the edge over the fair share.
func writeMeasureTable(b *strings.Builder, ms []Measure) {
	e := html.EscapeString
	win := ms[0].FairShare > 0
	b.WriteString("<table><tr><th></th><th>value</th><th>95% interval</th><th>n</th>")
	if win {
		b.WriteString("<th>edge over the fair share</th>")
	}
	b.WriteString("</tr>")
	for _, m := range ms {
		iv := FormatInterval(m)
		if iv == "" {
			iv = "—"
		}
		n := fmt.Sprint(m.N)
		if m.Kind == KindRate {
			n = fmt.Sprintf("%d/%d", m.K, m.N)
		}
		fmt.Fprintf(b, "<tr><td>%s</td><td class=n>%s</td><td class=n>%s</td><td class=n>%s</td>", e(m.Label), e(FormatValue(m)), e(iv), e(n))
		if win {
			fmt.Fprintf(b, "<td class=n>%s</td>", e(FormatEdge(m)))
		}
		b.WriteString("</tr>")
	}
	b.WriteString("</table>\n")
}

// writeClassBotTable writes the class × bot table: a row per class, a
// column per policy, each cell the win rate, its interval and count.
func writeClassBotTable(b *strings.Builder, t *Tally, ms []Measure) {
	e := html.EscapeString
	byID := map[string]Measure{}
	for _, m := range ms {
		byID[m.ID] = m
	}
	bots := sortedKeys(t.Bot)
	b.WriteString("<table class=\"classbot\"><tr><th>class \\ bot</th>")
	for _, bt := range bots {
		fmt.Fprintf(b, "<th>%s</th>", e(bt))
	}
	b.WriteString("</tr>")
	for _, c := range sortedKeys(t.ClassBot) {
		fmt.Fprintf(b, "<tr><th>%s</th>", e(c))
		for _, bt := range bots {
			m, ok := byID["win.classBot."+c+"."+bt]
			if !ok {
				b.WriteString("<td class=n>—</td>")
				continue
			}
			fmt.Fprintf(b, "<td class=n>%s %s<br>%d/%d, %s</td>", e(FormatValue(m)), e(FormatInterval(m)), m.K, m.N, e(FormatEdge(m)))
		}
		b.WriteString("</tr>")
	}
	b.WriteString("</table>\n")
}

// byUnit splits measures into runs of one unit, in order: one chart each.
func byUnit(ms []Measure) [][]Measure {
	var out [][]Measure
	for _, m := range ms {
		if n := len(out); n > 0 && out[n-1][0].Unit == m.Unit {
			out[n-1] = append(out[n-1], m)
			continue
		}
		out = append(out, []Measure{m})
	}
	return out
}

func short(hash string) string {
	if len(hash) > 12 {
		return hash[:12]
	}
	return hash
}

// groupsOf returns the groups of ms in first-seen order.
func groupsOf(ms []Measure) []string {
	var out []string
	seen := map[string]bool{}
	for _, m := range ms {
		if !seen[m.Group] {
			seen[m.Group] = true
			out = append(out, m.Group)
		}
	}
	return out
}

func filterMeasures(ms []Measure, group string) []Measure {
	var out []Measure
	for _, m := range ms {
		if m.Group == group {
			out = append(out, m)
		}
	}
	return out
}

func filterComparisons(cs []Comparison, group string) []Comparison {
	var out []Comparison
	for _, c := range cs {
		if c.Group == group {
			out = append(out, c)
		}
	}
	return out
}
