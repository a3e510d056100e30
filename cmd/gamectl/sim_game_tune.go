package main

import (
	"context"
	"fmt"
	"io"
	"math"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"syscall"

	"github.com/fairboard/fairboard/internal/cli"

	"github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/match"
)

const simGameTuneUsage = `usage: gamectl sim tune --game NAME --param PATH[=LO:HI] [--param ...] --games N --seed S
                       [--search grid] [--levels 5] [--state FILE [--minutes M]] [--target 2] [--players P] [--bot LIST] [--rules FILE] [--workers K] [--out DIR]
       gamectl sim tune --game NAME --search ntbea --param PATH[=LO:HI] [--param ...] --games N --seed S
                       [--budget 80] [--state FILE [--minutes M]] [--target 2] [--players P] [--bot LIST] [--rules FILE] [--workers K] [--out DIR]
       gamectl sim tune step --game NAME --out DIR [--workers K]

Searches values of the game's ruleset numbers for the fairest ruleset,
scoring a candidate by the sum over the seat positions (for a game with
seat options: over the option values) of the squared edge over the fair
share less its noise p(1-p)/n. Each number ranges over PATH=LO:HI, or the
whole range "gamectl games" lists. The best is played again on N fresh
games (seed "S/confirm#i"): "met" when every 95% interval lies within the
fair share +/- --target percentage points, else "not met" with that
closest candidate. docs/games.md, "Designing with the tools".

--out DIR writes, once the run has its verdict, tune.csv (phase,rank,
first_generation,evaluations,games, a column per number, score,score_se,
fair_share,verdict, then rate_CELL,lo_CELL,hi_CELL per cell, CELL a seat
position's number or OPTION=VALUE: one row per candidate played in the
tuner's order, then the confirmation's; scores in fractions squared, rates
as fractions), rules.json (the confirmed ruleset: "gamectl sim --game NAME
--rules DIR/rules.json" takes it) and report.html (the tables on one
offline page). A directory that cannot be written exits 2 before any game.

--search grid (the default): a grid search. Each number takes --levels
values evenly spread over its range (whole numbers rounded), and every
candidate of the grid (at most 200) is played on the same N games (seed
"S/search#i"). --state FILE and --minutes M as for NTBEA (below), the run
saved after every batch of 8 candidates in grid order.

--search ntbea: the dungeon's N-tuple bandit evolutionary algorithm
(NTBEA), its arithmetic shared. Each number moves on a grid of every whole
value of its range, or 16 values spread over it, the base ruleset's value
(--rules) among them; the search starts there. In generations of up to 8
candidates played on the same N games (seed "S/gen<g>#i"), the current
best is played again beside the most promising mutants of it (or, for a
grid of at most 64 points and half the budget, every point first), and
--budget counts the candidates played on N games each (evaluations; the
confirmation not included; at least two generations' worth). --state FILE
saves the run after every generation; the same command with the same flags
resumes it from there (other flags are refused), with the results of a run
never stopped; a finished run's file prints its report again. --minutes M
(with --state) stops at the first generation's end after M minutes (0:
set the run up, save it and stop), saying so on standard output with exit
status 0; the same command goes on (and writes --out when it ends).

"gamectl sim tune step --game NAME --out DIR" plays one step of a run set
up with --state DIR/state.json --minutes 0 (a Cloud Run job's task: its
slice of the step's games); see "gamectl sim tune step --game NAME -h".

Without --game, or with "--game dungeon", "gamectl sim tune" is the
dungeon's own tuner (NTBEA over its classes' edges; its --help).

flags:
`

