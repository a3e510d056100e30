package sim

import (
	"fmt"
	"html"
	"strings"
)

const reportCSS = `body{font:14px/1.45 system-ui,sans-serif;margin:2em auto;max-width:980px;color:#222}
h1{font-size:1.6em}h2{margin-top:2em;border-bottom:1px solid #ddd}
table{border-collapse:collapse;margin:.5em 0}td,th{padding:2px 10px;border-bottom:1px solid #eee;text-align:left}
td.n{text-align:right;font-variant-numeric:tabular-nums}
.warn{background:#fff3cd;padding:.6em 1em;border-left:4px solid #e0a800}
.sig{color:#b00;font-weight:600}code{background:#f4f4f4;padding:1px 4px}
svg .bar{fill:#4a7fb5}svg .ci{stroke:#222;stroke-width:1.5}svg .axis{stroke:#888}
svg text{font:12px system-ui,sans-serif;fill:#222}svg .tick{fill:#666}`

// reportHTML renders the self-contained report: no script, no stylesheet
// and no image is fetched; the charts are inline SVG.
func (r *Results) reportHTML() []byte {
	var b strings.Builder
	e := html.EscapeString
	b.WriteString("<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">")
	b.WriteString("<title>Balance simulation: " + e(r.Config.Seed) + "</title><style>" + reportCSS + "</style></head><body>\n")
	fmt.Fprintf(&b, "<h1>Balance simulation</h1>\n")
	if r.Partial {
		fmt.Fprintf(&b, "<p class=\"warn\">Partial results: the run was stopped after %d of %d games.</p>\n", r.Done, r.Range[1]-r.Range[0])
	}
	if r.FailedGames > 0 {
		fmt.Fprintf(&b, "<p class=\"warn\">%d games could not be played to their end and are left out; the first: %s</p>\n",
			r.FailedGames, e(r.Failures[0].Seed+": "+r.Failures[0].Error))
	}
	b.WriteString("<table>")
	row := func(k, v string) { fmt.Fprintf(&b, "<tr><th>%s</th><td>%s</td></tr>", e(k), v) }
	row("games", fmt.Sprintf("%d (indices %d–%d)", r.Done, r.Range[0], r.Range[0]+r.Done-1))
	row("seed", "<code>"+e(r.Config.Seed)+"</code>; game i plays <code>"+e(r.Config.SeedScheme)+"</code>")
	row("players", fmt.Sprint(r.Config.Players))
	row("classes", e(strings.Join(r.Config.Classes, ", ")))
	row("bots", e(strings.Join(r.Config.Bots, ", ")))
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

	if r.Comparisons != nil {
		b.WriteString("<h2>Ruleset B against A</h2>\n<p>Same seeds for both (common random numbers). " +
			"<span class=\"sig\">*</span> marks a difference significant at 5%: rates by the two-proportion test, " +
			"per-game means by the paired t-test, other means by Welch's test.</p>\n")
		for _, g := range groupsOf(r.Measures) {
			cs := filterComparisons(r.Comparisons, g)
			if len(cs) == 0 {
				continue
			}
			fmt.Fprintf(&b, "<h3>%s</h3>\n%s\n", e(g), compareChart(g, cs))
			b.WriteString("<table><tr><th></th><th>A</th><th>B</th><th>B − A</th><th>95% interval</th><th>p</th></tr>")
			for _, c := range cs {
				sig := ""
				if c.Diff.Significant {
					sig = " class=\"sig\""
				}
				fmt.Fprintf(&b, "<tr%s><td>%s</td><td class=n>%s</td><td class=n>%s</td><td class=n>%+.4g</td><td class=n>[%.4g, %.4g]</td><td class=n>%.3g</td></tr>",
					sig, e(c.Label), e(formatValue(c.A)), e(formatValue(c.B)), c.Diff.Delta, c.Diff.CI.Lo, c.Diff.CI.Hi, c.Diff.P)
			}
			b.WriteString("</table>\n")
		}
	}

	title := "Results"
	if r.Comparisons != nil {
		title = "Ruleset A in detail"
	}
	fmt.Fprintf(&b, "<h2>%s</h2>\n<p>Bars are values; whiskers are 95%% intervals (Wilson for rates, Student's t for means).</p>\n", title)
	for _, g := range groupsOf(r.Measures) {
		ms := filterMeasures(r.Measures, g)
		fmt.Fprintf(&b, "<h3>%s</h3>\n", e(g))
		if g == GroupLength {
			b.WriteString(histChart("Games by length in rounds", r.Tally.RoundsHist, "rounds"))
			b.WriteString("\n")
		} else {
			b.WriteString(barChart(g, ms))
			b.WriteString("\n")
		}
		b.WriteString("<table>")
		for _, m := range ms {
			fmt.Fprintf(&b, "<tr><td>%s</td><td class=n>%s</td></tr>", e(m.Label), e(formatValue(m)))
		}
		b.WriteString("</table>\n")
	}
	b.WriteString("</body></html>\n")
	return []byte(b.String())
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
