package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	iofs "io/fs"
	"os"
	"strconv"
	"time"

	"github.com/fairboard/fairboard/match"
)

// runGameNTBEA is "gamectl sim tune --game NAME --search ntbea": the run
// set up (or resumed from --state), played to its verdict, reported.
// Its --out files (o, nil for none) are written when the run has its
// verdict, and dropped by an invocation that stops before (the caller
// drops them on an error).
func runGameNTBEA(ctx context.Context, tc match.TuneConfig, budget int, state string, minutes float64, o *gameOut, stdout, stderr io.Writer) error {
	st, err := match.NewNTBEA(tc, budget)
	if err != nil {
		return usageError{Err: err}
	}
	var save func(*match.NTBEARun) error
	if state != "" {
		data, err := os.ReadFile(state)
		switch {
		case err == nil:
			if st, err = match.ResumeNTBEA(data, st); err != nil {
				return usagef("--state %s: %v (resume it with its own flags, or name another file)", state, err)
			}
			if !st.Done() {
				fmt.Fprintf(stderr, "resuming the run in %s after generation %d of %d\n", state, len(st.History), st.Plan.Generations)
			}
		case errors.Is(err, iofs.ErrNotExist):
			// A new run: the file must be writable before any game.
			p, err := reserveFile("--state", state)
			if err != nil {
				return err
			}
			p.discard()
		default:
			return usagef("--state %s: %v", state, err)
		}
		save = func(r *match.NTBEARun) error {
			data, err := r.JSON()
			if err != nil {
				return err
			}
			p, err := reserveFile("--state", state)
			if err != nil {
				return err
			}
			if _, err := p.Write(data); err != nil {
				p.discard()
				return fmt.Errorf("writing %s: %w", state, err)
			}
			return p.commit()
		}
	}
	start := ntbeaNow()
	for !st.Done() {
		if minutes >= 0 && ntbeaNow().Sub(start).Minutes() >= minutes {
			if minutes == 0 && len(st.History) == 0 {
				if err := save(st); err != nil { // set up: the file holds the run before any game
					return err
				}
			}
			fmt.Fprintf(stdout, "%s: stopped after generation %d of %d (--minutes %s); the same command goes on from %s\n",
				tc.Sim.Def.Name(), len(st.History), st.Plan.Generations, strconv.FormatFloat(minutes, 'g', -1, 64), state)
			if o != nil {
				o.discard()
				fmt.Fprintf(stdout, "--out %s: written when the run has its verdict\n", o.dir)
			}
			return nil
		}
		if err := st.Run(ctx, 1, save); err != nil {
			return interrupted(ctx, err, state, st)
		}
	}
	st.WriteReport(stdout)
	if err := o.commitTune(stdout, ntbeaReport(st)); err != nil {
		return err
	}
	runs := []*match.SimResult{st.Confirm}
	for _, c := range st.Candidates {
		runs = append(runs, c.Pooled)
	}
	return failedGames(runs)
}

// ntbeaNow is the clock of --minutes (tests set it).
var ntbeaNow = time.Now

// interrupted is a game NTBEA run's error: exit 130 when ctx was
// cancelled (the generation being played dropped), else err.
func interrupted(ctx context.Context, err error, state string, st *match.NTBEARun) error {
	if ctx.Err() != nil {
		why := "the run is not saved (no --state)"
		if state != "" {
			why = fmt.Sprintf("the generation being played is dropped; the same command resumes after generation %d", len(st.History))
		}
		return exitError{Code: 130, Err: fmt.Errorf("interrupted: %s", why)}
	}
	return err
}
