package table_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/games/kuhn"
	"github.com/fairboard/fairboard/match"
	"github.com/fairboard/fairboard/table"
	"github.com/fairboard/fairboard/table/trustdeal"
	"github.com/fairboard/fairboard/table/trustseat"
)

// A dealing table abandoned by its owner mid-hand, in each phase of the
// deal (its passes, its keys, play, a move waiting for its cards' keys):
// the record says the hand was abandoned, naming no seat, reveals no key
// of a card not shown, pays the game's AbortPayoffs, and verifies; the
// saved table restores to the same. The control: the same record
// claiming a seat forfeited, or other payoffs, is refused.
func TestAbandonedDealVerifies(t *testing.T) {
	for _, c := range []struct {
		name string
		stop func(*table.View) bool
	}{
		{"passes", func(v *table.View) bool { return len(v.Trustless.Deal.Passes) == 1 }},
		{"keys", func(v *table.View) bool { return v.Trustless.Deal.Phase == trustdeal.PhaseDeal }},
		{"play", func(v *table.View) bool { return v.Trustless.Deal.Phase == trustdeal.PhasePlay }},
		{"opening", func(v *table.View) bool { return v.Trustless.Deal.Phase == trustdeal.PhaseOpen }},
	} {
		t.Run(c.name, func(t *testing.T) {
			tbl, seats := kuhnTable(t, "ab-"+c.name)
			_, err := trustseat.Play(tblSrv{tbl}, seats, betAlways, c.stop, 20)
			require.NoError(t, err)
			_, err = tbl.Do(table.Action{Actor: uid(0), ActionID: "ab", Version: tbl.Version(), Kind: table.KindAbandon})
			require.NoError(t, err)
			v := tbl.View("")
			require.Equal(t, &table.Outcome{Abandoned: true, Payoffs: []float64{0, 0}, Reason: match.AbortAbandoned}, v.Outcome)
			rec, err := tbl.Record(uid(0))
			require.NoError(t, err)
			d := rec.Trustless.Deal
			require.Equal(t, &match.DealForfeit{Reason: match.ForfeitAbandoned, Seats: []int{}}, d.Forfeit)
			require.Empty(t, d.Opened, "no card shown")
			div, err := match.CheckRecord(kuhn.Def, rec)
			require.NoError(t, err)
			require.NoError(t, div)

			saved, err := tbl.Save()
			require.NoError(t, err)
			back, err := table.Restore(kuhn.Def, saved)
			require.NoError(t, err)
			require.Equal(t, v, back.View(""))

			d.Forfeit = &match.DealForfeit{Reason: match.ForfeitAbandoned, Seats: []int{1}}
			_, err = match.VerifyDeal(kuhn.Def, nil, d)
			require.Error(t, err, "an abandon names no seat")
			d.Forfeit = &match.DealForfeit{Reason: match.ForfeitAbandoned, Seats: []int{}}
			d.Payoffs = []float64{1, -1}
			_, err = match.VerifyDeal(kuhn.Def, nil, d)
			require.ErrorContains(t, err, "payoffs")
		})
	}
}
