package table_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/rng"
	"github.com/fairboard/fairboard/table"
)

// An event addressed to one seat reaches that seat alone; every other
// reader (another seat, a spectator, the public part, another actor's
// result) reads at its seq the trace Addressed {seat} and nothing else, so
// every reader reads every seq. Worked by hand on hide at 3 seats: the
// log is TableCreated, three Joined, Started, then one Dealt per seat
// (seqs 6, 7, 8), then seat 0's swap (Swapped public at 9, Drew to seat
// 0 at 10). SeatPart gives each seat its card and its own events.
func TestAddressedEventsLeaveATrace(t *testing.T) {
	tb, _, err := table.Create(hide{}, table.CreateRequest{Actor: uid(0), ActionID: "create", Mode: rng.ModeSeeded, Seed: "trace", Seats: 3})
	require.NoError(t, err)
	do := func(a table.Action) *table.Result {
		t.Helper()
		a.Version = tb.Version()
		res, err := tb.Do(a)
		require.NoError(t, err)
		return res
	}
	for i := range 3 {
		require.Equal(t, table.SeatPart{Seat: i}, tb.SeatPart(i), "a free seat in the lobby")
		do(table.Action{Actor: uid(i), ActionID: "join", Kind: table.KindJoin, Seat: i})
	}
	require.Nil(t, tb.SeatPart(1).Private, "nothing private before the start")
	start := do(table.Action{Actor: uid(0), ActionID: "start", Kind: table.KindStart})
	trace := func(seq, seat int) table.Event {
		return table.Event{Seq: seq, To: game.All, Type: table.TypeAddressed, Vals: [game.MaxVals]int64{int64(seat)}}
	}
	require.Equal(t, []string{"Started", "Dealt", table.TypeAddressed, table.TypeAddressed}, types(start.Events), "the owner, seat 0, reads its own deal and the others' traces")
	require.Equal(t, trace(7, 1), start.Events[2])
	res := do(table.Action{Actor: uid(0), ActionID: "m", Kind: table.KindMove, Move: []byte(`{"kind":"swap"}`)})
	require.Len(t, res.Events, 2)
	require.Equal(t, "Swapped", res.Events[0].Type)
	require.Equal(t, table.Event{Seq: 10, To: 0, Game: true, Type: "Drew", Vals: res.Events[1].Vals}, res.Events[1], "the actor reads its own draw")
	cards := cardsOf(tb.StateBytes())

	for _, reader := range []string{"", uid(0), uid(1), uid(2), "u9"} {
		v := tb.View(reader)
		require.Len(t, v.Log, 10, "%q reads every seq", reader)
		for i, e := range v.Log {
			require.Equal(t, i+1, e.Seq)
		}
		for seq, to := range map[int]int{6: 0, 7: 1, 8: 2, 10: 0} {
			e := v.Log[seq-1]
			if v.Seat == to {
				require.Equal(t, to, e.To)
				require.True(t, e.Game)
				continue
			}
			require.Equal(t, trace(seq, to), e, "%q reads the trace of seq %d", reader, seq)
		}
	}
	require.Equal(t, tb.View("").Log, tb.Public().Log)

	for i := range 3 {
		p := tb.SeatPart(i)
		require.Equal(t, uid(i), p.UID)
		require.Equal(t, "card "+cards[i], string(p.Private))
		want := []string{"Dealt"}
		if i == 0 {
			want = append(want, "Drew")
		}
		require.Equal(t, want, types(p.Events))
		for _, e := range p.Events {
			require.Equal(t, i, e.To)
		}
	}
	require.Equal(t, table.NoSeat, tb.SeatPart(3).Seat)
	require.Equal(t, table.NoSeat, tb.SeatPart(-1).Seat)
}

func types(ev []table.Event) []string {
	var out []string
	for _, e := range ev {
		out = append(out, e.Type)
	}
	return out
}
