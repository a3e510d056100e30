package integration

import (
	"context"
	"encoding/json"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/functest"
	"github.com/fairboard/fairboard/functions"
	"github.com/fairboard/fairboard/games/pig"
	"github.com/fairboard/fairboard/match"
	"github.com/fairboard/fairboard/table"
)

// The idle limits by default, written out (docs/functions.md): a day in
// the lobby, a week in play, in ms.
const (
	idleDayMs  = 24 * 3600 * 1000
	idleWeekMs = 7 * idleDayMs
)

// idleOf returns the answer's idle row of the game id, if any.
func idleOf(a *functest.SweepAnswer, id string) (functions.TableIdle, bool) {
	for _, it := range a.Tables.Idle {
		if it.GameID == id {
			return it, true
		}
	}
	return functions.TableIdle{}, false
}

// On the Firestore store, the sweep finds idle tables by the indexed
// tableActedAt of their public document (with phase; no call on the
// table): set to the clock at the create and at each action, so that a
// lobby table left a day is closed and a table in play left a week is
// ended (a move in between restarting its clock: the control, not ended
// a week after its start), as abandoned with reason idle; tableActedAt
// is gone from a finished table, so the next sweep leaves it. The sweep
// settles every idle table of the shared database, so this test looks
// at its own tables only.
func TestSweepEndsIdleTablesOnFirestore(t *testing.T) {
	var now atomic.Int64
	t0 := fixedNow.UnixMilli()
	now.Store(t0)
	c := newTrustEnvWith(t, &now, func(api *functions.API) { api.WithSweep(scheduler) })
	fc := emu.Client(t)
	ctx := context.Background()
	ps := trustPlayers(t, "swi", 2)
	lob, play := runID("fs-idle-lobby"), runID("fs-idle-play")
	acted := func(id string) (int64, bool) {
		t.Helper()
		doc, err := fc.Doc("games/" + id).Get(ctx)
		require.NoError(t, err)
		at, ok := doc.Data()["tableActedAt"]
		if !ok {
			return 0, false
		}
		return at.(int64), true
	}
	var r functions.TableResult
	require.NoError(t, c.Call(ctx, "createGame", ps[0].Token, map[string]any{"game": "pig", "gameId": lob, "actionId": "create", "mode": "crypto"}, &r))
	require.NoError(t, c.Call(ctx, "createGame", ps[0].Token, map[string]any{"game": "pig", "gameId": play, "actionId": "create", "mode": "crypto"}, &r))
	for i, p := range ps {
		now.Add(1000)
		require.NoError(t, c.Call(ctx, "joinGame", p.Token, map[string]any{"game": "pig", "gameId": play, "actionId": "join", "version": r.Version, "seat": i}, &r))
	}
	now.Add(1000)
	start := now.Load()
	require.NoError(t, c.Call(ctx, "startGame", ps[0].Token, map[string]any{"game": "pig", "gameId": play, "actionId": "start", "version": r.Version}, &r))
	at, ok := acted(lob)
	require.True(t, ok)
	require.Equal(t, t0, at, "a lobby's tableActedAt is its create's time")
	at, _ = acted(play)
	require.Equal(t, start, at, "tableActedAt is the last action's time")

	now.Store(t0 + idleDayMs)
	out, err := c.Sweep(ctx, "scheduler")
	require.NoError(t, err)
	it, ok := idleOf(out, lob)
	require.True(t, ok, "the lobby a day idle is closed")
	require.Equal(t, functions.TableIdle{GameID: lob, Phase: table.PhaseLobby, Version: 1}, it)
	_, ok = idleOf(out, play)
	require.False(t, ok, "a table in play is not idle after a day")
	_, ok = acted(lob)
	require.False(t, ok, "tableActedAt left on a closed lobby")
	lv, err := functest.TableView(ctx, c, lob, ps[0].Token)
	require.NoError(t, err)
	require.Equal(t, &functions.TableOutcome{Abandoned: true, Winners: []int{}, Reason: table.ReasonIdle}, lv.Outcome)

	now.Store(t0 + 2*idleDayMs)
	moved := now.Load()
	require.NoError(t, c.Call(ctx, "act", ps[0].Token, map[string]any{"game": "pig", "gameId": play, "actionId": "m1",
		"version": r.Version, "move": map[string]any{"kind": "roll"}}, &r))
	at, _ = acted(play)
	require.Equal(t, moved, at, "a move restarts the clock")

	now.Store(start + idleWeekMs)
	out, err = c.Sweep(ctx, "scheduler")
	require.NoError(t, err)
	_, ok = idleOf(out, play)
	require.False(t, ok, "a week after the start but not after the move: not idle")
	now.Store(moved + idleWeekMs)
	out, err = c.Sweep(ctx, "scheduler")
	require.NoError(t, err)
	it, ok = idleOf(out, play)
	require.True(t, ok, "a week after the last move: ended")
	require.Equal(t, functions.TableIdle{GameID: play, Phase: table.PhasePlaying, Version: r.Version}, it)
	_, ok = acted(play)
	require.False(t, ok, "tableActedAt left on a finished table")
	v, err := functest.TableView(ctx, c, play, ps[1].Token)
	require.NoError(t, err)
	require.Equal(t, table.ReasonIdle, v.Outcome.Reason)
	require.Equal(t, []float64{0, 0}, v.Outcome.Payoffs)
	var raw json.RawMessage
	require.NoError(t, c.Call(ctx, "exportGame", ps[1].Token, map[string]any{"gameId": play}, &raw))
	rec, err := match.ReadRecord(raw)
	require.NoError(t, err)
	div, err := match.CheckRecord(pig.Def, rec)
	require.NoError(t, err)
	require.NoError(t, div)

	out, err = c.Sweep(ctx, "scheduler")
	require.NoError(t, err)
	_, ok = idleOf(out, play)
	require.False(t, ok, "a finished table is idle no more")
}
