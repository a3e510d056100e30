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

// CheckBackfill checks s's BackfillActed on an empty store, with tables
// written the old way (every action with At 0: no time of the last
// action, as before the stores kept one), in game-id order:
//
//	g-a  a lobby, old               stamped by the first step
//	g-b  a two-seat game in play, old  stamped by the first step
//	g-c  finished (abandoned), old  left alone
//	g-d  a lobby created at 1,000   left alone (it has a time)
//	g-e  a lobby, old, joined at 7,000 between the first and second
//	     steps: left alone, its time the join's
//
// Steps of 2 at 5,000: refusals (limit 0, time 0) do nothing; the first
// step scans a and b and stamps both, the second scans c and d and
// stamps none, the third scans e alone and is done, and a fourth scans
// nothing. Before, Idle finds d alone; after, it finds a and b at the
// time stampOf(id) said before the first step (the best time the store
// holds of the table's last write), d at 1,000 and e at 7,000, not a
// millisecond earlier, and c never. The server's idle abandon of b at
// the version Idle found ends it.
func CheckBackfill(t *testing.T, s tablestore.Store, def game.Definition, g string, stampOf func(gameID string, now int64) int64) {
	t.Helper()
	ctx := context.Background()
	a, b, c, d, e := g+"-a", g+"-b", g+"-c", g+"-d", g+"-e"
	create := func(id string, at int64) {
		t.Helper()
		_, err := s.Create(ctx, id, def.Name(), table.CreateRequest{Actor: UID(0), ActionID: "create", Mode: rng.ModeSeeded, Seed: id, Seats: 2, At: at})
		require.NoError(t, err)
	}
	do := func(id string, act table.Action) {
		t.Helper()
		_, err := s.Do(ctx, id, act)
		require.NoError(t, err)
	}
	for _, id := range []string{a, b, c, e} {
		create(id, 0)
	}
	create(d, 1000)
	do(b, table.Action{Actor: UID(0), ActionID: "j", Version: 1, Kind: table.KindJoin, Seat: 0})
	do(b, table.Action{Actor: UID(1), ActionID: "j", Version: 2, Kind: table.KindJoin, Seat: 1})
	do(b, table.Action{Actor: UID(0), ActionID: "s", Version: 3, Kind: table.KindStart})
	do(c, table.Action{Actor: UID(0), ActionID: "end", Version: 1, Kind: table.KindAbandon})

	idle := func(phase table.Phase, before int64) []table.IdleTable {
		t.Helper()
		out, err := s.Idle(ctx, phase, before, 0)
		require.NoError(t, err)
		return out
	}
	require.Equal(t, []table.IdleTable{{GameID: d, Version: 1, ActedAt: 1000}}, idle(table.PhaseLobby, 1<<62))
	require.Empty(t, idle(table.PhasePlaying, 1<<62))

	const now = 5000
	for _, bad := range []struct {
		now   int64
		limit int
	}{{now, 0}, {now, -1}, {0, 2}, {-5, 2}} {
		_, err := s.BackfillActed(ctx, bad.now, bad.limit)
		require.Error(t, err, "a backfill at %d of %d", bad.now, bad.limit)
	}
	atA, atB := stampOf(a, now), stampOf(b, now)
	step := func(want table.ActedBackfill) {
		t.Helper()
		got, err := s.BackfillActed(ctx, now, 2)
		require.NoError(t, err)
		require.Equal(t, want, got)
	}
	step(table.ActedBackfill{Scanned: 2, Stamped: 2})
	do(e, table.Action{Actor: UID(1), ActionID: "j", Version: 1, Kind: table.KindJoin, Seat: 1, At: 7000})
	step(table.ActedBackfill{Scanned: 2})
	step(table.ActedBackfill{Scanned: 1, Done: true})
	step(table.ActedBackfill{Done: true})

	require.ElementsMatch(t, []table.IdleTable{{GameID: a, Version: 1, ActedAt: atA}, {GameID: d, Version: 1, ActedAt: 1000},
		{GameID: e, Version: 2, ActedAt: 7000}}, idle(table.PhaseLobby, 1<<62))
	require.Equal(t, []table.IdleTable{{GameID: b, Version: 4, ActedAt: atB}}, idle(table.PhasePlaying, atB))
	require.Empty(t, idle(table.PhasePlaying, atB-1))
	for _, it := range idle(table.PhaseLobby, atA-1) {
		require.NotEqual(t, a, it.GameID, "a found before its stamp")
	}
	do(b, table.Action{Actor: table.ServerActor, ActionID: table.IdleActionID, Kind: table.KindAbandon, Version: 4, Reason: table.ReasonIdle, At: atB + 1})
	v, _, err := s.View(ctx, b, "")
	require.NoError(t, err)
	require.Equal(t, table.PhaseFinished, v.Phase)
	require.Equal(t, table.ReasonIdle, v.Outcome.Reason)
	require.Empty(t, idle(table.PhasePlaying, 1<<62))
	v, _, err = s.View(ctx, c, "")
	require.NoError(t, err)
	require.Equal(t, table.PhaseFinished, v.Phase)
	require.Equal(t, uint64(2), v.Version, "the finished table was left alone")
}
