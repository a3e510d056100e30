package functions_test

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/functest"
	"github.com/fairboard/fairboard/functions"
	"github.com/fairboard/fairboard/games/pig"
	"github.com/fairboard/fairboard/match"
	"github.com/fairboard/fairboard/rng"
	"github.com/fairboard/fairboard/rng/fair"
	"github.com/fairboard/fairboard/table"
)

// commitHex is the seat's commitment as a client computes it.
func commitHex(gameID string, seat int, c string) string {
	b, err := hex.DecodeString(c)
	if err != nil {
		panic(err)
	}
	h := fair.ContributionCommitment(gameID, uint32(seat), b)
	return hex.EncodeToString(h[:])
}

// openTable creates the fair Pig table g with openings through the
// functions and joins ps with their commitments to cs; it returns the
// table's version.
func openTable(t *testing.T, c *functest.Client, g string, ps []functest.Player, cs []string) uint64 {
	t.Helper()
	ctx := context.Background()
	var r functions.TableResult
	require.NoError(t, c.Call(ctx, "createGame", ps[0].Token, map[string]any{"game": "pig", "gameId": g, "actionId": "c",
		"mode": "fair", "openings": true, "deadlineMs": 5000, "seats": len(ps)}, &r))
	for i, p := range ps {
		require.NoError(t, c.Call(ctx, "joinGame", p.Token, map[string]any{"gameId": g, "actionId": "j", "version": r.Version,
			"seat": i, "entropyCommitment": commitHex(g, i, cs[i])}, &r))
	}
	return r.Version
}

// A fair Pig table with openings through the functions: joins carry
// commitments, getView shows them and who opened, act's open opens each
// contribution (a wrong one refused by name, the start refused until
// every seat opened), the game seed is the fair one of the opened
// contributions, and the export carries the commitments and verifies.
// A second table whose seat never opens is swept at the deadline, the
// seat named.
func TestFairTableWithOpeningsOverHTTP(t *testing.T) {
	var now atomic.Int64
	now.Store(1_760_000_000_000)
	c := newSweepServer(t, &now)
	ctx := context.Background()
	ps := devPlayers("fo", 2)
	cs := []string{strings.Repeat("5a", 32), strings.Repeat("c3", 32)}
	v := openTable(t, c, "fo1", ps, cs)
	view, err := functest.TableView(ctx, c, "fo1", ps[1].Token)
	require.NoError(t, err)
	require.Equal(t, &functions.TableOpenings{DeadlineMs: 5000, CommitmentsHex: []string{commitHex("fo1", 0, cs[0]), commitHex("fo1", 1, cs[1])},
		Opened: []bool{false, false}}, view.Fairness.Openings)

	open := func(p functest.Player, id, e string) error {
		return c.Call(ctx, "act", p.Token, map[string]any{"gameId": "fo1", "actionId": id, "version": v, "kind": "open", "entropy": e}, nil)
	}
	st, code := status(open(ps[0], "bad", cs[1]))
	require.Equal(t, []string{"INVALID_ARGUMENT", "wrong_opening"}, []string{st, code})
	st, code = status(c.Call(ctx, "startGame", ps[0].Token, map[string]any{"gameId": "fo1", "actionId": "s0", "version": v}, nil))
	require.Equal(t, []string{"FAILED_PRECONDITION", "not_opened"}, []string{st, code})
	st, code = status(c.Call(ctx, "act", ps[0].Token, map[string]any{"gameId": "fo1", "actionId": "x", "version": v, "kind": "open"}, nil))
	require.Equal(t, []string{"INVALID_ARGUMENT", "invalid_entropy"}, []string{st, code}, "an open without its entropy")
	for i, p := range ps {
		require.NoError(t, open(p, "o", cs[i]))
		v++
	}
	view, err = functest.TableView(ctx, c, "fo1", ps[0].Token)
	require.NoError(t, err)
	require.Equal(t, []bool{true, true}, view.Fairness.Openings.Opened)
	require.NotContains(t, view.Fairness.ContributionsHex, cs[0], "secret until the end")
	require.NoError(t, c.Call(ctx, "startGame", ps[0].Token, map[string]any{"gameId": "fo1", "actionId": "s", "version": v}, nil))
	bots, err := rng.NewSeeded("fair-open-http/bots")
	require.NoError(t, err)
	_, end, err := functest.PlayTable(ctx, c, pig.Def, "fo1", []string{ps[0].Token, ps[1].Token}, bots, 2000)
	require.NoError(t, err)
	require.Equal(t, cs, end.Fairness.ContributionsHex)
	var raw json.RawMessage
	require.NoError(t, c.Call(ctx, "exportGame", ps[1].Token, map[string]any{"gameId": "fo1"}, &raw))
	rec, err := match.ReadRecord(raw)
	require.NoError(t, err)
	require.Equal(t, []string{commitHex("fo1", 0, cs[0]), commitHex("fo1", 1, cs[1])}, rec.Fairness.Openings.CommitmentsHex)
	d, err := match.CheckRecord(pig.Def, rec)
	require.NoError(t, err)
	require.NoError(t, d)

	// The seat that never opens.
	v = openTable(t, c, "fo2", ps, cs)
	require.NoError(t, c.Call(ctx, "act", ps[0].Token, map[string]any{"gameId": "fo2", "actionId": "o", "version": v, "kind": "open", "entropy": cs[0]}, nil))
	deadline := now.Load() + 5000
	now.Store(deadline)
	out, err := c.Sweep(ctx, "scheduler")
	require.NoError(t, err)
	require.Zero(t, out.Tables.Due, "not at the deadline itself")
	now.Store(deadline + 1)
	out, err = c.Sweep(ctx, "scheduler")
	require.NoError(t, err)
	require.Equal(t, []functions.TableAbort{{GameID: "fo2", Missing: []string{ps[1].UID}}}, out.Tables.Aborted)
	view, err = functest.TableView(ctx, c, "fo2", ps[0].Token)
	require.NoError(t, err)
	require.Equal(t, &functions.TableOutcome{Abandoned: true, Winners: []int{}, Reason: table.AbortUnopened, Missing: []int{1}}, view.Outcome)
}
