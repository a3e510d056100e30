package eights

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/rng"
)

// built returns a two-seat state of ranks 8, suits 3 and hands of 1 set
// by hand (cards 0-7 suit 0 of ranks 1-8, 8-15 suit 1, 16-23 suit 2):
// seat 1's hand, the top card (whose suit is in force), the draw pile and
// the discards under the top card; seat 0 holds every other card, and
// seat 1 is to move after moves moves.
func built(t *testing.T, maxMoves int, hand1 []int, top int, stock, discards []int, moves int) *State {
	t.Helper()
	r, err := NewRules(8, 3, 1, maxMoves)
	require.NoError(t, err)
	p, err := game.NewPile(DeckID, stock)
	require.NoError(t, err)
	p.Discard(discards...)
	used := map[int]bool{top: true}
	for _, c := range append(append(append([]int(nil), hand1...), stock...), discards...) {
		used[c] = true
	}
	var hand0 []int
	for c := range 24 {
		if !used[c] {
			hand0 = append(hand0, c)
		}
	}
	s := &State{rules: r, hands: [][]int{hand0, hand1}, pile: p, top: top, suit: r.Suit(top), toMove: 1, moves: moves, winner: game.Nobody}
	require.NoError(t, s.Check())
	return s
}

// A reshuffle by hand: seat 1 holds 9 (rank 2, suit 1) against the top
// card 0 (rank 1, suit 0): it cannot play, and draws. The draw pile is
// empty and the discards under the top card are 4 and 5, so Take turns
// them into the draw pile, shuffled under deck.reshuffle.eights (one
// draw: j for i = 1; j = 0 swaps them: 5, 4), and seat 1 takes 5; 4 is
// left to draw, the top card stays.
func TestReshuffle(t *testing.T) {
	s := built(t, 500, []int{9}, 0, nil, []int{4, 5}, 10)
	require.Equal(t, []game.Move{{Seat: 1, Kind: KindDraw}}, s.Legal(1, nil))
	script := game.Script(0)
	evs, err := s.Apply(game.Move{Seat: 1, Kind: KindDraw}, script, nil)
	require.NoError(t, err)
	require.True(t, script.Done())
	require.Equal(t, []rng.Tag{"deck.reshuffle.eights"}, script.Calls)
	require.Equal(t, []game.Event{
		{To: game.All, Type: EventReshuffled, Vals: [game.MaxVals]int64{2}},
		{To: game.All, Type: EventDrew, Vals: [game.MaxVals]int64{1, 1}},
		{To: 1, Type: EventDrawn, Vals: [game.MaxVals]int64{5}},
	}, evs)
	require.Equal(t, []int{9, 5}, s.Hand(1))
	require.Equal(t, []int{4}, s.Stock())
	require.Empty(t, s.Discards())
	require.Equal(t, 0, s.Top())
	require.Equal(t, 0, s.ToMove())
	require.NoError(t, s.Check())

	// With j = 1 the order stays 4, 5: seat 1 takes 4.
	s = built(t, 500, []int{9}, 0, nil, []int{4, 5}, 10)
	_, err = s.Apply(game.Move{Seat: 1, Kind: KindDraw}, game.Script(1), nil)
	require.NoError(t, err)
	require.Equal(t, []int{9, 4}, s.Hand(1))
	require.Equal(t, []int{5}, s.Stock())
	// The chance outcomes of a draw that reshuffles are not listed; of one
	// that does not, there are none.
	s = built(t, 500, []int{9}, 0, nil, []int{4, 5}, 10)
	_, ok := s.ChanceOutcomes(game.Move{Seat: 1, Kind: KindDraw})
	require.False(t, ok)
	s = built(t, 500, []int{9}, 0, []int{4}, []int{5}, 10)
	ch, ok := s.ChanceOutcomes(game.Move{Seat: 1, Kind: KindDraw})
	require.True(t, ok)
	require.Empty(t, ch)
}

// A seat that can play may not draw, even with cards to draw.
func TestMustPlay(t *testing.T) {
	s := built(t, 500, []int{1}, 0, []int{4}, []int{5}, 10) // 1: rank 2, suit 0
	require.Equal(t, []game.Move{{Seat: 1, Kind: KindPlay, Args: [game.MaxArgs]int64{0, 0}}}, s.Legal(1, nil))
	_, err := s.Apply(game.Move{Seat: 1, Kind: KindDraw}, game.Script(), nil)
	require.ErrorIs(t, err, game.CodeInvalidAction)
}

// The move cap: the 20th move of a game of at most 20 ends it as a
// draw, every payoff 0.
func TestMoveCap(t *testing.T) {
	s := built(t, 20, []int{9}, 0, []int{4}, []int{5}, 19)
	evs, err := s.Apply(game.Move{Seat: 1, Kind: KindDraw}, game.Script(), nil)
	require.NoError(t, err)
	require.Equal(t, game.Event{To: game.All, Type: EventEnded, Vals: [game.MaxVals]int64{ReasonCap, 20}}, evs[len(evs)-1])
	require.Equal(t, game.Outcome{Over: true, Payoffs: []float64{0, 0}}, s.Outcome())
	require.Equal(t, game.Nobody, s.ToMove())
	require.NoError(t, s.Check())
}

// Sample keeps seat 1's view and deals the 20 cards it has not seen
// (seat 0's hand and the draw pile) again: over a few samples seat 0's
// hand changes, its size does not.
func TestSample(t *testing.T) {
	s := built(t, 500, []int{9}, 0, []int{4, 6}, []int{5}, 10)
	view := string(s.AppendView(nil, 1))
	seen := map[string]bool{}
	for i := range 5 {
		sm := s.Sample(1, game.Script(sampleScript(i, 21)...)).(*State)
		require.Equal(t, view, string(sm.AppendView(nil, 1)))
		require.NoError(t, sm.Check())
		require.Len(t, sm.Hand(0), 19)
		seen[string(sm.AppendPrivate(nil, 0))] = true
	}
	require.Greater(t, len(seen), 1)
}

// sampleScript is a shuffle of n cards: j = (i + k) mod (i + 1).
func sampleScript(k, n int) []int64 {
	var v []int64
	for i := n - 1; i > 0; i-- {
		v = append(v, int64((i+k)%(i+1)))
	}
	return v
}
