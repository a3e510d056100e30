package main

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"

	"github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/match"
	verifypage "github.com/fairboard/fairboard/web/verify"
	"github.com/fairboard/fairboard/web/verify/judge"
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
	v, err := judge.ExportVerifier()
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

// mountVerifyPage adds the export verifier page (web/verify) at /verify/
// to gamectl serve's mux.
func mountVerifyPage(m *http.ServeMux) *http.ServeMux {
	m.Handle("/verify/", http.StripPrefix("/verify", verifypage.Handler()))
	return m
}
