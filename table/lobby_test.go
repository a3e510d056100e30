package table_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/games/dungeon"
	"github.com/fairboard/fairboard/rng"
	"github.com/fairboard/fairboard/table"
)

// The lobby by hand: joins with options, a leave, a removal, a join again,
// the log and the seats after each; then start, and the owner's abandon.
func TestLobbyByHand(t *testing.T) {
	s := table.NewMemory()
	_, err := s.Create("d", dungeon.Def, table.CreateRequest{Actor: "own", ActionID: "c", Mode: rng.ModeSeeded, Seed: "lobby", Seats: 2})
	require.NoError(t, err)
	do := func(a table.Action) *table.Result {
		t.Helper()
		res, err := s.Do("d", a)
		require.NoError(t, err)
		return res
	}
	res := do(table.Action{Actor: "ann", ActionID: "j", Version: 1, Kind: table.KindJoin, Seat: 1, Options: map[string]string{"class": "monk"}})
	require.Equal(t, []table.Event{{Seq: 2, To: game.All, Type: "Joined", Vals: [4]int64{1}, UID: "ann", Options: []string{"monk"}}}, res.Events)
	res = do(table.Action{Actor: "bob", ActionID: "j", Version: 2, Kind: table.KindJoin, Seat: 0})
	require.Equal(t, uint64(3), res.Version)
	res = do(table.Action{Actor: "bob", ActionID: "l", Version: 3, Kind: table.KindLeave})
	require.Equal(t, []table.Event{{Seq: 4, To: game.All, Type: "Left", Vals: [4]int64{0}, UID: "bob"}}, res.Events)
	res = do(table.Action{Actor: "own", ActionID: "r", Version: 4, Kind: table.KindRemoveSeat, Seat: 1})
	require.Equal(t, []table.Event{{Seq: 5, To: game.All, Type: "SeatRemoved", Vals: [4]int64{1}, UID: "ann"}}, res.Events)
	pub, err := s.View("d", "")
	require.NoError(t, err)
	require.Equal(t, []table.SeatInfo{{}, {}}, pub.Seats)
	require.Equal(t, table.PhaseLobby, pub.Phase)
	require.Nil(t, pub.State)

	do(table.Action{Actor: "own", ActionID: "j", Version: 5, Kind: table.KindJoin, Seat: 0, Options: map[string]string{"class": "scout"}})
	do(table.Action{Actor: "ann", ActionID: "j2", Version: 6, Kind: table.KindJoin, Seat: 1})
	res = do(table.Action{Actor: "own", ActionID: "s", Version: 7, Kind: table.KindStart})
	require.Equal(t, "Started", res.Events[0].Type)
	require.False(t, res.Events[0].Game)
	require.True(t, res.Events[1].Game)
	pub, err = s.View("d", "ann")
	require.NoError(t, err)
	require.Equal(t, []table.SeatInfo{{UID: "own", Options: []string{"scout"}}, {UID: "ann"}}, pub.Seats)
	require.Equal(t, table.PhasePlaying, pub.Phase)
	require.Equal(t, 1, pub.Seat)
	require.NotEmpty(t, pub.State)

	res = do(table.Action{Actor: "own", ActionID: "a", Version: 8, Kind: table.KindAbandon})
	require.Equal(t, []table.Event{{Seq: len(pub.Log) + 1, To: game.All, Type: "Abandoned", UID: "own"}}, res.Events)
	pub, err = s.View("d", "")
	require.NoError(t, err)
	require.Equal(t, &table.Outcome{Abandoned: true, Payoffs: []float64{0, 0}}, pub.Outcome)
	require.Equal(t, game.Nobody, pub.ToMove)
	require.Empty(t, pub.Legal)

	// Abandoned in its lobby: no payoffs.
	_, err = s.Create("e", dungeon.Def, table.CreateRequest{Actor: "own", ActionID: "c", Mode: rng.ModeCrypto})
	require.NoError(t, err)
	_, err = s.Do("e", table.Action{Actor: table.ServerActor, ActionID: "sweep", Version: 1, Kind: table.KindAbandon})
	require.NoError(t, err)
	pub, err = s.View("e", "own")
	require.NoError(t, err)
	require.Equal(t, &table.Outcome{Abandoned: true}, pub.Outcome)
	require.Equal(t, 4, len(pub.Seats), "the dungeon's default seat count")
}
