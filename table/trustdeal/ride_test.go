package trustdeal_test

import (
	"crypto/ed25519"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/games/kuhn"
	"github.com/fairboard/fairboard/match"
	"github.com/fairboard/fairboard/rng/mentalpoker"
	"github.com/fairboard/fairboard/table/trustdeal"
)

// The last seat's pass 2 completes the deal, and its keys of the others'
// cards ride with it (docs/fairness.md, "Cost in commits"): one action,
// after which the deal waits only for seat 0's keys. The server takes
// exactly those keys: a key properly signed but not the seat's committed
// one, a key of the seat's own card, a key too many and keys with a pass
// that does not complete the deal are each refused with the pass, and
// nothing changes (the hand's log, its phase, the seat awaited); the
// same pass with its right keys is then taken (the control), the hand
// plays to its end from there, its log restores to the same hand and its
// record verifies.
func TestKeysRideWithTheLastPass(t *testing.T) {
	x := newHand(t, 700)
	for range 3 { // seat 0's pass 1, seat 1's, seat 0's pass 2
		require.True(t, x.step(t, 1, -1))
	}
	v := x.srv.View()
	require.Equal(t, trustdeal.PhasePass, v.Phase)
	require.Equal(t, 1, v.NextSeat)
	require.NoError(t, x.seats[0].Sync(v))
	require.NoError(t, x.seats[1].Sync(v))
	a, err := x.seats[1].Act(v, betAll)
	require.NoError(t, err)
	require.NotNil(t, a.Pass)
	require.Len(t, a.Keys, 1, "seat 1's key of seat 0's card (Kuhn deals positions 0 and 1)")
	require.Equal(t, uint32(0), a.Keys[0].Position)
	a.At = 2

	// What seat 1 could sign besides: its keys of its own card (position
	// 1) and of the closed one (2), from its own table, which holds its
	// pass.
	tb, ms := x.seats[1].Protocol()
	own, err := ms.Key(tb, 1)
	require.NoError(t, err)
	wrong, err := ms.Key(tb, 2)
	require.NoError(t, err)
	wrong.Position = 0 // position 2's key under position 0's name, signed again
	wrong.Sig = ed25519.Sign(x.privs[1], wrong.SignedBytes())

	log := len(x.srv.Log())
	for _, c := range []struct {
		name string
		keys []*mentalpoker.KeyMessage
		want error
	}{
		{"a key not its commitment's", []*mentalpoker.KeyMessage{wrong}, mentalpoker.ErrKey},
		{"its own card's key", []*mentalpoker.KeyMessage{own}, trustdeal.ErrNotDue},
		{"a key too many", []*mentalpoker.KeyMessage{a.Keys[0], own}, trustdeal.ErrNotDue},
	} {
		bad := *a
		bad.Keys = c.keys
		require.ErrorIs(t, x.srv.Do(bad), c.want, c.name)
		v := x.srv.View()
		require.Equal(t, log, len(x.srv.Log()), c.name)
		require.Equal(t, trustdeal.PhasePass, v.Phase, c.name)
		require.Equal(t, 1, v.NextSeat, c.name)
		require.Empty(t, v.Keys, c.name)
	}

	// Keys with a pass that does not complete the deal: another hand's
	// first pass.
	y := newHand(t, 701)
	yv := y.srv.View()
	require.NoError(t, y.seats[0].Sync(yv))
	first, err := y.seats[0].Act(yv, betAll)
	require.NoError(t, err)
	first.Keys = a.Keys
	require.ErrorIs(t, y.srv.Do(*first), trustdeal.ErrNotDue)
	require.Empty(t, y.srv.Log())
	first.Keys = nil
	require.NoError(t, y.srv.Do(*first), "the control: the pass alone")

	// The control: the pass with its right keys.
	require.NoError(t, x.srv.Do(*a))
	v = x.srv.View()
	require.Equal(t, trustdeal.PhaseDeal, v.Phase)
	require.Equal(t, log+1, len(x.srv.Log()), "one action")
	require.Equal(t, []*mentalpoker.KeyMessage{a.Keys[0]}, v.Keys)

	playOutAndCheck(t, x)
}

