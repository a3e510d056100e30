package functions_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/functest"
	"github.com/fairboard/fairboard/functions"
	"github.com/fairboard/fairboard/games/dungeon/server/dungeonfn"
	"github.com/fairboard/fairboard/games/dungeon/server/service"
	"github.com/fairboard/fairboard/games/dungeon/server/store"
	"github.com/fairboard/fairboard/games/kuhn"
	"github.com/fairboard/fairboard/games/pig"
	"github.com/fairboard/fairboard/games/registry"
	"github.com/fairboard/fairboard/match"
	"github.com/fairboard/fairboard/table"
	"github.com/fairboard/fairboard/tablestore"
)

// The idle limits written out: a week in play, a day in the lobby (the
// defaults docs/functions.md states), in ms.
const (
	weekMs = 7 * 24 * 3600 * 1000
	dayMs  = 24 * 3600 * 1000
)

// newIdleServer is the functions in memory with seeded tables allowed,
// the sweep served ("Bearer scheduler" only) and the table path on the
// clock now.
func newIdleServer(t *testing.T, now *atomic.Int64, more func(*functions.API)) *functest.Client {
	t.Helper()
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	svc := service.New(service.Config{Store: store.NewMemory(), Engine: eng, AllowSeeded: true, Logger: quiet})
	api := functions.New(dungeonfn.New(svc), functions.InsecureDevVerifier{}, quiet).WithTables(tablestore.NewMemory(registry.Lookup)).
		WithClock(func() time.Time { return time.UnixMilli(now.Load()) }).
		WithSweep(functions.SweepAuthorizerFunc(func(r *http.Request) error {
			if r.Header.Get("Authorization") != "Bearer scheduler" {
				return errors.New("not the scheduler")
			}
			return nil
		}))
	more(api)
	srv := httptest.NewServer(api.Mux())
	t.Cleanup(srv.Close)
	return &functest.Client{Base: srv.URL}
}

// twoSeatTable creates the Pig table id in mode (with more fields in
// createGame's data), seats ps[0] and ps[1] and, with start, starts it.
func twoSeatTable(t *testing.T, c *functest.Client, id, mode string, ps []functest.Player, start bool) {
	t.Helper()
	ctx := context.Background()
	create := map[string]any{"game": "pig", "gameId": id, "actionId": "create", "mode": mode}
	if mode == "seeded" {
		create["seed"] = "idle-" + id
	}
	var r functions.TableResult
	require.NoError(t, c.Call(ctx, "createGame", ps[0].Token, create, &r))
	if !start {
		return
	}
	for i, p := range ps[:2] {
		require.NoError(t, c.Call(ctx, "joinGame", p.Token, map[string]any{"game": "pig", "gameId": id, "actionId": "join", "version": r.Version, "seat": i}, &r))
	}
	require.NoError(t, c.Call(ctx, "startGame", ps[0].Token, map[string]any{"game": "pig", "gameId": id, "actionId": "start", "version": r.Version}, &r))
}

// sweepIdle runs the sweep and returns its idle tables.
func sweepIdle(t *testing.T, c *functest.Client) []functions.TableIdle {
	t.Helper()
	out, err := c.Sweep(context.Background(), "scheduler")
	require.NoError(t, err)
	require.Empty(t, out.Tables.Failed)
	return out.Tables.Idle
}

