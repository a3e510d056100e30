package leduc_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/games/leduc"
)

// With three seats the deck is eight cards, ranks Ten to King: 0 Ts,
// 1 Th, 2 Js, 3 Jh, 4 Qs, 5 Qh, 6 Ks, 7 Kh.
const (
	ts3, th3, js3, jh3, qs3, qh3, ks3, kh3 = 0, 1, 2, 3, 4, 5, 6, 7
)

// deal3 sets a three-seat hand up with the deal's draws: seat 0 takes
// card d0 of the eight, seat 1 card d1 of the seven left, seat 2 card d2
// of the six left, in ascending order.
func deal3(t *testing.T, d0, d1, d2 int64) *leduc.State {
	t.Helper()
	script := game.Script(d0, d1, d2)
	st, ev, err := leduc.Def.Setup(leduc.Rules{}, make([]game.Seat, 3), script, nil)
	require.NoError(t, err)
	require.True(t, script.Done())
	require.Equal(t, []string{"leduc.deal", "leduc.deal", "leduc.deal"}, tags(script))
	s := st.(*leduc.State)
	for seat := range 3 {
		require.Equal(t, game.Event{To: seat, Type: leduc.EventDealt, Vals: [4]int64{int64(s.Card(seat))}}, ev[seat])
	}
	return s
}

func ev(typ string, vals ...int64) game.Event {
	e := game.Event{To: game.All, Type: typ}
	copy(e.Vals[:], vals)
	return e
}

