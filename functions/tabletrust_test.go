package functions_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/functest"
	"github.com/fairboard/fairboard/functions"
	"github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/games/dungeon/server/dungeonfn"
	"github.com/fairboard/fairboard/games/dungeon/server/service"
	"github.com/fairboard/fairboard/games/dungeon/server/store"
	"github.com/fairboard/fairboard/games/pig"
	"github.com/fairboard/fairboard/games/registry"
	"github.com/fairboard/fairboard/match"
	"github.com/fairboard/fairboard/table"
	"github.com/fairboard/fairboard/table/trustseat"
	"github.com/fairboard/fairboard/tablestore"
)

// newTrustServer is newTableServer with the table path's clock at
// *now (unix ms), which the test moves.
func newTrustServer(t *testing.T, now *atomic.Int64) *functest.Client {
	t.Helper()
	return newTrustServerWith(t, now, func(*functions.API) {})
}

// newTrustServerWith is newTrustServer with more set up on its API.
func newTrustServerWith(t *testing.T, now *atomic.Int64, more func(*functions.API)) *functest.Client {
	t.Helper()
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	svc := service.New(service.Config{Store: store.NewMemory(), Engine: eng, Logger: quiet})
	api := functions.New(dungeonfn.New(svc), functions.InsecureDevVerifier{}, quiet).WithTables(tablestore.NewMemory(registry.Lookup)).
		WithClock(func() time.Time { return time.UnixMilli(now.Load()) })
	more(api)
	srv := httptest.NewServer(api.Mux())
	t.Cleanup(srv.Close)
	return &functest.Client{Base: srv.URL}
}

func devPlayers(prefix string, n int) []functest.Player {
	ps := make([]functest.Player, n)
	for i := range ps {
		uid := fmt.Sprintf("%s%d", prefix, i)
		ps[i] = functest.Player{UID: uid, Token: "dev:" + uid}
	}
	return ps
}

// Whole trustless Pig games of 2 and 4 players through the functions
// (createGame, joinGame with chains and keys, act with signatures and
// the actor's own reveal, reveal routed to the table), in memory: the
// exported record verifies and is the game an independent replay of its
// revealed links makes.
func TestTrustlessPigOverHTTP(t *testing.T) {
	var now atomic.Int64
	now.Store(1_760_000_000_000)
	c := newTrustServer(t, &now)
	PlayTrustlessPig(t, c, "tlh", devPlayers("tlh", 2), devPlayers("tlq", 4))
}

// PlayTrustlessPig plays one trustless Pig game per set of players
// through c and checks each (functest.PlayTrustless).
func PlayTrustlessPig(t *testing.T, c *functest.Client, prefix string, sets ...[]functest.Player) {
	for _, ps := range sets {
		g := fmt.Sprintf("%s-%d", prefix, len(ps))
		rec, err := functest.PlayTrustless(context.Background(), c, pig.Def, g, ps, nil)
		require.NoError(t, err)
		rounds := 0
		for _, m := range rec.Trustless.Moves {
			if m.Index > 0 {
				rounds++
			}
		}
		require.Greater(t, rounds, 0)
		t.Logf("%s: %d players, %d moves, %d rounds", g, len(ps), len(rec.Moves), rounds)
	}
}