// The sweep ends the tables nobody acts at, in every mode, by the
// default limits (a day in the lobby, a week in play): nothing a ms
// before a limit, the lobby table closed at its limit (no payoffs), a
// table in play of each mode (crypto, seeded, fair, trustless) ended at
// its own as abandoned with reason idle and Pig's abort payoffs (zero
// each, docs/games.md), once although four sweeps run at once; a move
// six days in restarts its table's clock (the control: it is ended a
// week after that move); a second sweep finds nothing. The log holds one
// Abandoned event by the server naming the reason, and each game's
// exported record verifies. A rematch of an ended table is closed a day
// after its create (the rematch stamps it with the clock too).
func TestSweepEndsIdleTables(t *testing.T) {
	var now atomic.Int64
	t0 := int64(1_760_000_000_000)
	now.Store(t0)
	c := newIdleServer(t, &now, func(*functions.API) {})
	ctx := context.Background()
	ps := devPlayers("idl", 2)
	twoSeatTable(t, c, "idle-lobby", "crypto", ps, false)
	playing := []string{"idle-crypto", "idle-seeded", "idle-fair"}
	for i, mode := range []string{"crypto", "seeded", "fair"} {
		twoSeatTable(t, c, playing[i], mode, ps, true)
	}
	_, err := functest.NewTrustTable(ctx, c, pig.Def, "idle-trust", ps, nil, true)
	require.NoError(t, err)
	playing = append(playing, "idle-trust")
	twoSeatTable(t, c, "idle-moved", "crypto", ps, true)

	now.Store(t0 + dayMs - 1)
	require.Empty(t, sweepIdle(t, c), "nothing a ms before the lobby's limit")
	now.Store(t0 + dayMs)
	require.Equal(t, []functions.TableIdle{{GameID: "idle-lobby", Phase: table.PhaseLobby, Version: 1}}, sweepIdle(t, c))
	lv, err := functest.TableView(ctx, c, "idle-lobby", ps[0].Token)
	require.NoError(t, err)
	require.Equal(t, &functions.TableOutcome{Abandoned: true, Winners: []int{}, Reason: table.ReasonIdle}, lv.Outcome)

	now.Store(t0 + 6*dayMs)
	mv, err := functest.TableView(ctx, c, "idle-moved", ps[0].Token)
	require.NoError(t, err)
	var r functions.TableResult
	require.NoError(t, c.Call(ctx, "act", ps[mv.ToMove].Token, map[string]any{"game": "pig", "gameId": "idle-moved", "actionId": "m1",
		"version": mv.Version, "move": map[string]any{"kind": "roll"}}, &r))

	now.Store(t0 + weekMs - 1)
	require.Empty(t, sweepIdle(t, c), "nothing a ms before the playing tables' limit")
	now.Store(t0 + weekMs)
	answers := make([][]functions.TableIdle, 4)
	var wg sync.WaitGroup
	for i := range answers {
		wg.Go(func() {
			out, err := c.Sweep(ctx, "scheduler")
			if err == nil && len(out.Tables.Failed) > 0 {
				err = errors.New("failed tables")
			}
			require.NoError(t, err)
			answers[i] = out.Tables.Idle
		})
	}
	wg.Wait()
	applied := map[string]int{}
	for _, a := range answers {
		for _, it := range a {
			require.Equal(t, table.PhasePlaying, it.Phase)
			if !it.Replayed {
				applied[it.GameID]++
			}
		}
	}
	require.Equal(t, map[string]int{"idle-crypto": 1, "idle-seeded": 1, "idle-fair": 1, "idle-trust": 1}, applied, "four sweeps at once end each table once, and not the one that moved")

	for _, id := range playing {
		v, err := functest.TableView(ctx, c, id, ps[1].Token)
		require.NoError(t, err)
		require.Equal(t, string(table.PhaseFinished), v.Phase, id)
		require.True(t, v.Outcome.Abandoned, id)
		require.Equal(t, table.ReasonIdle, v.Outcome.Reason, id)
		require.Equal(t, []float64{0, 0}, v.Outcome.Payoffs, id)
		var log []struct {
			Type    string   `json:"type"`
			UID     string   `json:"uid"`
			Options []string `json:"options"`
		}
		require.NoError(t, json.Unmarshal(v.Log, &log))
		ends := 0
		for _, e := range log {
			if e.Type == "Abandoned" {
				ends++
				require.Equal(t, table.ServerActor, e.UID, id)
				require.Equal(t, []string{table.ReasonIdle}, e.Options, id)
			}
		}
		require.Equal(t, 1, ends, id)

		var raw json.RawMessage
		require.NoError(t, c.Call(ctx, "exportGame", ps[0].Token, map[string]any{"gameId": id}, &raw), id)
		rec, err := match.ReadRecord(raw)
		require.NoError(t, err, id)
		div, err := match.CheckRecord(pig.Def, rec)
		require.NoError(t, err, id)
		require.NoError(t, div, id)
	}
	mv, err = functest.TableView(ctx, c, "idle-moved", ps[0].Token)
	require.NoError(t, err)
	require.Equal(t, string(table.PhasePlaying), mv.Phase, "a move restarts the table's clock")

	// A rematch of a table ended as idle is a lobby of its own, stamped
	// with its create's time: closed a day after it.
	var rm functions.RematchResult
	require.NoError(t, c.Call(ctx, "rematch", ps[0].Token, map[string]any{"gameId": "idle-crypto"}, &rm))
	now.Store(t0 + weekMs + dayMs - 1)
	require.Empty(t, sweepIdle(t, c))
	now.Store(t0 + weekMs + dayMs)
	require.Equal(t, []functions.TableIdle{{GameID: rm.GameID, Phase: table.PhaseLobby, Version: 1}}, sweepIdle(t, c))

	now.Store(t0 + 6*dayMs + weekMs)
	require.Equal(t, []functions.TableIdle{{GameID: "idle-moved", Phase: table.PhasePlaying, Version: mv.Version}}, sweepIdle(t, c))
	require.Empty(t, sweepIdle(t, c), "a second sweep finds nothing")
}

