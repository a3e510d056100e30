package functions_test

import (
	"context"
	"encoding/json"
	"fmt"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/functest"
	"github.com/fairboard/fairboard/functions"
	"github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/games/pig"
	"github.com/fairboard/fairboard/match"
	"github.com/fairboard/fairboard/table"
	"github.com/fairboard/fairboard/table/trustseat"
)

// A trustless Pig game through the functions whose seats read only the
// moves after their own checkpoint (getView's checkedMoves, no log):
// most views leave out the moves checked, the game plays to its end, and
// its exported record checks (match.CheckRecord and an independent
// replay).
func TestTrustlessViewFromCheckpointOverHTTP(t *testing.T) {
	var now atomic.Int64
	now.Store(1_760_000_000_000)
	c := newTrustServer(t, &now)
	ctx := context.Background()
	ps := devPlayers("tlv", 2)
	tt, err := functest.NewTrustTable(ctx, c, pig.Def, "tl-cp", ps, map[string]any{"rules": json.RawMessage(`{"goal":60,"dieSides":6}`)}, true)
	require.NoError(t, err)
	tt.Checkpoint = true
	rolls := 0
	choose := func(v *table.View) game.Move {
		for _, mv := range v.Legal {
			if mv.Kind == pig.KindHold && rolls >= 3 {
				rolls = 0
				return mv
			}
		}
		rolls++
		return pigRoll
	}
	end, err := trustseat.Play(tt, tt.Seats, choose, nil, 20000)
	require.NoError(t, err)
	require.Equal(t, table.PhaseFinished, end.Phase)
	require.Greater(t, end.Trustless.Played(), 10)
	require.Greater(t, tt.Tails, end.Trustless.Played(), "the views left out the moves checked")
	var raw json.RawMessage
	require.NoError(t, c.Call(ctx, "exportGame", ps[1].Token, map[string]any{"gameId": "tl-cp"}, &raw))
	rec, err := match.ReadRecord(raw)
	require.NoError(t, err)
	require.NoError(t, functest.CheckTrustlessRecord(pig.Def, rec, end.Outcome.Winners))
}

// getView's checkedMoves: a whole number at most the moves played, at a
// trustless table, else INVALID_ARGUMENT naming it; a stranger is told
// the table does not exist whatever it sends; 0 and absent are the whole
// protocol, the moves played none of it.
func TestCheckedMovesRefusals(t *testing.T) {
	var now atomic.Int64
	now.Store(1_760_000_000_000)
	c := newTrustServer(t, &now)
	ctx := context.Background()
	ps := devPlayers("tlr", 2)
	tt, err := functest.NewTrustTable(ctx, c, pig.Def, "tl-ck", ps, nil, true)
	require.NoError(t, err)
	_, err = trustseat.Play(tt, tt.Seats, func(*table.View) game.Move { return pigRoll }, func(v *table.View) bool {
		return len(v.Trustless.Moves) >= 3 && v.Trustless.Pending == nil
	}, 200)
	require.NoError(t, err)
	whole, err := functest.TableView(ctx, c, "tl-ck", ps[0].Token)
	require.NoError(t, err)
	played := whole.Trustless.Played()
	require.Zero(t, whole.Trustless.MovesBase)

	view := func(tok string, checked any) (*functions.TableView, error) {
		var v functions.TableView
		err := c.Call(ctx, "getView", tok, map[string]any{"game": "pig", "gameId": "tl-ck", "checkedMoves": checked}, &v)
		return &v, err
	}
	for _, bad := range []any{-1, 1.5, "2", true, []int{1}, 1 << 40} {
		_, err := view(ps[0].Token, bad)
		require.Equal(t, "INVALID_ARGUMENT", functest.Status(err), "%v: %v", bad, err)
		require.ErrorContains(t, err, "data.checkedMoves", "%v", bad)
	}
	_, err = view(ps[0].Token, played+1)
	require.Equal(t, "INVALID_ARGUMENT", functest.Status(err), "%v", err)
	require.ErrorContains(t, err, fmt.Sprintf("data.checkedMoves must be at most the %d moves played", played))
	_, err = view("dev:stranger", played+1)
	require.Equal(t, "NOT_FOUND", functest.Status(err), "a stranger learns nothing: %v", err)

	for _, k := range []int{0, 1, played} {
		v, err := view(ps[1].Token, k)
		require.NoError(t, err, "%d", k)
		require.Equal(t, k, v.Trustless.MovesBase)
		require.Equal(t, whole.Trustless.Moves[k:], v.Trustless.Moves)
		require.Equal(t, played, v.Trustless.Played())
		require.Equal(t, whole.Trustless.Transcript, v.Trustless.Transcript)
	}

	// A table that is not trustless.
	require.NoError(t, c.Call(ctx, "createGame", ps[0].Token, map[string]any{"game": "pig", "gameId": "cr-ck", "actionId": "c"}, nil))
	var v functions.TableView
	err = c.Call(ctx, "getView", ps[0].Token, map[string]any{"gameId": "cr-ck", "checkedMoves": 1}, &v)
	require.Equal(t, "INVALID_ARGUMENT", functest.Status(err), "%v", err)
	require.ErrorContains(t, err, "data.checkedMoves is for a trustless table only")
	require.NoError(t, c.Call(ctx, "getView", ps[0].Token, map[string]any{"gameId": "cr-ck", "checkedMoves": 0}, &v), "the control")
}

// A dungeon game's getView refuses checkedMoves (it has no trustless
// table's moves), and answers without it (the control).
func TestCheckedMovesRefusedAtTheDungeon(t *testing.T) {
	s := newTLServer(t)
	ctx := context.Background()
	require.NoError(t, s.c.Call(ctx, "createGame", "dev:p1", map[string]any{"gameId": "dg", "actionId": "c"}, nil))
	var v functest.View
	err := s.c.Call(ctx, "getView", "dev:p1", map[string]any{"gameId": "dg", "checkedMoves": 1}, &v)
	require.Equal(t, "INVALID_ARGUMENT", functest.Status(err), "%v", err)
	require.ErrorContains(t, err, "data.checkedMoves is for a trustless table only")
	require.NoError(t, s.c.Call(ctx, "getView", "dev:p1", map[string]any{"gameId": "dg", "checkedMoves": 0}, &v))
}
