package main

import (
	"fmt"
	"io"

	"github.com/fairboard/fairboard/engine"
	"github.com/fairboard/fairboard/fixtures"
)

func init() {
	commands["replay"] = command{"replay a golden fixture and report the first divergence", runReplay}
}

// runReplay replays FILE under the default ruleset; exit 1 with the first
// divergence (step, event or audit entry, expected vs got), 0 with a
// one-line summary if the replay is identical.
func runReplay(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("replay", stderr)
	if err := parseFlags(fs, args, true); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return usagef("usage: gamectl replay FILE")
	}
	path := fs.Arg(0)
	f, err := fixtures.Load(path)
	if err != nil {
		return usagef("%v", err)
	}
	d, err := fixtures.Check(f, engine.DefaultRules())
	if err != nil {
		return exitError{1, fmt.Errorf("%s: %w", path, err)}
	}
	if d != nil {
		return exitError{1, fmt.Errorf("%s: diverges at %w", path, d)}
	}
	steps := len(f.Actions) + len(f.Calls)
	fmt.Fprintf(stdout, "OK %s: %d steps, %d events, %d audit entries, final state %s\n", f.Name, steps, len(f.Log), len(f.Audit), f.FinalHash[:16])
	return nil
}