// The limits are the API's (WithTableIdle): shorter ones end tables
// sooner; a negative one never ends that phase's tables.
func TestSweepIdleLimitsAreConfigured(t *testing.T) {
	var now atomic.Int64
	t0 := int64(1_760_000_000_000)
	now.Store(t0)
	c := newIdleServer(t, &now, func(api *functions.API) { api.WithTableIdle(time.Hour, -1) })
	ps := devPlayers("idc", 2)
	twoSeatTable(t, c, "lim-lobby", "crypto", ps, false)
	twoSeatTable(t, c, "lim-play", "crypto", ps, true)
	now.Store(t0 + 3600*1000 - 1)
	require.Empty(t, sweepIdle(t, c))
	now.Store(t0 + 3600*1000)
	require.Equal(t, []functions.TableIdle{{GameID: "lim-play", Phase: table.PhasePlaying, Version: 4}}, sweepIdle(t, c))
	now.Store(t0 + 1000*dayMs)
	require.Empty(t, sweepIdle(t, c), "the lobby's limit is off")
}

// A dealing table's first wait (seat 0's pass) runs from its start:
// startGame stamps the start with the clock, so a sweep just after it
// leaves the table alone. Before the fix the start carried no time, the
// deal's first deadline was in 1970 and the first sweep aborted a fresh
// hand. The control: the same sweep past start + deadlineMs aborts it,
// naming seat 0.
func TestSweepLeavesAFreshDealAlone(t *testing.T) {
	var now atomic.Int64
	t0 := int64(1_760_000_000_000)
	now.Store(t0)
	c := newIdleServer(t, &now, func(*functions.API) {})
	ctx := context.Background()
	ps := devPlayers("idd", 2)
	_, err := functest.NewTrustTable(ctx, c, kuhn.Def, "fresh-deal", ps, map[string]any{"deadlineMs": 5000}, true)
	require.NoError(t, err)
	now.Store(t0 + 1)
	out, err := c.Sweep(ctx, "scheduler")
	require.NoError(t, err)
	require.Equal(t, 0, out.Tables.Due, "a fresh deal is not due")
	now.Store(t0 + 5001)
	out, err = c.Sweep(ctx, "scheduler")
	require.NoError(t, err)
	require.Equal(t, []functions.TableAbort{{GameID: "fresh-deal", Missing: []string{ps[0].UID}}}, out.Tables.Aborted)
}
