package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"syscall"

	"github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/match"
)

const simGameTuneUsage = `usage: gamectl sim tune --game NAME --param PATH[=LO:HI] [--param ...] --games N --seed S
                       [--levels 5] [--target 2] [--players P] [--bot LIST] [--rules FILE] [--workers K]

Searches a grid of values of the game's ruleset numbers for the fairest
ruleset: each number takes --levels values evenly spread over its range
(PATH=LO:HI, or the whole range "gamectl games" lists; whole numbers
rounded), every candidate of the grid (at most 200) is played on the same N
games (seed "S/search#i"), and ranked by the sum over the seat positions
(for a game with seat options: over the option values) of the squared edge
over the fair share less its noise p(1-p)/n. The best is played again on N
fresh games (seed "S/confirm#i"): "met" when every 95% interval lies within
the fair share +/- --target percentage points, else "not met within the
grid" with that closest candidate. A grid search (docs/games.md, "Designing
with the tools"), not the dungeon's NTBEA: without --game, or with
"--game dungeon", "gamectl sim tune" is the dungeon's own tuner.

flags:
`

// runGameTune is "gamectl sim tune --game NAME".
func runGameTune(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("sim tune", stderr)
	fs.Usage = func() { fmt.Fprint(stderr, simGameTuneUsage); fs.PrintDefaults() }
	f := addGameSimFlags(fs)
	var params paramFlags
	fs.Var(&params, "param", "PATH[=LO:HI]: a number to tune (repeat for each)")
	levels := fs.Int("levels", match.DefaultTuneLevels, "values of each number in the grid, at least 1")
	target := fs.Float64("target", 2, "the band around the fair share, in percentage points, above 0 and below 100")
	if err := parseFlags(fs, args, false); err != nil {
		return err
	}
	cfg, err := f.config()
	if err != nil {
		return err
	}
	switch {
	case len(params) == 0:
		return usagef("name at least one --param PATH[=LO:HI]: of %s", paramNames(cfg.Def))
	case *levels < 1:
		return usagef("--levels must be at least 1, not %d", *levels)
	case !(*target > 0 && *target < 100):
		return usagef("--target %g: want percentage points above 0 and below 100", *target)
	}
	tc := match.TuneConfig{Sim: cfg, Levels: *levels, Target: *target / 100}
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
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	res, err := match.Tune(ctx, tc)
	if err != nil {
		if ctx.Err() != nil {
			return exitError{130, err}
		}
		return usageError{err} // Tune refuses its configuration before any game; a game that fails is counted, not an error
	}
	res.WriteReport(stdout)
	for _, r := range append([]*match.SimResult{res.Confirm}, candidateResults(res)...) {
		if r.Failed > 0 {
			return exitError{1, fmt.Errorf("%s: %d of %d games could not be played to their end (first: %s)", r.Rules, r.Failed, r.Requested, r.Failures[0])}
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
