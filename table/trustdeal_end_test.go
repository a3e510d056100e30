package table_test

import (
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/games/kuhn"
	"github.com/fairboard/fairboard/internal/checks"
	"github.com/fairboard/fairboard/match"
	"github.com/fairboard/fairboard/rng"
	"github.com/fairboard/fairboard/table"
	"github.com/fairboard/fairboard/table/trustdeal"
	"github.com/fairboard/fairboard/table/trustseat"
)

// restoring is a trustseat.Server over a table that it saves and
// restores after every action: the dealing table's saved form (the
// deal's log, staged keys included) makes the same table again.
type restoring struct {
	t  *testing.T
	tb *table.Table
}

func (s *restoring) Do(a table.Action) (*table.Result, error) {
	res, err := s.tb.Do(a)
	data, serr := s.tb.Save()
	require.NoError(s.t, serr)
	back, rerr := table.Restore(kuhn.Def, data)
	require.NoError(s.t, rerr)
	again, serr := back.Save()
	require.NoError(s.t, serr)
	require.Equal(s.t, string(data), string(again))
	s.tb = back
	return res, err
}

func (s *restoring) View(uid string) (*table.View, error) { return s.tb.View(uid), nil }

func kuhnTable(t *testing.T, id string) (*table.Table, []*trustseat.Seat) {
	t.Helper()
	tbl, _, err := table.Create(kuhn.Def, table.CreateRequest{Actor: uid(0), ActionID: "c", Mode: rng.ModeTrustless, GameID: id})
	require.NoError(t, err)
	seats := make([]*trustseat.Seat, 2)
	for i := range seats {
		seats[i], err = trustseat.New(kuhn.Def, id, uid(i), i, 4)
		require.NoError(t, err)
		_, err = tbl.Do(seats[i].Join("join", uint64(1+i), nil, nil))
		require.NoError(t, err)
	}
	_, err = tbl.Do(table.Action{Actor: uid(0), ActionID: "start", Version: 3, Kind: table.KindStart})
	require.NoError(t, err)
	return tbl, seats
}

func betAlways(v *table.View) game.Move {
	for _, m := range v.Legal {
		if m.Kind == kuhn.KindBet {
			return m
		}
	}
	return v.Legal[0]
}

// A dealing table saved and restored after every action plays to its
// showdown and its record verifies.
func TestTrustlessKuhnSaveRestore(t *testing.T) {
	tbl, seats := kuhnTable(t, "kr")
	srv := &restoring{t: t, tb: tbl}
	v, err := trustseat.Play(srv, seats, betAlways, nil, 60)
	require.NoError(t, err)
	require.False(t, v.Outcome.Abandoned)
	rec, err := srv.tb.Record(uid(0))
	require.NoError(t, err)
	div, err := match.CheckRecord(kuhn.Def, rec)
	require.NoError(t, err)
	require.NoError(t, div)
}

// A seat that withholds its deal key past the deadline (seat 0: seat 1's
// keys rode with its pass, which completed the deal): the server's abort
// before it is refused, after it ends the game naming the seat, which
// loses its ante; the record verifies.
func TestTrustlessKuhnWithheldKey(t *testing.T) {
	tbl, seats := kuhnTable(t, "kw")
	inDeal := func(v *table.View) bool { return v.Trustless.Deal.Phase == trustdeal.PhaseDeal }
	_, err := trustseat.Play(tblSrv{tbl}, seats, betAlways, inDeal, 20)
	require.NoError(t, err)
	a, err := seats[1].DealTo("k1", tbl.View(uid(1)))
	require.NoError(t, err)
	require.Nil(t, a, "seat 1 owes no key")
	dl := tbl.View("").Trustless.Deal
	require.Equal(t, trustdeal.PhaseDeal, dl.Phase)
	require.False(t, tbl.AbortDue(dl.Deadline))
	// The sweep finds the stalled deal by its deadline (DueAt, which a
	// store indexes), as it finds a stalled reveal round.
	require.Equal(t, dl.Deadline, tbl.DueAt())
	_, err = tbl.Do(table.Action{Actor: table.ServerActor, ActionID: "ab0", Kind: table.KindAbort, At: dl.Deadline})
	require.ErrorContains(t, err, "deadline_not_passed")
	require.True(t, tbl.AbortDue(dl.Deadline+1))
	_, err = tbl.Do(table.Action{Actor: table.ServerActor, ActionID: "ab1", Kind: table.KindAbort, At: dl.Deadline + 1})
	require.NoError(t, err)
	v := tbl.View("")
	require.Equal(t, &table.Outcome{Abandoned: true, Payoffs: []float64{-1, 1}, Reason: match.ForfeitDeadline, Missing: []int{0}}, v.Outcome)
	require.Zero(t, tbl.DueAt(), "a finished table is due no more")
	rec, err := tbl.Record(uid(0))
	require.NoError(t, err)
	div, err := match.CheckRecord(kuhn.Def, rec)
	require.NoError(t, err)
	require.NoError(t, div)
}

