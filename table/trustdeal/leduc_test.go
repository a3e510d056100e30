package trustdeal_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/games/leduc"
	"github.com/fairboard/fairboard/match"
	"github.com/fairboard/fairboard/table/trustdeal"
)

// Whole trustless Leduc hands of bot clients: the seats deal their
// private cards (positions 0 and 1) and the public card (position 2,
// opened to all with the call that ends round 1, its keys staged); each
// seat's card, opened on its device, with the public card and the
// betting, settles by Leduc's rules (leduc.At, the game's own rules over
// the cards the seats opened, not the deal's) as the hand did; the
// record verifies and its recomputation gives the same cards. The server
// never holds a card before the game shows it (the tap of
// TestServerNeverHoldsACard), and a hand restored from its log is the
// same.
func TestTrustlessLeducHands(t *testing.T) {
	public := 0
	for h := range uint64(16) {
		x := newHandOf(t, leduc.Def, 800+h)
		p := &tap{x: x}
		v, err := trustdeal.Play(p, x.seats, randomChooser(h), 80)
		require.NoError(t, err, "hand %d", h)
		require.NoError(t, p.leak, "hand %d", h)
		require.NoError(t, p.restore, "hand %d", h)
		require.Nil(t, v.Forfeit)
		c0, c1 := x.seats[0].Cards()[0], x.seats[1].Cards()[1]
		st := x.srv.Match().State().(*leduc.State)
		want, err := leduc.At(c0, c1, st.PublicCard(), st.Sequence(1), st.Sequence(2))
		require.NoError(t, err, "hand %d: cards %d %d public %d", h, c0, c1, st.PublicCard())
		require.Equal(t, want.Outcome().Payoffs, v.Payoffs, "hand %d", h)
		cards, err := match.VerifyDeal(leduc.Def, nil, copyRecord(t, x.srv.Record()))
		require.NoError(t, err)
		require.Equal(t, []int{c0, c1}, cards[:2])
		if st.PublicCard() != leduc.NoCard {
			require.Equal(t, st.PublicCard(), cards[2])
			public++
		}
	}
	require.Greater(t, public, 0, "some hand reaches round 2")
}

// A seat that withholds its key of the public card past the deadline
// ends the hand named, losing what it has put in: its ante and its call
// of a raise (1 + 2), the call that waits for the card included.
func TestLeducWithheldPublicKey(t *testing.T) {
	x := newHandOf(t, leduc.Def, 900)
	for x.srv.Phase() != trustdeal.PhasePlay {
		require.True(t, x.step(t, 1, -1))
	}
	pick := func(kind string) trustdeal.Choose {
		return func(_ int, _ map[int]int, legal []game.Move) game.Move {
			for _, m := range legal {
				if m.Kind == kind {
					return m
				}
			}
			panic("no " + kind)
		}
	}
	for i, kind := range []string{leduc.KindRaise, leduc.KindCall} {
		v := x.srv.View()
		require.NoError(t, x.seats[i].Sync(v))
		a, err := x.seats[i].Act(v, pick(kind))
		require.NoError(t, err)
		a.At = 1
		require.NoError(t, x.srv.Do(*a))
	}
	require.Equal(t, trustdeal.PhaseOpen, x.srv.Phase(), "seat 1's call ends round 1: the public card waits")
	require.Equal(t, []int{2}, x.srv.View().Open)
	for x.step(t, 2, 1) { // seat 0 stages its key, seat 1 withholds
	}
	missing, err := x.srv.Abort(x.srv.Deadline() + 1)
	require.NoError(t, err)
	require.Equal(t, []int{1}, missing)
	require.Equal(t, []float64{3, -3}, x.srv.Record().Payoffs)
	_, err = match.VerifyDeal(leduc.Def, nil, copyRecord(t, x.srv.Record()))
	require.NoError(t, err)
}

// Three-seat trustless Leduc hands (a deck of eight cards, the public
// card at position 3): each seat opens its own card, the payoffs are
// those of the same cards and bets by leduc.AtCards (the rules on known
// cards), and the record's recomputation gives every seat's card.
func TestTrustlessLeducThreeSeats(t *testing.T) {
	showdowns := 0
	for h := range uint64(8) {
		x := newHandSeats(t, leduc.Def, 1200+h, 3)
		p := &tap{x: x}
		v, err := trustdeal.Play(p, x.seats, randomChooser(h), 120)
		require.NoError(t, err, "hand %d", h)
		require.NoError(t, p.leak, "hand %d", h)
		require.Nil(t, v.Forfeit)
		cards := make([]int, 3)
		for i, s := range x.seats {
			cards[i] = s.Cards()[i]
		}
		st := x.srv.Match().State().(*leduc.State)
		want, err := leduc.AtCards(cards, st.PublicCard(), st.Sequence(1), st.Sequence(2))
		require.NoError(t, err, "hand %d: cards %v public %d", h, cards, st.PublicCard())
		require.Equal(t, want.Outcome().Payoffs, v.Payoffs, "hand %d", h)
		got, err := match.VerifyDeal(leduc.Def, nil, copyRecord(t, x.srv.Record()))
		require.NoError(t, err)
		require.Equal(t, cards, got[:3])
		if strings.Contains(string(st.AppendPublic(nil)), "shown") {
			showdowns++
		}
	}
	require.Positive(t, showdowns, "some hand reaches a showdown")
}
