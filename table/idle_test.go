package table_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/games/pig"
	"github.com/fairboard/fairboard/rng"
	"github.com/fairboard/fairboard/table"
)

// idleEnd is the sweep's abandon of an idle table found at version v.
func idleEnd(v uint64, at int64) table.Action {
	return table.Action{Actor: table.ServerActor, ActionID: table.IdleActionID, Kind: table.KindAbandon,
		Version: v, Reason: table.ReasonIdle, At: at}
}

// Memory.Idle finds a table by the time of its last applied action (the
// create's At, then each action's), in its phase only, not before that
// time; a refused action and a retry move nothing; the server's idle
// abandon at the version found ends it once (a retry Replayed), as
// abandoned with reason idle and the game's AbortPayoffs (Pig's: zero
// each, docs/games.md), a lobby table with none; a table that moved
// since it was found is stale_version (the control: the same abandon at
// its new version ends it); a finished table is idle no more.
func TestIdleTablesAndTheSweepsAbandon(t *testing.T) {
	m := table.NewMemory()
	_, err := m.Create("lob", pig.Def, table.CreateRequest{Actor: uid(0), ActionID: "create", Mode: rng.ModeCrypto, At: 100})
	require.NoError(t, err)
	_, err = m.Create("play", pig.Def, table.CreateRequest{Actor: uid(0), ActionID: "create", Mode: rng.ModeSeeded, Seed: "idle", At: 100})
	require.NoError(t, err)
	_, err = m.Create("none", pig.Def, table.CreateRequest{Actor: uid(0), ActionID: "create", Mode: rng.ModeCrypto}) // no time: never found
	require.NoError(t, err)
	do := func(g string, a table.Action) *table.Result {
		t.Helper()
		r, err := m.Do(g, a)
		require.NoError(t, err)
		return r
	}
	do("play", table.Action{Actor: uid(0), ActionID: "j0", Version: 1, Kind: table.KindJoin, Seat: 0, At: 200})
	do("play", table.Action{Actor: uid(1), ActionID: "j1", Version: 2, Kind: table.KindJoin, Seat: 1, At: 300})
	do("play", table.Action{Actor: uid(0), ActionID: "start", Version: 3, Kind: table.KindStart, At: 400})
	_, err = m.Do("play", table.Action{Actor: uid(1), ActionID: "bad", Version: 4, Kind: table.KindMove, Move: []byte(`{"kind":"roll"}`), At: 900})
	require.ErrorIs(t, err, table.CodeNotYourTurn) // refused: nothing applied
	// a retry: nothing applied either
	do("play", table.Action{Actor: uid(1), ActionID: "j1", Version: 2, Kind: table.KindJoin, Seat: 1, At: 950})

	require.Empty(t, m.Idle(table.PhaseLobby, 99, 0))
	require.Equal(t, []table.IdleTable{{GameID: "lob", Version: 1, ActedAt: 100}}, m.Idle(table.PhaseLobby, 100, 0))
	require.Empty(t, m.Idle(table.PhasePlaying, 399, 0))
	require.Equal(t, []table.IdleTable{{GameID: "play", Version: 4, ActedAt: 400}}, m.Idle(table.PhasePlaying, 1<<62, 0))
	require.Len(t, m.Idle(table.PhaseLobby, 1<<62, 1), 1)

	// A move since the query: the abandon at the version found is
	// refused, and the table's clock has moved.
	do("play", table.Action{Actor: uid(0), ActionID: "m0", Version: 4, Kind: table.KindMove, Move: []byte(`{"kind":"roll"}`), At: 1000})
	_, err = m.Do("play", idleEnd(4, 5000))
	require.ErrorIs(t, err, table.CodeStaleVersion)
	require.Empty(t, m.Idle(table.PhasePlaying, 999, 0))
	found := m.Idle(table.PhasePlaying, 1000, 0)
	require.Len(t, found, 1)
	first := do("play", idleEnd(found[0].Version, 5000))
	require.False(t, first.Replayed)
	require.Equal(t, []table.Event{{Seq: first.Events[0].Seq, To: game.All, Type: "Abandoned", UID: table.ServerActor, Options: []string{table.ReasonIdle}}}, first.Events)
	again := do("play", idleEnd(found[0].Version, 6000))
	require.True(t, again.Replayed)
	require.Equal(t, first.Events, again.Events)
	end, err := m.View("play", "")
	require.NoError(t, err)
	require.Equal(t, &table.Outcome{Abandoned: true, Payoffs: []float64{0, 0}, Reason: table.ReasonIdle}, end.Outcome)
	require.Empty(t, m.Idle(table.PhasePlaying, 1<<62, 0), "a finished table is idle no more")

	do("lob", idleEnd(1, 5000))
	end, err = m.View("lob", "")
	require.NoError(t, err)
	require.Equal(t, &table.Outcome{Abandoned: true, Reason: table.ReasonIdle}, end.Outcome)
	require.Empty(t, m.Idle(table.PhaseLobby, 1<<62, 0))
}

// A reason is the server's, on its abandon, and idle only: the owner's
// abandon with one, the server's abort with one and another reason are
// invalid_action and change nothing; the control is the server's idle
// abandon, applied.
func TestOnlyTheServerAbandonsAsIdle(t *testing.T) {
	m := table.NewMemory()
	_, err := m.Create("g", pig.Def, table.CreateRequest{Actor: uid(0), ActionID: "create", Mode: rng.ModeCrypto, At: 1})
	require.NoError(t, err)
	owner := idleEnd(1, 2)
	owner.Actor = uid(0)
	other := idleEnd(1, 2)
	other.Reason = "bored"
	abort := idleEnd(1, 2)
	abort.Kind = table.KindAbort
	for _, a := range []table.Action{owner, other, abort} {
		_, err := m.Do("g", a)
		require.ErrorIs(t, err, table.CodeInvalidAction, "%+v", a)
	}
	v, err := m.View("g", "")
	require.NoError(t, err)
	require.Equal(t, uint64(1), v.Version)
	_, err = m.Do("g", idleEnd(1, 2))
	require.NoError(t, err)
}