// At the deal, once only seat 0's keys are due, its first move carries
// them (docs/fairness.md, "Cost in commits"): one action opens seat 1's
// card and applies the move. The server takes exactly those keys with a
// legal move of their seat: seat 1's move with seat 0's keys, a key
// properly signed but not its commitment's, an illegal move and keys
// with a move after the deal are each refused, and nothing changes; the
// move with its right keys is the control, after which the hand plays to
// its end, restores from its log and its record verifies.
func TestKeysRideWithTheFirstMove(t *testing.T) {
	x := newHand(t, 710)
	for x.srv.Phase() != trustdeal.PhaseDeal {
		require.True(t, x.step(t, 1, -1))
	}
	v := x.srv.View()
	require.Equal(t, 0, v.ToMove)
	for _, s := range x.seats {
		require.NoError(t, s.Sync(v))
	}
	require.Contains(t, x.seats[0].Cards(), 0, "seat 0 opens its card before its move")
	require.NotContains(t, x.seats[1].Cards(), 1, "seat 1's waits for seat 0's key")
	ks, err := x.seats[0].DueKeys()
	require.NoError(t, err)
	require.Len(t, ks, 1)
	require.Equal(t, uint32(1), ks[0].Position)

	tb, ms := x.seats[0].Protocol()
	wrong, err := ms.Key(tb, 2)
	require.NoError(t, err)
	wrong.Position = 1 // the closed card's key under seat 1's card's name, signed again
	wrong.Sig = ed25519.Sign(x.privs[0], wrong.SignedBytes())
	bet := game.Move{Seat: 0, Kind: kuhn.KindBet}
	log := len(x.srv.Log())
	for _, c := range []struct {
		name string
		a    trustdeal.Action
		want error
	}{
		{"seat 1's move with seat 0's keys", trustdeal.Action{Seat: 1, At: 2, Move: &game.Move{Seat: 1, Kind: kuhn.KindBet}, Keys: ks}, trustdeal.ErrNotDue},
		{"a key not its commitment's", trustdeal.Action{Seat: 0, At: 2, Move: &bet, Keys: []*mentalpoker.KeyMessage{wrong}}, mentalpoker.ErrKey},
		{"an illegal move", trustdeal.Action{Seat: 0, At: 2, Move: &game.Move{Seat: 0, Kind: "raise"}, Keys: ks}, trustdeal.ErrMove},
		{"the move without its keys", trustdeal.Action{Seat: 0, At: 2, Move: &bet}, trustdeal.ErrPhase},
	} {
		require.ErrorIs(t, x.srv.Do(c.a), c.want, c.name)
		v := x.srv.View()
		require.Equal(t, log, len(x.srv.Log()), c.name)
		require.Equal(t, trustdeal.PhaseDeal, v.Phase, c.name)
		require.Len(t, v.Keys, 1, c.name)
		require.Empty(t, v.Moves, c.name)
	}

	require.NoError(t, x.srv.Do(trustdeal.Action{Seat: 0, At: 2, Move: &bet, Keys: ks}), "the control")
	v = x.srv.View()
	require.Equal(t, log+1, len(x.srv.Log()), "one action")
	require.Equal(t, trustdeal.PhasePlay, v.Phase)
	require.Equal(t, []game.Move{bet}, v.Moves)
	require.Len(t, v.Keys, 2)
	require.NoError(t, x.seats[1].Sync(v))
	require.Contains(t, x.seats[1].Cards(), 1, "seat 1 opens its card after seat 0's move")

	after := trustdeal.Action{Seat: 1, At: 3, Move: &game.Move{Seat: 1, Kind: kuhn.KindBet}, Keys: ks}
	require.ErrorIs(t, x.srv.Do(after), trustdeal.ErrPhase, "keys with a move after the deal")

	playOutAndCheck(t, x)
}

// A pass after the passes is refused even with keys the deal waits for:
// the keys do not go in without it (seat 0's last pass sent again with
// its due keys, at the deal); the keys alone are the control.
func TestPassWithKeysAfterThePasses(t *testing.T) {
	x := newHand(t, 720)
	for x.srv.Phase() != trustdeal.PhaseDeal {
		require.True(t, x.step(t, 1, -1))
	}
	v := x.srv.View()
	require.NoError(t, x.seats[0].Sync(v))
	ks, err := x.seats[0].DueKeys()
	require.NoError(t, err)
	log := len(x.srv.Log())
	require.ErrorIs(t, x.srv.Do(trustdeal.Action{Seat: 0, At: 2, Pass: v.Passes[2], Keys: ks}), trustdeal.ErrPhase)
	require.Equal(t, log, len(x.srv.Log()))
	require.Len(t, x.srv.View().Keys, 1)
	require.NoError(t, x.srv.Do(trustdeal.Action{Seat: 0, At: 2, Keys: ks}), "the control")
	require.Equal(t, trustdeal.PhasePlay, x.srv.Phase())
}

// playOutAndCheck plays the hand to its end, restores it from its log
// (the same view) and verifies its record.
func playOutAndCheck(t *testing.T, x *hand) {
	t.Helper()
	end, err := trustdeal.Play(x.srv, x.seats, betAll, 40)
	require.NoError(t, err)
	require.Equal(t, trustdeal.PhaseDone, end.Phase)
	restored, err := trustdeal.Restore(x.cfg, x.srv.Log())
	require.NoError(t, err)
	require.Equal(t, end, restored.View())
	_, err = match.VerifyDeal(kuhn.Def, nil, copyRecord(t, x.srv.Record()))
	require.NoError(t, err)
}
