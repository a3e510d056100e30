package trustdeal_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/games/kuhn"
	"github.com/fairboard/fairboard/match"
	"github.com/fairboard/fairboard/rng/mentalpoker"
	"github.com/fairboard/fairboard/table/trustdeal"
)

// The record of a hand that reached a showdown verifies, and verify
// refuses each tampering by name: a published key, a pass, an opened
// card, an end-of-hand reveal missing, a published key missing, the
// payoffs. The untampered copy passing first is each case's control.
func TestVerifyRefusesTampering(t *testing.T) {
	x := newHand(t, 700)
	v, err := trustdeal.Play(x.srv, x.seats, betAll, 40)
	require.NoError(t, err)
	require.Nil(t, v.Forfeit)
	rec := x.srv.Record()
	require.Len(t, rec.Opened, 2)
	_, err = match.VerifyDeal(kuhn.Def, nil, copyRecord(t, rec))
	require.NoError(t, err)

	for _, c := range []struct {
		name   string
		tamper func(r *match.RecordDeal)
		want   string
		seat   int // the seat named, -1 for none
		err    error
	}{
		{"a key", func(r *match.RecordDeal) { r.Keys[0].Key[1] ^= 1 }, "published key 1", int(rec.Keys[0].Seat), mentalpoker.ErrSignature},
		{"a pass", func(r *match.RecordDeal) {
			r.Passes[2].Deck[0], r.Passes[2].Deck[1] = r.Passes[2].Deck[1], r.Passes[2].Deck[0]
		},
			"pass message 3", 0, mentalpoker.ErrSignature},
		{"an opened card", func(r *match.RecordDeal) { r.Opened[1].Card = (r.Opened[1].Card + 1) % 3 }, "opened card at position 1", -1, nil},
		{"a reveal missing", func(r *match.RecordDeal) { r.Reveals[1] = nil }, "end-of-hand recomputation", 1, mentalpoker.ErrMissing},
		{"a published key missing", func(r *match.RecordDeal) { r.Keys = r.Keys[:len(r.Keys)-1] }, "move 2 (bet by seat 1)", 1, mentalpoker.ErrMissing},
		{"the payoffs", func(r *match.RecordDeal) { r.Payoffs[0], r.Payoffs[1] = r.Payoffs[1], r.Payoffs[0] }, "payoffs", -1, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := copyRecord(t, rec)
			_, err := match.VerifyDeal(kuhn.Def, nil, r)
			require.NoError(t, err, "control: the untampered copy")
			c.tamper(r)
			_, err = match.VerifyDeal(kuhn.Def, nil, r)
			require.ErrorContains(t, err, c.want)
			if c.seat >= 0 {
				require.Equal(t, c.seat, culprit(t, err, c.err))
			}
		})
	}
}
