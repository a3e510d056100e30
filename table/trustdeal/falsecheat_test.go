package trustdeal_test

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/games/kuhn"
	"github.com/fairboard/fairboard/internal/checks"
	"github.com/fairboard/fairboard/match"
	"github.com/fairboard/fairboard/rng/mentalpoker"
	"github.com/fairboard/fairboard/table/trustdeal"
)

// TestFalseCheatCaught: a seat's signed pass that fails its proof (seat
// 0's first pass with a card dropped, seat 1's second pass with its
// batch proof garbled) ends the hand naming it a cheat, and the evidence
// checks, in the record (match.VerifyDeal) and for any reader of the
// view (trustdeal.CheckCheat): a real cheat, taken with no blame. A
// server that names an honest pass a cheat (the record's refused pass
// replaced by the pass the seat made before it was tampered with) is
// caught by both as a *match.FalseCheat naming the seat and the pass,
// the pass verifying; so is a refused pass missing, or signed by no one
// (its signature broken). Control: with the check switched off
// (checks.NamedCheat) the false cheat is taken.
func TestFalseCheatCaught(t *testing.T) {
	for _, c := range []struct {
		name       string
		seat, pass int
		before     int // passes published before it
		sentinel   error
		tamper     func(m *mentalpoker.PassMessage)
	}{
		{"drop", 0, 1, 0, mentalpoker.ErrCount, func(m *mentalpoker.PassMessage) { m.Deck = m.Deck[:2] }},
		{"bad proof", 1, 2, 3, mentalpoker.ErrProof, func(m *mentalpoker.PassMessage) { m.Proof[40] ^= 1 }},
	} {
		t.Run(c.name, func(t *testing.T) {
			x := newHand(t, 700)
			for len(x.srv.View().Passes) < c.before {
				require.True(t, x.step(t, 1, -1))
			}
			require.NoError(t, x.seats[c.seat].Sync(x.srv.View()))
			tb, ms := x.seats[c.seat].Protocol()
			m, err := ms.Pass(tb)
			require.NoError(t, err)
			require.Equal(t, c.pass, int(m.Pass))
			honest := copyPass(t, m)
			c.tamper(m)
			resign(m, x.privs[c.seat])
			err = x.srv.Do(trustdeal.Action{Seat: c.seat, At: 2, Pass: m})
			require.Equal(t, c.seat, culprit(t, err, c.sentinel))
			v := x.srv.View()
			want := &match.DealForfeit{Reason: match.ForfeitCheat, Seats: []int{c.seat}}
			require.Equal(t, want, v.Forfeit)
			require.Equal(t, m, v.Refused, "the view shows the evidence")

			// The real cheat: its evidence checks.
			require.NoError(t, trustdeal.CheckCheat(x.cfg, v.Passes, v.Forfeit, v.Refused))
			_, err = match.VerifyDeal(kuhn.Def, nil, copyRecord(t, x.srv.Record()))
			require.NoError(t, err)

			// The lie: an honest pass named a cheat.
			lie := copyRecord(t, x.srv.Record())
			lie.Refused = honest
			fc := falseCheat(t, trustdeal.CheckCheat(x.cfg, v.Passes, v.Forfeit, honest))
			require.Equal(t, match.FalseCheat{Seat: c.seat, Pass: c.pass}, *fc, "the honest pass verifies")
			_, err = match.VerifyDeal(kuhn.Def, nil, lie)
			require.Equal(t, match.FalseCheat{Seat: c.seat, Pass: c.pass}, *falseCheat(t, err))
			require.ErrorContains(t, err, "an honest pass named a cheat")

			// No evidence, and evidence signed by no one.
			fc = falseCheat(t, trustdeal.CheckCheat(x.cfg, v.Passes, v.Forfeit, nil))
			require.True(t, fc.Missing)
			forged := copyPass(t, m)
			forged.Sig[0] ^= 1
			fc = falseCheat(t, trustdeal.CheckCheat(x.cfg, v.Passes, v.Forfeit, forged))
			require.ErrorIs(t, fc.Err, mentalpoker.ErrSignature)
			bad := copyRecord(t, x.srv.Record())
			bad.Refused = forged
			_, err = match.VerifyDeal(kuhn.Def, nil, bad)
			require.ErrorContains(t, err, "no signed evidence")
			// A forfeit naming the other seat than the one awaited.
			require.ErrorContains(t, trustdeal.CheckCheat(x.cfg, v.Passes, &match.DealForfeit{Reason: match.ForfeitCheat, Seats: []int{1 - c.seat}}, m),
				"the deal awaited")

			t.Run("control without NamedCheat", func(t *testing.T) {
				checks.Off(t, checks.NamedCheat)
				require.NoError(t, trustdeal.CheckCheat(x.cfg, v.Passes, v.Forfeit, honest))
				_, err := match.VerifyDeal(kuhn.Def, nil, copyRecord(t, lie))
				require.NoError(t, err, "with the check off, the honest pass named a cheat is taken")
			})
		})
	}
}

// falseCheat is err's *match.FalseCheat, which must be there.
func falseCheat(t *testing.T, err error) *match.FalseCheat {
	t.Helper()
	var fc *match.FalseCheat
	require.True(t, errors.As(err, &fc), "want a FalseCheat, got %v", err)
	return fc
}

// copyPass is a deep copy of m through a record's JSON.
func copyPass(t *testing.T, m *mentalpoker.PassMessage) *mentalpoker.PassMessage {
	t.Helper()
	return copyRecord(t, &match.RecordDeal{Refused: m}).Refused
}
