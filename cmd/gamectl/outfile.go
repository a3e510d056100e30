package main

import (
	"github.com/fairboard/fairboard/audit"
	"github.com/fairboard/fairboard/internal/cli"
)

// pendingFile is an output file that is checked before the work starts and
// appears only when the work is done (cli.PendingFile, under gamectl's
// names): reserveFile refuses a path in a missing or read-only directory,
// or a path that is a directory (exit 2), before anything runs; commit
// moves it into place; discard removes it.
type pendingFile struct {
	*cli.PendingFile
	path string
}

// reserveFile reserves path for the flag named flagName ("--audit-out").
func reserveFile(flagName, path string) (*pendingFile, error) {
	f, err := cli.ReserveFile(flagName, path)
	if err != nil {
		return nil, err
	}
	return &pendingFile{PendingFile: f, path: path}, nil
}

// commit closes the file and moves it to its path.
func (p *pendingFile) commit() error { return p.Commit() }

// discard closes and removes the temporary file.
func (p *pendingFile) discard() { p.Discard() }

// writeAudit writes every audit entry, one JSON object a line, and moves
// the file into place.
func writeAudit(f *pendingFile, rec *audit.Recorder) error {
	return cli.WriteJSONLines(f.PendingFile, rec.All())
}
