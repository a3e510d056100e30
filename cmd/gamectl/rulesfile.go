package main

import (
	"github.com/fairboard/fairboard/engine"
)

// loadRulesFile reads and validates the ruleset at path, or returns the
// embedded default when path is "". The error names the file and every
// problem found, and is a usage error (exit 2).
func loadRulesFile(path string) (*engine.Ruleset, error) {
	if path == "" {
		return engine.DefaultRules(), nil
	}
	r, err := engine.ReadRulesFile(path)
	if err != nil {
		return nil, usageError{Err: err}
	}
	return r, nil
}
