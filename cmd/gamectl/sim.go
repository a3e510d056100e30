package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"text/tabwriter"

	"github.com/fairboard/fairboard/engine"
	"github.com/fairboard/fairboard/sim"
)

func init() {
	commands["sim"] = command{summary: "run seeded balance simulations (and merge shards)", run: runSim}
}

const simUsage = `usage: gamectl sim --games N --seed S [--players 4] [--classes LIST|mixed]
                  [--bots cautious,aggressive,...] [--rules FILE] [--compare FILE2]
                  [--workers K] [--shard I/N] [--out DIR]
       gamectl sim merge [--out DIR] DIR...

Plays N bot games; game i uses seed "S#i", so "gamectl play --seed 'S#i'"
replays it. With --out, writes results.json, measures.csv, rounds.csv,
comparison.csv (with --compare) and report.html. Results do not depend on
--workers. --shard I/N (or CLOUD_RUN_TASK_INDEX/CLOUD_RUN_TASK_COUNT) plays
the I-th of N slices; "gamectl sim merge" combines them exactly.
`

func runSim(args []string, stdout, stderr io.Writer) error {
	if len(args) > 0 && args[0] == "merge" {
		return runSimMerge(args[1:], stdout, stderr)
	}
	fs := newFlagSet("sim", stderr)
	fs.Usage = func() { fmt.Fprint(stderr, simUsage); fs.PrintDefaults() }
	games := fs.Int64("games", 0, "number of games (required, >= 1)")
	seed := fs.String("seed", "", "run seed (required); game i plays seed \"SEED#i\"")
	players := fs.Int("players", 4, "players per game")
	classes := fs.String("classes", "mixed", "classes by seat, comma-separated, or \"mixed\" (seat j of game i plays the (i+j)%4-th class)")
	bots := fs.String("bots", "cautious,aggressive", "bot policies; seat j of game i plays the (i+j)%len-th")
	rules := fs.String("rules", "", "ruleset JSON file (default: the embedded GAME_RULES.md ruleset)")
	compare := fs.String("compare", "", "a second ruleset to play on the same seeds and compare")
	workers := fs.Int("workers", runtime.NumCPU(), "parallel workers (results do not depend on it)")
	shard := fs.String("shard", "", "I/N: play the I-th (0-based) of N slices of the games")
	out := fs.String("out", "", "directory for results.json, CSVs and report.html; {shard} becomes the shard index")
	if err := parseFlags(fs, args, false); err != nil {
		return err
	}
	cfg, err := simConfig(*games, *seed, *players, *classes, *bots, *rules, *compare, *workers, *shard)
	if err != nil {
		return err
	}
	*out = strings.ReplaceAll(*out, "{shard}", strconv.Itoa(cfg.Shard))
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	lo, hi := cfg.Range()
	progress := sim.NewProgress(stderr, hi-lo)
	o, err := sim.Run(ctx, cfg, progress)
	progress.Finish()
	if err != nil {
		return usageError{err}
	}
	res := sim.NewResults(cfg, o, append([]string{"gamectl", "sim"}, args...))
	if *out != "" {
		if err := res.Write(*out); err != nil {
			return fmt.Errorf("writing results: %w", err)
		}
	}
	printSummary(stdout, res, *out)
	if res.Partial {
		return exitError{130, fmt.Errorf("interrupted after %d of %d games; the results written are marked partial", res.Done, hi-lo)}
	}
	return nil
}

// simConfig checks the flags and builds the run's configuration.
func simConfig(games int64, seed string, players int, classes, bots, rules, compare string, workers int, shard string) (*sim.Config, error) {
	if games <= 0 {
		return nil, usagef("--games must be at least 1, not %d", games)
	}
	if seed == "" {
		return nil, usagef("--seed is required")
	}
	if workers < 1 {
		return nil, usagef("--workers must be at least 1, not %d", workers)
	}
	cfg := &sim.Config{Games: games, Seed: seed, Players: players, Workers: workers, Shards: 1}
	var err error
	if cfg.Shard, cfg.Shards, err = parseShard(shard); err != nil {
		return nil, err
	}
	if classes != "mixed" {
		for _, c := range splitList(classes) {
			cfg.Classes = append(cfg.Classes, engine.Class(c))
		}
	}
	cfg.Bots = splitList(bots)
	if cfg.A.Rules, cfg.A.Source, err = loadRulesFile(rules); err != nil {
		return nil, err
	}
	if compare != "" {
		b := &sim.Ruleset{}
		if b.Rules, b.Source, err = loadRulesFile(compare); err != nil {
			return nil, err
		}
		cfg.B = b
	}
	if err := cfg.Validate(); err != nil {
		return nil, usageError{err}
	}
	return cfg, nil
}

