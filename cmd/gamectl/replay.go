package main

import (
	"fmt"
	"io"
	"os"

	"github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/match"
)

func init() {
	commands["replay"] = command{"replay a golden fixture and report the first divergence", runReplay}
}

const replayUsage = `usage: gamectl replay FILE

Replays the golden fixture FILE (a JSON file of games/dungeon/fixtures/testdata,
written by "go test ./games/dungeon/fixtures -update") under the embedded default ruleset: its
actions from its initial state, each with the RNG stream rebuilt from the
state as a store would. Compares every event, every RNG audit entry and the
final state's hash with the file's.

Prints "OK NAME: ..." and exits 0 when the replay is identical; prints the
first divergence (the step, the event or audit entry, expected and got) and
exits 1 when it is not; exits 2 when FILE cannot be read or is not a fixture
this engine can replay (bad JSON, unknown fields, another ruleset, an
initial state the engine could not have produced).

FILE may also be the record of a game on the game definition
(fairboard-game/v1, written by "gamectl play --game NAME --record FILE"): the
game it names is replayed from its seed (or, in crypto mode, its draws) and
its moves, and its log, audit entries and final state's hash are compared;
the output and exit codes are the same ("OK pig: ...").
`

// replayRecord is replay for a game record (match.Record).
func replayRecord(path string, data []byte, stdout io.Writer) error {
	r, err := match.ReadRecord(data)
	if err != nil {
		return usagef("%s: %v", path, err)
	}
	def, err := lookupGame(r.Game)
	if err != nil {
		return usagef("%s: %v", path, err)
	}
	d, err := match.CheckRecord(def, r)
	if err != nil {
		return usagef("%s is not a replayable record: %v", path, err)
	}
	if d != nil {
		return exitError{Code: 1, Err: fmt.Errorf("%s: diverges at %w", path, d)}
	}
	fmt.Fprintf(stdout, "OK %s: %d moves, %d events, %d audit entries, final state %s\n", r.Game, len(r.Moves), len(r.Log), len(r.Audit), r.StateSHA256[:16])
	return nil
}

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
	if data, err := os.ReadFile(path); err == nil && match.IsRecord(data) {
		return replayRecord(path, data, stdout)
	}
	// A file that is no game record is a fixture of a game's own format
	// (the dungeon's engine fixtures), which that game replays.
	def, err := lookupGame("dungeon")
	if err != nil {
		return err
	}
	fr, ok := def.(game.FixtureReplayer)
	if !ok {
		return fmt.Errorf("the dungeon replays no fixture") // wiring: not reached
	}
	summary, d, err := fr.ReplayFixture(path)
	if err != nil {
		// The file does not parse, or parsed but cannot be replayed at
		// all: it is not a fixture of this engine, which is bad input,
		// not a divergence.
		return usagef("%v", err)
	}
	if d != nil {
		return exitError{Code: 1, Err: fmt.Errorf("%s: diverges at %w", path, d)}
	}
	fmt.Fprintln(stdout, summary)
	return nil
}
