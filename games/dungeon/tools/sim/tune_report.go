package sim

import (
	"context"
	"fmt"
	"html"
	"os"
	"strings"
	"time"

	"github.com/fairboard/fairboard/internal/htmlpage"
)

// RunTune plays the run in dir, generation after generation on the given
// workers (folding each and writing the state and the outputs after it),
// until the verdict or until `minutes` have passed at a generation's end
// (minutes < 0: no limit; 0: stop before the first generation). It
// records where and why it stopped; the same directory resumes where it
// stopped. If ctx is cancelled the generation being played is dropped, to
// be played again on resume, and ctx's error is returned.
func RunTune(ctx context.Context, dir string, st *TuneState, workers int, minutes float64, progress *Progress, now func() time.Time) error {
	start := now()
	for !st.Done() {
		if minutes >= 0 && now().Sub(start).Minutes() >= minutes {
			st.Stopped = fmt.Sprintf("--minutes %s: stopped after generation %d of %d (%d of %d games played); run again to go on",
				FormatNumber(minutes), len(st.History), st.Plan.Generations, st.Used, st.Games)
			break
		}
		st.Stopped = ""
		if err := st.PlayPart(ctx, dir, 0, 1, workers, progress); err != nil {
			return err
		}
		gen := st.Pending.Number
		if _, err := st.Fold(dir); err != nil {
			return err
		}
		if err := st.Save(dir); err != nil {
			return err
		}
		if err := st.Outputs(dir); err != nil {
			return err
		}
		if err := os.RemoveAll(genDir(dir, gen)); err != nil { // folded: the state holds it
			return err
		}
	}
	if err := st.Save(dir); err != nil {
		return err
	}
	return st.Outputs(dir)
}

// TuneStep plays task `task` of `tasks` of the generation pending in dir
// and, if that completes the generation's parts, folds it (two tasks that
// both find it complete write the same state). It returns the state.
func TuneStep(ctx context.Context, dir string, task, tasks, workers int) (*TuneState, error) {
	st, err := LoadTune(dir)
	if err != nil {
		return nil, err
	}
	if st.Done() {
		return st, nil
	}
	// The parts of generations folded before the last are read by no one.
	for g := 1; g < st.Pending.Number-1; g++ {
		if err := os.RemoveAll(genDir(dir, g)); err != nil {
			return st, err
		}
	}
	if folded, err := st.Fold(dir); err != nil || folded { // a previous step's parts, complete
		if err == nil {
			if err = st.Save(dir); err == nil {
				err = st.Outputs(dir)
			}
		}
		return st, err
	}
	if err := st.PlayPart(ctx, dir, task, tasks, workers, nil); err != nil {
		return st, err
	}
	folded, err := st.Fold(dir)
	if err != nil || !folded {
		return st, err
	}
	if err := st.Save(dir); err != nil {
		return st, err
	}
	return st, st.Outputs(dir)
}

