package integration

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/deploy"
	"github.com/fairboard/fairboard/functest"
	"github.com/fairboard/fairboard/functions"
	"github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/games/dungeon/server/dungeonfn"
	"github.com/fairboard/fairboard/games/dungeon/server/service"
	"github.com/fairboard/fairboard/games/dungeon/server/store/fsstore"
	"github.com/fairboard/fairboard/games/registry"
	"github.com/fairboard/fairboard/match"
	"github.com/fairboard/fairboard/table"
	"github.com/fairboard/fairboard/tablestore/fstables"
)

// newTrustEnv is newTableEnv with the table path's clock at *now (unix
// ms), which the test moves.
func newTrustEnv(t *testing.T, now *atomic.Int64) *functest.Client {
	t.Helper()
	return newTrustEnvWith(t, now, func(*functions.API) {})
}

// newTrustEnvWith is newTrustEnv with more set up on its API.
func newTrustEnvWith(t *testing.T, now *atomic.Int64, more func(*functions.API)) *functest.Client {
	t.Helper()
	emu.Require(t)
	fc := emu.Client(t)
	v, err := deploy.AdminVerifier(context.Background(), emu.ProjectID())
	require.NoError(t, err)
	svc := service.New(service.Config{Store: fsstore.New(fc), Engine: eng, Logger: quiet(), Now: func() time.Time { return fixedNow }})
	api := functions.New(dungeonfn.New(svc), v, quiet()).WithTables(fstables.New(fc, registry.Lookup)).
		WithClock(func() time.Time { return time.UnixMilli(now.Load()) })
	more(api)
	srv := httptest.NewServer(api.Mux())
	t.Cleanup(srv.Close)
	return &functest.Client{Base: srv.URL}
}

func trustPlayers(t *testing.T, prefix string, n int) []functest.Player {
	ps := make([]functest.Player, n)
	for i := range ps {
		uid := prefix + string(rune('a'+i))
		ps[i] = functest.Player{UID: uid, Token: token(t, uid)}
	}
	return ps
}

// Whole trustless Pig games of 2 and 4 players through the functions on
// the Firestore and Auth emulators (the table, its pending round and its
// staged reveals in the table's private document between calls): each
// exported record verifies and is what an independent replay of its
// revealed links makes.
func TestTrustlessPigOnFirestore(t *testing.T) {
	var now atomic.Int64
	now.Store(fixedNow.UnixMilli())
	c := newTrustEnv(t, &now)
	pigDef, err := registry.Lookup("pig")
	require.NoError(t, err)
	for _, n := range []int{2, 4} {
		// A goal of 40 keeps the emulator's time down: every call is a
		// transaction on the table's document.
		rec, err := functest.PlayTrustless(context.Background(), c, pigDef, runID("fs-tl"), trustPlayers(t, "tlp", n),
			map[string]any{"rules": json.RawMessage(`{"goal":40,"dieSides":6}`)})
		require.NoError(t, err)
		t.Logf("%d players: %d moves", n, len(rec.Moves))
	}
}

// A staller on Firestore: seat 1 reveals nothing; the abort asked before
// the deadline is refused, after it the game ends naming seat 1, and the
// exported record verifies with seat 1 missing.
func TestTrustlessStallerOnFirestore(t *testing.T) {
	var now atomic.Int64
	now.Store(fixedNow.UnixMilli())
	c := newTrustEnv(t, &now)
	ctx := context.Background()
	pigDef, err := registry.Lookup("pig")
	require.NoError(t, err)
	ps := trustPlayers(t, "tls", 2)
	g := runID("fs-tl-stall")
	tt, err := functest.NewTrustTable(ctx, c, pigDef, g, ps, map[string]any{"deadlineMs": 1000}, true)
	require.NoError(t, err)
	v0, err := tt.View(ps[0].UID)
	require.NoError(t, err)
	roll, err := tt.Seats[0].Move("roll", v0, game.Move{Kind: "roll"})
	require.NoError(t, err)
	_, err = tt.Do(roll)
	require.NoError(t, err)
	v1, err := tt.View(ps[1].UID)
	require.NoError(t, err)
	p := v1.Trustless.Pending
	require.NotNil(t, p)
	_, err = tt.Do(table.Action{Actor: ps[0].UID, ActionID: "ab", Kind: table.KindAbort})
	require.Equal(t, "deadline_not_passed", err.(*functest.Error).Details["code"], "%v", err)
	now.Store(p.Deadline + 1)
	_, err = tt.Do(table.Action{Actor: ps[0].UID, ActionID: "ab2", Kind: table.KindAbort})
	require.NoError(t, err)
	end, err := tt.View(ps[0].UID)
	require.NoError(t, err)
	require.Equal(t, match.AbortDeadline, end.Outcome.Reason)
	require.Equal(t, []int{1}, end.Outcome.Missing)
	// The round's reveal, once the game is over, is refused.
	rev, err := tt.Seats[1].Reveal("late", v1)
	require.NoError(t, err)
	_, err = tt.Do(rev)
	require.Equal(t, "game_over", err.(*functest.Error).Details["code"], "%v", err)
	var raw json.RawMessage
	require.NoError(t, c.Call(ctx, "exportGame", ps[1].Token, map[string]any{"gameId": g}, &raw))
	rec, err := match.ReadRecord(raw)
	require.NoError(t, err)
	div, err := match.CheckRecord(pigDef, rec)
	require.NoError(t, err)
	require.NoError(t, div)
	require.Equal(t, []int{1}, rec.Trustless.Abort.Missing)
}
