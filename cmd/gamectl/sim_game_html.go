package main

import (
	"fmt"
	"html"
	"strconv"
	"strings"

	"github.com/fairboard/fairboard/internal/htmlpage"
	"github.com/fairboard/fairboard/match"
)

// The report.html of a game's design commands (--game NAME --out DIR): one
// offline page (htmlpage: its style inline, no script, nothing fetched)
// with the tables the command prints, every value escaped.

func pct(v float64) string { return fmt.Sprintf("%.1f%%", 100*v) }

func ppEdge(v float64) string { return fmt.Sprintf("%+.1f", 100*v) }

func interval(lo, hi float64) string { return fmt.Sprintf("[%.1f, %.1f]", 100*lo, 100*hi) }

// runFacts writes a table of what was played: name, value pairs.
func runFacts(b *strings.Builder, kv ...string) {
	var rows [][]string
	for i := 0; i+1 < len(kv); i += 2 {
		rows = append(rows, []string{kv[i], kv[i+1]})
	}
	htmlpage.Table(b, []string{"run", ""}, rows)
}

// simFacts are a simulation's facts: seed, seats, bots, ruleset.
func simFacts(r *match.SimResult, scheme string) []string {
	return []string{"seed", fmt.Sprintf("%s (game i: %s)", r.Seed, scheme), "seats", strconv.Itoa(r.Seats),
		"bots", strings.Join(r.Bots, ","), "fair share", pct(1 / float64(r.Seats))}
}

// cellRow is a rate cell as the printed tables give it.
func cellRow(c match.RateCell) []string {
	return []string{c.Label(), strconv.FormatInt(c.Games, 10), strconv.FormatInt(c.Wins, 10), pct(c.Rate), interval(c.Lo, c.Hi),
		ppEdge(c.Edge), fmt.Sprintf("%.4f", c.MeanPayoff)}
}

var cellHead = []string{"cell", "games", "wins", "win rate", "95% interval", "edge (pp)", "mean payoff"}

// reportPage is a page titled title (its <title> and <h1>) whose body
// writes.
func reportPage(title string, body func(b *strings.Builder)) []byte {
	var b strings.Builder
	b.WriteString(htmlpage.Head(title) + "<h1>" + html.EscapeString(title) + "</h1>\n")
	body(&b)
	b.WriteString(htmlpage.Tail)
	return []byte(b.String())
}

// note writes a paragraph of text (escaped) of the given class.
func note(b *strings.Builder, class, text string) {
	fmt.Fprintf(b, "<p class=\"%s\">%s</p>\n", class, html.EscapeString(text))
}

// sweepHTML is a game sweep's page: per value, each cell's win rate.
func sweepHTML(r *match.SweepResult) []byte {
	return reportPage(r.Def+": sweep of "+r.Param.Path, func(b *strings.Builder) {
		if len(r.Points) > 0 {
			first := r.Points[0].Result
			runFacts(b, append([]string{"game", r.Def, "number", fmt.Sprintf("%s (base %g, range [%g, %g])", r.Param.Path, r.Base, r.Param.Min, r.Param.Max)},
				simFacts(first, first.Seed+"#i under every value")...)...)
		}
		note(b, "note", "Win rates by seat position (1 = first to act), then by seat option value (over the seats that played it), "+
			"with Wilson 95% intervals in percent and the edge over the fair share in percentage points.")
		var rows [][]string
		for _, pt := range r.Points {
			res := pt.Result
			if res.Games+res.Failed < res.Requested {
				note(b, "warn", fmt.Sprintf("%s = %g: partial, %d of %d games", r.Param.Path, pt.Value, res.Games+res.Failed, res.Requested))
			}
			if res.Failed > 0 {
				note(b, "warn", fmt.Sprintf("%s = %g: %d games failed; first: %s", r.Param.Path, pt.Value, res.Failed, res.Failures[0]))
			}
			for _, c := range match.RateCells(res) {
				rows = append(rows, append([]string{strconv.FormatFloat(pt.Value, 'g', -1, 64)}, cellRow(c)...))
			}
		}
		htmlpage.Table(b, append([]string{r.Param.Path}, cellHead...), rows, 0, 2, 3, 4, 5, 6, 7)
	})
}

