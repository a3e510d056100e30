package match

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/rng"
)

// DrawDealt's order by hand: a recorder over scripted swap indices deals
// the positions of the order Fisher-Yates makes from them, and refuses
// what a game drawing the deck otherwise would ask.
func TestDrawDealtByHand(t *testing.T) {
	// Fisher-Yates over [0 1 2 3], i from 3 down to 1, swapping a[i] and
	// a[j]: j = 0 gives [3 1 2 0], j = 1 gives [3 2 1 0], j = 0 gives
	// [2 3 1 0].
	c := &recorder{r: game.Script(0, 1, 0), dealDraws: true}
	free := []int{0, 1, 2, 3}
	for pos, want := range []int{2, 3, 1, 0} {
		card, dealt, err := c.DrawDealt("d", 4, pos, free, "t.deal", nil)
		require.NoError(t, err)
		require.True(t, dealt)
		require.Equal(t, want, card, "position %d", pos)
		for i, f := range free {
			if f == card {
				free = append(free[:i:i], free[i+1:]...)
				break
			}
		}
	}
	require.Equal(t, []int64{0, 1, 0}, c.draws, "the shuffle's draws recorded")
	require.Equal(t, []DeckShuffle{{DeckID: "d", Tag: "t.deal", Order: []int{2, 3, 1, 0}}}, c.decks)

	for name, tc := range map[string]struct {
		id        string
		n, pos    int
		free      []int
		want      string
		leaveCard bool
	}{
		"no id":              {"", 4, 1, []int{0, 1, 2, 3}, "needs its deck's id", false},
		"no cards":           {"d", 0, 0, nil, "of 0 cards", false},
		"too many cards":     {"d", MaxDeckCards + 1, 0, nil, "of 4097 cards", false},
		"a position past":    {"d", 4, 4, []int{0}, "position 4 of deck", false},
		"a negative one":     {"d", 4, -1, []int{0}, "position -1 of deck", false},
		"another deck first": {"e", 4, 1, []int{0, 1, 2, 3}, "drawn before its position 0", false},
		"another size":       {"d", 5, 1, []int{0, 1, 2, 3, 4}, "of 4 cards drawn as one of 5", false},
		"taken otherwise":    {"d", 4, 1, []int{0, 1, 2}, "is not among the cards left", false},
	} {
		_, dealt, err := c.DrawDealt(tc.id, tc.n, tc.pos, tc.free, "t.deal", nil)
		require.True(t, dealt, name)
		require.ErrorIs(t, err, rng.ErrRange, name)
		require.ErrorContains(t, err, tc.want, name)
		require.NotContains(t, err.Error(), "[", "%s: an error names no cards", name)
	}

	// At the edges: a deck of one card, and one of MaxDeckCards.
	one := &recorder{r: game.Script(), dealDraws: true}
	card, _, err := one.DrawDealt("one", 1, 0, []int{0}, "t.deal", nil)
	require.NoError(t, err)
	require.Zero(t, card)
	n := MaxDeckCards
	all := make([]int, n)
	for i := range all {
		all[i] = i
	}
	most := &recorder{r: game.Script(make([]int64, n-1)...), dealDraws: true}
	_, dealt, err := most.DrawDealt("most", n, 0, all, "t.deal", nil)
	require.NoError(t, err)
	require.True(t, dealt)

	undealt := &recorder{r: game.Script(), dealDraws: false}
	_, dealt, err = undealt.DrawDealt("d", 4, 0, free, "t.deal", nil)
	require.NoError(t, err)
	require.False(t, dealt, "without DealDraws the draw is Draw's UniformInt")
}

// Position 0 deals the deck anew: a second hand's order is shuffled
// again (a second named-deck shuffle), not the first one's.
func TestDrawDealtPositionZeroShufflesAgain(t *testing.T) {
	c := &recorder{r: game.Script(0, 0, 0, 2, 1, 0), dealDraws: true}
	a, _, err := c.DrawDealt("d", 4, 0, []int{0, 1, 2, 3}, "t.deal", nil)
	require.NoError(t, err)
	b, _, err := c.DrawDealt("d", 4, 0, []int{0, 1, 2, 3}, "t.deal", nil)
	require.NoError(t, err)
	// j = 0, 0, 0: [3 1 2 0], [2 1 3 0], [1 2 3 0]; j = 2, 1, 0: [0 1 3 2], [0 3 1 2], [3 0 1 2].
	require.Equal(t, 1, a)
	require.Equal(t, 3, b)
	require.Len(t, c.decks, 2)
	require.Equal(t, []DealtDeck{{DeckID: "d", Order: []int{3, 0, 1, 2}}}, c.dealt)
}
