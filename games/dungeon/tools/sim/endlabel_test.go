package sim

import (
	"testing"

	"github.com/fairboard/fairboard/games/dungeon/reducers"
)

// TestEndLabels holds endLabel's outcomes, which sim spells out so as not
// to import a game, to the dungeon's own constants: a renamed outcome
// would otherwise fall through to its raw name in every report.
func TestEndLabels(t *testing.T) {
	for outcome, want := range map[string]string{
		reducers.EndFinalTile:     "on the final tile",
		reducers.EndRoundLimit:    "by the round limit",
		reducers.EndLeftFinalTile: "final tile reached, then left",
		"somethingElse":           "somethingElse",
	} {
		if got := endLabel(outcome); got != want {
			t.Errorf("endLabel(%q) = %q, want %q", outcome, got, want)
		}
	}
}