// Refusals through the functions, each by its code (the table's own
// tests cover every one): a deadline out of range at create, a move
// signed by another key, a reveal for another seat, a reveal of a link
// that is not the seat's; then a staller: the abort before the deadline
// is refused, after it the game ends naming the seat that did not reveal,
// and the record verifies and says so.
func TestTrustlessTableRefusalsAndStallerOverHTTP(t *testing.T) {
	var now atomic.Int64
	now.Store(1_760_000_000_000)
	c := newTrustServer(t, &now)
	ctx := context.Background()
	ps := devPlayers("tls", 3)

	err := c.Call(ctx, "createGame", ps[0].Token, map[string]any{"game": "pig", "gameId": "tl-dl", "actionId": "c", "mode": "trustless", "deadlineMs": 10}, nil)
	require.Equal(t, "INVALID_ARGUMENT", functest.Status(err), "%v", err)
	require.ErrorContains(t, err, "deadlineMs 10")

	tt, err := functest.NewTrustTable(ctx, c, pig.Def, "tl-st", ps, map[string]any{"deadlineMs": 5000}, true)
	require.NoError(t, err)
	v0, err := tt.View(ps[0].UID)
	require.NoError(t, err)
	impostor, err := trustseat.New(pig.Def, "tl-st", ps[0].UID, 0, v0.Trustless.ChainLength)
	require.NoError(t, err)
	forged, err := impostor.Move("f", v0, pigRoll)
	require.NoError(t, err)
	_, err = tt.Do(forged)
	require.Equal(t, "PERMISSION_DENIED", functest.Status(err), "%v", err)
	require.Equal(t, "bad_signature", err.(*functest.Error).Details["code"])

	roll, err := tt.Seats[0].Move("roll", v0, pigRoll)
	require.NoError(t, err)
	_, err = tt.Do(roll)
	require.NoError(t, err)
	v1, err := tt.View(ps[1].UID)
	require.NoError(t, err)
	p := v1.Trustless.Pending
	require.NotNil(t, p)
	require.Equal(t, now.Load()+5000, p.Deadline)
	rev, err := tt.Seats[1].Reveal("rev", v1)
	require.NoError(t, err)
	for _, bad := range []struct {
		edit func(a *table.Action)
		code string
	}{
		{func(a *table.Action) { r := *a.Reveal; r.Seat = 2; a.Reveal = &r }, "wrong_seat"},
		{func(a *table.Action) { r := *a.Reveal; r.Link = roll.Reveal.Link; a.Reveal = &r }, "wrong_link"},
		{func(a *table.Action) { r := *a.Reveal; r.Signature = roll.Reveal.Signature; a.Reveal = &r }, "bad_signature"},
	} {
		a := rev
		a.ActionID = "bad-" + bad.code
		bad.edit(&a)
		_, err := tt.Do(a)
		require.Error(t, err)
		require.Equal(t, bad.code, err.(*functest.Error).Details["code"], "%v", err)
	}
	_, err = tt.Do(rev) // the control
	require.NoError(t, err)

	// Seat 2 stalls.
	abort := table.Action{Actor: ps[1].UID, ActionID: "ab", Kind: table.KindAbort}
	now.Store(p.Deadline)
	_, err = tt.Do(abort)
	require.Equal(t, "deadline_not_passed", err.(*functest.Error).Details["code"], "%v", err)
	now.Store(p.Deadline + 1)
	abort.ActionID = "ab2"
	_, err = tt.Do(abort)
	require.NoError(t, err)
	end, err := tt.View(ps[0].UID)
	require.NoError(t, err)
	require.Equal(t, &table.Outcome{Abandoned: true, Winners: []int{}, Payoffs: []float64{0, 0, 0}, Reason: match.AbortDeadline, Missing: []int{2}}, end.Outcome)

	var raw json.RawMessage
	require.NoError(t, c.Call(ctx, "exportGame", ps[2].Token, map[string]any{"gameId": "tl-st"}, &raw))
	rec, err := match.ReadRecord(raw)
	require.NoError(t, err)
	div, err := match.CheckRecord(pig.Def, rec)
	require.NoError(t, err)
	require.NoError(t, div)
	require.Equal(t, []int{2}, rec.Trustless.Abort.Missing)
	require.Len(t, rec.Trustless.Pending.Reveals, 2)
}

var pigRoll = game.Move{Kind: pig.KindRoll}

// A trustless table's rematch is a trustless table with the old one's
// chain length and deadline (the values the test chose, not the
// defaults), whose rotated seats each player joins with a chain and key
// drawn for the new table.
func TestRematchTrustlessTable(t *testing.T) {
	var now atomic.Int64
	now.Store(1_760_000_000_000)
	c := newTrustServer(t, &now)
	ctx := context.Background()
	ps := devPlayers("rt", 2)
	old, err := functest.NewTrustTable(ctx, c, pig.Def, "rt-old", ps, map[string]any{"chainLength": 4096, "deadlineMs": 7000}, true)
	require.NoError(t, err)
	v, err := old.View(ps[0].UID)
	require.NoError(t, err)
	require.NoError(t, c.Call(ctx, "act", ps[0].Token, map[string]any{"game": "pig", "gameId": "rt-old", "actionId": "ab", "version": v.Version, "kind": "abandon"}, nil))

	var r struct {
		GameID string `json:"gameId"`
		Mode   string `json:"mode"`
		Seat   int    `json:"seat"`
	}
	nu := &functest.TrustTable{C: c, Ctx: ctx, Def: pig.Def, Players: ps}
	for i, p := range ps {
		require.NoError(t, c.Call(ctx, "rematch", p.Token, map[string]any{"game": "pig", "gameId": "rt-old"}, &r))
		require.Equal(t, "trustless", r.Mode)
		require.Equal(t, (i+1)%2, r.Seat)
		nu.ID = r.GameID
	}
	v, err = nu.View(ps[0].UID)
	require.NoError(t, err)
	require.Equal(t, "trustless", string(v.Mode))
	require.NotNil(t, v.Trustless)
	require.Equal(t, uint32(4096), v.Trustless.ChainLength)
	require.Equal(t, uint64(7000), v.Trustless.DeadlineMs)
	for i, p := range ps {
		v, err := nu.View(p.UID)
		require.NoError(t, err)
		s, err := trustseat.New(pig.Def, nu.ID, p.UID, (i+1)%2, v.Trustless.ChainLength)
		require.NoError(t, err)
		_, err = nu.Do(s.Join("j", v.Version, nil, nil))
		require.NoError(t, err, "%s joins its rotated seat", p.UID)
	}
	v, err = nu.View(ps[0].UID)
	require.NoError(t, err)
	require.Equal(t, []string{ps[1].UID, ps[0].UID}, []string{v.Trustless.Seats[0].UID, v.Trustless.Seats[1].UID}, "the seats rotated")
}
