package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	iofs "io/fs"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"strconv"
	"syscall"

	"github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/match"
)

const simGameTuneStepUsage = `usage: gamectl sim tune step --game NAME --out DIR [--workers K]

Plays one step of the game's tuning run in DIR and exits: a generation
(--search ntbea), a batch of 8 candidates of the grid (--search grid), or
the confirmation. With CLOUD_RUN_TASK_INDEX/CLOUD_RUN_TASK_COUNT set (a
Cloud Run job's tasks; whole numbers, 0 <= index < count), a task plays
its contiguous slice of the step's games and writes
DIR/<step>/part-<index>-of-<count>.json; the task that finds every part
written folds the step into DIR/state.json (two that both do write the
same state). A run played so ends byte for byte as the same run played in
one go. A fold removes the parts of the steps before it (the parts of the
step just folded stay until the next step's fold, or a step run after the
verdict). Once the run has its verdict, the step prints the report and
writes DIR/report.txt and DIR/rules.json (the confirmed ruleset).

Set the run up first with the tuner's own flags and --minutes 0:
  gamectl sim tune --game NAME [--search ntbea] --param ... --games N --seed S
      --state DIR/state.json --minutes 0
The same tuner command (without --minutes) also plays the rest of a run
on one machine. docs/games.md, "A game's tuning run as a Cloud Run job".

flags:
`

// gameRun is a game's tuning run saved in a state file: NTBEA's or the
// grid's.
type gameRun interface {
	Done() bool
	Next() (*match.TuneWork, error)
	JSON() ([]byte, error)
	WriteReport(io.Writer)
}

// runGameTuneStep is "gamectl sim tune step --game NAME --out DIR".
func runGameTuneStep(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("sim tune step", stderr)
	fs.Usage = func() { fmt.Fprint(stderr, simGameTuneStepUsage); fs.PrintDefaults() }
	name := fs.String("game", "", "the game of the run (see \"gamectl games\")")
	out := fs.String("out", "", "the run's directory, holding state.json (required)")
	workers := fs.Int("workers", runtime.NumCPU(), "parallel workers (results do not depend on it)")
	if err := parseFlags(fs, args, false); err != nil {
		return err
	}
	switch {
	case *out == "":
		return usagef("--out is required")
	case *workers < 1:
		return usagef("--workers must be at least 1, not %d", *workers)
	}
	def, err := lookupGame(*name)
	if err != nil {
		return usageError{Err: err}
	}
	task, tasks, err := taskEnv()
	if err != nil {
		return err
	}
	path := filepath.Join(*out, "state.json")
	data, err := os.ReadFile(path)
	if errors.Is(err, iofs.ErrNotExist) {
		return usagef("--out %s holds no tuning run (no state.json): set one up with \"gamectl sim tune --game %s ... --state %s --minutes 0\"", *out, def.Name(), path)
	} else if err != nil {
		return usagef("--out %s: %v", *out, err)
	}
	run, err := loadGameRun(data, def, *workers)
	if err != nil {
		return usagef("%s: %v", path, err)
	}
	if run.Done() {
		pruneSteps(*out, "", stderr) // every step is folded, and this step folds none
		return finishGameRun(run, *out, stdout)
	}
	w, err := run.Next()
	if err != nil {
		return usagef("%s: %v", path, err)
	}
	sum := sha256.Sum256(data)
	_, seed, _ := runIdentity(run)
	id := match.TuneStepID{Game: def.Name(), Seed: seed, State: hex.EncodeToString(sum[:])}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if _, err := os.Stat(w.PartPath(*out, task, tasks)); errors.Is(err, iofs.ErrNotExist) {
		part, err := w.PlayPart(ctx, id, task, tasks)
		if err != nil {
			if ctx.Err() != nil {
				return exitError{Code: 130, Err: fmt.Errorf("interrupted: this task's part is dropped; run the step again")}
			}
			return err
		}
		if err := w.WritePart(*out, part); err != nil {
			return fmt.Errorf("writing the part: %w", err)
		}
	}
	results, err := w.Collect(*out, id)
	if err != nil {
		return usageError{Err: err}
	}
	if results == nil {
		fmt.Fprintf(stdout, "task %d of %d: played its part of %s; the last task to finish folds it\n", task, tasks, w.Name)
		return nil
	}
	if err := w.Fold(results); err != nil {
		return err
	}
	state, err := run.JSON()
	if err != nil {
		return err
	}
	if err := match.WriteFileAtomic(path, state); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	pruneSteps(*out, w.Name, stderr) // kept: a second task may be folding it
	if run.Done() {
		return finishGameRun(run, *out, stdout)
	}
	next, err := run.Next()
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "task %d of %d: %s folded; the next step plays %s\n", task, tasks, w.Name, next.Name)
	return nil
}