// gamectl verify's check (match.CheckRecord) refuses a dealing table's
// record with its deal tampered, by name: a published key, a reveal
// missing, a shown card; the untampered record is the control.
func TestTrustlessKuhnRecordTampered(t *testing.T) {
	tbl, seats := kuhnTable(t, "kt")
	_, err := trustseat.Play(tblSrv{tbl}, seats, betAlways, nil, 60)
	require.NoError(t, err)
	for _, c := range []struct {
		want   string
		tamper func(d *match.RecordDeal)
	}{
		{"trustless deal: published key 1", func(d *match.RecordDeal) { d.Keys[0].Key[2] ^= 4 }},
		{"trustless deal: end-of-hand recomputation", func(d *match.RecordDeal) { d.Reveals[0] = nil }},
		{"trustless deal: opened card at position 0", func(d *match.RecordDeal) { d.Opened[0].Card = (d.Opened[0].Card + 1) % 3 }},
		{"trustless deal: pass message 1", func(d *match.RecordDeal) { d.Passes[0].Deck[0][0] ^= 1 }},
	} {
		rec, err := tbl.Record(uid(0))
		require.NoError(t, err)
		div, err := match.CheckRecord(kuhn.Def, rec)
		require.NoError(t, err)
		require.NoError(t, div, "control")
		c.tamper(rec.Trustless.Deal)
		div, err = match.CheckRecord(kuhn.Def, rec)
		if err == nil {
			err = div
		}
		require.ErrorContains(t, err, c.want)
	}
}

// A seat whose signed first pass drops a card: the table applies it as
// evidence, the game ends with the seat forfeiting as a cheat (Kuhn's 2
// chips), and the record verifies. The same record with the pass the
// seat made before dropping the card as its evidence (a server naming an
// honest pass a cheat) is refused by CheckRecord, a *match.FalseCheat
// naming seat 0's pass 1; control: with the check switched off
// (checks.NamedCheat) it is taken.
func TestTrustlessKuhnDropForfeits(t *testing.T) {
	tbl, seats := kuhnTable(t, "kd")
	a, err := seats[0].DealTo("p0", tbl.View(uid(0)))
	require.NoError(t, err)
	require.NotNil(t, a.Deal.Pass)
	honest, dropped := *a.Deal.Pass, *a.Deal.Pass
	dropped.Deck = slices.Clone(honest.Deck)[:2]
	a.Deal.Pass = &dropped
	seats[0].Resign(a.Deal.Pass)
	_, err = tbl.Do(*a)
	require.NoError(t, err, "a signed drop is the seat's forfeit, applied")
	v := tbl.View("")
	require.Equal(t, &table.Outcome{Abandoned: true, Payoffs: []float64{-2, 2}, Reason: match.ForfeitCheat, Missing: []int{0}}, v.Outcome)
	require.Equal(t, &dropped, v.Trustless.Deal.Refused, "every reader sees the evidence")
	rec, err := tbl.Record(uid(1))
	require.NoError(t, err)
	div, err := match.CheckRecord(kuhn.Def, rec)
	require.NoError(t, err)
	require.NoError(t, div)

	rec.Trustless.Deal.Refused = &honest
	div, err = match.CheckRecord(kuhn.Def, rec)
	require.NoError(t, div)
	var fc *match.FalseCheat
	require.ErrorAs(t, err, &fc)
	require.Equal(t, match.FalseCheat{Seat: 0, Pass: 1}, *fc, "the honest pass verifies")
	t.Run("control without NamedCheat", func(t *testing.T) {
		checks.Off(t, checks.NamedCheat)
		div, err := match.CheckRecord(kuhn.Def, rec)
		require.NoError(t, err)
		require.NoError(t, div)
	})
}
