package eights_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/games/eights"
	"github.com/fairboard/fairboard/rng"
)

// identity is the script of a shuffle of n cards that leaves them in
// order: Fisher-Yates swaps a[i] with a[j] for i from n-1 down to 1, and
// j = i swaps nothing.
func identity(n int) []int64 {
	v := make([]int64, 0, n-1)
	for i := n - 1; i > 0; i-- {
		v = append(v, int64(i))
	}
	return v
}

func rules(t *testing.T, ranks, suits, hand, maxMoves int) *eights.Rules {
	t.Helper()
	r, err := eights.NewRules(ranks, suits, hand, maxMoves)
	require.NoError(t, err)
	return r
}

func setup(t *testing.T, r *eights.Rules, seats int, script *game.Scripted) (*eights.State, []game.Event) {
	t.Helper()
	st, ev, err := eights.Def.Setup(r, make([]game.Seat, seats), script, nil)
	require.NoError(t, err)
	require.True(t, script.Done())
	return st.(*eights.State), ev
}

func ev(to int, typ string, vals ...int64) game.Event {
	e := game.Event{To: to, Type: typ}
	copy(e.Vals[:], vals)
	return e
}

func play(seat int, card, suit int64) game.Move {
	return game.Move{Seat: seat, Kind: eights.KindPlay, Args: [game.MaxArgs]int64{card, suit}}
}

func draw(seat int) game.Move { return game.Move{Seat: seat, Kind: eights.KindDraw} }

func apply(t *testing.T, st *eights.State, m game.Move, rnd game.Rand) []game.Event {
	t.Helper()
	evs, err := st.Apply(m, rnd, nil)
	require.NoError(t, err, "%+v", m)
	require.NoError(t, st.Check())
	return evs
}

// A whole game by hand, with a reshuffle. Ranks 8, suits 3 (cards 0-7
// suit 0 of ranks 1-8, 8-15 suit 1, 16-23 suit 2), hands of 1, two
// seats, the deck left in order: seat 0 gets card 0 (rank 1), seat 1
// card 1 (rank 2), card 2 (rank 3, suit 0) is turned up, the draw pile
// is 3..23. Both seats draw 21 times, seat 0 first: seat 0 takes 3, 5,
// ..., 23, seat 1 takes 4, 6, ..., 22, and the draw pile is empty with
// no discard under the top card, so seat 1 (to move after 21 moves) may
// not draw: it must play card 1 (suit 0). Seat 0 plays card 0 (suit 0):
// the discards under the top are [2, 1]. Seat 1 draws: the discards are
// shuffled (one draw, j for i = 1; j = 0 swaps them: [1, 2]) and it
// takes card 1.
func TestGameWithReshuffle(t *testing.T) {
	r := rules(t, 8, 3, 1, 500)
	st, evs := setup(t, r, 2, game.Script(identity(24)...))
	require.Equal(t, []game.Event{ev(game.All, eights.EventStarted, 2, 24, 1, 2), ev(0, eights.EventDealt, 0), ev(1, eights.EventDealt, 1)}, evs)
	require.Equal(t, []int{0}, st.Hand(0))
	require.Equal(t, []int{1}, st.Hand(1))
	require.Equal(t, 2, st.Top())
	require.Equal(t, 0, st.Suit())
	require.Len(t, st.Stock(), 21)
	require.Equal(t, []game.Move{play(0, 0, 0), draw(0)}, st.Legal(0, nil))
	require.Empty(t, st.Legal(1, nil))

	none := game.Script()
	for i := range 21 {
		seat := i % 2
		evs := apply(t, st, draw(seat), none)
		require.Equal(t, []game.Event{ev(game.All, eights.EventDrew, int64(seat), int64(20-i)), ev(seat, eights.EventDrawn, int64(3+i))}, evs)
	}
	require.Equal(t, []int{0, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23}, st.Hand(0))
	require.Equal(t, []int{1, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22}, st.Hand(1))
	require.Empty(t, st.Stock())
	require.Equal(t, 1, st.ToMove())
	// Nothing to draw: seat 1 must play. Its matching cards: 1, 4, 6
	// (suit 0) and the rank 3s, 10 (index 4, suit 1) and 18 (index 8,
	// suit 2), each with its own suit; the eights (7, 15, 23) are seat 0's.
	require.Equal(t, []game.Move{play(1, 0, 0), play(1, 1, 0), play(1, 2, 0), play(1, 4, 1), play(1, 8, 2)}, st.Legal(1, nil))
	_, err := st.Apply(draw(1), none, nil)
	require.ErrorIs(t, err, game.CodeInvalidAction)

	require.Equal(t, []game.Event{ev(game.All, eights.EventPlayed, 1, 1, 0, 10)}, apply(t, st, play(1, 0, 0), none))
	require.Equal(t, []game.Event{ev(game.All, eights.EventPlayed, 0, 0, 0, 11)}, apply(t, st, play(0, 0, 0), none))
	require.Equal(t, []int{2, 1}, st.Discards())
	require.Equal(t, 0, st.Top())

	script := game.Script(0)
	require.Equal(t, []game.Event{ev(game.All, eights.EventReshuffled, 2), ev(game.All, eights.EventDrew, 1, 1), ev(1, eights.EventDrawn, 1)},
		apply(t, st, draw(1), script))
	require.True(t, script.Done())
	require.Equal(t, []rng.Tag{"deck.reshuffle.eights"}, script.Calls)
	require.Equal(t, []int{2}, st.Stock())
	require.Empty(t, st.Discards())
	require.Equal(t, []int{4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 1}, st.Hand(1))
	require.Equal(t, `{"top":0,"suit":0,"toMove":0,"hands":[11,11],"stock":1,"discards":[],"moves":24,"passes":0,"winner":-1,"ended":0}`, string(st.AppendPublic(nil)))
	require.Equal(t, `{"stock":[2]}`, string(st.AppendSecret(nil)))
	require.Equal(t, `{"hand":[4,6,8,10,12,14,16,18,20,22,1]}`, string(st.AppendPrivate(nil, 1)))
	require.False(t, st.Outcome().Over)
}

