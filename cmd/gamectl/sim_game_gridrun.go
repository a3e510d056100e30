package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	iofs "io/fs"
	"os"
	"strconv"

	"github.com/fairboard/fairboard/match"
)

// runGameGridRun is "gamectl sim tune --game NAME --state FILE" of the grid
// search: the run set up (or resumed from FILE), played batch by batch,
// saved after each, and reported as the grid played in one go (Tune).
func runGameGridRun(ctx context.Context, tc match.TuneConfig, state string, minutes float64, o *gameOut, stdout, stderr io.Writer) (err error) {
	defer func() {
		if err != nil {
			o.discard()
		}
	}()
	st, err := match.NewGrid(tc)
	if err != nil {
		return usageError{Err: err}
	}
	data, err := os.ReadFile(state)
	switch {
	case err == nil:
		if st, err = match.ResumeGrid(data, st); err != nil {
			return usagef("--state %s: %v (resume it with its own flags, or name another file)", state, err)
		}
		if !st.Done() {
			fmt.Fprintf(stderr, "resuming the run in %s after %d of %d candidates\n", state, st.Played, len(st.Candidates))
		}
	case errors.Is(err, iofs.ErrNotExist):
		p, err := reserveFile("--state", state) // a new run: the file must be writable before any game
		if err != nil {
			return err
		}
		p.discard()
	default:
		return usagef("--state %s: %v", state, err)
	}
	save := func() error {
		data, err := st.JSON()
		if err != nil {
			return err
		}
		if err := match.WriteFileAtomic(state, data); err != nil {
			return fmt.Errorf("writing %s: %w", state, err)
		}
		return nil
	}
	start := ntbeaNow()
	for !st.Done() {
		if minutes >= 0 && ntbeaNow().Sub(start).Minutes() >= minutes {
			if minutes == 0 && st.Played == 0 {
				if err := save(); err != nil { // set up: the file holds the run before any game
					return err
				}
			}
			fmt.Fprintf(stdout, "%s: stopped after %d of %d candidates (--minutes %s); the same command goes on from %s\n",
				st.Game, st.Played, len(st.Candidates), strconv.FormatFloat(minutes, 'g', -1, 64), state)
			if o != nil {
				o.discard()
				fmt.Fprintf(stdout, "--out %s: written when the run has its verdict\n", o.dir)
			}
			return nil
		}
		w, err := st.Next()
		if err != nil {
			return err
		}
		results, err := w.Play(ctx)
		if err != nil {
			if ctx.Err() != nil {
				return exitError{Code: 130, Err: fmt.Errorf("interrupted: the batch being played is dropped; the same command resumes after %d candidates", st.Played)}
			}
			return err
		}
		if err := w.Fold(results); err != nil {
			return err
		}
		if err := save(); err != nil {
			return err
		}
	}
	st.WriteReport(stdout)
	if err := o.commitTune(stdout, gridReport(st.Result())); err != nil {
		return err
	}
	return failedGames(runResults(st))
}