// parseShard reads --shard I/N, or else Cloud Run's task index and count.
func parseShard(s string) (int, int, error) {
	if s == "" {
		idx, cnt := os.Getenv("CLOUD_RUN_TASK_INDEX"), os.Getenv("CLOUD_RUN_TASK_COUNT")
		if idx == "" && cnt == "" {
			return 0, 1, nil
		}
		s = idx + "/" + cnt
	}
	a, b, ok := strings.Cut(s, "/")
	i, err1 := strconv.Atoi(a)
	n, err2 := strconv.Atoi(b)
	if !ok || err1 != nil || err2 != nil || n < 1 || i < 0 || i >= n {
		return 0, 0, usagef("shard %q: want I/N with 0 <= I < N (from --shard or CLOUD_RUN_TASK_INDEX/CLOUD_RUN_TASK_COUNT)", s)
	}
	return i, n, nil
}

func splitList(s string) []string {
	var out []string
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

func runSimMerge(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("sim merge", stderr)
	out := fs.String("out", "", "directory for the merged results (default: print the summary only)")
	if err := parseFlags(fs, args, true); err != nil {
		return err
	}
	if fs.NArg() == 0 {
		return usagef("merge needs the result directories of the shards")
	}
	var parts []*sim.Results
	for _, dir := range fs.Args() {
		r, err := sim.ReadResults(dir + "/results.json")
		if err != nil {
			return usageError{err}
		}
		parts = append(parts, r)
	}
	res, err := sim.Merge(parts)
	if err != nil {
		return usageError{err}
	}
	if *out != "" {
		if err := res.Write(*out); err != nil {
			return fmt.Errorf("writing results: %w", err)
		}
	}
	printSummary(stdout, res, *out)
	return nil
}

// summaryGroups are the groups printed on the terminal; the report has all.
var summaryGroups = []string{sim.GroupOrder, sim.GroupClass, sim.GroupBot, sim.GroupLength, sim.GroupEnds}

// printSummary prints the headline measures (and, when comparing, every
// significant difference).
func printSummary(w io.Writer, r *sim.Results, out string) {
	fmt.Fprintf(w, "%d games, seed %q (game i: %s), %d players, ruleset %s\n", r.Done, r.Config.Seed, r.Config.SeedScheme, r.Config.Players, r.Rules.Source)
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	for _, g := range summaryGroups {
		fmt.Fprintf(tw, "\n%s\n", g)
		for _, m := range r.Measures {
			if m.Group == g {
				fmt.Fprintf(tw, "  %s\t%s\n", m.Label, describe(m))
			}
		}
	}
	tw.Flush()
	if r.Comparisons != nil {
		fmt.Fprintf(w, "\nSignificant differences, %s (B) against %s (A), same seeds:\n", r.CompareWith.Source, r.Rules.Source)
		n := 0
		for _, c := range r.Comparisons {
			if c.Diff.Significant {
				n++
				fmt.Fprintf(w, "  %s / %s: %s → %s (%+.4g, p=%.3g)\n", c.Group, c.Label, describe(c.A), describe(c.B), c.Diff.Delta, c.Diff.P)
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
		fmt.Fprintf(w, "\nwrote %s/report.html, results.json and CSVs\n", out)
	}
}

func describe(m sim.Measure) string {
	switch m.Kind {
	case sim.KindRate:
		return fmt.Sprintf("%5.1f%%  [%.1f, %.1f]  (%d/%d)", 100*m.Value, 100*m.CI.Lo, 100*m.CI.Hi, m.K, m.N)
	case sim.KindMean:
		return fmt.Sprintf("%.2f  [%.2f, %.2f]", m.Value, m.CI.Lo, m.CI.Hi)
	case sim.KindValue:
		return strconv.FormatFloat(m.Value, 'g', -1, 64)
	}
	return strconv.FormatInt(m.N, 10)
}