// An 8 names the suit. Hands of 2; the shuffle swaps a[7] with a[0] (j
// = 0 for i = 7, j = i otherwise): the order is 7, 1, 2, 3, 4, 5, 6, 0,
// 8, ... Seat 0 gets 7 (the 8 of suit 0) and 2, seat 1 gets 1 and 3;
// card 4 (rank 5, suit 0) is turned up. Seat 0 plays its 8 naming suit
// 2: seat 1 (cards of suit 0, ranks 2 and 4) cannot play and draws card
// 5; seat 0 (card 2) cannot play either; a play of it is refused.
func TestEightNamesASuit(t *testing.T) {
	vals := identity(24)
	vals[23-7] = 0
	st, _ := setup(t, rules(t, 8, 3, 2, 500), 2, game.Script(vals...))
	require.Equal(t, []int{7, 2}, st.Hand(0))
	require.Equal(t, []int{1, 3}, st.Hand(1))
	require.Equal(t, 4, st.Top())
	require.Equal(t, []game.Move{play(0, 0, 0), play(0, 0, 1), play(0, 0, 2), play(0, 1, 0), draw(0)}, st.Legal(0, nil))
	_, err := st.Apply(play(0, 1, 2), game.Script(), nil)
	require.ErrorIs(t, err, game.CodeInvalidAction, "only an 8 names a suit")
	require.Equal(t, []game.Event{ev(game.All, eights.EventPlayed, 0, 7, 2, 1)}, apply(t, st, play(0, 0, 2), game.Script()))
	require.Equal(t, 2, st.Suit())
	require.Equal(t, []game.Move{draw(1)}, st.Legal(1, nil))
	apply(t, st, draw(1), game.Script())
	require.Equal(t, []int{1, 3, 5}, st.Hand(1))
	require.Equal(t, []game.Move{draw(0)}, st.Legal(0, nil))
	before := string(st.AppendPublic(nil)) + string(st.AppendPrivate(nil, 0)) + string(st.AppendSecret(nil))
	for _, m := range []game.Move{play(0, 0, 0), play(0, 2, 0), play(0, 0, 3), play(1, 0, 0), {Seat: 0, Kind: "pass"}, {Seat: 0, Kind: eights.KindDraw, Args: [game.MaxArgs]int64{1}}} {
		evs, err := st.Apply(m, game.Script(), nil)
		require.Error(t, err, "%+v", m)
		require.Empty(t, evs)
	}
	require.Equal(t, before, string(st.AppendPublic(nil))+string(st.AppendPrivate(nil, 0))+string(st.AppendSecret(nil)))
}

