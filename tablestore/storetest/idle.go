package storetest

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/rng"
	"github.com/fairboard/fairboard/table"
	"github.com/fairboard/fairboard/tablestore"
)

// CheckIdle checks s's Idle against times written out here: a lobby
// table (g+"-lob", created at 1,000) and a two-seat table played from
// its lobby (g+"-play": created, joined and started at 1,000 to 4,000)
// are found in their own phase only, from the time of their last applied
// action on (not a ms before), each with its version; a refused action
// and a retry move nothing; a move at 5,000 moves the table's time and
// version; the server's idle abandon at that version ends it, and a
// finished table is found no more. It reads only its own tables' rows of
// Idle's answers, so that s may hold others.
func CheckIdle(t *testing.T, s tablestore.Store, def game.Definition, g string) {
	t.Helper()
	ctx := context.Background()
	lob, play := g+"-lob", g+"-play"
	idle := func(phase table.Phase, before int64) []table.IdleTable {
		t.Helper()
		all, err := s.Idle(ctx, phase, before, 0)
		require.NoError(t, err)
		var out []table.IdleTable
		for _, it := range all {
			if it.GameID == lob || it.GameID == play {
				out = append(out, it)
			}
		}
		return out
	}
	do := func(a table.Action) {
		t.Helper()
		_, err := s.Do(ctx, play, a)
		require.NoError(t, err)
	}
	_, err := s.Create(ctx, lob, def.Name(), table.CreateRequest{Actor: UID(0), ActionID: "create", Mode: rng.ModeCrypto, At: 1000})
	require.NoError(t, err)
	_, err = s.Create(ctx, play, def.Name(), table.CreateRequest{Actor: UID(0), ActionID: "create", Mode: rng.ModeSeeded, Seed: "idle", Seats: 2, At: 1000})
	require.NoError(t, err)
	do(table.Action{Actor: UID(0), ActionID: "join", Version: 1, Kind: table.KindJoin, Seat: 0, At: 2000})
	do(table.Action{Actor: UID(1), ActionID: "join", Version: 2, Kind: table.KindJoin, Seat: 1, At: 3000})
	do(table.Action{Actor: UID(0), ActionID: "start", Version: 3, Kind: table.KindStart, At: 4000})
	do(table.Action{Actor: UID(1), ActionID: "join", Version: 2, Kind: table.KindJoin, Seat: 1, At: 4500}) // a retry
	_, err = s.Do(ctx, play, table.Action{Actor: UID(0), ActionID: "stale", Version: 1, Kind: table.KindAbandon, At: 4500})
	require.ErrorIs(t, err, table.CodeStaleVersion)

	require.Empty(t, idle(table.PhaseLobby, 999))
	require.Equal(t, []table.IdleTable{{GameID: lob, Version: 1, ActedAt: 1000}}, idle(table.PhaseLobby, 1<<62))
	require.Empty(t, idle(table.PhasePlaying, 3999))
	require.Equal(t, []table.IdleTable{{GameID: play, Version: 4, ActedAt: 4000}}, idle(table.PhasePlaying, 4000))
	one, err := s.Idle(ctx, table.PhasePlaying, 1<<62, 1)
	require.NoError(t, err)
	require.Len(t, one, 1)

	v, _, err := s.View(ctx, play, "")
	require.NoError(t, err)
	who := v.Seats[v.ToMove].UID
	sv, _, err := s.View(ctx, play, who)
	require.NoError(t, err)
	require.NotEmpty(t, sv.Legal)
	do(table.Action{Actor: who, ActionID: "m", Version: 4, Kind: table.KindMove, Move: game.AppendMoveJSON(nil, def.Kinds(), sv.Legal[0]), At: 5000})
	require.Empty(t, idle(table.PhasePlaying, 4999))
	require.Equal(t, []table.IdleTable{{GameID: play, Version: 5, ActedAt: 5000}}, idle(table.PhasePlaying, 5000))

	do(table.Action{Actor: table.ServerActor, ActionID: table.IdleActionID, Kind: table.KindAbandon, Version: 5, Reason: table.ReasonIdle, At: 9000})
	end, _, err := s.View(ctx, play, "")
	require.NoError(t, err)
	require.Equal(t, table.PhaseFinished, end.Phase)
	require.Equal(t, table.ReasonIdle, end.Outcome.Reason)
	require.Empty(t, idle(table.PhasePlaying, 1<<62))
	require.Len(t, idle(table.PhaseLobby, 1<<62), 1)
}
