package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"syscall"

	"github.com/fairboard/fairboard/internal/cli"

	"github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/match"
)

// The --game sweep's grid of two numbers (--param2, --values2) and the
// runs to a precision of "sim --game NAME" and of that sweep
// (--precision P), as the dungeon's commands have them (docs/sim.md).

// sweepExtra are the game sweep's flags beyond one number's.
type sweepExtra struct {
	fs              *flag.FlagSet
	param2, values2 *string
	precision       *float64
}

func addSweepExtra(fs *flag.FlagSet) sweepExtra {
	return sweepExtra{
		fs:        fs,
		param2:    fs.String("param2", "", "PATH of a second number: a grid of every pair of values"),
		values2:   fs.String("values2", "", "the second number's values, comma-separated"),
		precision: addPrecisionFlag(fs),
	}
}

// addPrecisionFlag defines --precision for a game's simulation or sweep.
func addPrecisionFlag(fs *flag.FlagSet) *float64 {
	return fs.Float64("precision", 0, "P > 0: play in batches of "+strconv.Itoa(match.PrecisionBatch)+
		" games until every seat position's 95% interval is at most P percentage points on each side; --games is the ceiling")
}

// grid reports whether the flags ask for a grid (--param2 or --values2).
func (x sweepExtra) grid() bool { return cli.IsSet(x.fs, "param2") || cli.IsSet(x.fs, "values2") }

// parseGameValues reads a comma-separated list of numbers for flag name.
func parseGameValues(name, s string) ([]float64, error) {
	var vals []float64
	for _, item := range cli.SplitList(s) {
		v, err := strconv.ParseFloat(item, 64)
		if err != nil {
			return nil, usagef("%s: %q is not a number", name, item)
		}
		vals = append(vals, v)
	}
	if len(vals) == 0 {
		return nil, usagef("%s needs at least one value", name)
	}
	return vals, nil
}

// simulate is match.Simulate, or SimulatePrecise when p > 0.
func simulate(ctx context.Context, cfg match.SimConfig, p float64) (*match.SimResult, error) {
	if p > 0 {
		return match.SimulatePrecise(ctx, cfg, p)
	}
	return match.Simulate(ctx, cfg)
}

// sweep is match.Sweep, or SweepPrecise when p > 0.
func sweep(ctx context.Context, sc match.SweepConfig, p float64) (*match.SweepResult, error) {
	if p > 0 {
		return match.SweepPrecise(ctx, sc, p)
	}
	return match.Sweep(ctx, sc)
}

// runGameGrid is "gamectl sim sweep --game NAME --param P --values ...
// --param2 Q --values2 ...": cfg and the first number's values are
// checked; every pair is checked before any game is played.
func runGameGrid(cfg match.SimConfig, param string, vals []float64, x sweepExtra, prec float64, out string, stdout io.Writer) error {
	switch {
	case *x.param2 == "":
		return usagef("--values2 without --param2: the second number's path, one of %s", paramNames(cfg.Def))
	case *x.param2 == param:
		return usagef("--param2 %s is --param too: a grid needs two different numbers", param)
	}
	if _, err := game.ParamOf(cfg.Def, *x.param2); err != nil {
		return usagef("--param2: %v", err)
	}
	vals2, err := parseGameValues("--values2", *x.values2)
	if err != nil {
		return err
	}
	if _, _, err := match.SweepRules(cfg.Def, cfg.Rules, *x.param2, vals2); err != nil {
		return usagef("--values2: %v", err)
	}
	if _, _, _, err := match.GridRules(cfg.Def, cfg.Rules, param, vals, *x.param2, vals2); err != nil {
		return usageError{Err: err}
	}
	var csv, players, summary *pendingFile
	if out != "" {
		if err := os.MkdirAll(out, 0o755); err != nil {
			return usagef("--out %s: %v", out, err)
		}
		var files []*pendingFile
		for _, name := range []string{"sweep.csv", "players.csv", "summary.txt"} {
			p, err := reserveFile("--out", filepath.Join(out, name))
			if err != nil {
				for _, q := range files {
					q.discard()
				}
				return err
			}
			files = append(files, p)
		}
		csv, players, summary = files[0], files[1], files[2]
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	gc := match.GridConfig{Sim: cfg, Param: param, Values: vals, Param2: *x.param2, Values2: vals2}
	if players != nil {
		gc.Players = players
	}
	var res *match.GridResult
	if prec > 0 {
		res, err = match.SweepGridPrecise(ctx, gc, prec)
	} else {
		res, err = match.SweepGrid(ctx, gc)
	}
	if err != nil && ctx.Err() != nil {
		err = exitError{Code: 130, Err: fmt.Errorf("interrupted: %v", err)}
	}
	var text bytes.Buffer
	if res != nil {
		res.WriteTable(&text)
	}
	stdout.Write(text.Bytes())
	if csv != nil {
		if err != nil || res == nil {
			csv.discard()
			players.discard()
			summary.discard()
			return err
		}
		summary.Write(text.Bytes())
		werr := res.WriteCSV(csv)
		if cerr := errors.Join(werr, csv.commit(), players.commit(), summary.commit()); cerr != nil {
			return cerr
		}
		fmt.Fprintf(stdout, "\nwrote %s/sweep.csv, players.csv and summary.txt\n", out)
	}
	if err != nil {
		return err
	}
	for _, pt := range res.Points {
		if r := pt.Result; r.Failed > 0 {
			return exitError{Code: 1, Err: fmt.Errorf("%s = %g, %s = %g: %d of %d games could not be played to their end (first: %s)",
				param, pt.Value, *x.param2, pt.Value2, r.Failed, r.Requested, r.Failures[0])}
		}
	}
	return nil
}
