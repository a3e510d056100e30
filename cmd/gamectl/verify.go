package main

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"

	"github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/games/registry"
	"github.com/fairboard/fairboard/match"
	verifypage "github.com/fairboard/fairboard/web/verify"
)

func init() {
	commands["verify"] = command{"verify a game's export (fairboard-export/v1): a finished game, or a trustless game at any point", runVerify}
}

// runVerify checks one export: exit 0 with a one-line summary, 1 naming the
// first divergence, 2 for a file that cannot be read or is not an export.
func runVerify(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("verify", stderr)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: gamectl verify FILE\n\nChecks a fairboard-export/v1 file (gamectl play --export, or the exportGame\ncallable): commitments, seeds, a replay of every action, every shuffle;\nin a trustless game every link, signature and draw, at any point of play.\nFILE may also be a game record (fairboard-game/v1: exportGame of a finished\ntable game such as Pig or Kuhn poker, or gamectl play --game NAME --record),\nchecked as gamectl replay checks it: its moves replayed from its seed or\nits draws, its log, audit entries and final state compared.\nExit 0: verified; 1: the first divergence; 2: not a readable export.")
	}
	if err := parseFlags(fs, args, true); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return usagef("give exactly one export file")
	}
	data, err := os.ReadFile(fs.Arg(0))
	if err != nil {
		return usagef("cannot read the export: %v", err)
	}
	if match.IsRecord(data) {
		return replayRecord(fs.Arg(0), data, stdout)
	}
	v, err := exportVerifier()
	if err != nil {
		return err
	}
	summary, d, err := v.VerifyExport(data)
	var bad *game.NotAnExport
	switch {
	case errors.As(err, &bad):
		return usageError{Err: fmt.Errorf("%s: %w", fs.Arg(0), err)}
	case err != nil:
		return err
	case d != nil:
		return exitError{Code: 1, Err: fmt.Errorf("%s: %w", fs.Arg(0), d)}
	}
	_, err = fmt.Fprintln(stdout, summary)
	return err
}

// exportVerifier returns the checker of exports (fairboard-export/v1):
// an export names no game, so it is the dungeon's, whose definition
// checks its own format (game.ExportVerifier).
func exportVerifier() (game.ExportVerifier, error) {
	def, err := registry.Lookup(registry.Dungeon)
	if err != nil {
		return nil, err
	}
	v, ok := def.(game.ExportVerifier)
	if !ok {
		return nil, fmt.Errorf("the %s game checks no exports", def.Name())
	}
	return v, nil
}

// mountVerifyPage adds the export verifier page (web/verify) at /verify/
// to gamectl serve's mux.
func mountVerifyPage(m *http.ServeMux) *http.ServeMux {
	m.Handle("/verify/", http.StripPrefix("/verify", verifypage.Handler()))
	return m
}
