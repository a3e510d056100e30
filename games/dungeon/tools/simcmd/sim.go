// Package simcmd is the dungeon's own simulation tools on gamectl's command
// line: "gamectl sim" without --game (or with --game dungeon) and its
// merge, sweep, sensitivity and tune, on the dungeon's pipeline
// (games/dungeon/tools/sim, docs/sim.md). gamectl reaches them through the
// tools' wiring (games/registry/tools), never by importing a game.
package simcmd

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"syscall"

	"github.com/fairboard/fairboard/internal/cli"

	"github.com/fairboard/fairboard/games/dungeon/engine"
	"github.com/fairboard/fairboard/games/dungeon/tools/bot"
	"github.com/fairboard/fairboard/games/dungeon/tools/sim"
)

var simUsage = `usage: gamectl sim --games N --seed S [--players 4] [--classes mixed|LIST]
                  [--bots LIST] [--rules FILE] [--compare FILE2]
                  [--workers K] [--shard I/N] [--precision P] [--out DIR]
       gamectl sim --by-skill N1,N2,... --games N --seed S [--margin 3] [...]
       gamectl sim merge [--out DIR] DIR...
       gamectl sim --game NAME ... (another game: see "gamectl help games")
       gamectl sim sweep --param PATH --values V1,V2,... (see "gamectl help sim sweep")
       gamectl sim sensitivity [--step 1] (see "gamectl help sim sensitivity")
       gamectl sim sweep|sensitivity|tune --game NAME ... (another game: "gamectl sim sweep --game NAME -h")
       gamectl sim tune --param PATH[=LO:HI] ... (see "gamectl help sim tune")

Plays N bot games and reports who wins and why, with 95% intervals. Game i
uses seed "S#i": "gamectl play --seed 'S#i'" with that game's classes and
bots replays it (the report prints the exact command for the shortest and
the longest game).

  --classes mixed  classes rotate over the seats (each class plays each seat
                   equally often); or one class per seat, of:
                   ` + strings.Join(engine.ClassNames(), ", ") + `
                   (a fixed list makes class and seat the same factor: the
                   run says so)
  --bots LIST      bot policies, of: ` + strings.Join(bot.Names, ", ") + `
                   dealt by the balanced design: every class and every seat
                   meets every policy equally often (a name given twice
                   plays twice as many seats); "gamectl play" deals the same
                   list over the seats in turn. mcts:N is the search bot, N
                   simulations per decision (docs/sim.md: the bots)
  --out DIR        writes results.json, measures.csv, rounds.csv,
                   players.csv (one row per player and game),
                   comparison.csv and players_b.csv (with --compare) and
                   report.html; the files of a previous run in DIR are
                   removed first; {shard} becomes the shard index
  --shard I/N      plays the I-th (0-based) of N slices of the games, N <= games
                   (default: CLOUD_RUN_TASK_INDEX/CLOUD_RUN_TASK_COUNT if set);
                   "gamectl sim merge" combines the shards' directories into
                   exactly what one run gives

  --precision P    plays in batches of ` + strconv.Itoa(sim.PrecisionBatch) + ` games and stops after the
                   first batch at which every headline win rate (by position,
                   seat, class, bot) has a 95% interval of at most +-P
                   percentage points; --games is then the ceiling. The same
                   command always plays the same games.

  --by-skill N1,N2,...
                   plays the same games at several skill levels, every seat
                   of a table the same bot: --bots (the heuristic pair by
                   default), then mcts:N1, mcts:N2, ...; reports each class's
                   edge at each level and whether it holds (the difference
                   from the first level within +-margin), changes, or is
                   inconclusive (with the games that would settle it);
                   writes skill.csv, levels.csv and report.html to --out
  --margin PP      the margin of --by-skill, in percentage points (default 3)

Results do not depend on --workers. Ctrl-C writes what was played, marked
partial, and exits 130.

flags:
`

const simMergeUsage = `usage: gamectl sim merge [--out DIR] DIR...

Combines the result directories of the shards of one run ("gamectl sim
--shard I/N --out DIR") into exactly what the unsharded run gives, players.csv
included. Refuses shards of different runs, partial shards, and sets that
miss or repeat games.

flags:
`

