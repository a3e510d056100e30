package simcmd

import (
	"context"
	"errors"
	"fmt"
	"io"
	iofs "io/fs"
	"math"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"time"

	"github.com/fairboard/fairboard/internal/cli"

	"github.com/fairboard/fairboard/games/dungeon/engine"
	"github.com/fairboard/fairboard/games/dungeon/tools/bot"
	"github.com/fairboard/fairboard/games/dungeon/tools/sim"
)

var simTuneUsage = `usage: gamectl sim tune --param PATH[=LO:HI] [--param ...] --seed S --games N
                       --out DIR [--bots LIST] [--target SPEC] [--minutes M] [--workers K]
                       [--rules FILE] [--players 4]
       gamectl sim tune step --out DIR [--workers K]

Finds values of ruleset numbers that meet a balance target: an N-tuple
bandit evolutionary search (NTBEA) over the numbers' grids minimises the
sum of the classes' squared edges over the fair share (corrected for
noise), in generations of candidates played on common seeds; then the best
candidate is confirmed on seeds of its own, with a budget set aside for it.
"Met" means every class's 95% interval lies inside the target's band; else
the answer is "not met within budget" with the closest candidate (or
"infeasible", when the whole grid was played and every point misses).

  --param PATH[=LO:HI]  a number to tune and its range; without a range,
                   the range the ruleset's validation allows (where it
                   sets no bound: to twice the value or the value + 10,
                   whichever is further).
                   A weight (composition, loot) is searched as a real
  --games N        the whole budget in games, the confirmation included
                   (it takes 20%)
  --target SPEC    fair±P (the fair share ± P pp), C±P (C% ± P pp) or LO:HI
                   (per cent); default: ` + sim.DefaultTarget + `
  --bots LIST      as for "gamectl sim" (default cautious,aggressive), of:
                   ` + strings.Join(bot.Names, ", ") + `
  --out DIR        the run's directory: state.json (resumable), base.json,
                   the parts of a generation, tune.csv (every candidate
                   played), rules.json (the tuned ruleset: "gamectl sim
                   --rules" takes it) and report.html. Running the same
                   command again resumes the run where it stopped
  --minutes M      stop at the first generation boundary after M minutes
                   (0: set the run up and stop); the same command resumes,
                   and the results are those of a run never stopped
  --rules FILE     the ruleset to tune (default: the embedded one)

"gamectl sim tune step --out DIR" plays one generation of the run in DIR
and exits: with CLOUD_RUN_TASK_INDEX/CLOUD_RUN_TASK_COUNT set (as for a
sharded "gamectl sim"), its slice of the generation's games, and the task
that completes the generation folds it. docs/sim.md shows the Cloud Run job.
Another game on the definition: "gamectl sim tune --game NAME -h".

` + pathHelp + `
flags:
`

