package main

import (
	"fmt"
	"os"

	"github.com/fairboard/fairboard/engine"
	"github.com/fairboard/fairboard/sim"
)

// loadRulesFile reads and validates the ruleset at path, or returns the
// embedded default when path is "". The error names the file and every
// problem found, and is a usage error (exit 2).
func loadRulesFile(path string) (*engine.Ruleset, string, error) {
	if path == "" {
		return engine.DefaultRules(), sim.DefaultSource, nil
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, "", usagef("cannot read ruleset: %v", err)
	}
	r, err := engine.LoadRules(data)
	if err != nil {
		return nil, "", usageError{fmt.Errorf("invalid ruleset %s: %w", path, err)}
	}
	return r, path, nil
}
