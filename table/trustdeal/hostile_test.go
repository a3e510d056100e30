package trustdeal_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/games/kuhn"
	"github.com/fairboard/fairboard/match"
	"github.com/fairboard/fairboard/rng/mentalpoker"
	"github.com/fairboard/fairboard/table/trustdeal"
)

// A drop (a pass with a card fewer) or an exact duplicate (two equal
// points), signed by its seat, is refused at once and names the seat,
// which forfeits as a cheat: Kuhn's most a seat can lose, 2 chips, to
// the other seat. The record verifies, with the refused pass as its
// evidence; without the evidence it does not.
func TestDropAndDuplicateForfeit(t *testing.T) {
	for _, c := range []struct {
		name     string
		seat     int
		sentinel error
		tamper   func(d [][mentalpoker.PointSize]byte) [][mentalpoker.PointSize]byte
	}{
		{"drop", 0, mentalpoker.ErrCount, func(d [][mentalpoker.PointSize]byte) [][mentalpoker.PointSize]byte { return d[:2] }},
		{"duplicate", 1, mentalpoker.ErrDuplicate, func(d [][mentalpoker.PointSize]byte) [][mentalpoker.PointSize]byte {
			d[1] = d[0]
			return d
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			x := newHand(t, 400)
			for x.srv.View().NextSeat != c.seat {
				require.True(t, x.step(t, 1, -1))
			}
			require.NoError(t, x.seats[c.seat].Sync(x.srv.View()))
			tb, ms := x.seats[c.seat].Protocol()
			m, err := ms.Pass(tb)
			require.NoError(t, err)
			m.Deck = c.tamper(m.Deck)
			resign(m, x.privs[c.seat])
			err = x.srv.Do(trustdeal.Action{Seat: c.seat, At: 2, Pass: m})
			require.Equal(t, c.seat, culprit(t, err, c.sentinel))
			require.Equal(t, trustdeal.PhaseDone, x.srv.Phase())
			r := x.srv.Record()
			require.Equal(t, &match.DealForfeit{Reason: match.ForfeitCheat, Seats: []int{c.seat}}, r.Forfeit)
			want := []float64{2, 2}
			want[c.seat] = -2
			require.Equal(t, want, r.Payoffs)
			_, err = match.VerifyDeal(kuhn.Def, nil, copyRecord(t, r))
			require.NoError(t, err)
			bad := copyRecord(t, r)
			bad.Refused = nil
			_, err = match.VerifyDeal(kuhn.Def, nil, bad)
			require.ErrorContains(t, err, "no signed evidence")
		})
	}
}

// A substitution: seat 0 replaces a point of its first pass by one it
// could recognise (a point of no card), signed as its pass. Every check
// of the passes lets it through (no shuffle proof); the end-of-hand
// recomputation names seat 0, which forfeits 2 chips whatever the cards
// and the betting, in hands that reach a showdown and hands that fold.
// The record verifies; claiming the hand settled by its rules does not.
func TestSubstitutionForfeits(t *testing.T) {
	for h := range uint64(6) {
		x := newHand(t, 500+h)
		tb, ms := x.seats[0].Protocol()
		scratch, err := mentalpoker.NewTable(x.cfg.GameID, x.cfg.Hand, 3, x.cfg.Keys)
		require.NoError(t, err)
		m, err := ms.Pass(scratch) // ms keeps its common key; tb takes the cheat
		require.NoError(t, err)
		foreign, err := mentalpoker.CardPoints("not-this-game", 0, 1)
		require.NoError(t, err)
		m.Deck[int(h)%3] = foreign[0]
		resign(m, x.privs[0])
		require.NoError(t, tb.Accept(m))
		require.NoError(t, x.srv.Do(trustdeal.Action{Seat: 0, At: 1, Pass: m}), "a substitution passes the pass checks")
		choose := betAll
		if h%2 == 1 {
			choose = randomChooser(h)
		}
		v, err := trustdeal.Play(x.srv, x.seats, choose, 40)
		require.NoError(t, err)
		require.Equal(t, &match.DealForfeit{Reason: match.ForfeitCheat, Seats: []int{0}}, v.Forfeit, "hand %d", h)
		require.Equal(t, []float64{-2, 2}, v.Payoffs)
		_, err = match.VerifyDeal(kuhn.Def, nil, copyRecord(t, x.srv.Record()))
		require.NoError(t, err)
		bad := copyRecord(t, x.srv.Record())
		bad.Forfeit = nil
		_, err = match.VerifyDeal(kuhn.Def, nil, bad)
		require.Equal(t, 0, culprit(t, err, mentalpoker.ErrRecompute))
	}
}

