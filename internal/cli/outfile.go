package cli

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
)

// PendingFile is an output file that is checked before the work starts
// and appears only when the work is done: ReserveFile creates a temporary
// file beside the path, so that a path in a missing or read-only
// directory, or a path that is a directory, is refused (exit 2) before
// anything runs; Commit renames it into place; Discard removes it. A
// failed or interrupted run never leaves a half-written file under the
// path.
type PendingFile struct {
	*os.File
	Path string
}

// ReserveFile reserves path for the flag named flagName ("--audit-out").
// Errors (a UsageError): path is a directory, or its directory cannot be
// written.
func ReserveFile(flagName, path string) (*PendingFile, error) {
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		return nil, Usagef("%s %s: is a directory", flagName, path)
	}
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return nil, Usagef("%s %s: cannot write there: %v", flagName, path, err)
	}
	f.Chmod(0o644) // CreateTemp's 0600 is for secrets; this is an ordinary output
	return &PendingFile{File: f, Path: path}, nil
}

// Commit closes the file and moves it to its path.
func (p *PendingFile) Commit() error {
	if err := p.Close(); err != nil {
		p.Discard()
		return fmt.Errorf("writing %s: %w", p.Path, err)
	}
	if err := os.Rename(p.Name(), p.Path); err != nil {
		p.Discard()
		return fmt.Errorf("writing %s: %w", p.Path, err)
	}
	return nil
}

// Discard closes and removes the temporary file.
func (p *PendingFile) Discard() {
	p.Close()
	os.Remove(p.Name())
}

// WriteJSONLines writes each item as one JSON object a line into f (as
// --audit-out writes audit entries) and commits f. Errors: an item that
// does not encode, or the file not written.
func WriteJSONLines[T any](f *PendingFile, items []T) error {
	w := bufio.NewWriter(f)
	for _, e := range items {
		b, err := json.Marshal(e)
		if err != nil {
			return err
		}
		w.Write(b)
		w.WriteByte('\n')
	}
	if err := w.Flush(); err != nil {
		return fmt.Errorf("writing %s: %w", f.Path, err)
	}
	return f.Commit()
}
