package eights_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/games/eights"
)

// The help says the deck, the hand and the move cap of its ruleset.
func TestHelp(t *testing.T) {
	text := func(r game.Ruleset) string {
		h := eights.Def.(game.Helper).Help(r)
		var b strings.Builder
		b.WriteString(h.Summary)
		for _, s := range h.Sections {
			b.WriteString(" " + s.Intro)
			for _, it := range s.Items {
				b.WriteString(" " + it.Name + ": " + it.Text)
			}
		}
		return b.String()
	}
	r, err := eights.Def.DecodeRuleset([]byte(`{"ranks":13,"suits":3,"hand":4,"maxMoves":90}`))
	require.NoError(t, err)
	for _, want := range []string{"A deck of 39 cards: ranks 1 to 13 in 3 suits", "dealt 4 cards", "after 90 moves", "Draw: Only when you cannot play"} {
		require.Contains(t, text(r), want)
	}
	require.Contains(t, text(eights.DefaultRules()), "A deck of 32 cards: ranks 1 to 8 in 4 suits. Each player is dealt 5 cards")
}
