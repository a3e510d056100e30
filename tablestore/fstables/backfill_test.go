package fstables_test

import (
	"context"
	"fmt"
	"net/http"
	"testing"

	"cloud.google.com/go/firestore"
	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/games/pig"
	"github.com/fairboard/fairboard/games/registry"
	"github.com/fairboard/fairboard/rng"
	"github.com/fairboard/fairboard/table"
	"github.com/fairboard/fairboard/tablestore/fstables"
	"github.com/fairboard/fairboard/tablestore/storetest"
)

// updatedMs is the update time of the document at path, read by the
// test's own client (unix ms): the time the backfill stamps.
func updatedMs(t *testing.T, c *firestore.Client, path string) int64 {
	t.Helper()
	snap, err := c.Doc(path).Get(context.Background())
	require.NoError(t, err)
	return snap.UpdateTime.UnixMilli()
}

// The backfill on the emulator (storetest.CheckBackfill): a table
// written the old way (no tableActedAt: what every create and action
// wrote before the field, and what one with At 0 writes still) is
// stamped with its public document's update time, the commit time of
// its last action.
func TestFirestoreBackfill(t *testing.T) {
	s := newStore(t)
	c := emu.Client(t)
	storetest.CheckBackfill(t, s, pig.Def, "fb", func(id string, _ int64) int64 { return updatedMs(t, c, "games/"+id) })
	snap, err := c.Doc("sweep/tableActedAt").Get(context.Background())
	require.NoError(t, err)
	require.Equal(t, map[string]any{"after": "fb-e", "done": true, "stamped": int64(2), "at": int64(5000)}, snap.Data())
}

// The backfill leaves every other games document as it was (neither
// written nor stamped: the same data and update time): legacy dungeon
// games (no game field, whatever else they hold: a phase, a version, a
// dueAt), finished tables and tables with a time. It reads the cursor
// and at most its limit of documents a step, and once done the cursor
// alone (counted reads); the control of the count: a fresh cursor reads
// them all again.
func TestFirestoreBackfillLeavesOthersAndStops(t *testing.T) {
	emu.Require(t)
	emu.Reset(t)
	ctx := context.Background()
	reads := &readCounter{}
	s := fstables.New(emu.Client(t, reads.dial()), registry.Lookup)
	c := emu.Client(t)
	legacy := map[string]map[string]any{
		"a-dungeon": {"ownerUid": "x", "version": int64(3), "phase": "playing", "dueAt": int64(1)},
		"m-dungeon": {"ownerUid": "y", "playerUids": []any{"y"}, "phase": "lobby"},
		"z-dungeon": {"ownerUid": "z", "game": "", "phase": "playing"},
	}
	for id, d := range legacy {
		_, err := c.Doc("games/"+id).Set(ctx, d)
		require.NoError(t, err)
	}
	for i := range 4 { // old tables: b-0 in the lobby, b-1 finished, b-2 in play, b-3 with a time
		id := fmt.Sprintf("b-%d", i)
		at := int64(0)
		if i == 3 {
			at = 1000
		}
		_, err := s.Create(ctx, id, "pig", table.CreateRequest{Actor: "u0", ActionID: "c", Mode: rng.ModeCrypto, Seats: 2, At: at})
		require.NoError(t, err)
	}
	_, err := s.Do(ctx, "b-1", table.Action{Actor: "u0", ActionID: "end", Version: 1, Kind: table.KindAbandon})
	require.NoError(t, err)
	_, err = s.Do(ctx, "b-2", table.Action{Actor: "u0", ActionID: "j", Version: 1, Kind: table.KindJoin, Seat: 0})
	require.NoError(t, err)
	_, err = s.Do(ctx, "b-2", table.Action{Actor: "u1", ActionID: "j", Version: 2, Kind: table.KindJoin, Seat: 1})
	require.NoError(t, err)
	_, err = s.Do(ctx, "b-2", table.Action{Actor: "u0", ActionID: "s", Version: 3, Kind: table.KindStart})
	require.NoError(t, err)
	before := map[string]*firestore.DocumentSnapshot{}
	for _, id := range []string{"a-dungeon", "m-dungeon", "z-dungeon", "b-1", "b-3"} {
		before[id], err = c.Doc("games/" + id).Get(ctx)
		require.NoError(t, err)
	}
	want := map[string]int64{"b-0": updatedMs(t, c, "games/b-0"), "b-2": updatedMs(t, c, "games/b-2")}

	// 7 documents, steps of 3: a-dungeon b-0 b-1 | b-2 b-3 m-dungeon | z-dungeon (done).
	step := func(wantOut table.ActedBackfill, wantReads int) {
		t.Helper()
		n := reads.n.Load()
		got, err := s.BackfillActed(ctx, 9000, 3)
		require.NoError(t, err)
		require.Equal(t, wantOut, got)
		require.Equal(t, wantReads, int(reads.n.Load()-n), "documents read by the step")
	}
	step(table.ActedBackfill{Scanned: 3, Stamped: 1}, 3) // no cursor yet: the query's 3
	step(table.ActedBackfill{Scanned: 3, Stamped: 1}, 4)
	step(table.ActedBackfill{Scanned: 1, Done: true}, 2)
	for range 3 {
		step(table.ActedBackfill{Done: true}, 1)
	}
	for id, at := range want {
		snap, err := c.Doc("games/" + id).Get(ctx)
		require.NoError(t, err)
		require.Equal(t, at, snap.Data()["tableActedAt"], id)
	}
	for id, b := range before {
		snap, err := c.Doc("games/" + id).Get(ctx)
		require.NoError(t, err)
		require.Equal(t, b.Data(), snap.Data(), id)
		require.Equal(t, b.UpdateTime, snap.UpdateTime, "%s was written", id)
	}
	_, ok := before["b-1"].Data()["tableActedAt"]
	require.False(t, ok, "the finished table has no tableActedAt")

	// The control of the count: with the cursor gone, a step reads its
	// limit again (and stamps nothing: every table has its time).
	_, err = c.Doc("sweep/tableActedAt").Delete(ctx)
	require.NoError(t, err)
	step(table.ActedBackfill{Scanned: 3}, 3)
}