// Three-seat hands, worked by hand from OpenSpiel's rules: a raise
// matches the highest stake, then adds 2 (round 1) or 4 (round 2); a
// folded seat is skipped and loses what it put in; a round ends when
// every seat still in has called the last raise (or all checked), a fold
// included; the pot goes to the last seat in, or to the best hand among
// the seats still in, split equally among equal best ranks.
func TestThreeSeatHands(t *testing.T) {
	for _, c := range []struct {
		name       string
		d          [3]int64 // the deal's draws
		cards      [3]int
		line       string // round 1, '/' where the public card comes, round 2
		pub        int64  // the public card's index among the five left
		public     int
		events     []game.Event
		pay        []float64
		winners    []int
		publicPart string
	}{
		// Ks, Jh, Kh (draws 6; 3 of 0-5,7; 5 of 0-2,4,5,7). Seat 0 raises
		// to 3, seat 1 calls, seat 2 folds with 1 in: every seat still in
		// has called, so the fold ends round 1 and draws the public card,
		// Js (index 2 of Ts Th Js Qs Qh). Two checks: Jh pairs it and takes
		// the pot of 7: 7 - 3 = +4, the King -3, the folder -1.
		{"a fold leaves two", [3]int64{6, 3, 5}, [3]int{ks3, jh3, kh3}, "rcf/cc", 2, js3,
			[]game.Event{ev("Raised", 0, 5), ev("Called", 1, 7), ev("Folded", 2), ev("PublicCard", js3),
				ev("Checked", 0), ev("Checked", 1), ev("Shown", 0, ks3), ev("Shown", 1, jh3), ev("Won", 1, 7)},
			[]float64{-3, 4, -1}, []int{1},
			`{"round":2,"round1":"rcf","round2":"cc","publicCard":"Js","in":[3,3,1],"folded":[false,false,true],"pot":7,"toMove":-1,"shown":["Ks","Jh",null]}`},
		// Qh, Th, Kh (5; 1 of 0-4,6,7; 5 of 0,2-4,6,7). Check, raise to
		// 3, two calls; public Qs (index 3 of Ts Js Jh Qs Ks); a raise to
		// 7 called twice: a pot of 21, the pair of Queens beats the King
		// and the Ten: +14, -7, -7.
		{"a three-way showdown with a pair", [3]int64{5, 1, 5}, [3]int{qh3, th3, kh3}, "crcc/rcc", 3, qs3,
			[]game.Event{ev("Checked", 0), ev("Raised", 1, 5), ev("Called", 2, 7), ev("Called", 0, 9), ev("PublicCard", qs3),
				ev("Raised", 0, 13), ev("Called", 1, 17), ev("Called", 2, 21),
				ev("Shown", 0, qh3), ev("Shown", 1, th3), ev("Shown", 2, kh3), ev("Won", 0, 21)},
			[]float64{14, -7, -7}, []int{0},
			`{"round":2,"round1":"crcc","round2":"rcc","publicCard":"Qs","in":[7,7,7],"folded":[false,false,false],"pot":21,"toMove":-1,"shown":["Qh","Th","Kh"]}`},
		// Ks, Ts, Kh (6; 0; 5 of 1-5,7). Two checks, seat 2 raises to 3,
		// seat 0 calls, seat 1 folds with 1 in (the fold ends round 1);
		// public Js (index 1 of Th Js Jh Qs Qh), no pair; two checks: the
		// Kings split the pot of 7, 3.5 each: +0.5, +0.5, and -1.
		{"a split", [3]int64{6, 0, 5}, [3]int{ks3, ts3, kh3}, "ccrcf/cc", 1, js3,
			[]game.Event{ev("Checked", 0), ev("Checked", 1), ev("Raised", 2, 5), ev("Called", 0, 7), ev("Folded", 1), ev("PublicCard", js3),
				ev("Checked", 0), ev("Checked", 2), ev("Shown", 0, ks3), ev("Shown", 2, kh3), ev("Shared", 0, 7), ev("Shared", 2, 7)},
			[]float64{0.5, -1, 0.5}, []int{0, 2},
			`{"round":2,"round1":"ccrcf","round2":"cc","publicCard":"Js","in":[3,1,3],"folded":[false,true,false],"pot":7,"toMove":-1,"shown":["Ks",null,"Kh"]}`},
		// Two folds to a raise: seat 0 takes the pot of 5 (+2), nothing
		// shown, no public card.
		{"two folds", [3]int64{0, 0, 0}, [3]int{ts3, th3, js3}, "rff", 0, leduc.NoCard,
			[]game.Event{ev("Raised", 0, 5), ev("Folded", 1), ev("Folded", 2), ev("Won", 0, 5)},
			[]float64{2, -1, -1}, []int{0},
			`{"round":1,"round1":"rff","round2":"","publicCard":null,"in":[3,1,1],"folded":[false,true,true],"pot":5,"toMove":-1}`},
		// Ts, Th, Js (0; 0; 0). Three checks; public Jh (index 0 of Jh Qs
		// Qh Ks Kh); a raise to 5, a call, a fold: the fold ends round 2,
		// a showdown between seats 0 and 1, equal Tens: 5 and 5 of a pot
		// of 11, +0.5 each, the folder -1.
		{"a fold ends round 2", [3]int64{0, 0, 0}, [3]int{ts3, th3, js3}, "ccc/rcf", 0, jh3,
			[]game.Event{ev("Checked", 0), ev("Checked", 1), ev("Checked", 2), ev("PublicCard", jh3),
				ev("Raised", 0, 7), ev("Called", 1, 11), ev("Folded", 2),
				ev("Shown", 0, ts3), ev("Shown", 1, th3), ev("Shared", 0, 11), ev("Shared", 1, 11)},
			[]float64{0.5, 0.5, -1}, []int{0, 1},
			`{"round":2,"round1":"ccc","round2":"rcf","publicCard":"Jh","in":[5,5,1],"folded":[false,false,true],"pot":11,"toMove":-1,"shown":["Ts","Th",null]}`},
	} {
		t.Run(c.name, func(t *testing.T) {
			st := deal3(t, c.d[0], c.d[1], c.d[2])
			require.Equal(t, c.cards, [3]int{st.Card(0), st.Card(1), st.Card(2)})
			got := play(t, st, c.line, c.pub)
			require.Equal(t, c.events, got)
			o := st.Outcome()
			require.True(t, o.Over)
			require.Equal(t, c.pay, o.Payoffs)
			require.Equal(t, c.winners, o.Winners)
			require.Equal(t, c.public, st.PublicCard())
			require.Equal(t, c.publicPart, string(st.AppendPublic(nil)))
			_, err := st.Apply(game.Move{Seat: 0, Kind: leduc.KindCall}, game.Script(), nil)
			require.ErrorIs(t, err, game.CodeGameOver)
		})
	}
}