// Tool returns the dungeon's tool for a gamectl command path: "sim",
// "sim merge", "sim sweep", "sim sensitivity" or "sim tune" (with its
// "step"); nil for any other. A tool takes the arguments after the path;
// its errors are internal/cli's (exit 2 for bad flags or input, an
// ExitError's code, else 1).
func Tool(command string) func(args []string, stdout, stderr io.Writer) error {
	switch command {
	case "sim":
		return runSim
	case "sim merge":
		return runSimMerge
	case "sim sweep":
		return runSimSweep
	case "sim sensitivity":
		return runSimSensitivity
	case "sim tune":
		return runSimTune
	}
	return nil
}

// runSim is "gamectl sim": the dungeon's balance simulation.
func runSim(args []string, stdout, stderr io.Writer) error {
	fs := cli.NewFlagSet("sim", stderr)
	fs.Usage = func() { fmt.Fprint(stderr, simUsage); fs.PrintDefaults() }
	games := fs.Int64("games", 0, "number of games (required, >= 1)")
	seed := fs.String("seed", "", "run seed (required); game i plays seed \"SEED#i\"")
	players := fs.Int("players", 4, "players per game, within the ruleset's minPlayers..maxPlayers")
	classes := fs.String("classes", "mixed", "\"mixed\", or a class per seat, comma-separated (see above)")
	bots := fs.String("bots", "cautious,aggressive", "bot policies, comma-separated, dealt by the balanced design (see above)")
	rules := fs.String("rules", "", "ruleset JSON file (default: the embedded GAME_RULES.md ruleset)")
	compare := fs.String("compare", "", "a second ruleset to play on the same seeds and compare")
	workers := fs.Int("workers", runtime.NumCPU(), "parallel workers (results do not depend on it)")
	shard := fs.String("shard", "", "I/N: play the I-th (0-based) of N slices of the games")
	out := fs.String("out", "", "directory for the results (see above); default: print the summary only")
	precision := fs.Float64("precision", 0, "P > 0: stop once the headline win rates' 95% intervals are at most P percentage points on each side; --games is the ceiling")
	bySkill := fs.String("by-skill", "", "N1,N2,...: play the same games at each skill level (see above)")
	margin := fs.Float64("margin", 100*sim.DefaultMargin, "--by-skill: the margin within which an edge holds, in percentage points")
	if err := cli.ParseFlags(fs, args, false); err != nil {
		return err
	}
	if *bySkill != "" || cli.IsSet(fs, "margin") {
		if *bySkill == "" {
			return cli.Usagef("--margin belongs to --by-skill")
		}
		if *compare != "" || *shard != "" || *precision != 0 {
			return cli.Usagef("--by-skill plays every level on the same games itself: it takes no --compare, --shard or --precision")
		}
		return runBySkill(args, *bySkill, *margin, simFlags{*games, *seed, *players, *classes, *bots, *rules, *workers, *out}, stdout, stderr)
	}
	cfg, err := simConfig(*games, *seed, *players, *classes, *bots, *rules, *compare, *workers, *shard)
	if err != nil {
		return err
	}
	if cfg.Precision, err = cli.Precision(*precision); err != nil {
		return err
	}
	if err := cfg.Validate(); err != nil {
		return cli.UsageError{Err: err}
	}
	*out = strings.ReplaceAll(*out, "{shard}", strconv.Itoa(cfg.Shard))
	var output *sim.Output
	if *out != "" {
		// Checked (and a previous run's files removed) before any game.
		if output, err = sim.OpenOutput(*out, cfg.B != nil); err != nil {
			return cli.UsageError{Err: err}
		}
		cfg.PerGame, cfg.PerGameB = output.PerGame(), output.PerGameB()
	}
	for _, a := range cfg.Aliases() {
		fmt.Fprintf(stderr, "warning: %s\n", a)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	lo, hi := cfg.Range()
	progress := sim.NewProgress(terminal(stderr), hi-lo)
	o, err := sim.Run(ctx, cfg, progress)
	progress.Finish()
	if o == nil {
		if output != nil {
			output.Abort()
		}
		return cli.UsageError{Err: err}
	}
	res := sim.NewResults(cfg, o, append([]string{"gamectl", "sim"}, args...))
	if output != nil {
		if ferr := output.Finish(res, err == nil); ferr != nil && err == nil {
			err = ferr
		}
	}
	printSummary(stdout, res, *out)
	if err != nil {
		return fmt.Errorf("%w (the other results were written)", err)
	}
	return runStatus(res)
}

// runStatus is a finished run's exit: 130 when it was interrupted, 1 when
// games failed (a game that cannot be played to its end is a bug of a
// policy or of the engine: the run found a problem), else none.
func runStatus(res *sim.Results) error {
	if res.Partial {
		return cli.ExitError{Code: 130, Err: fmt.Errorf("interrupted after %d of %d games; the results written are marked partial", res.Done, res.Range[1]-res.Range[0])}
	}
	if res.FailedGames > 0 {
		first := res.Failures[0]
		return cli.ExitError{Code: 1, Err: fmt.Errorf("%d of %d games could not be played to their end (first: %s: %s); they are left out of the results",
			res.FailedGames, res.Done, first.Seed, first.Error)}
	}
	return nil
}

// terminal returns the real stderr behind the help router, so that the
// progress bar can tell whether it is a terminal.
func terminal(w io.Writer) io.Writer {
	if u, ok := w.(interface{ Unwrap() io.Writer }); ok {
		return u.Unwrap()
	}
	return w
}

// simConfig checks the flags and builds the run's configuration.
func simConfig(games int64, seed string, players int, classes, bots, rules, compare string, workers int, shard string) (*sim.Config, error) {
	if games <= 0 {
		return nil, cli.Usagef("--games must be at least 1, not %d", games)
	}
	if seed == "" {
		return nil, cli.Usagef("--seed is required")
	}
	if workers < 1 {
		return nil, cli.Usagef("--workers must be at least 1, not %d", workers)
	}
	cfg := &sim.Config{Games: games, Seed: seed, Players: players, Workers: workers, Shards: 1}
	var err error
	if cfg.Shard, cfg.Shards, err = parseShard(shard); err != nil {
		return nil, err
	}
	if classes != "mixed" {
		for _, c := range cli.SplitList(classes) {
			cfg.Classes = append(cfg.Classes, engine.Class(c))
		}
	}
	cfg.Bots = cli.SplitList(bots)
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
		return nil, cli.UsageError{Err: err}
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
		return 0, 0, cli.Usagef("shard %q: want I/N with 0 <= I < N (from --shard or CLOUD_RUN_TASK_INDEX/CLOUD_RUN_TASK_COUNT)", s)
	}
	return i, n, nil
}