func runSimTune(args []string, stdout, stderr io.Writer) error {
	if len(args) > 0 && args[0] == "step" {
		return runSimTuneStep(args[1:], stdout, stderr)
	}
	fs := cli.NewFlagSet("sim tune", stderr)
	fs.Usage = func() { fmt.Fprint(stderr, simTuneUsage); fs.PrintDefaults() }
	var params cli.Repeated
	fs.Var(&params, "param", "PATH[=LO:HI]: a number to tune (repeat for each)")
	seed := fs.String("seed", "", "run seed (required)")
	games := fs.Int64("games", 0, "the whole budget in games, the confirmation included (required)")
	out := fs.String("out", "", "the run's directory (required; see above)")
	bots := fs.String("bots", "cautious,aggressive", "bot policies, comma-separated, dealt by the balanced design")
	target := fs.String("target", sim.DefaultTarget, "the balance target (see above)")
	minutes := fs.Float64("minutes", -1, "stop at a generation boundary after M minutes (0: set up and stop)")
	workers := fs.Int("workers", runtime.NumCPU(), "parallel workers (results do not depend on it)")
	rules := fs.String("rules", "", "ruleset JSON file to tune (default: the embedded GAME_RULES.md ruleset)")
	players := fs.Int("players", 4, "players per game")
	if err := cli.ParseFlags(fs, args, false); err != nil {
		return err
	}
	switch {
	case len(params) == 0:
		return cli.Usagef("name at least one --param PATH[=LO:HI]")
	case *out == "":
		return cli.Usagef("--out is required")
	case cli.IsSet(fs, "minutes") && (!(*minutes >= 0) || math.IsInf(*minutes, 0)):
		return cli.Usagef("--minutes %v: want a number of minutes, 0 or more", *minutes)
	}
	cfg, err := simConfig(*games, *seed, *players, "mixed", *bots, *rules, "", *workers, "")
	if err != nil {
		return err
	}
	if cfg.Shards > 1 {
		return cli.Usagef("gamectl sim tune plays its generations itself; as a Cloud Run task, run \"gamectl sim tune step\"")
	}
	data := engine.DefaultRulesJSON()
	if *rules != "" {
		if data, err = os.ReadFile(*rules); err != nil {
			return cli.Usagef("cannot read ruleset: %v", err)
		}
	}
	spec := &sim.TuneSpec{Base: *cfg, RulesJSON: data}
	if spec.Target, err = sim.ParseTarget(*target); err != nil {
		return cli.UsageError{Err: err}
	}
	for _, p := range params {
		path, lo, hi, ranged, err := sim.ParseTuneParam(p)
		if err != nil {
			return cli.UsageError{Err: err}
		}
		spec.Params = append(spec.Params, sim.TuneParamSpec{Path: path, Lo: lo, Hi: hi, Ranged: ranged})
	}
	fresh, err := sim.PrepareTune(spec)
	if err != nil {
		return cli.UsageError{Err: err}
	}
	fresh.Command = append([]string{"gamectl", "sim", "tune"}, args...)
	st, err := sim.LoadTune(*out)
	switch {
	case err == nil:
		if why := st.SameRun(fresh); why != "" {
			return cli.Usagef("--out %s holds another tuning run: %s (resume it with its own flags, or use another directory)", *out, why)
		}
		fmt.Fprintf(stderr, "resuming the run in %s: %d of %d games played\n", *out, st.Used, st.Games)
	case errors.Is(err, iofs.ErrNotExist):
		if err := sim.PrepareDir(*out, sim.TuneFiles); err != nil {
			return cli.UsageError{Err: err}
		}
		if err := sim.ClearTuneDir(*out); err != nil {
			return cli.UsageError{Err: fmt.Errorf("--out %s: %w", *out, err)}
		}
		st = fresh
		if err := st.Save(*out); err != nil {
			return cli.UsageError{Err: fmt.Errorf("--out %s: %w", *out, err)}
		}
	default:
		return cli.UsageError{Err: fmt.Errorf("--out %s: %w", *out, err)}
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	progress := sim.NewProgress(terminal(stderr), st.Games)
	progress.Add(st.Used)
	start := time.Now()
	err = sim.RunTune(ctx, *out, st, *workers, *minutes, progress, time.Now)
	progress.Finish()
	if err != nil {
		if ctx.Err() != nil {
			return cli.ExitError{Code: 130, Err: fmt.Errorf("interrupted: the generation being played is dropped; the same command resumes after generation %d", len(st.History))}
		}
		return err
	}
	printTune(stdout, st, *out, time.Since(start))
	if st.Result != nil && !st.Result.Met {
		return cli.ExitError{Code: 1, Err: fmt.Errorf("target not met: %s", st.Result.Verdict)}
	}
	return nil
}

func runSimTuneStep(args []string, stdout, stderr io.Writer) error {
	fs := cli.NewFlagSet("sim tune step", stderr)
	fs.Usage = func() { fmt.Fprint(stderr, simTuneUsage); fs.PrintDefaults() }
	out := fs.String("out", "", "the run's directory (required)")
	workers := fs.Int("workers", runtime.NumCPU(), "parallel workers")
	if err := cli.ParseFlags(fs, args, false); err != nil {
		return err
	}
	if *out == "" {
		return cli.Usagef("--out is required")
	}
	if *workers < 1 {
		return cli.Usagef("--workers must be at least 1, not %d", *workers)
	}
	task, tasks, err := parseShard("")
	if err != nil {
		return err
	}
	if _, err := os.Stat(filepath.Join(*out, "state.json")); err != nil {
		return cli.Usagef("--out %s holds no tuning run (no state.json): set one up with \"gamectl sim tune ... --out %s --minutes 0\"", *out, *out)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	before := -1
	if st, err := sim.LoadTune(*out); err == nil {
		before = len(st.History)
	}
	st, err := sim.TuneStep(ctx, *out, task, tasks, *workers)
	if err != nil {
		if ctx.Err() != nil {
			return cli.ExitError{Code: 130, Err: fmt.Errorf("interrupted: this task's part is dropped; run the step again")}
		}
		if st == nil {
			return cli.UsageError{Err: err}
		}
		return err
	}
	switch {
	case st.Done():
		printTune(stdout, st, *out, 0)
	case len(st.History) > before:
		fmt.Fprintf(stdout, "task %d of %d: generation %d folded; %d of %d games played; the next step plays generation %d\n",
			task, tasks, len(st.History), st.Used, st.Games, st.Pending.Number)
	default:
		fmt.Fprintf(stdout, "task %d of %d: played its part of generation %d; the last task to finish folds it\n", task, tasks, st.Pending.Number)
	}
	return nil
}

// printTune prints the run's verdict (or where it stopped) and the values.
func printTune(w io.Writer, st *sim.TuneState, out string, took time.Duration) {
	if !st.Done() {
		fmt.Fprintf(w, "%s\n", st.Stopped)
		fmt.Fprintf(w, "wrote %s/state.json (resumable), tune.csv, rules.json (the best so far) and report.html\n", out)
		return
	}
	r := st.Result
	fmt.Fprintf(w, "tuning %s: %d games (%d generations, then %d to confirm)", st.Target.String(), st.Used, len(st.History), r.Games)
	if took > 0 {
		fmt.Fprintf(w, ", %s", took.Round(time.Second))
	}
	fmt.Fprintln(w)
	fmt.Fprintf(w, "%s\n", r.Verdict)
	for i, p := range st.Params {
		fmt.Fprintf(w, "  %-46s %s -> %s\n", p.Path, sim.FormatNumber(p.Base), sim.FormatNumber(st.Candidates[r.Candidate].Values[i]))
	}
	fmt.Fprintf(w, "confirmation on %d games of its own: fair share %.1f%%, band %.1f%% to %.1f%%\n", r.Games, 100*r.Fair, 100*r.Lo, 100*r.Hi)
	for _, o := range r.Classes {
		mark := "inside"
		if !o.Inside {
			mark = "NOT inside"
		}
		fmt.Fprintf(w, "  %-8s %5.1f%% [%.1f, %.1f]  %s\n", o.Class, 100*o.Rate, 100*o.Lo, 100*o.Hi, mark)
	}
	fmt.Fprintf(w, "pairing of the candidates on common seeds: %s\n", st.PairingSummary())
	fmt.Fprintf(w, "wrote %s/rules.json, %s/tune.csv and %s/report.html\n", out, out, out)
}