// A folded seat is skipped, within a round and at the start of round 2
// (seat 0 folded: seat 1 opens it); fold is listed only facing a raise.
func TestThreeSeatTurns(t *testing.T) {
	for _, c := range []struct {
		line   string
		toMove int
		want   []string
	}{
		{"", 0, []string{"call", "raise"}},
		{"cc", 2, []string{"call", "raise"}},
		{"ccr", 0, []string{"fold", "call", "raise"}},
		{"ccrf", 1, []string{"fold", "call", "raise"}},
		{"ccrr", 1, []string{"fold", "call"}},
		{"crcf/", 1, []string{"call", "raise"}},
		{"crcf/r", 2, []string{"fold", "call", "raise"}},
		{"crcf/rr", 1, []string{"fold", "call"}},
		{"rcc/rf", 2, []string{"fold", "call", "raise"}},
		{"rcc/rfc", game.Nobody, nil},
	} {
		st := deal3(t, 0, 0, 0)
		play(t, st, c.line, 0)
		require.Equal(t, c.toMove, st.ToMove(), c.line)
		if c.toMove == game.Nobody {
			continue
		}
		require.Equal(t, c.want, legalKinds(st), c.line)
		for seat := range 3 {
			if seat != c.toMove {
				require.Empty(t, st.Legal(seat, nil), c.line)
			}
		}
	}
	st := deal3(t, 0, 0, 0)
	play(t, st, "ccrf", 0)
	_, err := st.Apply(game.Move{Seat: 2, Kind: leduc.KindCall}, game.Script(), nil)
	require.ErrorIs(t, err, game.CodeNotYourTurn)
	_, err = st.Apply(game.Move{Seat: 3, Kind: leduc.KindCall}, game.Script(), nil)
	require.ErrorIs(t, err, game.CodeUnknownPlayer)
	require.True(t, st.Folded(0))
	require.False(t, st.Folded(1))
}

// The public card has five outcomes with three seats, 1/5 each, for the
// call or the fold that ends round 1, and none for a move that does not.
func TestThreeSeatChanceOutcomes(t *testing.T) {
	five := []game.Chance{{Draws: []int64{0}, P: 0.2}, {Draws: []int64{1}, P: 0.2}, {Draws: []int64{2}, P: 0.2}, {Draws: []int64{3}, P: 0.2}, {Draws: []int64{4}, P: 0.2}}
	st := deal3(t, 0, 0, 0)
	play(t, st, "cc", 0)
	outs, ok := st.ChanceOutcomes(game.Move{Seat: 2, Kind: leduc.KindCall})
	require.True(t, ok)
	require.Equal(t, five, outs)
	play(t, st, "r", 0)
	outs, _ = st.ChanceOutcomes(game.Move{Seat: 0, Kind: leduc.KindFold}) // seat 1 has still to answer
	require.Empty(t, outs)
	play(t, st, "c", 0)
	outs, _ = st.ChanceOutcomes(game.Move{Seat: 1, Kind: leduc.KindFold})
	require.Equal(t, five, outs)
	outs, _ = st.ChanceOutcomes(game.Move{Seat: 1, Kind: leduc.KindCall})
	require.Equal(t, five, outs)
	outs, _ = st.ChanceOutcomes(game.Move{Seat: 1, Kind: leduc.KindRaise})
	require.Empty(t, outs)
}