func runSimMerge(args []string, stdout, stderr io.Writer) error {
	fs := cli.NewFlagSet("sim merge", stderr)
	fs.Usage = func() { fmt.Fprint(stderr, simMergeUsage); fs.PrintDefaults() }
	out := fs.String("out", "", "directory for the merged results (default: print the summary only)")
	if err := cli.ParseFlags(fs, args, true); err != nil {
		return err
	}
	if fs.NArg() == 0 {
		return cli.Usagef("merge needs the result directories of the shards")
	}
	var parts []*sim.Results
	dirOf := map[*sim.Results]string{}
	for _, dir := range fs.Args() {
		if *out != "" && sameDir(dir, *out) {
			return cli.Usagef("--out %s is also a shard to merge; write the merge elsewhere", *out)
		}
		r, err := sim.ReadResults(filepath.Join(dir, "results.json"))
		if err != nil {
			return cli.UsageError{Err: err}
		}
		parts = append(parts, r)
		dirOf[r] = dir
	}
	res, err := sim.Merge(parts)
	if err != nil {
		return cli.UsageError{Err: err}
	}
	if *out != "" {
		output, err := sim.OpenOutput(*out, res.CompareWith != nil)
		if err != nil {
			return cli.UsageError{Err: err}
		}
		// The shards' players.csv rows, in game order, are the run's.
		sort.Slice(parts, func(i, j int) bool { return parts[i].Range[0] < parts[j].Range[0] })
		dirs := make([]string, len(parts))
		for i, p := range parts {
			dirs[i] = dirOf[p]
		}
		keep, err := sim.MergePlayers(output.PerGame(), "players.csv", dirs)
		if err == nil && res.CompareWith != nil {
			var keepB bool
			keepB, err = sim.MergePlayers(output.PerGameB(), "players_b.csv", dirs)
			keep = keep && keepB
		}
		if err != nil {
			output.Abort()
			return cli.UsageError{Err: fmt.Errorf("merging players.csv: %w", err)}
		}
		if err := output.Finish(res, keep); err != nil {
			return fmt.Errorf("writing results: %w", err)
		}
	}
	printSummary(stdout, res, *out)
	return nil
}

// sameDir reports whether two paths name the same directory.
func sameDir(a, b string) bool {
	sa, err1 := os.Stat(a)
	sb, err2 := os.Stat(b)
	return err1 == nil && err2 == nil && os.SameFile(sa, sb)
}
