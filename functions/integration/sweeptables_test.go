package integration

import (
	"context"
	"slices"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/functest"
	"github.com/fairboard/fairboard/functions"
	"github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/games/registry"
	"github.com/fairboard/fairboard/match"
	"github.com/fairboard/fairboard/table"
)

// sweepTables returns the game ids a sweep's answer aborted as tables.
func sweptTables(a *functest.SweepAnswer) []string {
	var ids []string
	for _, ab := range a.Tables.Aborted {
		ids = append(ids, ab.GameID)
	}
	return ids
}

// On the Firestore store, the sweep finds a stalled trustless table by
// its indexed tableDueAt (no call on the table) and aborts it naming the
// seat that withheld its reveal; a table whose deadline has not passed
// stays (and is aborted by the sweep once it has: the control); a table
// swept is due no more (its tableDueAt gone), so the next sweep leaves
// it. The sweep settles every due table of the shared database, so this
// test looks at its own tables only.
func TestSweepAbortsStalledTablesOnFirestore(t *testing.T) {
	var now atomic.Int64
	now.Store(fixedNow.UnixMilli())
	c := newTrustEnvWith(t, &now, func(api *functions.API) { api.WithSweep(scheduler) })
	fc := emu.Client(t)
	ctx := context.Background()
	pigDef, err := registry.Lookup("pig")
	require.NoError(t, err)
	ps := trustPlayers(t, "sws", 2)
	stall, later := runID("fs-sweep-stall"), runID("fs-sweep-later")
	tt, err := functest.NewTrustTable(ctx, c, pigDef, stall, ps, map[string]any{"deadlineMs": 2000}, true)
	require.NoError(t, err)
	p, err := tt.Stall(game.Move{Kind: "roll"}, 1)
	require.NoError(t, err)
	tl, err := functest.NewTrustTable(ctx, c, pigDef, later, ps, map[string]any{"deadlineMs": 600000}, true)
	require.NoError(t, err)
	pl, err := tl.Stall(game.Move{Kind: "roll"}, 1)
	require.NoError(t, err)
	doc, err := fc.Doc("games/" + stall).Get(ctx)
	require.NoError(t, err)
	require.Equal(t, p.Deadline, doc.Data()["tableDueAt"])

	now.Store(p.Deadline + 1)
	out, err := c.Sweep(ctx, "scheduler")
	require.NoError(t, err)
	require.Contains(t, sweptTables(out), stall)
	require.NotContains(t, sweptTables(out), later, "a table before its deadline is not swept")
	for _, ab := range out.Tables.Aborted {
		if ab.GameID == stall {
			require.Equal(t, functions.TableAbort{GameID: stall, Index: int64(p.Index), Missing: []string{ps[1].UID}}, ab)
		}
	}
	end, err := tt.View(ps[0].UID)
	require.NoError(t, err)
	require.Equal(t, match.AbortDeadline, end.Outcome.Reason)
	require.Equal(t, []int{1}, end.Outcome.Missing)
	doc, err = fc.Doc("games/" + stall).Get(ctx)
	require.NoError(t, err)
	_, due := doc.Data()["tableDueAt"]
	require.False(t, due, "tableDueAt left on a finished table")

	now.Store(pl.Deadline + 1)
	out, err = c.Sweep(ctx, "scheduler")
	require.NoError(t, err)
	require.NotContains(t, sweptTables(out), stall, "a swept table is due no more")
	require.Contains(t, sweptTables(out), later)
	v1, err := tl.View(ps[1].UID)
	require.NoError(t, err)
	require.Equal(t, table.PhaseFinished, v1.Phase)
	require.True(t, slices.Equal([]int{1}, v1.Outcome.Missing))
}
