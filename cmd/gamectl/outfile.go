package main

import (
	"fmt"
	"os"
	"path/filepath"
)

// pendingFile is an output file that is checked before the work starts and
// appears only when the work is done: reserveFile creates a temporary file
// beside the path, so that a path in a missing or read-only directory, or a
// path that is a directory, is refused (exit 2) before anything runs; commit
// renames it into place; discard removes it. A failed or interrupted run
// never leaves a half-written file under the path.
type pendingFile struct {
	*os.File
	path string
}

// reserveFile reserves path for the flag named flagName ("--audit-out").
func reserveFile(flagName, path string) (*pendingFile, error) {
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		return nil, usagef("%s %s: is a directory", flagName, path)
	}
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return nil, usagef("%s %s: cannot write there: %v", flagName, path, err)
	}
	f.Chmod(0o644) // CreateTemp's 0600 is for secrets; this is an ordinary output
	return &pendingFile{File: f, path: path}, nil
}

// commit closes the file and moves it to its path.
func (p *pendingFile) commit() error {
	if err := p.Close(); err != nil {
		p.discard()
		return fmt.Errorf("writing %s: %w", p.path, err)
	}
	if err := os.Rename(p.Name(), p.path); err != nil {
		p.discard()
		return fmt.Errorf("writing %s: %w", p.path, err)
	}
	return nil
}

// discard closes and removes the temporary file.
func (p *pendingFile) discard() {
	p.Close()
	os.Remove(p.Name())
}
