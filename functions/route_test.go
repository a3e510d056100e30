package functions_test

import (
	"context"
	"io"
	"log/slog"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/functest"
	"github.com/fairboard/fairboard/functions"
	"github.com/fairboard/fairboard/games/dungeon/engine"
	"github.com/fairboard/fairboard/games/dungeon/server/dungeonfn"
	"github.com/fairboard/fairboard/games/dungeon/server/service"
	"github.com/fairboard/fairboard/games/dungeon/server/store"
	"github.com/fairboard/fairboard/games/pig"
	"github.com/fairboard/fairboard/games/registry"
	"github.com/fairboard/fairboard/tablestore"
)

// countedTables counts the table store's lookups of an id's game.
type countedTables struct {
	tablestore.Store
	games atomic.Int64
}

func (c *countedTables) Game(ctx context.Context, id string) (string, error) {
	c.games.Add(1)
	return c.Store.Game(ctx, id)
}

// countedGames counts the dungeon store's reads of a game document.
type countedGames struct {
	store.Store
	games atomic.Int64
}

func (c *countedGames) Game(ctx context.Context, id string) (*engine.Public, error) {
	c.games.Add(1)
	return c.Store.Game(ctx, id)
}

func (c *countedGames) Apply(ctx context.Context, req store.Request, m store.Mutator) (*store.Record, error) {
	c.games.Add(1)
	return c.Store.Apply(ctx, req, m)
}

func newCountedServer(t *testing.T) (*functest.Client, *countedGames, *countedTables) {
	return newCountedServerWith(t, false)
}

// newCountedServerWith is newCountedServer, declaring OneIDSpace if one.
func newCountedServerWith(t *testing.T, one bool) (*functest.Client, *countedGames, *countedTables) {
	t.Helper()
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	games := &countedGames{Store: store.NewMemory()}
	tables := &countedTables{Store: tablestore.NewMemory(registry.Lookup)}
	svc := service.New(service.Config{Store: games, Engine: eng, AllowSeeded: true, Logger: quiet,
		Now: func() time.Time { return time.UnixMilli(1_760_000_000_000) }})
	api := functions.New(dungeonfn.New(svc), functions.InsecureDevVerifier{}, quiet).WithTables(tables)
	if one {
		api.OneIDSpace()
	}
	srv := httptest.NewServer(api.Mux())
	t.Cleanup(srv.Close)
	return &functest.Client{Base: srv.URL}, games, tables
}

// A dungeon game's calls after its create never ask the table store
// whether the id is a table's: joins, the start, actions, views and the
// export each cost the dungeon's own reads only. Refused data and
// unknown ids (which may be a table's) do ask.
func TestDungeonCallsSkipTheTableStore(t *testing.T) {
	c, _, tables := newCountedServer(t)
	ctx := context.Background()
	call := func(fn, tok string, data map[string]any) error { return c.Call(ctx, fn, tok, data, nil) }
	require.NoError(t, call("createGame", "dev:p1", map[string]any{"gameId": "d1", "actionId": "c", "mode": "seeded", "seed": "x"}))
	require.EqualValues(t, 1, tables.games.Load(), "a create checks the tables once")
	require.NoError(t, call("joinGame", "dev:p1", map[string]any{"gameId": "d1", "actionId": "j1", "seat": 0, "class": "warrior"}))
	require.NoError(t, call("joinGame", "dev:p2", map[string]any{"game": "dungeon", "gameId": "d1", "actionId": "j2", "seat": 1, "class": "monk"}))
	require.NoError(t, call("startGame", "dev:p1", map[string]any{"gameId": "d1", "actionId": "s"}))
	require.NoError(t, call("getView", "dev:p1", map[string]any{"gameId": "d1"}))
	require.EqualValues(t, 1, tables.games.Load(), "dungeon calls that succeed never reach the tables")

	err := call("act", "dev:p1", map[string]any{"gameId": "d1", "actionId": "b", "kind": "fly"})
	require.Equal(t, "INVALID_ARGUMENT", functest.Status(err))
	require.EqualValues(t, 2, tables.games.Load(), "refused data may be a table's request: the tables are asked")
	err = call("getView", "dev:p1", map[string]any{"gameId": "nope"})
	require.Equal(t, "NOT_FOUND", functest.Status(err))
	require.EqualValues(t, 3, tables.games.Load())
}