// The parts, the keys and the sampler with three seats, by hand: before
// a showdown a seat sees its own card only; at a showdown the cards of
// the seats still in, never a folded seat's.
func TestThreeSeatPartsAndSample(t *testing.T) {
	st := deal3(t, 6, 3, 5) // Ks, Jh, Kh
	require.Equal(t, `{"round":1,"round1":"","round2":"","publicCard":null,"in":[1,1,1],"folded":[false,false,false],"pot":3,"toMove":0}`, string(st.AppendPublic(nil)))
	require.Equal(t, `{"card":"Kh"}`, string(st.AppendPrivate(nil, 2)))
	require.Equal(t, `{"deck":["Ts","Th","Js","Qs","Qh"]}`, string(st.AppendSecret(nil)))
	play(t, st, "rcf/", 2) // public Js
	require.Equal(t, `{"deck":["Ts","Th","Qs","Qh"]}`, string(st.AppendSecret(nil)))
	require.Equal(t, "Ks:rcf/Js:", string(st.AppendInfoKey(nil, 0)))
	require.Equal(t, "Kh:rcf/Js:", string(st.AppendInfoKey(nil, 2)))
	// Seat 1 sees Jh and Js: seats 0 and 2 are dealt again, seat 0 one of
	// Ts Th Qs Qh Ks Kh (index 5: Kh), seat 2 one of the five left (Ts Th
	// Qs Qh Ks, index 0: Ts).
	script := game.Script(5, 0)
	sm := st.Sample(1, script).(*leduc.State)
	require.True(t, script.Done())
	require.Equal(t, []string{"leduc.sample", "leduc.sample"}, tags(script))
	require.Equal(t, [3]int{kh3, jh3, ts3}, [3]int{sm.Card(0), sm.Card(1), sm.Card(2)})
	require.Equal(t, string(st.AppendView(nil, 1)), string(sm.AppendView(nil, 1)))
	require.Equal(t, string(st.AppendInfoKey(nil, 1)), string(sm.AppendInfoKey(nil, 1)))
	require.NoError(t, sm.Check())
	play(t, st, "cc", 0)
	require.Equal(t, "Ks:rcf/Js:cc|Jh,-", string(st.AppendInfoKey(nil, 0)))
	require.Equal(t, "Jh:rcf/Js:cc|Ks,-", string(st.AppendInfoKey(nil, 1)))
	require.Equal(t, "Kh:rcf/Js:cc|Ks,Jh", string(st.AppendInfoKey(nil, 2)))
	// After the showdown seat 0 sees every card but the folder's: only
	// seat 2 is dealt again, one of Ts Th Qs Qh Kh (index 1: Th).
	script = game.Script(1)
	sm = st.Sample(0, script).(*leduc.State)
	require.True(t, script.Done())
	require.Equal(t, [3]int{ks3, jh3, th3}, [3]int{sm.Card(0), sm.Card(1), sm.Card(2)})
	require.Equal(t, string(st.AppendView(nil, 0)), string(sm.AppendView(nil, 0)))
	require.NoError(t, sm.Check())
	// The folder sees the two shown cards: nothing to deal.
	script = game.Script()
	sm = st.Sample(2, script).(*leduc.State)
	require.Zero(t, len(script.Calls))
	require.Equal(t, *st, *sm)
}

// The cards' names: the n+1 highest ranks up to the King, two suits.
func TestNameCard(t *testing.T) {
	require.Equal(t, "Js", leduc.NameCard(2, 0))
	require.Equal(t, "Kh", leduc.NameCard(2, 5))
	require.Equal(t, "Ts", leduc.NameCard(3, 0))
	require.Equal(t, "Kh", leduc.NameCard(3, 7))
	require.Equal(t, "3s", leduc.NameCard(10, 0))
	require.Equal(t, "Kh", leduc.NameCard(10, 21))
	for _, bad := range [][2]int{{2, 6}, {3, 8}, {2, -1}, {1, 0}, {11, 0}, {10, 22}} {
		require.Equal(t, "-", leduc.NameCard(bad[0], bad[1]), bad)
	}
	require.Equal(t, leduc.NameCard(2, 3), leduc.CardName(3))
}

func TestAtCards(t *testing.T) {
	st, err := leduc.AtCards([]int{ks3, jh3, kh3}, js3, "rcf", "c")
	require.NoError(t, err)
	require.Equal(t, 1, st.ToMove())
	require.NoError(t, st.Check())
	for _, bad := range []struct {
		cards  []int
		pub    int
		r1, r2 string
		want   string
	}{
		{[]int{0}, leduc.NoCard, "", "", "1 cards: want one per seat, 2 to 10"},
		{make([]int, 11), leduc.NoCard, "", "", "11 cards"},
		{[]int{0, 1, 8}, leduc.NoCard, "", "", "card 8: want 0 to 7"},
		{[]int{0, 1, 1}, leduc.NoCard, "", "", "distinct"},
		{[]int{0, 1, 2}, 2, "ccc", "", "distinct"},
		{[]int{0, 1, 2}, 3, "rcf", "", ""},
		{[]int{0, 1, 2}, 3, "rcfc", "", "round 1 \"rcfc\" ends after \"rcf\""},
		{[]int{0, 1, 2}, leduc.NoCard, "rff", "c", "hand over in round 1"},
	} {
		_, err := leduc.AtCards(bad.cards, bad.pub, bad.r1, bad.r2)
		if bad.want == "" {
			require.NoError(t, err, bad)
			continue
		}
		require.ErrorContains(t, err, bad.want, bad)
	}
}
