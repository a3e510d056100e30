package functions_test

import (
	"context"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/functest"
	"github.com/fairboard/fairboard/functions"
	"github.com/fairboard/fairboard/games/registry"
	"github.com/fairboard/fairboard/rng"
	"github.com/fairboard/fairboard/table"
	"github.com/fairboard/fairboard/tablestore"
)

// oldTable creates the Pig table id on mem the old way (every action
// with At 0: no time of its last action), seated by ps and started if
// start, or abandoned by its owner if end.
func oldTable(t *testing.T, mem *tablestore.Memory, id string, ps []functest.Player, start, end bool) {
	t.Helper()
	ctx := context.Background()
	_, err := mem.Create(ctx, id, "pig", table.CreateRequest{Actor: ps[0].UID, ActionID: "create", Mode: rng.ModeCrypto, Seats: 2})
	require.NoError(t, err)
	if end {
		_, err = mem.Do(ctx, id, table.Action{Actor: ps[0].UID, ActionID: "end", Version: 1, Kind: table.KindAbandon})
		require.NoError(t, err)
	}
	if !start {
		return
	}
	for i, p := range ps[:2] {
		_, err = mem.Do(ctx, id, table.Action{Actor: p.UID, ActionID: "join", Version: uint64(1 + i), Kind: table.KindJoin, Seat: i})
		require.NoError(t, err)
	}
	_, err = mem.Do(ctx, id, table.Action{Actor: ps[0].UID, ActionID: "start", Version: 3, Kind: table.KindStart})
	require.NoError(t, err)
}

// Tables written before the idle clock existed are stamped by the
// sweeps, at most ActedBackfillBatch (100) a sweep, and then ended at
// their limits from their stamp (the memory's: the sweep's time). In id
// order: new-lobby (created over HTTP at t0), old-done (finished),
// old-lobby, old-pad-000..099 (lobbies), old-play (in play). The first
// sweep, at t1, looks at the first 100 and stamps 98 (old-lobby and 97
// pads); old-play moves at t2, before the backfill reaches it, and
// keeps its move's time; the second sweep, at t3, stamps the last 3
// pads and is done; a third stamps nothing (no backfilled in the
// answer). Then: new-lobby ends a day after t0, old-lobby and its 97
// pads a day after t1 (not a ms before), the last pads a day after t3,
// old-play a week after its move; old-done is never touched.
func TestSweepBackfillsOldTables(t *testing.T) {
	var now atomic.Int64
	t0 := int64(1_760_000_000_000)
	now.Store(t0)
	mem := tablestore.NewMemory(registry.Lookup)
	c := newIdleServer(t, &now, func(api *functions.API) { api.WithTables(mem) })
	ctx := context.Background()
	ps := devPlayers("bf", 2)
	twoSeatTable(t, c, "new-lobby", "crypto", ps, false)
	oldTable(t, mem, "old-done", ps, false, true)
	oldTable(t, mem, "old-lobby", ps, false, false)
	for i := range 100 {
		oldTable(t, mem, fmt.Sprintf("old-pad-%03d", i), ps, false, false)
	}
	oldTable(t, mem, "old-play", ps, true, false)

	sweep := func(at int64) *functions.TableSweepResult {
		t.Helper()
		now.Store(at)
		out, err := c.Sweep(ctx, "scheduler")
		require.NoError(t, err)
		require.Empty(t, out.Tables.Failed)
		return out.Tables
	}
	ids := func(idle []functions.TableIdle) []string {
		var out []string
		for _, it := range idle {
			out = append(out, it.GameID)
		}
		return out
	}
	pads := func(from, to int) []string {
		var out []string
		for i := from; i < to; i++ {
			out = append(out, fmt.Sprintf("old-pad-%03d", i))
		}
		return out
	}
	t1, t2, t3 := t0+1000, t0+2000, t0+3000
	require.Equal(t, &functions.TableSweepResult{Aborted: []functions.TableAbort{}, Backfilled: 98}, sweep(t1))

	now.Store(t2)
	mv, err := functest.TableView(ctx, c, "old-play", ps[0].Token)
	require.NoError(t, err)
	var r functions.TableResult
	require.NoError(t, c.Call(ctx, "act", ps[mv.ToMove].Token, map[string]any{"game": "pig", "gameId": "old-play", "actionId": "m1",
		"version": mv.Version, "move": map[string]any{"kind": "roll"}}, &r))
	require.Equal(t, uint64(5), r.Version)

	require.Equal(t, 3, sweep(t3).Backfilled, "the last 3 pads; old-play has its move's time")
	require.Zero(t, sweep(t3).Backfilled, "done")

	require.Empty(t, sweep(t0+dayMs-1).Idle)
	require.Equal(t, []string{"new-lobby"}, ids(sweep(t0+dayMs).Idle))
	require.Empty(t, sweep(t1+dayMs-1).Idle)
	require.Equal(t, append([]string{"old-lobby"}, pads(0, 97)...), ids(sweep(t1+dayMs).Idle))
	require.Empty(t, sweep(t3+dayMs-1).Idle)
	require.Equal(t, pads(97, 100), ids(sweep(t3+dayMs).Idle))
	require.Empty(t, sweep(t2+weekMs-1).Idle, "old-play keeps its move's time")
	require.Equal(t, []functions.TableIdle{{GameID: "old-play", Phase: table.PhasePlaying, Version: 5}}, sweep(t2+weekMs).Idle)
	require.Empty(t, sweep(t2+100*weekMs).Idle)

	v, _, err := mem.View(ctx, "old-done", "")
	require.NoError(t, err)
	require.Equal(t, uint64(2), v.Version, "the finished table is untouched")
	require.Empty(t, v.Outcome.Reason)
	v, _, err = mem.View(ctx, "old-lobby", "")
	require.NoError(t, err)
	require.Equal(t, table.ReasonIdle, v.Outcome.Reason)
}