// A seat that plays its last card wins: hands of 1, the deck in order,
// seat 0's card 0 matches the top card 2's suit.
func TestWinOnLastCard(t *testing.T) {
	st, _ := setup(t, rules(t, 8, 3, 1, 500), 3, game.Script(identity(24)...))
	require.Equal(t, 3, st.Top())
	evs := apply(t, st, play(0, 0, 0), game.Script())
	require.Equal(t, []game.Event{ev(game.All, eights.EventPlayed, 0, 0, 0, 0), ev(game.All, eights.EventWon, 0)}, evs)
	require.Equal(t, game.Outcome{Over: true, Winners: []int{0}, Payoffs: []float64{1, 0, 0}}, st.Outcome())
	require.Equal(t, game.Nobody, st.ToMove())
	_, err := st.Apply(draw(1), game.Script(), nil)
	require.ErrorIs(t, err, game.CodeGameOver)
}

// The move cap ends a game as a draw: 52 cards, hands of 1, at most 20
// moves; both seats draw 20 times.
func TestMoveCap(t *testing.T) {
	st, _ := setup(t, rules(t, 13, 4, 1, 20), 2, game.Script(identity(52)...))
	var evs []game.Event
	for i := range 20 {
		require.False(t, st.Outcome().Over)
		evs = apply(t, st, draw(i%2), game.Script())
	}
	require.Equal(t, ev(game.All, eights.EventEnded, eights.ReasonCap, 20), evs[len(evs)-1])
	require.Equal(t, game.Outcome{Over: true, Payoffs: []float64{0, 0}}, st.Outcome())
	require.Equal(t, []int{0, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21}, st.Hand(0))
}

func TestRuleset(t *testing.T) {
	r, err := eights.Def.DecodeRuleset([]byte(`{"ranks":13,"suits":3,"hand":4,"maxMoves":100}`))
	require.NoError(t, err)
	require.Equal(t, `{"ranks":13,"suits":3,"hand":4,"maxMoves":100}`, string(r.CanonicalJSON()))
	require.Equal(t, 39, r.(*eights.Rules).Cards())
	require.Equal(t, `{"ranks":8,"suits":4,"hand":5,"maxMoves":500}`, string(eights.Def.DefaultRuleset().CanonicalJSON()))
	for data, want := range map[string]string{
		`{"ranks":7,"suits":4,"hand":5,"maxMoves":500}`:            "ranks must be a whole number in [8, 13], not 7",
		`{"ranks":8,"suits":5,"hand":5,"maxMoves":500}`:            "suits must be",
		`{"ranks":8,"suits":4,"hand":6,"maxMoves":500}`:            "hand must be",
		`{"ranks":8,"suits":4,"hand":5,"maxMoves":19}`:             "maxMoves must be",
		`{"ranks":8,"suits":4,"hand":5}`:                           "missing maxMoves",
		`{"ranks":8,"suits":4,"hand":5,"maxMoves":500,"jokers":2}`: "jokers",
		`{"ranks":8.5,"suits":4,"hand":5,"maxMoves":500}`:          "whole number",
	} {
		_, err := eights.Def.DecodeRuleset([]byte(data))
		require.ErrorIs(t, err, game.CodeBadRuleset, data)
		require.ErrorContains(t, err, want, data)
	}
	_, _, err = eights.Def.Setup(eights.DefaultRules(), make([]game.Seat, 5), game.Script(), nil)
	require.ErrorIs(t, err, game.CodeBadSetup)
}

// The style first plays the first matching card that is no 8, else an 8
// naming the suit held most (of the other cards), else draws.
func TestFirstStyle(t *testing.T) {
	vals := identity(24)
	vals[23-7] = 0 // seat 0: 7 (an 8) and 2; top 4 (suit 0)
	st, _ := setup(t, rules(t, 8, 3, 2, 500), 2, game.Script(vals...))
	f := eights.First{}
	require.Equal(t, play(0, 1, 0), f.Choose(st, 0, st.Legal(0, nil)), "the 2 before the 8")
	apply(t, st, play(0, 1, 0), game.Script())
	// Seat 1 (1, 3: suit 0) plays 1.
	require.Equal(t, play(1, 0, 0), f.Choose(st, 1, st.Legal(1, nil)))
	apply(t, st, play(1, 0, 0), game.Script())
	// Seat 0 holds only its 8: it names suit 0 (no other card: the lowest).
	require.Equal(t, play(0, 0, 0), f.Choose(st, 0, st.Legal(0, nil)))
}
