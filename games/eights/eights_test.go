package eights_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/games/eights"
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

// The deal by hand. Ranks 8, suits 3 (cards 0-7 suit 0 of ranks 1-8,
// 8-15 suit 1, 16-23 suit 2), hands of 2, two seats, the deck left in
// order: seat 0 gets cards 0 and 2, seat 1 cards 1 and 3, one at a
// time; card 4 (rank 5, suit 0) is turned up, the draw pile is 5..23.
// Seat 0 holds two cards of suit 0: it must play one, and may not draw.
func TestDeal(t *testing.T) {
	st, evs := setup(t, rules(t, 8, 3, 2, 500), 2, game.Script(identity(24)...))
	require.Equal(t, []game.Event{ev(game.All, eights.EventStarted, 2, 24, 2, 4),
		ev(0, eights.EventDealt, 0), ev(0, eights.EventDealt, 2), ev(1, eights.EventDealt, 1), ev(1, eights.EventDealt, 3)}, evs)
	require.Equal(t, []int{0, 2}, st.Hand(0))
	require.Equal(t, []int{1, 3}, st.Hand(1))
	require.Equal(t, 4, st.Top())
	require.Equal(t, 0, st.Suit())
	require.Equal(t, []int{5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23}, st.Stock())
	require.Equal(t, []game.Move{play(0, 0, 0), play(0, 1, 0)}, st.Legal(0, nil))
	require.Empty(t, st.Legal(1, nil))
	_, err := st.Apply(draw(0), game.Script(), nil)
	require.ErrorIs(t, err, game.CodeInvalidAction)
	require.Equal(t, `{"top":4,"suit":0,"toMove":0,"hands":[2,2],"stock":19,"discards":[],"moves":0,"passes":0,"winner":-1,"ended":0}`, string(st.AppendPublic(nil)))
	require.Equal(t, `{"hand":[0,2]}`, string(st.AppendPrivate(nil, 0)))
	require.Equal(t, `{"stock":[5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23]}`, string(st.AppendSecret(nil)))
	require.Equal(t, []game.Event{ev(game.All, eights.EventPlayed, 0, 2, 0, 1)}, apply(t, st, play(0, 1, 0), game.Script()))
	require.Equal(t, []int{4}, st.Discards())
	require.Equal(t, 2, st.Top())
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
	require.Equal(t, []game.Move{play(0, 0, 0), play(0, 0, 1), play(0, 0, 2), play(0, 1, 0)}, st.Legal(0, nil))
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

// The moves' canonical bytes (what a signature covers), written by hand
// from game.AppendMoveCanonical's pinned form: seat, kind, then the
// arguments in schema order; and their JSON decoded strictly.
func TestMoveBytes(t *testing.T) {
	kinds := eights.Def.Kinds()
	require.Equal(t, `{"seat":1,"kind":"play","card":3,"suit":2}`, string(game.AppendMoveCanonical(nil, kinds, play(1, 3, 2))))
	require.Equal(t, `{"seat":0,"kind":"draw"}`, string(game.AppendMoveCanonical(nil, kinds, draw(0))))
	m, err := game.DecodeMove(kinds, 1, []byte(`{"kind":"play","card":3,"suit":2}`))
	require.NoError(t, err)
	require.Equal(t, play(1, 3, 2), m)
	for _, bad := range []string{`{"kind":"play","card":3}`, `{"kind":"play","card":52,"suit":0}`, `{"kind":"play","card":0,"suit":4}`, `{"kind":"draw","card":0}`} {
		_, err := game.DecodeMove(kinds, 1, []byte(bad))
		require.ErrorIs(t, err, game.CodeInvalidAction, bad)
	}
}
