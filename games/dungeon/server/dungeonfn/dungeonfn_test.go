package dungeonfn_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/functions"
	"github.com/fairboard/fairboard/functions/callable"
	"github.com/fairboard/fairboard/games/dungeon/engine"
	_ "github.com/fairboard/fairboard/games/dungeon/reducers" // the reference game
	"github.com/fairboard/fairboard/games/dungeon/server/dungeonfn"
	"github.com/fairboard/fairboard/games/dungeon/server/service"
	"github.com/fairboard/fairboard/games/dungeon/server/store"
	"github.com/fairboard/fairboard/lobby"
	"github.com/fairboard/fairboard/table"
)

// TestEveryCodeHasAStatus: every rejection code of the engine has a
// callable status, and only bad_stream (a server bug) is INTERNAL.
func TestEveryCodeHasAStatus(t *testing.T) {
	for _, c := range engine.Codes {
		st, ok := dungeonfn.CodeStatus[c]
		require.True(t, ok, "%s has no status", c)
		require.Equal(t, c == engine.CodeBadStream, st == callable.StatusInternal, "%s is %s", c, st)
	}
}

// TestTablesShareTheStatuses: a table's code spelled as one of the
// dungeon's has the dungeon's status (functions.TableCodeStatus), so a
// client reads the same answer from both paths; the control: the two
// share most of their codes.
func TestTablesShareTheStatuses(t *testing.T) {
	shared := 0
	for _, c := range table.Codes {
		if st, ok := dungeonfn.CodeStatus[engine.Code(c)]; ok {
			shared++
			require.Equal(t, st, functions.TableCodeStatus[c], "%s", c)
		}
	}
	require.Greater(t, shared, 20, "the codes the two paths share")
}

// TestClassify: the dungeon's errors get their answers (a missing game
// the one NOT_FOUND of every path, a store's failure UNAVAILABLE, a
// server bug INTERNAL and not public); an error none of the dungeon's
// (a deadline, anything else) has no answer here, for the API's own
// mapping.
func TestClassify(t *testing.T) {
	p := dungeonfn.New(newService())
	ce, public := p.Classify(fmt.Errorf("read: %w", store.ErrNotFound))
	require.True(t, public)
	require.Equal(t, functions.NoSuchGame(), ce)
	ce, public = p.Classify(&engine.Error{Code: engine.CodeNotYourTurn, Msg: "not your turn"})
	require.True(t, public)
	require.Equal(t, callable.StatusPermissionDenied, ce.Status)
	require.Equal(t, "not your turn", ce.Message)
	ce, _ = p.Classify(store.ErrUnavailable)
	require.Equal(t, callable.StatusUnavailable, ce.Status)
	ce, public = p.Classify(&engine.Error{Code: engine.CodeBadStream, Msg: "the seed"})
	require.False(t, public)
	require.Equal(t, &callable.Error{Status: callable.StatusInternal, Message: "internal error"}, ce)
	for _, err := range []error{context.DeadlineExceeded, context.Canceled, errors.New("elsewhere"), callable.NotFound("x")} {
		ce, public = p.Classify(err)
		require.Nil(t, ce, "%v", err)
		require.False(t, public)
	}
}

// TestGameAndRematch: Game reads a game as the API keeps it in step
// (its phase in the lobby's terms, its players' uids, the rules' seats);
// Rematch refuses a game Game did not read, and makes the rematch of one
// it did.
func TestGameAndRematch(t *testing.T) {
	ctx := t.Context()
	p := dungeonfn.New(newService())
	var seen functions.Listed
	_, l, err := p.Create(ctx, "owner", json.RawMessage(`{"gameId":"g1","mode":"seeded","seed":"s"}`), func(l functions.Listed) error {
		seen = l
		return nil
	})
	require.NoError(t, err)
	require.Equal(t, seen, l)
	require.Equal(t, functions.Listed{GameID: "g1", Mode: "seeded", Seats: engine.DefaultRules().MaxPlayers}, l)

	refusal := errors.New("admit says no")
	_, _, err = p.Create(ctx, "owner", json.RawMessage(`{"gameId":"g2"}`), func(functions.Listed) error { return refusal })
	require.ErrorIs(t, err, refusal)
	held, err := p.Holds(ctx, "g2")
	require.NoError(t, err)
	require.False(t, held, "a create admit refused writes nothing")

	_, id, err := p.Join(ctx, "alice", json.RawMessage(`{"gameId":"g1","seat":0,"class":"warrior"}`), func(string, int) error { return nil })
	require.NoError(t, err)
	require.Equal(t, "g1", id)
	g, err := p.Game(ctx, "owner", "g1")
	require.NoError(t, err)
	require.Equal(t, lobby.PhaseLobby, g.Phase)
	require.Equal(t, []string{"alice"}, g.Players)
	require.Equal(t, "owner", g.Owner)
	require.Equal(t, "seeded", g.Mode)

	_, err = p.Rematch(ctx, &functions.Game{Players: []string{"alice"}}, 0, "rm1")
	require.Error(t, err, "a game Game did not read")
	res, err := p.Rematch(ctx, g, 0, "rm1")
	require.NoError(t, err)
	require.Equal(t, &functions.RematchResult{GameID: "rm1", Game: functions.DungeonGame, Mode: "seeded", Seat: 0, Class: "warrior"}, res)
	held, err = p.Holds(ctx, "rm1")
	require.NoError(t, err)
	require.True(t, held)
}

func newService() *service.Service {
	return service.New(service.Config{Store: store.NewMemory(), Engine: engine.NewReference(engine.DefaultRules()), AllowSeeded: true})
}
