package trustdeal_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/games/kuhn"
	"github.com/fairboard/fairboard/games/kuhn/kuhndraw"
	"github.com/fairboard/fairboard/match"
	"github.com/fairboard/fairboard/table/trustdeal"
)

// drawFirst draws whenever it can, then bets or calls.
func drawFirst(seat int, own map[int]int, legal []game.Move) game.Move {
	for _, m := range legal {
		if m.Kind == kuhndraw.KindDraw {
			return m
		}
	}
	return betAll(seat, own, legal)
}

// A card drawn to a seat after the setup (issue 28, "Drawing"): the move
// that draws it is applied, then the hand waits (PhaseDeal) until every
// other seat has published its key of the card; the drawer opens it on
// its device, and no one else, the server included, can open it until
// the end, when the recomputation opens every card and the record
// verifies. The control: the drawer's card, with its own key leaked, is
// one the server could open (the same check that holds it closed).
func TestPrivateDrawAfterSetup(t *testing.T) {
	for h := range uint64(6) {
		x := newHandOf(t, kuhndraw.Def, 900+h)
		for x.srv.Phase() != trustdeal.PhasePlay { // the passes and the deal's keys
			require.True(t, x.step(t, 10, -1))
		}
		// Seat 0 draws: applied at once, then the others' keys are due.
		v := x.srv.View()
		require.NoError(t, x.seats[0].Sync(v))
		a, err := x.seats[0].Act(v, drawFirst)
		require.NoError(t, err)
		require.Equal(t, kuhndraw.KindDraw, a.Move.Kind)
		a.At = 20
		require.NoError(t, x.srv.Do(*a))
		require.Equal(t, trustdeal.PhaseDeal, x.srv.Phase(), "the draw waits for the other seat's key")
		require.Equal(t, int64(20+deadline), x.srv.Deadline())
		for _, s := range x.seats {
			require.NoError(t, s.Sync(x.srv.View()))
		}
		_, drawn := x.seats[0].Cards()[2]
		require.False(t, drawn, "the drawer cannot open its card before the other's key")
		// A move now waits for the key.
		mv := game.Move{Seat: 0, Kind: kuhn.KindPass}
		require.ErrorIs(t, x.srv.Do(trustdeal.Action{Seat: 0, At: 21, Move: &mv}), trustdeal.ErrPhase)
		require.True(t, x.step(t, 30, -1)) // seat 1's key of position 2
		require.Equal(t, trustdeal.PhasePlay, x.srv.Phase())
		for _, s := range x.seats {
			require.NoError(t, s.Sync(x.srv.View()))
		}
		card, drawn := x.seats[0].Cards()[2]
		require.True(t, drawn, "the drawer opens its card")
		_, other := x.seats[1].Cards()[2]
		require.False(t, other, "the other seat cannot")
		tb, _ := x.seats[1].Protocol()
		_, err = tb.OpenPublic(2)
		require.Error(t, err, "nobody but the drawer holds every key of it")
		if h == 0 {
			// The control: the same check opens the card once the
			// drawer's own key is there (a leak), on a replica of the
			// other seat's table.
			spy := newHandOf(t, kuhndraw.Def, 900)
			for spy.srv.Phase() != trustdeal.PhasePlay {
				require.True(t, spy.step(t, 10, -1))
			}
			stb, _ := spy.seats[1].Protocol()
			for _, k := range x.srv.Record().Keys {
				require.NoError(t, stb.AcceptKey(k))
			}
			dtb, dms := x.seats[0].Protocol()
			own, err := dms.Key(dtb, 2)
			require.NoError(t, err)
			require.NoError(t, stb.AcceptKey(own))
			leaked, err := stb.OpenPublic(2)
			require.NoError(t, err)
			require.Equal(t, card, leaked)
		}
		require.NotContains(t, []int{x.seats[0].Cards()[0], x.seats[1].Cards()[1]}, card, "the undealt card is neither dealt card")

		v, err = trustdeal.Play(x.srv, x.seats, drawFirst, 40)
		require.NoError(t, err)
		require.Nil(t, v.Forfeit)
		cards, err := match.VerifyDeal(kuhndraw.Def, nil, copyRecord(t, x.srv.Record()))
		require.NoError(t, err)
		require.Equal(t, card, cards[2], "the end's recomputation opens the drawn card as its owner saw it")
		require.Equal(t, kuhnPayoffs(cards[0], cards[1], history(x.srv.Record().Moves[1:])), x.srv.Record().Payoffs)
	}
}

// The draw's own rule reaches the server: seat 1's draw at its turn,
// and seat 0's at its second turn (after pass, bet), are refused by the
// game (ErrMove, invalid_action) and change nothing; seat 0's call then
// goes on.
func TestPrivateDrawRefusals(t *testing.T) {
	x := newHandOf(t, kuhndraw.Def, 950)
	for x.srv.Phase() != trustdeal.PhasePlay {
		require.True(t, x.step(t, 10, -1))
	}
	do := func(seat int, kind string) error {
		mv := game.Move{Seat: seat, Kind: kind}
		return x.srv.Do(trustdeal.Action{Seat: seat, At: 11, Move: &mv})
	}
	require.NoError(t, do(0, kuhn.KindPass))
	err := do(1, kuhndraw.KindDraw)
	require.ErrorIs(t, err, trustdeal.ErrMove)
	require.ErrorContains(t, err, "only seat 0 draws, at its first turn")
	require.Len(t, x.srv.Record().Moves, 1)
	require.NoError(t, do(1, kuhn.KindBet))
	before := len(x.srv.Record().Moves)
	err = do(0, kuhndraw.KindDraw)
	require.ErrorIs(t, err, trustdeal.ErrMove)
	require.ErrorContains(t, err, "only seat 0 draws, at its first turn")
	require.Len(t, x.srv.Record().Moves, before)
	require.Equal(t, trustdeal.PhasePlay, x.srv.Phase())
	require.NoError(t, do(0, kuhn.KindBet))
}
