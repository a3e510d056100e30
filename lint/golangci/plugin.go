// Package golangci registers randlint as a golangci-lint module plugin. It is
// its own module, so that the main module does not depend on golangci-lint's
// plugin API; docs/lint.md shows the .custom-gcl.yml and .golangci.yml that
// build and enable it.
package golangci

import (
	"fmt"
	"strings"

	"github.com/golangci/plugin-module-register/register"
	"golang.org/x/tools/go/analysis"

	"github.com/fairboard/fairboard/lint"
)

func init() { register.Plugin("randlint", New) }

// Settings are the plugin's settings in .golangci.yml, one per randlint flag.
// An empty field keeps the flag's default; a list is the flag's
// comma-separated patterns.
type Settings struct {
	Allow     []string `json:"allow"`
	RNG       string   `json:"rng"`
	Reducers  []string `json:"reducers"`
	Drivers   []string `json:"drivers"`
	Transport []string `json:"transport"`
}

// Plugin is randlint as a golangci-lint linter.
type Plugin struct{}

// New applies the settings to randlint's flags and returns the plugin. It
// fails if the settings do not decode.
func New(settings any) (register.LinterPlugin, error) {
	s, err := register.DecodeSettings[Settings](settings)
	if err != nil {
		return nil, fmt.Errorf("randlint: %w", err)
	}
	for name, value := range map[string]string{
		"allow":     strings.Join(s.Allow, ","),
		"rng":       s.RNG,
		"reducers":  strings.Join(s.Reducers, ","),
		"drivers":   strings.Join(s.Drivers, ","),
		"transport": strings.Join(s.Transport, ","),
	} {
		if value == "" {
			continue
		}
		if err := lint.Analyzer.Flags.Set(name, value); err != nil {
			return nil, fmt.Errorf("randlint: setting %s: %w", name, err)
		}
	}
	return &Plugin{}, nil
}

// BuildAnalyzers returns the one analyzer, lint.Analyzer.
func (*Plugin) BuildAnalyzers() ([]*analysis.Analyzer, error) {
	return []*analysis.Analyzer{lint.Analyzer}, nil
}

// GetLoadMode asks for type information: randlint resolves every name
// through it.
func (*Plugin) GetLoadMode() string { return register.LoadModeTypesInfo }