// runGameTune is "gamectl sim tune --game NAME".
func runGameTune(args []string, stdout, stderr io.Writer) error {
	if len(args) > 0 && args[0] == "step" {
		return runGameTuneStep(args[1:], stdout, stderr) // sim_game_step.go
	}
	fs := newFlagSet("sim tune", stderr)
	fs.Usage = func() { fmt.Fprint(stderr, simGameTuneUsage); fs.PrintDefaults() }
	f := addGameSimFlags(fs)
	var params cli.Repeated
	fs.Var(&params, "param", "PATH[=LO:HI]: a number to tune (repeat for each)")
	levels := fs.Int("levels", match.DefaultTuneLevels, "values of each number in the grid, at least 1 (--search grid)")
	target := fs.Float64("target", 2, "the band around the fair share, in percentage points, above 0 and below 100")
	search := fs.String("search", "grid", "the search: grid or ntbea")
	budget := fs.Int("budget", match.DefaultNTBEABudget, "evaluations: candidates played on --games games each, the confirmation not included (--search ntbea)")
	state := fs.String("state", "", "a file the run is saved to after every generation (grid: batch of 8 candidates) and resumed from")
	minutes := fs.Float64("minutes", -1, "stop at a generation's (grid: batch's) end after M minutes, 0 or more (0: set up and stop; with --state)")
	out := fs.String("out", "", "directory for tune.csv, rules.json and report.html, written when the run has its verdict")
	if err := parseFlags(fs, args, false); err != nil {
		return err
	}
	cfg, err := f.config()
	if err != nil {
		return err
	}
	ntbea := *search == "ntbea"
	switch {
	case *search != "grid" && !ntbea:
		return usagef("--search %q: want grid or ntbea", *search)
	case !ntbea && cli.IsSet(fs, "budget"):
		return usagef("--budget is NTBEA's: add --search ntbea")
	case cli.IsSet(fs, "minutes") && (!(*minutes >= 0) || math.IsInf(*minutes, 0)):
		return usagef("--minutes %v: want a number of minutes, 0 or more", *minutes)
	case cli.IsSet(fs, "minutes") && *state == "":
		return usagef("--minutes stops a run part way: name the --state FILE it goes on from")
	case ntbea && cli.IsSet(fs, "levels"):
		return usagef("--levels is the grid search's: NTBEA moves on a grid of its own (every whole value of a range, or 16 values spread over it)")
	case len(params) == 0:
		return usagef("name at least one --param PATH[=LO:HI]: of %s", paramNames(cfg.Def))
	case *levels < 1:
		return usagef("--levels must be at least 1, not %d", *levels)
	case !(*target > 0 && *target < 100):
		return usagef("--target %g: want percentage points above 0 and below 100", *target)
	case *budget < 1:
		return usagef("--budget must be at least 1, not %d", *budget)
	}
	tc := match.TuneConfig{Sim: cfg, Levels: *levels, Target: *target / 100}
	if ntbea {
		tc.Levels = 0
	}
	for _, p := range params {
		path, rng, ranged := strings.Cut(p, "=")
		tp := match.TuneParam{Path: path}
		par, err := game.ParamOf(cfg.Def, path)
		if err != nil {
			return usagef("--param %s: %v", p, err)
		}
		tp.Lo, tp.Hi = par.Min, par.Max
		if ranged {
			a, b, ok := strings.Cut(rng, ":")
			lo, err1 := strconv.ParseFloat(a, 64)
			hi, err2 := strconv.ParseFloat(b, 64)
			if !ok || err1 != nil || err2 != nil {
				return usagef("--param %s: want PATH=LO:HI, two numbers", p)
			}
			tp.Lo, tp.Hi = lo, hi
		}
		tc.Params = append(tc.Params, tp)
	}
	o, err := reserveGameOut(*out, tuneOutNames...)
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if ntbea {
		err := runGameNTBEA(ctx, tc, *budget, *state, *minutes, o, stdout, stderr)
		if err != nil {
			o.discard()
		}
		return err
	}
	if *state != "" {
		return runGameGridRun(ctx, tc, *state, *minutes, o, stdout, stderr) // sim_game_gridrun.go
	}
	res, err := match.Tune(ctx, tc)
	if err != nil {
		o.discard()
		if ctx.Err() != nil {
			return exitError{Code: 130, Err: err}
		}
		return usageError{Err: err} // Tune refuses its configuration before any game; a game that fails is counted, not an error
	}
	res.WriteReport(stdout)
	if err := o.commitTune(stdout, gridReport(res)); err != nil {
		return err
	}
	return failedGames(append([]*match.SimResult{res.Confirm}, candidateResults(res)...))
}

// failedGames is an error (exit 1) naming the first of the runs with games
// that could not be played to their end, nil if there is none (nil runs
// are skipped).
func failedGames(rs []*match.SimResult) error {
	for _, r := range rs {
		if r != nil && r.Failed > 0 {
			return exitError{Code: 1, Err: fmt.Errorf("%s: %d of %d games could not be played to their end (first: %s)", r.Rules, r.Failed, r.Requested, r.Failures[0])}
		}
	}
	return nil
}

func candidateResults(r *match.TuneResult) []*match.SimResult {
	var out []*match.SimResult
	for _, c := range r.Candidates {
		out = append(out, c.Result)
	}
	return out
}