// sensitivityHTML is a game sensitivity's page: the ranking.
func sensitivityHTML(r *match.SensitivityResult) []byte {
	return reportPage(r.Def+": sensitivity", func(b *strings.Builder) {
		base := fmt.Sprintf("%s: largest position edge %.1f pp (%s)", r.Base.Rules, 100*r.Objective.Position, r.Cells[r.Objective.PositionCell])
		if r.HasOption {
			base += fmt.Sprintf(", largest option edge %.1f pp (%s)", 100*r.Objective.Option, r.Cells[r.Seats+r.Objective.OptionCell])
		}
		runFacts(b, append([]string{"game", r.Def, "step", fmt.Sprintf("%.4g of each range", r.Step),
			"games", fmt.Sprintf("%d a ruleset", r.Base.Games), "base ruleset", base}, simFacts(r.Base, r.Base.Seed+"#i under every ruleset")...)...)
		note(b, "note", "Ranked by the largest effect. An effect is |edge'| - |edge| of the cell with the largest edge in either run "+
			"(the base or the nudge), in percentage points (+ = further from fair), with its 95% interval from the paired games.")
		var rows [][]string
		for _, x := range r.Rows() {
			row := []string{strconv.Itoa(x.Rank), x.Param, fmt.Sprintf("%g", x.Base), fmt.Sprintf("[%g, %g]", x.Min, x.Max), fmt.Sprintf("%.1f", 100*x.Size)}
			if !x.Nudged {
				rows = append(rows, append(row, "not nudged: its range is a single value"))
				continue
			}
			rows = append(rows, append(row, fmt.Sprintf("%g", x.Value), x.Objective, x.Cell, pct(x.RateBase)+" -> "+pct(x.Rate),
				ppEdge(x.Effect), fmt.Sprintf("[%+.1f, %+.1f]", 100*x.Lo, 100*x.Hi)))
		}
		htmlpage.Table(b, []string{"rank", "number", "base", "range", "largest effect (pp)", "nudged to", "objective", "cell",
			"cell's win rate, base -> nudged", "effect (pp)", "95% interval"}, rows, 0, 2, 4, 5, 8, 9, 10)
	})
}

// skillHTML is a by-skill run's page: each level's positions, then the
// verdicts.
func skillHTML(r *match.SkillResult) []byte {
	return reportPage(r.Def+": by skill", func(b *strings.Builder) {
		rows := r.Rows()
		if len(r.Levels) > 0 {
			f := r.Levels[0].Result
			runFacts(b, append([]string{"game", r.Def, "games", fmt.Sprintf("%d a level", f.Games), "ruleset", f.Rules},
				simFacts(f, f.Seed+"#i at every level")...)...)
		}
		byPayoff := len(rows) > 0 && rows[0].ByPayoff
		head := []string{"level", "bots", "position", "win rate", "95% interval", "edge (pp)"}
		share := "fair share"
		if byPayoff {
			head = []string{"level", "bots", "position", "mean payoff", "95% interval", "edge over the fair payoff"}
			share = "fair payoff"
			note(b, "note", "Scored by payoff: each position's mean payoff with its 95% interval (normal approximation) and its edge over the fair payoff, the mean over positions.")
		} else {
			note(b, "note", "Each position's win rate with its Wilson 95% interval (percent) and its edge over the fair share (percentage points).")
		}
		var table [][]string
		verdicts := map[string]string{}
		var order []string
		for _, x := range rows {
			lv := strconv.Itoa(x.Level)
			if x.Level == 0 {
				lv = "baseline"
			}
			if x.Partial {
				lv += " (partial)"
			}
			if byPayoff {
				table = append(table, []string{lv, x.Bots, x.Name, fmt.Sprintf("%+.3f", x.Payoff), fmt.Sprintf("[%+.3f, %+.3f]", x.PayoffLo, x.PayoffHi),
					fmt.Sprintf("%+.3f", x.PayoffEdge)})
			} else {
				table = append(table, []string{lv, x.Bots, x.Name, pct(x.Rate), interval(x.Lo, x.Hi), ppEdge(x.Edge)})
			}
			if _, ok := verdicts[x.Name]; !ok {
				order = append(order, x.Name)
			}
			verdicts[x.Name] = x.Verdict
		}
		htmlpage.Table(b, head, table, 2, 3, 4, 5)
		b.WriteString("<h2>Edges over the levels</h2>\n")
		note(b, "note", "holds: the 95% interval excludes the "+share+" at every level; vanishes: it does at the baseline, not at the last level, "+
			"with these games; appears: the reverse; none: neither.")
		var vs [][]string
		for _, p := range order {
			vs = append(vs, []string{p, verdicts[p]})
		}
		htmlpage.Table(b, []string{"position", "verdict"}, vs, 0)
	})
}

