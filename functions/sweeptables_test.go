package functions_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/functest"
	"github.com/fairboard/fairboard/functions"
	"github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/games/kuhn"
	"github.com/fairboard/fairboard/games/pig"
	"github.com/fairboard/fairboard/match"
	"github.com/fairboard/fairboard/table"
	"github.com/fairboard/fairboard/table/trustdeal"
	"github.com/fairboard/fairboard/table/trustseat"
)

// newSweepServer is newTrustServer with the sweep served ("Bearer
// scheduler" only).
func newSweepServer(t *testing.T, now *atomic.Int64) *functest.Client {
	t.Helper()
	return newTrustServerWith(t, now, func(api *functions.API) {
		api.WithSweep(functions.SweepAuthorizerFunc(func(r *http.Request) error {
			if r.Header.Get("Authorization") != "Bearer scheduler" {
				return errors.New("not the scheduler")
			}
			return nil
		}))
	})
}

// The sweep aborts a trustless table whose round is past its deadline
// with no call on it, naming the seat that withheld its reveal: not at
// the deadline, after it; a table with a later deadline stays until its
// own passes (the control: the same sweep aborts it then); a second
// sweep finds nothing; four sweeps at once on a stalled table abort it
// once. The exported record verifies with the staller missing.
func TestSweepAbortsStalledTables(t *testing.T) {
	var now atomic.Int64
	now.Store(1_760_000_000_000)
	c := newSweepServer(t, &now)
	ctx := context.Background()
	ps := devPlayers("swp", 3)
	stalled, err := functest.NewTrustTable(ctx, c, pig.Def, "sw-stall", ps, map[string]any{"deadlineMs": 5000}, true)
	require.NoError(t, err)
	p, err := stalled.Stall(pigRoll, 2)
	require.NoError(t, err)
	later, err := functest.NewTrustTable(ctx, c, pig.Def, "sw-later", ps[:2], map[string]any{"deadlineMs": 60000}, true)
	require.NoError(t, err)
	pl, err := later.Stall(pigRoll, 1)
	require.NoError(t, err)

	_, err = c.Sweep(ctx, "someone")
	require.ErrorContains(t, err, "401")
	now.Store(p.Deadline)
	out, err := c.Sweep(ctx, "scheduler")
	require.NoError(t, err)
	require.Equal(t, &functions.TableSweepResult{Aborted: []functions.TableAbort{}}, out.Tables, "nothing due at the deadline itself")

	now.Store(p.Deadline + 1)
	out, err = c.Sweep(ctx, "scheduler")
	require.NoError(t, err)
	require.Equal(t, &functions.TableSweepResult{Due: 1, Aborted: []functions.TableAbort{{GameID: "sw-stall", Index: int64(p.Index), Missing: []string{ps[2].UID}}}}, out.Tables)
	end, err := stalled.View(ps[0].UID)
	require.NoError(t, err)
	require.Equal(t, &table.Outcome{Abandoned: true, Winners: []int{}, Payoffs: []float64{0, 0, 0}, Reason: match.AbortDeadline, Missing: []int{2}}, end.Outcome)
	v, err := later.View(ps[0].UID)
	require.NoError(t, err)
	require.Equal(t, table.PhasePlaying, v.Phase, "a table before its deadline is not swept")

	out, err = c.Sweep(ctx, "scheduler")
	require.NoError(t, err)
	require.Equal(t, 0, out.Tables.Due, "a swept table is due no more")

	now.Store(pl.Deadline + 1)
	var wg sync.WaitGroup
	answers := make([]*functest.SweepAnswer, 4)
	for i := range answers {
		wg.Go(func() {
			var err error
			answers[i], err = c.Sweep(ctx, "scheduler")
			require.NoError(t, err)
		})
	}
	wg.Wait()
	applied := 0
	for _, a := range answers {
		for _, ab := range a.Tables.Aborted {
			require.Equal(t, functions.TableAbort{GameID: "sw-later", Index: int64(pl.Index), Missing: []string{ps[1].UID}, Replayed: ab.Replayed}, ab)
			if !ab.Replayed {
				applied++
			}
		}
	}
	require.Equal(t, 1, applied, "four sweeps at once apply one abort")
	tv, err := functest.TableView(ctx, c, "sw-later", ps[0].Token)
	require.NoError(t, err)
	var log []struct {
		Type    string   `json:"type"`
		UID     string   `json:"uid"`
		Options []string `json:"options"`
	}
	require.NoError(t, json.Unmarshal(tv.Log, &log))
	aborts := 0
	for _, e := range log {
		if e.Type == "Aborted" {
			aborts++
			require.Equal(t, []string{match.AbortDeadline, ps[1].UID}, e.Options)
			require.Equal(t, table.ServerActor, e.UID)
		}
	}
	require.Equal(t, 1, aborts)

	var raw json.RawMessage
	require.NoError(t, c.Call(ctx, "exportGame", ps[1].Token, map[string]any{"gameId": "sw-stall"}, &raw))
	rec, err := match.ReadRecord(raw)
	require.NoError(t, err)
	div, err := match.CheckRecord(pig.Def, rec)
	require.NoError(t, err)
	require.NoError(t, div)
	require.Equal(t, []int{2}, rec.Trustless.Abort.Missing)
}

// The sweep also aborts a dealing table (trustless Kuhn) whose deal waits
// past its deadline for a seat's keys, naming that seat, which forfeits
// its ante: seat 1's keys rode with its last pass, and seat 0 never sends
// its own (alone or with a first move). Before the fix the table was
// never due (its DueAt read only reveal rounds), so a stalled hand stayed
// open until someone called. The control is the same sweep at the
// deadline itself, which finds nothing.
func TestSweepAbortsStalledDeal(t *testing.T) {
	var now atomic.Int64
	now.Store(1_760_000_000_000)
	c := newSweepServer(t, &now)
	ctx := context.Background()
	ps := devPlayers("swd", 2)
	tt, err := functest.NewTrustTable(ctx, c, kuhn.Def, "sw-deal", ps, map[string]any{"deadlineMs": 5000}, true)
	require.NoError(t, err)
	inDeal := func(v *table.View) bool { return v.Trustless.Deal.Phase == trustdeal.PhaseDeal }
	v, err := trustseat.Play(tt, tt.Seats, func(v *table.View) game.Move { return v.Legal[0] }, inDeal, 20)
	require.NoError(t, err)
	require.Equal(t, trustdeal.PhaseDeal, v.Trustless.Deal.Phase)
	deadline := v.Trustless.Deal.Deadline

	now.Store(deadline)
	out, err := c.Sweep(ctx, "scheduler")
	require.NoError(t, err)
	require.Equal(t, &functions.TableSweepResult{Aborted: []functions.TableAbort{}}, out.Tables, "nothing due at the deadline itself")
	now.Store(deadline + 1)
	out, err = c.Sweep(ctx, "scheduler")
	require.NoError(t, err)
	require.Equal(t, 1, out.Tables.Due)
	require.Equal(t, []functions.TableAbort{{GameID: "sw-deal", Missing: []string{ps[0].UID}}}, out.Tables.Aborted)
	end, err := tt.View(ps[0].UID)
	require.NoError(t, err)
	require.Equal(t, &table.Outcome{Abandoned: true, Winners: []int{}, Payoffs: []float64{-1, 1}, Reason: match.ForfeitDeadline, Missing: []int{0}}, end.Outcome)
	out, err = c.Sweep(ctx, "scheduler")
	require.NoError(t, err)
	require.Equal(t, 0, out.Tables.Due, "a swept table is due no more")
}
