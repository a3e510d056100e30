package simcmd

import (
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/fairboard/fairboard/games/dungeon/tools/sim"
)

// The run's summary on the terminal: the design, the headline measures and the significant differences.

// summaryGroups are the groups printed on the terminal; the report has all.
var summaryGroups = []string{sim.GroupOrder, sim.GroupSeat, sim.GroupClass, sim.GroupBot, sim.GroupClassBot,
	sim.GroupSeatBot, sim.GroupLength, sim.GroupLengthBot, sim.GroupEnds, sim.GroupEndsAlso}

// summaryNotes follow a group's title on the terminal.
var summaryNotes = map[string]string{
	sim.GroupEnds:      "(each game ends one way: these sum to 100%)",
	sim.GroupEndsAlso:  "(these games are counted above too)",
	sim.GroupLength:    "(percentiles are whole rounds, without interval)",
	sim.GroupLengthBot: "(the games each policy played in; a game counts for each policy at its table)",
}

// printSummary prints the design, any aliasing, the headline measures with
// their intervals and edges over the fair share, and, when comparing, every
// difference significant after Holm's correction.
func printSummary(w io.Writer, r *sim.Results, out string) {
	fmt.Fprintf(w, "%d games, seed %q (game i: %s), %d players, ruleset %s\n", r.Done, r.Config.Seed, r.Config.SeedScheme, r.Config.Players, r.Rules.Source)
	if c := r.Config; c.Precision > 0 {
		fmt.Fprintf(w, "precision: played until every headline win rate's 95%% interval was within +-%s pp, in batches of %d games (ceiling %d games)\n",
			sim.FormatNumber(c.Precision), sim.PrecisionBatch, c.MaxGames)
	}
	fmt.Fprintf(w, "design: %s\n", r.Config.DesignText)
	for _, a := range r.Config.Aliases {
		fmt.Fprintf(w, "warning: %s\n", a)
	}
	fair := r.Tally.FairShare(r.Config.Players)
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	for _, g := range summaryGroups {
		ms := filterGroup(r.Measures, g)
		if len(ms) == 0 {
			continue
		}
		fmt.Fprintf(tw, "\n%s", g)
		if ms[0].FairShare > 0 {
			fmt.Fprintf(tw, " (fair share %.1f%%; edge in percentage points)", 100*fair)
		}
		if n, ok := summaryNotes[g]; ok {
			fmt.Fprintf(tw, " %s", n)
		}
		fmt.Fprintln(tw)
		for _, m := range ms {
			fmt.Fprintf(tw, "  %s\t%s\n", m.Label, describe(m))
		}
	}
	tw.Flush()
	if r.Comparisons != nil {
		tested := 0
		for _, c := range r.Comparisons {
			if c.Test != nil {
				tested++
			}
		}
		fmt.Fprintf(w, "\nSignificant differences, %s (B) against %s (A), same seeds, after Holm's correction over the %d measures tested:\n",
			r.CompareWith.Source, r.Rules.Source, tested)
		n := 0
		for _, c := range r.Comparisons {
			if c.Significant {
				n++
				fmt.Fprintf(w, "  %s / %s: %s → %s (%s, 95%% interval %s, %s, Holm %s)\n", c.Group, c.Label, sim.FormatValue(c.A), sim.FormatValue(c.B),
					sim.FormatDelta(c), sim.FormatDeltaCI(c), sim.FormatP(c.Test.P), sim.FormatP(*c.PHolm))
			}
		}
		if n == 0 {
			fmt.Fprintln(w, "  none at the 5% level")
		}
	}
	if r.FailedGames > 0 {
		fmt.Fprintf(w, "\n%d games failed; first: %s: %s\n", r.FailedGames, r.Failures[0].Seed, r.Failures[0].Error)
	}
	if out != "" {
		fmt.Fprintf(w, "\nwrote %s/report.html, results.json and CSVs (players.csv: one row per player and game)\n", out)
	}
}

func filterGroup(ms []sim.Measure, g string) []sim.Measure {
	var out []sim.Measure
	for _, m := range ms {
		if m.Group == g {
			out = append(out, m)
		}
	}
	return out
}

// describe renders a measure on one terminal line: value, interval, count
// and, for a win rate, the edge over the fair share.
func describe(m sim.Measure) string {
	s := sim.FormatValue(m)
	if iv := sim.FormatInterval(m); iv != "" {
		s += "  " + iv
	}
	if m.Kind == sim.KindRate {
		s += fmt.Sprintf("  (%d/%d)", m.K, m.N)
	}
	if m.FairShare > 0 {
		s += "  " + sim.FormatEdge(m)
	}
	return s
}
