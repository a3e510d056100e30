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

const replayUsage = `usage: gamectl replay FILE

Replays the golden fixture FILE (a JSON file of fixtures/testdata, written by
"go test ./fixtures -update") under the embedded default ruleset: its
actions from its initial state, each with the RNG stream rebuilt from the
state as a store would. Compares every event, every RNG audit entry and the
final state's hash with the file's.

Prints "OK NAME: ..." and exits 0 when the replay is identical; prints the
first divergence (the step, the event or audit entry, expected and got) and
exits 1 when it is not; exits 2 when FILE cannot be read or is not a fixture
this engine can replay (bad JSON, unknown fields, another ruleset, an
initial state the engine could not have produced).
`

// runReplay replays FILE under the default ruleset; exit 1 with the first
// divergence (step, event or audit entry, expected vs got), 0 with a
// one-line summary if the replay is identical, 2 if FILE is no fixture.
func runReplay(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("replay", stderr)
	fs.Usage = func() { fmt.Fprint(stderr, replayUsage) }
	if err := parseFlags(fs, args, true); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return usagef("want one FILE, got %d arguments (usage: gamectl replay FILE)", fs.NArg())
	}
	path := fs.Arg(0)
	f, err := fixtures.Load(path)
	if err != nil {
		return usagef("%v", err)
	}
	d, err := fixtures.Check(f, engine.DefaultRules())
	if err != nil {
		// The file parsed but cannot be replayed at all (another ruleset,
		// an impossible initial state, a bad step): it is not a fixture of
		// this engine, which is bad input, not a divergence.
		return usagef("%s is not a replayable fixture: %v", path, err)
	}
	if d != nil {
		return exitError{1, fmt.Errorf("%s: diverges at %w", path, d)}
	}
	steps := len(f.Actions) + len(f.Calls)
	fmt.Fprintf(stdout, "OK %s: %d steps, %d events, %d audit entries, final state %s\n", f.Name, steps, len(f.Log), len(f.Audit), f.FinalHash[:16])
	return nil
}