// A seat that withholds its keys past the deadline ends the hand, named:
// at the deal (it loses its ante; seat 0, since seat 1's keys rode with
// its pass), at a showdown's staged opening (it loses its ante and bet,
// 2) and at the end-of-hand reveal (it forfeits as a cheat, 2, since the
// reveal is what shows its passes honest). An abort before the deadline
// is refused. Each record verifies.
func TestWithheldKeysAbort(t *testing.T) {
	for _, c := range []struct {
		phase   trustdeal.Phase
		staller int
		reason  string
		pay     []float64
	}{
		{trustdeal.PhaseDeal, 0, match.ForfeitDeadline, []float64{-1, 1}},
		{trustdeal.PhaseOpen, 1, match.ForfeitDeadline, []float64{2, -2}},
		{trustdeal.PhaseReveal, 1, match.ForfeitCheat, []float64{2, -2}},
	} {
		t.Run(string(c.phase), func(t *testing.T) {
			x := newHand(t, 600)
			for x.srv.Phase() != c.phase {
				require.True(t, x.step(t, 1, -1))
			}
			for x.step(t, 2, c.staller) {
			}
			_, err := x.srv.Abort(x.srv.Deadline())
			require.ErrorIs(t, err, trustdeal.ErrPhase)
			missing, err := x.srv.Abort(x.srv.Deadline() + 1)
			require.NoError(t, err)
			require.Equal(t, []int{c.staller}, missing)
			r := x.srv.Record()
			require.Equal(t, &match.DealForfeit{Reason: c.reason, Seats: []int{c.staller}}, r.Forfeit)
			require.Equal(t, c.pay, r.Payoffs)
			_, err = match.VerifyDeal(kuhn.Def, nil, copyRecord(t, r))
			require.NoError(t, err)
		})
	}
}

// A seat that withholds its pass past the deadline is named and loses
// its ante; the record, which stops in the passes, verifies.
func TestWithheldPassAborts(t *testing.T) {
	x := newHand(t, 601)
	require.True(t, x.step(t, 1, -1)) // seat 0's first pass
	missing, err := x.srv.Abort(x.srv.Deadline() + 1)
	require.NoError(t, err)
	require.Equal(t, []int{1}, missing)
	r := x.srv.Record()
	require.Equal(t, []float64{1, -1}, r.Payoffs)
	_, err = match.VerifyDeal(kuhn.Def, nil, copyRecord(t, r))
	require.NoError(t, err)
}

// When every seat withholds (at an opening, at the end) the abort names
// them all and the hand is void; at the deal only seat 0 can (seat 1's
// keys rode with its pass), and it alone is named. A record whose
// deadline forfeit names another seat than the one the hand waited for is
// refused.
func TestEverySeatWithholds(t *testing.T) {
	for _, ph := range []trustdeal.Phase{trustdeal.PhaseDeal, trustdeal.PhaseOpen, trustdeal.PhaseReveal} {
		x := newHand(t, 610)
		for x.srv.Phase() != ph {
			require.True(t, x.step(t, 1, -1))
		}
		missing, err := x.srv.Abort(x.srv.Deadline() + 1)
		require.NoError(t, err)
		want, pay := []int{0, 1}, []float64{0, 0}
		if ph == trustdeal.PhaseDeal {
			want, pay = []int{0}, []float64{-1, 1}
		}
		require.Equal(t, want, missing, "phase %s", ph)
		r := x.srv.Record()
		require.Equal(t, pay, r.Payoffs)
		_, err = match.VerifyDeal(kuhn.Def, nil, copyRecord(t, r))
		require.NoError(t, err, "phase %s", ph)
	}
	x := newHand(t, 611)
	for x.srv.Phase() != trustdeal.PhaseOpen {
		require.True(t, x.step(t, 1, -1))
	}
	for x.step(t, 2, 1) { // seat 0 stages, seat 1 withholds
	}
	_, err := x.srv.Abort(x.srv.Deadline() + 1)
	require.NoError(t, err)
	r := copyRecord(t, x.srv.Record())
	_, err = match.VerifyDeal(kuhn.Def, nil, r)
	require.NoError(t, err, "the control")
	r.Forfeit.Seats, r.Payoffs = []int{0}, []float64{-2, 2}
	_, err = match.VerifyDeal(kuhn.Def, nil, r)
	require.ErrorContains(t, err, "the hand waited for [1]")
}
