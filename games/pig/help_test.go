package pig_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/games/pig"
)

// Pig's help says its goal and die, from the ruleset.
func TestHelp(t *testing.T) {
	r, err := pig.Def.DecodeRuleset([]byte(`{"goal":50,"dieSides":8}`))
	require.NoError(t, err)
	h := pig.Def.(game.Helper).Help(r)
	var b strings.Builder
	b.WriteString(h.Summary)
	for _, s := range h.Sections {
		for _, it := range s.Items {
			b.WriteString(" " + it.Name + ": " + it.Text)
		}
	}
	for _, want := range []string{"bank 50 points wins", "Roll: Roll the d8: a 1 ends your turn", "reaches 50", "Hold: Bank this turn's total"} {
		require.Contains(t, b.String(), want)
	}
	require.Contains(t, pig.Def.(game.Helper).Help(pig.Def.DefaultRuleset()).Summary, "bank 100 points")
}
