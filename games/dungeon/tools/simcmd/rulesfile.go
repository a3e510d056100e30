package simcmd

import (
	"github.com/fairboard/fairboard/games/dungeon/engine"
	"github.com/fairboard/fairboard/games/dungeon/tools/sim"
	"github.com/fairboard/fairboard/internal/cli"
)

// loadRulesFile reads and validates the ruleset at path with its source
// (the path), or returns the embedded default and sim.DefaultSource when
// path is "". The error names the file and every problem found, and is a
// usage error (exit 2).
func loadRulesFile(path string) (*engine.Ruleset, string, error) {
	if path == "" {
		return engine.DefaultRules(), sim.DefaultSource, nil
	}
	r, err := engine.ReadRulesFile(path)
	if err != nil {
		return nil, "", cli.UsageError{Err: err}
	}
	return r, path, nil
}