// An action committed between a step's read of an old table and its
// stamp keeps its own time: the stamp's precondition (the document not
// written since the read) fails, and the step stamps nothing. Control:
// without the precondition the stamp overwrites the action's time with
// the older update time, and the table would be ended early.
func TestFirestoreBackfillKeepsARacingAction(t *testing.T) {
	for _, blind := range []bool{false, true} {
		t.Run(fmt.Sprintf("blind=%v", blind), func(t *testing.T) {
			s := newStore(t)
			c := emu.Client(t)
			ctx := context.Background()
			_, err := s.Create(ctx, "race", "pig", table.CreateRequest{Actor: "u0", ActionID: "c", Mode: rng.ModeCrypto, Seats: 2})
			require.NoError(t, err)
			old := updatedMs(t, c, "games/race")
			const joinAt = 1_800_000_000_000
			raced := 0
			s.OnBackfillRead(func(id string) {
				raced++
				_, err := s.Do(ctx, id, table.Action{Actor: "u1", ActionID: "j", Version: 1, Kind: table.KindJoin, Seat: 1, At: joinAt})
				require.NoError(t, err)
			})
			if blind {
				s.BackfillBlind()
			}
			got, err := s.BackfillActed(ctx, 5000, 10)
			require.NoError(t, err)
			require.Equal(t, 1, raced)
			snap, err := c.Doc("games/race").Get(ctx)
			require.NoError(t, err)
			if !blind {
				require.Equal(t, table.ActedBackfill{Scanned: 1, Done: true}, got)
				require.Equal(t, int64(joinAt), snap.Data()["tableActedAt"], "the join's time kept")
				return
			}
			require.Equal(t, table.ActedBackfill{Scanned: 1, Stamped: 1, Done: true}, got)
			require.Equal(t, old, snap.Data()["tableActedAt"], "control: the blind stamp overwrote the join's time")
			require.Equal(t, int64(2), snap.Data()["version"], "the join itself stands")
		})
	}
}

