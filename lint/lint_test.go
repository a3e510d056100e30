package lint_test

import (
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/fairboard/fairboard/lint"
)

// setFlags sets the analyzer's flags for one test and restores them after.
func setFlags(t *testing.T, flags map[string]string) {
	t.Helper()
	for name, value := range flags {
		f := lint.Analyzer.Flags.Lookup(name)
		if f == nil {
			t.Fatalf("no flag -%s", name)
		}
		old := f.Value.String()
		if err := lint.Analyzer.Flags.Set(name, value); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { lint.Analyzer.Flags.Set(name, old) })
	}
}

// TestDefaults runs the analyzer with its default flags over the fake
// repository under testdata/src: every banned form is reported where a
// "// want" comment says, and nothing else is.
func TestDefaults(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), lint.Analyzer,
		"github.com/fairboard/fairboard/rng/...",
		"github.com/fairboard/fairboard/games/dungeon/engine",
		"github.com/fairboard/fairboard/functions/...",
		"github.com/fairboard/fairboard/games/dungeon/server/store",
		"github.com/fairboard/fairboard/games/dungeon/tools/sim",
		"example.com/banned",
		"example.com/devrandom",
		"example.com/game",
		"example.com/gen",
	)
}

// TestClockSeedInAllowedPackage checks that the clock rule holds inside the
// allow-list: example.com/seed uses math/rand freely but may not seed it
// from the clock.
func TestClockSeedInAllowedPackage(t *testing.T) {
	setFlags(t, map[string]string{"allow": "github.com/fairboard/fairboard/rng/...,example.com/seed"})
	analysistest.Run(t, analysistest.TestData(), lint.Analyzer, "example.com/seed")
}

// TestOtherRepository points every flag at another repository's packages.
func TestOtherRepository(t *testing.T) {
	setFlags(t, map[string]string{
		"rng":       "example.com/myrng",
		"allow":     "example.com/myrng/...",
		"reducers":  "example.com/mygame/rules",
		"transport": "example.com/mygame/...",
	})
	analysistest.Run(t, analysistest.TestData(), lint.Analyzer, "example.com/myrng", "example.com/mygame/rules")
}

// TestDriversOff: with no -drivers, a game's tool is a reducer package
// like the rest of the game, and its RNG construction and map ranges are
// reported: the control of TestDefaults' games/dungeon/tools/sim.
func TestDriversOff(t *testing.T) {
	setFlags(t, map[string]string{"drivers": ""})
	r := analysistest.Run(&collect{t}, analysistest.TestData(), lint.Analyzer, "github.com/fairboard/fairboard/games/dungeon/tools/sim")
	var got []string
	for _, res := range r {
		for _, d := range res.Diagnostics {
			got = append(got, d.Message)
		}
	}
	if len(got) != 3 {
		t.Fatalf("with -drivers off, want 3 reports (the build and both map ranges as a reducer package's), got %d: %q", len(got), got)
	}
	for _, m := range got {
		if !strings.Contains(m, "reducer package") {
			t.Errorf("report %q does not name the reducer package", m)
		}
	}
}

// collect is a testing.T for analysistest that lets its unexpected
// diagnostics through without failing, so that a test can count them.
type collect struct{ *testing.T }

func (c *collect) Errorf(format string, args ...any) {}