// reportHTML renders the run: the verdict, which numbers moved, how the
// objective improved generation by generation, the confirmation and the
// pairing the common seeds achieved.
func (st *TuneState) reportHTML() []byte {
	var b strings.Builder
	e := html.EscapeString
	b.WriteString(htmlpage.Head("Tuning") + "<h1>Tuning</h1>\n")
	fmt.Fprintf(&b, "<p>Target: %s. Budget: %d games (seed <code>%s</code>, %d players, bots <code>%s</code>): %d generations of %d candidates on %d games each, then %d games to confirm the best on seeds of their own.</p>\n",
		e(st.Target.String()), st.Games, e(st.Seed), st.Players, e(strings.Join(st.Bots, ",")), st.Plan.Generations, st.Plan.Batch, st.Plan.PerEval, st.Plan.Confirm)
	switch {
	case st.Result != nil && st.Result.Met:
		fmt.Fprintf(&b, "<p class=\"ok\"><b>Met.</b> %s.</p>\n", e(st.Result.Verdict))
	case st.Result != nil:
		fmt.Fprintf(&b, "<p class=\"warn\"><b>%s</b></p>\n", e(st.Result.Verdict))
	default:
		fmt.Fprintf(&b, "<p class=\"warn\">In progress: %d of %d generations played (%d of %d games). %s</p>\n",
			len(st.History), st.Plan.Generations, st.Used, st.Games, e(st.Stopped))
	}
	best := st.recommend()
	if st.Result != nil {
		best = st.Result.Candidate
	}
	c := &st.Candidates[best]
	b.WriteString("<h2>The numbers</h2>\n<table><tr><th>number</th><th>range searched</th><th>base</th><th>tuned</th></tr>\n")
	for d, p := range st.Params {
		moved := ""
		if c.Values[d] != p.Base {
			moved = " class=\"moved\""
		}
		rng := fmt.Sprintf("%s to %s (%d values)", FormatNumber(p.Lo), FormatNumber(p.Hi), len(p.Values))
		if !p.Ranged {
			rng += ", the range validation allows"
		}
		if p.Real {
			rng += ", real"
		}
		fmt.Fprintf(&b, "<tr%s><td>%s</td><td>%s</td><td class=n>%s</td><td class=n>%s</td></tr>\n", moved, e(p.Path), e(rng), FormatNumber(p.Base), FormatNumber(c.Values[d]))
	}
	b.WriteString("</table>\n")
	if len(st.History) > 0 {
		b.WriteString("<h2>How the target improved</h2>\n<p class=\"note\">The objective is the sum of the classes' squared edges over the fair share, corrected for noise " +
			"(each edge's sampling variance subtracted), in pp²; its square root over the classes is the root-mean-square edge. " +
			"Each point is the recommended candidate after a generation (its objective on all the games it has played).</p>\n")
		b.WriteString(st.progressChart())
		b.WriteString("<table><tr><th>generation</th><th>games so far</th><th>recommended candidate</th><th>its objective</th><th>pairing</th></tr>\n")
		for _, h := range st.History {
			fmt.Fprintf(&b, "<tr><td class=n>%d</td><td class=n>%d</td><td>%s</td><td class=n>%.1f pp²</td><td class=n>%s</td></tr>\n",
				h.Number, h.Games, e(st.describe(h.Best)), 1e4*h.BestObj, pairingText(h))
		}
		b.WriteString("</table>\n")
		fmt.Fprintf(&b, "<p class=\"note\">Pairing: the candidates of a generation play the same seeds; the column is the mean correlation, over pairs of candidates "+
			"and over classes, of their per-game class results (1: the same outcomes; 0: no more related than independent games). %s</p>\n", e(st.PairingSummary()))
	}
	if r := st.Result; r != nil {
		fmt.Fprintf(&b, "<h2>Confirmation</h2>\n<p>%s played on %d games of their own (seed <code>%s/confirm</code>), none of them a tuning game. Fair share %.1f%%; band %.1f%% to %.1f%%.</p>\n",
			e(st.describe(r.Candidate)), r.Games, e(st.Seed), 100*r.Fair, 100*r.Lo, 100*r.Hi)
		b.WriteString(st.confirmChart())
		b.WriteString("<table><tr><th>class</th><th>win rate</th><th>95% interval</th><th>in the band</th></tr>\n")
		for _, o := range r.Classes {
			in := "yes"
			switch {
			case o.Outside:
				in = "no: wholly outside"
			case !o.Inside:
				in = "not shown: the interval crosses the band's edge"
			}
			fmt.Fprintf(&b, "<tr><td>%s</td><td class=n>%.1f%%</td><td class=n>[%.1f, %.1f]</td><td>%s</td></tr>\n", e(o.Class), 100*o.Rate, 100*o.Lo, 100*o.Hi, e(in))
		}
		b.WriteString("</table>\n")
	}
	b.WriteString("<p class=\"note\">tune.csv has every candidate played, with its games, objective and class win rates; rules.json is the tuned ruleset (gamectl sim --rules takes it).</p>\n")
	b.WriteString(htmlpage.Tail)
	return []byte(b.String())
}

func pairingText(h GenSummary) string {
	if h.Pairs == 0 {
		return "—"
	}
	return fmt.Sprintf("%.2f", h.Pairing)
}

// PairingSummary says what pairing the run achieved overall.
func (st *TuneState) PairingSummary() string {
	var sum float64
	n := 0
	for _, h := range st.History {
		if h.Pairs > 0 {
			sum += h.Pairing
			n++
		}
	}
	if n == 0 {
		return "No generation had two candidates to pair."
	}
	return fmt.Sprintf("Over the run: %.2f.", sum/float64(n))
}

// describe names a candidate by its values.
func (st *TuneState) describe(c int) string {
	var parts []string
	for d, p := range st.Params {
		parts = append(parts, p.Path+" = "+FormatNumber(st.Candidates[c].Values[d]))
	}
	return strings.Join(parts, ", ")
}

// progressChart draws the recommended candidate's objective (pp²) after
// each generation, with its 95% band.
func (st *TuneState) progressChart() string {
	var xs []float64
	s := series{name: "objective (pp²)"}
	for _, h := range st.History {
		xs = append(xs, float64(h.Number))
		c := &st.Candidates[h.Best]
		_, se := c.estimate()
		s.y = append(s.y, 1e4*h.BestObj)
		s.lo = append(s.lo, 1e4*(h.BestObj-z975*se))
		s.hi = append(s.hi, 1e4*(h.BestObj+z975*se))
	}
	return lineChart("Objective of the recommended candidate by generation", "generation", xs, []series{s}, nil, false)
}

// confirmChart draws the confirmation's class win rates with their
// intervals against the band.
func (st *TuneState) confirmChart() string {
	r := st.Result
	var ms []Measure
	for _, o := range r.Classes {
		ms = append(ms, Measure{ID: "tune.confirm." + o.Class, Label: o.Class, Kind: KindRate, Value: o.Rate, CI: &Interval{o.Lo, o.Hi}, Unit: UnitShare})
	}
	if len(ms) == 0 {
		return ""
	}
	return barChart(barSpec{title: fmt.Sprintf("Confirmed win rates (band %.1f%% to %.1f%%)", 100*r.Lo, 100*r.Hi), ms: ms, fair: r.Fair}) + "\n"
}