// A table's calls reach it with its game named or not; named, the
// dungeon's store is not read at all; a wrong name, or a table name on
// a dungeon game, is NOT_FOUND as for no game.
func TestTableCallsRouteByGame(t *testing.T) {
	c, games, _ := newCountedServer(t)
	ctx := context.Background()
	tokens := []string{"dev:u0", "dev:u1"}
	require.NoError(t, functest.TableLobby(ctx, c, pig.Def, "p1", "route", tokens))
	before := games.games.Load()
	var v functions.TableView
	require.NoError(t, c.Call(ctx, "getView", tokens[0], map[string]any{"game": "pig", "gameId": "p1"}, &v))
	require.Equal(t, "pig", v.Game)
	require.NoError(t, c.Call(ctx, "act", tokens[v.ToMove], map[string]any{"game": "pig", "gameId": "p1", "actionId": "r1",
		"version": v.Version, "move": map[string]any{"kind": "roll"}}, nil))
	require.Equal(t, before, games.games.Load(), "a named table never reads the dungeon's store")

	require.NoError(t, c.Call(ctx, "getView", tokens[0], map[string]any{"gameId": "p1"}, &v), "unnamed, a table is still found")
	require.Greater(t, games.games.Load(), before, "unnamed, the dungeon is asked first")

	err := c.Call(ctx, "getView", tokens[0], map[string]any{"game": "kuhn", "gameId": "p1"}, nil)
	require.Equal(t, "NOT_FOUND", functest.Status(err), "another game's name")
	require.NoError(t, c.Call(ctx, "createGame", "dev:p1", map[string]any{"gameId": "d1", "actionId": "c", "mode": "seeded", "seed": "x"}, nil))
	err = c.Call(ctx, "getView", "dev:p1", map[string]any{"game": "pig", "gameId": "d1"}, nil)
	require.Equal(t, "NOT_FOUND", functest.Status(err), "a table's name on a dungeon game")
	err = c.Call(ctx, "getShuffle", tokens[0], map[string]any{"gameId": "p1"}, nil)
	require.Equal(t, "FAILED_PRECONDITION", functest.Status(err), "a table's shuffles before its end")
	err = c.Call(ctx, "getShuffle", tokens[0], map[string]any{"game": "kuhn", "gameId": "p1"}, nil)
	require.Equal(t, "NOT_FOUND", functest.Status(err), "getShuffle naming another game")
	err = c.Call(ctx, "exportGame", tokens[0], map[string]any{"gameId": "p1"}, nil)
	require.Equal(t, "FAILED_PRECONDITION", functest.Status(err), "a table's export before its end")
}

// One id, one game, though the dungeon and the tables keep separate
// stores (in memory): a table's create on a dungeon game's id and a
// dungeon create on a table's are both ALREADY_EXISTS.
func TestOneIDOneGame(t *testing.T) {
	c, _, _ := newCountedServer(t)
	ctx := context.Background()
	require.NoError(t, c.Call(ctx, "createGame", "dev:p1", map[string]any{"gameId": "d1", "actionId": "c", "mode": "seeded", "seed": "x"}, nil))
	err := c.Call(ctx, "createGame", "dev:p1", map[string]any{"game": "pig", "gameId": "d1", "actionId": "c2"}, nil)
	require.Equal(t, "ALREADY_EXISTS", functest.Status(err))
	require.NoError(t, c.Call(ctx, "createGame", "dev:p1", map[string]any{"game": "pig", "gameId": "p1", "actionId": "c3"}, nil))
	err = c.Call(ctx, "createGame", "dev:p1", map[string]any{"gameId": "p1", "actionId": "c4", "mode": "seeded", "seed": "x"}, nil)
	require.Equal(t, "ALREADY_EXISTS", functest.Status(err))
}

// With OneIDSpace a create asks only its own store: a dungeon create
// never reads the tables, a table's create never the dungeon's store.
// The stores must then refuse each other's ids themselves (on Firestore
// they do: integration.TestTableDocumentsUnderTheRules). The control:
// two memory stores do not, and a table is made on a dungeon game's id,
// which is why OneIDSpace is not the default.
func TestOneIDSpaceSkipsTheOtherStore(t *testing.T) {
	c, games, tables := newCountedServerWith(t, true)
	ctx := context.Background()
	require.NoError(t, c.Call(ctx, "createGame", "dev:p1", map[string]any{"gameId": "d1", "actionId": "c", "mode": "seeded", "seed": "x"}, nil))
	require.Zero(t, tables.games.Load(), "a dungeon create never asks the tables")
	before := games.games.Load()
	require.NoError(t, c.Call(ctx, "createGame", "dev:p1", map[string]any{"game": "pig", "gameId": "p1", "actionId": "c2"}, nil))
	require.Equal(t, before, games.games.Load(), "a table's create never reads the dungeon's store")

	err := c.Call(ctx, "createGame", "dev:p1", map[string]any{"game": "pig", "gameId": "d1", "actionId": "c3"}, nil)
	require.NoError(t, err, "control: separate memory stores do not refuse each other's ids")
}
