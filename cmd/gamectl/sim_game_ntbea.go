package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	iofs "io/fs"
	"os"

	"github.com/fairboard/fairboard/match"
)

// runGameNTBEA is "gamectl sim tune --game NAME --search ntbea": the run
// set up (or resumed from --state), played to its verdict, reported.
func runGameNTBEA(ctx context.Context, tc match.TuneConfig, budget int, state string, stdout, stderr io.Writer) error {
	st, err := match.NewNTBEA(tc, budget)
	if err != nil {
		return usageError{err}
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
	if err := st.Run(ctx, 0, save); err != nil {
		if ctx.Err() != nil {
			why := "the run is not saved (no --state)"
			if state != "" {
				why = fmt.Sprintf("the generation being played is dropped; the same command resumes after generation %d", len(st.History))
			}
			return exitError{130, fmt.Errorf("interrupted: %s", why)}
		}
		return err
	}
	st.WriteReport(stdout)
	runs := []*match.SimResult{st.Confirm}
	for _, c := range st.Candidates {
		runs = append(runs, c.Pooled)
	}
	return failedGames(runs)
}
