// Package repo finds the repository a test or a build tool runs in.
package repo

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// Root returns the nearest directory at or above the working directory
// that holds a go.mod file: the repository root when run by go test or go
// generate.
func Root() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", fmt.Errorf("repo: %w", err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("repo: no go.mod at or above the working directory")
		}
		dir = parent
	}
}