// With both idle limits off the sweep reads nothing to backfill (the
// control: the store's own step then finds the old table unstamped and
// stamps it).
func TestSweepBackfillsNothingWithTheLimitsOff(t *testing.T) {
	var now atomic.Int64
	now.Store(1_760_000_000_000)
	mem := tablestore.NewMemory(registry.Lookup)
	c := newIdleServer(t, &now, func(api *functions.API) { api.WithTables(mem).WithTableIdle(-1, -1) })
	oldTable(t, mem, "old-off", devPlayers("bo", 2), false, false)
	out, err := c.Sweep(context.Background(), "scheduler")
	require.NoError(t, err)
	require.Zero(t, out.Tables.Backfilled)
	got, err := mem.BackfillActed(context.Background(), 1, 10)
	require.NoError(t, err)
	require.Equal(t, table.ActedBackfill{Scanned: 1, Stamped: 1, Done: true}, got)
}

// failingBackfill is the memory store whose backfill fails as an
// unavailable database does.
type failingBackfill struct{ *tablestore.Memory }

func (failingBackfill) BackfillActed(context.Context, int64, int) (table.ActedBackfill, error) {
	return table.ActedBackfill{}, tablestore.ErrUnavailable
}

// A backfill that fails makes the sweep answer 503 UNAVAILABLE (the
// next sweep goes on), as the idle query's failure does, but only once the
// idle tables it can find are ended: a table idle past its limit is ended
// all the same, so a stamping that keeps failing never stops the idle
// sweep. The control: the same server on the working store answers 200
// and ends it too.
func TestSweepBackfillFailureIsUnavailable(t *testing.T) {
	var now atomic.Int64
	t0 := int64(1_760_000_000_000)
	for _, fail := range []bool{true, false} {
		now.Store(t0)
		mem := tablestore.NewMemory(registry.Lookup)
		var ts tablestore.Store = mem
		if fail {
			ts = failingBackfill{mem}
		}
		c := newIdleServer(t, &now, func(api *functions.API) { api.WithTables(ts).WithTableIdle(time.Hour, time.Hour) })
		ps := devPlayers("bff", 2)
		twoSeatTable(t, c, "idle-lobby", "crypto", ps, false)
		now.Store(t0 + time.Hour.Milliseconds())
		_, err := c.Sweep(context.Background(), "scheduler")
		if fail {
			require.Error(t, err)
			require.True(t, strings.Contains(err.Error(), "503") && strings.Contains(err.Error(), "UNAVAILABLE"), err.Error())
		} else {
			require.NoError(t, err)
		}
		v, _, err := mem.View(context.Background(), "idle-lobby", "")
		require.NoError(t, err)
		require.Equal(t, table.ReasonIdle, v.Outcome.Reason, "fail=%v: the idle table is ended", fail)
	}
}
