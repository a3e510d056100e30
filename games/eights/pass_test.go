package eights

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/game"
)

// A seat with nothing to draw and nothing to play passes, and when every
// seat in turn has passed the game ends as a draw. Under the pinned
// ranges this end cannot come (every deck has at least three eights,
// only one of which can be the top card, so a hand holds one and can
// play), so the state is built by hand: seat 0 holds 9 (rank 2, suit 1),
// seat 1 holds 10 (rank 3, suit 1), the top card is 0 (rank 1, suit 0),
// and both piles are empty (the rest of the deck left out: Check would
// refuse it).
func TestEveryonePassesIsADraw(t *testing.T) {
	r, err := NewRules(8, 3, 1, 500)
	require.NoError(t, err)
	s := &State{rules: r, hands: [][]int{{9}, {10}}, pile: game.Pile{ID: DeckID}, top: 0, suit: 0, winner: game.Nobody}
	require.Equal(t, []game.Move{{Seat: 0, Kind: KindDraw}}, s.Legal(0, nil))
	evs, err := s.Apply(game.Move{Seat: 0, Kind: KindDraw}, game.Script(), nil)
	require.NoError(t, err)
	require.Equal(t, []game.Event{{To: game.All, Type: EventPassed, Vals: [game.MaxVals]int64{0}}}, evs)
	require.False(t, s.Outcome().Over)
	evs, err = s.Apply(game.Move{Seat: 1, Kind: KindDraw}, game.Script(), nil)
	require.NoError(t, err)
	require.Equal(t, []game.Event{{To: game.All, Type: EventPassed, Vals: [game.MaxVals]int64{1}}, {To: game.All, Type: EventEnded, Vals: [game.MaxVals]int64{ReasonBlocked, 2}}}, evs)
	require.Equal(t, game.Outcome{Over: true, Payoffs: []float64{0, 0}}, s.Outcome())
	require.Equal(t, game.Nobody, s.ToMove())
}