// pruneSteps removes the parts of the steps before keep, folded into the
// state (match.PruneSteps). A failure is only told on stderr: the state is
// saved, and the next step prunes again.
func pruneSteps(dir, keep string, stderr io.Writer) {
	if err := match.PruneSteps(dir, keep); err != nil {
		fmt.Fprintf(stderr, "gamectl sim tune step: removing the parts of folded steps: %v\n", err)
	}
}

// finishGameRun prints a finished run's report, writes it to report.txt,
// and the tuner's --out files (tune.csv, rules.json: the confirmed
// ruleset, report.html) beside it, and is the error of games that could
// not be played to their end (exit 1), as the tuner's.
func finishGameRun(run gameRun, dir string, stdout io.Writer) error {
	var b bytes.Buffer
	run.WriteReport(&b)
	stdout.Write(b.Bytes())
	if err := match.WriteFileAtomic(filepath.Join(dir, "report.txt"), b.Bytes()); err != nil {
		return err
	}
	var rep tuneReport
	switch r := run.(type) {
	case *match.NTBEARun:
		rep = ntbeaReport(r)
	case *match.GridRun:
		rep = gridReport(r.Result())
	}
	o, err := reserveGameOut(dir, tuneOutNames...)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "wrote %s/report.txt\n", dir)
	if err := o.commitTune(stdout, rep); err != nil {
		return err
	}
	return failedGames(runResults(run))
}

// loadGameRun reads a saved run of def, whichever search made it.
func loadGameRun(data []byte, def game.Definition, workers int) (gameRun, error) {
	format, _, err := match.SavedFormat(data)
	if err != nil {
		return nil, err
	}
	switch format {
	case match.NTBEAFormat:
		return match.LoadNTBEA(data, def, workers)
	case match.GridFormat:
		return match.LoadGrid(data, def, workers)
	}
	return nil, fmt.Errorf("format %q: not a saved tuning run of a game (want %q or %q)", format, match.NTBEAFormat, match.GridFormat)
}

// runIdentity returns a run's game, seed and confirmation (nil before).
func runIdentity(run gameRun) (string, string, *match.SimResult) {
	switch r := run.(type) {
	case *match.NTBEARun:
		return r.Game, r.Seed, r.Confirm
	case *match.GridRun:
		return r.Game, r.Seed, r.Confirm
	}
	return "", "", nil
}

// runResults are a run's results, for failedGames.
func runResults(run gameRun) []*match.SimResult {
	switch r := run.(type) {
	case *match.NTBEARun:
		out := []*match.SimResult{r.Confirm}
		for _, c := range r.Candidates {
			out = append(out, c.Pooled)
		}
		return out
	case *match.GridRun:
		out := []*match.SimResult{r.Confirm}
		for _, c := range r.Candidates {
			out = append(out, c.Result)
		}
		return out
	}
	return nil
}

// taskEnv reads CLOUD_RUN_TASK_INDEX and CLOUD_RUN_TASK_COUNT strictly:
// both unset (or empty) is task 0 of 1; else both whole numbers (decimal
// digits only), the count at least 1, the index below it.
func taskEnv() (int, int, error) {
	idx, cnt := os.Getenv("CLOUD_RUN_TASK_INDEX"), os.Getenv("CLOUD_RUN_TASK_COUNT")
	switch {
	case idx == "" && cnt == "":
		return 0, 1, nil
	case idx == "":
		return 0, 0, usagef("CLOUD_RUN_TASK_COUNT=%q is set without CLOUD_RUN_TASK_INDEX: set both (a Cloud Run job does) or neither", cnt)
	case cnt == "":
		return 0, 0, usagef("CLOUD_RUN_TASK_INDEX=%q is set without CLOUD_RUN_TASK_COUNT: set both (a Cloud Run job does) or neither", idx)
	}
	n, ok := wholeNumber(cnt)
	if !ok || n < 1 {
		return 0, 0, usagef("CLOUD_RUN_TASK_COUNT=%q: want a whole number of tasks, 1 or more", cnt)
	}
	i, ok := wholeNumber(idx)
	if !ok || i >= n {
		return 0, 0, usagef("CLOUD_RUN_TASK_INDEX=%q: want a whole number from 0 to %d (CLOUD_RUN_TASK_COUNT=%d less one)", idx, n-1, n)
	}
	return i, n, nil
}

// wholeNumber reads s, decimal digits only (no sign, space or point), at
// most 9 of them.
func wholeNumber(s string) (int, bool) {
	if s == "" || len(s) > 9 {
		return 0, false
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return 0, false
		}
	}
	n, err := strconv.Atoi(s)
	return n, err == nil
}