// No client reads the backfill's cursor: under firestore.rules neither a
// seated player nor another signed-in user gets sweep/tableActedAt, nor
// writes it. Positive control: under rules opened at sweep/ the same
// read succeeds (a copy under the real rules refuses it).
func TestFirestoreBackfillCursorReadByNoClient(t *testing.T) {
	s := newStore(t)
	ctx := context.Background()
	uid, tok, err := emu.Auth().SignInAnonymously(ctx)
	require.NoError(t, err)
	_, otherTok, err := emu.Auth().SignInAnonymously(ctx)
	require.NoError(t, err)
	_, err = s.Create(ctx, "cur", "pig", table.CreateRequest{Actor: uid, ActionID: "c", Mode: rng.ModeCrypto})
	require.NoError(t, err)
	_, err = s.Do(ctx, "cur", table.Action{Actor: uid, ActionID: "j", Version: 1, Kind: table.KindJoin, Seat: 0})
	require.NoError(t, err)
	_, err = s.BackfillActed(ctx, 5000, 10)
	require.NoError(t, err)
	const path = "/sweep/tableActedAt"
	fs := emu.Firestore()
	for _, tk := range []string{tok, otherTok, ""} {
		code, body, err := fs.REST(ctx, http.MethodGet, path, tk, nil)
		require.NoError(t, err)
		require.Equal(t, http.StatusForbidden, code, string(body))
		code, body, err = fs.REST(ctx, http.MethodPatch, path, tk, map[string]any{"fields": map[string]any{"done": map[string]any{"booleanValue": false}}})
		require.NoError(t, err)
		require.Equal(t, http.StatusForbidden, code, string(body))
	}
	code, _, err := fs.REST(ctx, http.MethodGet, "/games/cur", tok, nil)
	require.NoError(t, err)
	require.Equal(t, http.StatusOK, code, "control: the seated player reads the table")
	real := emu.Weakened(t, nil, "sweep/tableActedAt")
	code, _, err = real.REST(ctx, http.MethodGet, path, tok, nil)
	require.NoError(t, err)
	require.Equal(t, http.StatusForbidden, code, "the copy under the real rules")
	weak := emu.Weakened(t, []string{"/sweep/{doc}"}, "sweep/tableActedAt")
	code, body, err := weak.REST(ctx, http.MethodGet, path, tok, nil)
	require.NoError(t, err)
	require.Equal(t, http.StatusOK, code, "positive control: under rules opened at sweep/: %s", body)
	require.Contains(t, string(body), "done")
}

// Two steps at once (two sweeps): a second step run whole between the
// first's read of an old table and its stamp stamps the table and
// writes the cursor; the first's stamp then fails its precondition (the
// table is stamped once, at its update time before either) and its
// cursor write loses to the second's, which stays.
func TestFirestoreBackfillTwoStepsAtOnce(t *testing.T) {
	s := newStore(t)
	c := emu.Client(t)
	ctx := context.Background()
	other := fstables.New(c, registry.Lookup)
	_, err := s.Create(ctx, "twice", "pig", table.CreateRequest{Actor: "u0", ActionID: "c", Mode: rng.ModeCrypto, Seats: 2})
	require.NoError(t, err)
	old := updatedMs(t, c, "games/twice")
	var second table.ActedBackfill
	s.OnBackfillRead(func(string) {
		var err error
		second, err = other.BackfillActed(ctx, 7000, 10)
		require.NoError(t, err)
	})
	first, err := s.BackfillActed(ctx, 5000, 10)
	require.NoError(t, err)
	require.Equal(t, table.ActedBackfill{Scanned: 1, Stamped: 1, Done: true}, second)
	require.Equal(t, table.ActedBackfill{Scanned: 1, Done: true}, first)
	snap, err := c.Doc("games/twice").Get(ctx)
	require.NoError(t, err)
	require.Equal(t, old, snap.Data()["tableActedAt"])
	cur, err := c.Doc("sweep/tableActedAt").Get(ctx)
	require.NoError(t, err)
	require.Equal(t, map[string]any{"after": "twice", "done": true, "stamped": int64(1), "at": int64(7000)}, cur.Data())
}