// tuneHTML is a tuner's page: its generations (NTBEA), the candidates
// played, the confirmation and the verdict.
func tuneHTML(rep tuneReport) []byte {
	return reportPage(rep.def+": tuning by "+rep.search, func(b *strings.Builder) {
		var nums []string
		for i, p := range rep.paths {
			nums = append(nums, p+" in "+rep.ranges[i])
		}
		c := rep.confirm
		runFacts(b, "game", rep.def, "numbers", strings.Join(nums, "; "), "games", fmt.Sprintf("%d a candidate", c.Requested),
			"target", fmt.Sprintf("every 95%% interval within the fair share %s +/- %.1f pp", pct(1/float64(c.Seats)), 100*rep.target),
			"seats", strconv.Itoa(c.Seats), "bots", strings.Join(c.Bots, ","))
		note(b, "note", "A candidate's score is the sum over the cells (the seat positions; for a game with seat options, their values) "+
			"of its squared edge less its noise, in pp² (0 is fair).")
		if len(rep.gens) > 0 {
			b.WriteString("<h2>Generations</h2>\n")
			var rows [][]string
			for _, g := range rep.gens {
				rows = append(rows, []string{strconv.Itoa(g.Number), strconv.Itoa(g.Candidates), g.Best, fmt.Sprintf("%.2f", 1e4*g.Score),
					fmt.Sprintf("%.2f", 1e4*g.ScoreSE), strconv.FormatInt(g.Games, 10)})
			}
			htmlpage.Table(b, []string{"generation", "candidates", "best after it", "score", "+- (1 standard error)", "its games"}, rows, 0, 1, 3, 4, 5)
		}
		b.WriteString("<h2>Candidates played</h2>\n")
		head := []string{"rank"}
		head = append(head, rep.paths...)
		head = append(head, "games", "evaluations", "score (pp²)", "+- (1 standard error)")
		var rows [][]string
		var conf *match.TuneRow
		for i, x := range rep.rows {
			if x.Phase == "confirmation" {
				conf = &rep.rows[i]
				continue
			}
			row := []string{strconv.Itoa(x.Rank)}
			for _, v := range x.Values {
				row = append(row, strconv.FormatFloat(v, 'g', -1, 64))
			}
			rows = append(rows, append(row, strconv.FormatInt(x.Games, 10), strconv.Itoa(x.Evals), fmt.Sprintf("%.2f", 1e4*x.Score), fmt.Sprintf("%.2f", 1e4*x.ScoreSE)))
		}
		num := make([]int, len(head))
		for i := range num {
			num[i] = i
		}
		htmlpage.Table(b, head, rows, num...)
		if conf != nil {
			fmt.Fprintf(b, "<h2>Confirmation</h2>\n<p>%s on %d fresh games (seed <code>%s</code>):</p>\n", html.EscapeString(c.Rules), c.Games, html.EscapeString(c.Seed+"#i"))
			var cells [][]string
			for _, x := range conf.Cells {
				cells = append(cells, cellRow(x))
			}
			htmlpage.Table(b, cellHead, cells, 1, 2, 3, 4, 5, 6)
			where := map[string]string{"grid": "the grid", "NTBEA": "budget"}[rep.search]
			v := "not met within " + where + " (the best candidate above is the closest found)"
			if rep.met {
				v = "met"
			}
			fmt.Fprintf(b, "<p class=\"verdict\"><b>verdict: %s</b></p>\n", html.EscapeString(v))
		}
		note(b, "note", "tune.csv has every candidate played and the confirmation; rules.json is the confirmed ruleset (gamectl sim --game "+rep.def+" --rules takes it).")
	})
}

// simHTML is a game simulation's page: the run, each cell's win rate
// (by position, then by seat option value), and each position's mean
// payoff with its 95% interval and its edge over the fair payoff.
func simHTML(r *match.SimResult) []byte {
	return reportPage(r.Def+": simulation", func(b *strings.Builder) {
		moves := 0.0
		if r.Games > 0 {
			moves = float64(r.Moves) / float64(r.Games)
		}
		runFacts(b, append([]string{"game", r.Def, "games", fmt.Sprintf("%d of %d", r.Games, r.Requested), "ruleset", r.Rules,
			"moves per game", fmt.Sprintf("%.1f", moves)}, simFacts(r, r.Seed+"#i")...)...)
		if r.Games+r.Failed < r.Requested {
			note(b, "warn", fmt.Sprintf("partial: interrupted after %d of %d games", r.Games+r.Failed, r.Requested))
		}
		if r.Failed > 0 {
			note(b, "warn", fmt.Sprintf("%d games failed; first: %s", r.Failed, r.Failures[0]))
		}
		note(b, "note", "Win rates by seat position (1 = first to act), then by seat option value (over the seats that played it), "+
			"with Wilson 95% intervals in percent and the edge over the fair share in percentage points.")
		var rows [][]string
		for _, c := range match.RateCells(r) {
			rows = append(rows, cellRow(c))
		}
		htmlpage.Table(b, cellHead, rows, 1, 2, 3, 4, 5, 6)
		note(b, "note", fmt.Sprintf("Mean payoff by seat position, with its 95%% interval (normal approximation) and its edge over the fair payoff %.4f (the mean over positions).", r.FairPayoff()))
		var pay [][]string
		for p := range r.Payoff {
			m, lo, hi := r.PayoffMean(p)
			pay = append(pay, []string{strconv.Itoa(p + 1), fmt.Sprintf("%.4f", m), fmt.Sprintf("[%.4f, %.4f]", lo, hi), fmt.Sprintf("%+.4f", m-r.FairPayoff())})
		}
		htmlpage.Table(b, []string{"position", "mean payoff", "95% interval", "edge"}, pay, 1, 2, 3)
	})
}
