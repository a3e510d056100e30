package functions_test

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/functest"
	"github.com/fairboard/fairboard/functions"
	"github.com/fairboard/fairboard/games/dungeon/server/dungeonfn"
	"github.com/fairboard/fairboard/games/dungeon/server/service"
	"github.com/fairboard/fairboard/games/dungeon/server/store"
	"github.com/fairboard/fairboard/games/pig"
	"github.com/fairboard/fairboard/games/registry"
	"github.com/fairboard/fairboard/rng"
	"github.com/fairboard/fairboard/table"
	"github.com/fairboard/fairboard/tablestore"
)

// newTableServer is newServer with the tables of the registry in memory
// (tables nil: the functions without the table path).
func newTableServer(t *testing.T, allowSeeded bool, tables tablestore.Store) *functest.Client {
	t.Helper()
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	svc := service.New(service.Config{Store: store.NewMemory(), Engine: eng, AllowSeeded: allowSeeded, Logger: quiet,
		Now: func() time.Time { return time.UnixMilli(1_760_000_000_000) }}) // so that two servers answer the same bytes
	api := functions.New(dungeonfn.New(svc), functions.InsecureDevVerifier{}, quiet)
	if tables != nil {
		api.WithTables(tables)
	}
	srv := httptest.NewServer(api.Mux())
	t.Cleanup(srv.Close)
	return &functest.Client{Base: srv.URL}
}

// A whole seeded Pig game through the functions ends as match.New and
// Apply end on the same seed and moves: the public state, the game's log
// and the outcome.
func TestTablePigOverHTTP(t *testing.T) {
	c := newTableServer(t, true, tablestore.NewMemory(registry.Lookup))
	CheckPigOverHTTP(t, c, "pig-http", []string{"dev:u0", "dev:u1"})
}

// CheckPigOverHTTP plays a seeded Pig game through c by tokens and
// compares it with match.
func CheckPigOverHTTP(t *testing.T, c *functest.Client, g string, tokens []string) {
	ctx := context.Background()
	seed := "functions-" + g
	require.NoError(t, functest.TableLobby(ctx, c, pig.Def, g, seed, tokens))
	err := c.Call(ctx, "exportGame", tokens[0], map[string]any{"gameId": g}, nil)
	require.Equal(t, "FAILED_PRECONDITION", functest.Status(err), "an export before the end: %v", err)
	bots, err := rng.NewSeeded(seed + "/bots")
	require.NoError(t, err)
	moves, end, err := functest.PlayTable(ctx, c, pig.Def, g, tokens, bots, 2000)
	require.NoError(t, err)
	require.Greater(t, len(moves), 10)

	require.NoError(t, functest.EndsAsMatch(pig.Def, seed, len(tokens), moves, end))
	require.Equal(t, "finished", end.Phase)
	require.Equal(t, uint64(1+len(tokens)+1+len(moves)), end.Version)
	require.NoError(t, functest.CheckTableExport(ctx, c, pig.Def, g, tokens, "dev:stranger"))
}

// raw calls fn and returns its answer's bytes: the result, or the error.
func raw(t *testing.T, c *functest.Client, fn, tok string, data any) string {
	t.Helper()
	body, err := json.Marshal(map[string]any{"data": data})
	require.NoError(t, err)
	a, err := c.Raw(context.Background(), fn, tok, body)
	require.NoError(t, err)
	if a.Error != nil {
		b, _ := json.Marshal(a.Error)
		return string(b)
	}
	return string(a.Result)
}

// The dungeon's path is the same bytes with the table path beside it, and
// with "game": "dungeon" as without a game.
func TestTablesLeaveTheDungeonAlone(t *testing.T) {
	plain := newTableServer(t, true, nil)
	with := newTableServer(t, true, tablestore.NewMemory(registry.Lookup))
	named := newTableServer(t, true, tablestore.NewMemory(registry.Lookup))
	steps := []struct {
		fn, tok string
		data    map[string]any
	}{
		{"createGame", "dev:p1", map[string]any{"gameId": "d1", "actionId": "c", "mode": "seeded", "seed": "x"}},
		{"joinGame", "dev:p1", map[string]any{"gameId": "d1", "actionId": "j1", "seat": 0, "class": "warrior"}},
		{"joinGame", "dev:p2", map[string]any{"gameId": "d1", "actionId": "j2", "seat": 1, "class": "monk"}},
		{"joinGame", "dev:p2", map[string]any{"gameId": "d1", "actionId": "j3", "seat": 7, "class": "monk"}},
		{"startGame", "dev:p1", map[string]any{"gameId": "d1", "actionId": "s"}},
		{"getView", "dev:p1", map[string]any{"gameId": "d1"}},
		{"act", "dev:p2", map[string]any{"gameId": "d1", "actionId": "a", "kind": "sleep"}},
		{"act", "dev:p1", map[string]any{"gameId": "d1", "actionId": "b", "kind": "fly"}},
		{"getView", "dev:p3", map[string]any{"gameId": "nope"}},
		{"createGame", "dev:p1", map[string]any{"gameId": "d1", "actionId": "c", "mode": "seeded", "seed": "y"}},
	}
	for i, s := range steps {
		a := raw(t, plain, s.fn, s.tok, s.data)
		require.Equal(t, a, raw(t, with, s.fn, s.tok, s.data), "step %d", i)
		s.data["game"] = "dungeon"
		require.Equal(t, a, raw(t, named, s.fn, s.tok, s.data), "step %d with game dungeon", i)
	}
}

// status returns the callable status and details.code of an error.
func status(err error) (string, string) {
	fe, ok := err.(*functest.Error)
	if !ok {
		return "not a callable error: " + err.Error(), ""
	}
	code, _ := fe.Details["code"].(string)
	return fe.Status, code
}

// Every refusal of the table path, forced through the functions: each
// answers its status and code and leaves every caller's view as it was; a
// retry gets the first answer; a reused action id is refused.
func TestTableRefusalsOverHTTP(t *testing.T) {
	ctx := context.Background()
	c := newTableServer(t, true, tablestore.NewMemory(registry.Lookup))
	call := func(fn, tok string, data map[string]any) error { return c.Call(ctx, fn, tok, data, nil) }

	// Before a table exists.
	err := call("createGame", "dev:u0", map[string]any{"game": "chess", "gameId": "t", "actionId": "c"})
	st, code := status(err)
	require.Equal(t, []string{"INVALID_ARGUMENT", "unknown_game"}, []string{st, code})
	require.Contains(t, err.Error(), `"chess"`)
	require.Contains(t, err.Error(), "pig, dungeon")
	noTables := newTableServer(t, true, nil)
	st, code = status(noTables.Call(ctx, "createGame", "dev:u0", map[string]any{"game": "pig", "gameId": "t", "actionId": "c"}, nil))
	require.Equal(t, []string{"INVALID_ARGUMENT", "unknown_game"}, []string{st, code})
	st, _ = status(call("createGame", "dev:u0", map[string]any{"game": "pig", "gameId": "t", "actionId": "c", "colour": "red"}))
	require.Equal(t, "INVALID_ARGUMENT", st)
	st, code = status(call("createGame", "dev:u0", map[string]any{"game": "pig", "gameId": "t", "actionId": "c", "rules": map[string]any{"goal": 5}}))
	require.Equal(t, []string{"INVALID_ARGUMENT", "bad_ruleset"}, []string{st, code})
	st, code = status(call("createGame", "dev:u0", map[string]any{"game": "pig", "gameId": "t", "actionId": "c", "seats": 9}))
	require.Equal(t, []string{"INVALID_ARGUMENT", "bad_setup"}, []string{st, code})
	st, code = status(call("createGame", "dev:u0", map[string]any{"game": "pig", "gameId": "t", "actionId": "c", "seed": strings.Repeat("s", 257), "mode": "seeded"}))
	require.Equal(t, []string{"INVALID_ARGUMENT", "invalid_seed"}, []string{st, code})
	st, code = status(newTableServer(t, false, tablestore.NewMemory(registry.Lookup)).Call(ctx, "createGame", "dev:u0",
		map[string]any{"game": "pig", "gameId": "t", "actionId": "c", "mode": "seeded", "seed": "s"}, nil))
	require.Equal(t, []string{"FAILED_PRECONDITION", "seeded_disabled"}, []string{st, code})
	st, code = status(call("getView", "dev:u0", map[string]any{"gameId": "t"}))
	require.Equal(t, []string{"NOT_FOUND", "not_created"}, []string{st, code})

	toks := []string{"dev:u0", "dev:u1"}
	require.NoError(t, functest.TableLobby(ctx, c, pig.Def, "t", "refusals", toks))
	views := func() []string {
		var out []string
		for _, tok := range append(toks, "dev:owner-not") {
			out = append(out, raw(t, c, "getView", tok, map[string]any{"gameId": "t"}))
		}
		return out
	}
	v, err := functest.TableView(ctx, c, "t", "dev:u0")
	require.NoError(t, err)
	ver := v.Version
	first, other := toks[v.ToMove], toks[1-v.ToMove]
	roll := json.RawMessage(`{"kind":"roll"}`)
	before := views()
	require.Contains(t, before[2], "NOT_FOUND") // a stranger, once started
	for _, tc := range []struct {
		name, fn, tok string
		data          map[string]any
		status, code  string
	}{
		{"no token", "act", "", map[string]any{"gameId": "t", "actionId": "x", "version": ver, "move": roll}, "UNAUTHENTICATED", ""},
		{"unknown move kind", "act", first, map[string]any{"gameId": "t", "actionId": "x", "version": ver, "move": json.RawMessage(`{"kind":"fly"}`)}, "INVALID_ARGUMENT", "invalid_action"},
		{"unknown move field", "act", first, map[string]any{"gameId": "t", "actionId": "x", "version": ver, "move": json.RawMessage(`{"kind":"roll","dice":2}`)}, "INVALID_ARGUMENT", "invalid_action"},
		{"unknown field", "act", first, map[string]any{"gameId": "t", "actionId": "x", "version": ver, "move": roll, "uid": "u1"}, "INVALID_ARGUMENT", ""},
		{"unknown act kind", "act", first, map[string]any{"gameId": "t", "actionId": "x", "version": ver, "kind": "join"}, "INVALID_ARGUMENT", "invalid_kind"},
		{"move missing", "act", first, map[string]any{"gameId": "t", "actionId": "x", "version": ver}, "INVALID_ARGUMENT", "invalid_move"},
		{"huge move", "act", first, map[string]any{"gameId": "t", "actionId": "x", "version": ver, "move": json.RawMessage(`{"kind":"` + strings.Repeat("r", 2000) + `"}`)}, "INVALID_ARGUMENT", "invalid_move"},
		{"no action id", "act", first, map[string]any{"gameId": "t", "version": ver, "move": roll}, "INVALID_ARGUMENT", "invalid_actionId"},
		{"not your turn", "act", other, map[string]any{"gameId": "t", "actionId": "x", "version": ver, "move": roll}, "PERMISSION_DENIED", "not_your_turn"},
		{"stale version", "act", first, map[string]any{"gameId": "t", "actionId": "x", "version": ver - 1, "move": roll}, "FAILED_PRECONDITION", "stale_version"},
		{"not seated", "act", "dev:stranger", map[string]any{"gameId": "t", "actionId": "x", "version": ver, "move": roll}, "PERMISSION_DENIED", "not_seated"},
		{"join once started", "joinGame", "dev:stranger", map[string]any{"gameId": "t", "actionId": "x", "version": ver, "seat": 0}, "FAILED_PRECONDITION", "already_started"},
		{"bad seat", "joinGame", "dev:stranger", map[string]any{"gameId": "t", "actionId": "x", "version": ver, "seat": -1}, "INVALID_ARGUMENT", "invalid_seat"},
		{"start again", "startGame", "dev:u0", map[string]any{"gameId": "t", "actionId": "x", "version": ver}, "FAILED_PRECONDITION", "already_started"},
		{"abandon by another", "act", "dev:u1", map[string]any{"gameId": "t", "actionId": "x", "version": ver, "kind": "abandon"}, "PERMISSION_DENIED", "not_owner"},
		{"a dungeon create on the table's id", "createGame", "dev:u9", map[string]any{"gameId": "t", "actionId": "c"}, "ALREADY_EXISTS", "already_created"},
		{"a table create on its id", "createGame", "dev:u9", map[string]any{"game": "pig", "gameId": "t", "actionId": "c"}, "ALREADY_EXISTS", "already_created"},
	} {
		st, code := status(call(tc.fn, tc.tok, tc.data))
		require.Equal(t, []string{tc.status, tc.code}, []string{st, code}, tc.name)
		require.Equal(t, before, views(), "%s changed the table", tc.name)
	}

	act := map[string]any{"gameId": "t", "actionId": "x", "version": ver, "move": roll}
	first1 := raw(t, c, "act", first, act)
	require.Contains(t, first1, `"replayed":false`)
	after := views()
	again := raw(t, c, "act", first, act)
	require.Equal(t, strings.Replace(first1, `"replayed":false`, `"replayed":true`, 1), again)
	require.Equal(t, after, views(), "a retry changed the table")
	act["version"] = ver + 1
	st, code = status(call("act", first, act))
	require.Equal(t, []string{"ALREADY_EXISTS", "action_id_reused"}, []string{st, code})
	require.Equal(t, after, views(), "a reused action id changed the table")

	// The owner abandons: finished, abandoned, nothing more applies.
	v, err = functest.TableView(ctx, c, "t", "dev:u0")
	require.NoError(t, err)
	require.NoError(t, call("act", "dev:u0", map[string]any{"gameId": "t", "actionId": "ab", "version": v.Version, "kind": "abandon"}))
	v, err = functest.TableView(ctx, c, "t", "dev:u1")
	require.NoError(t, err)
	require.Equal(t, "finished", v.Phase)
	require.True(t, v.Outcome.Abandoned)
	st, code = status(call("act", "dev:u0", map[string]any{"gameId": "t", "actionId": "y", "version": v.Version, "move": roll}))
	require.Equal(t, []string{"FAILED_PRECONDITION", "game_over"}, []string{st, code})
}

// Every table code has its status.
func TestTableCodeStatus(t *testing.T) {
	for _, c := range table.Codes {
		require.Contains(t, functions.TableCodeStatus, c)
	}
	require.Len(t, functions.TableCodeStatus, len(table.Codes))
}

// The lobby's refusals through the functions, each leaving the table as
// it was: a seat the table does not have, a taken seat, a second seat, an
// option Pig does not have, a start by another than the owner or with a
// seat free.
func TestTableLobbyRefusalsOverHTTP(t *testing.T) {
	ctx := context.Background()
	c := newTableServer(t, true, tablestore.NewMemory(registry.Lookup))
	require.NoError(t, c.Call(ctx, "createGame", "dev:u0", map[string]any{"game": "pig", "gameId": "l", "actionId": "c"}, nil))
	require.NoError(t, c.Call(ctx, "joinGame", "dev:u0", map[string]any{"gameId": "l", "actionId": "j", "version": 1, "seat": 0}, nil))
	before := raw(t, c, "getView", "dev:u0", map[string]any{"gameId": "l"})
	for _, tc := range []struct {
		name, fn, tok string
		data          map[string]any
		status, code  string
	}{
		{"no such seat", "joinGame", "dev:u1", map[string]any{"gameId": "l", "actionId": "j", "version": 2, "seat": 5}, "INVALID_ARGUMENT", "unknown_player"},
		{"seat taken", "joinGame", "dev:u1", map[string]any{"gameId": "l", "actionId": "j", "version": 2, "seat": 0}, "ALREADY_EXISTS", "seat_taken"},
		{"second seat", "joinGame", "dev:u0", map[string]any{"gameId": "l", "actionId": "j2", "version": 2, "seat": 1}, "ALREADY_EXISTS", "already_joined"},
		{"unknown option", "joinGame", "dev:u1", map[string]any{"gameId": "l", "actionId": "j", "version": 2, "seat": 1, "options": map[string]string{"class": "monk"}}, "INVALID_ARGUMENT", "bad_option"},
		{"start by another", "startGame", "dev:u1", map[string]any{"gameId": "l", "actionId": "s", "version": 2}, "PERMISSION_DENIED", "not_owner"},
		{"start with a seat free", "startGame", "dev:u0", map[string]any{"gameId": "l", "actionId": "s", "version": 2}, "FAILED_PRECONDITION", "too_few_players"},
		{"move in the lobby", "act", "dev:u0", map[string]any{"gameId": "l", "actionId": "m", "version": 2, "move": map[string]any{"kind": "roll"}}, "FAILED_PRECONDITION", "not_started"},
		{"remove a free seat", "act", "dev:u0", map[string]any{"gameId": "l", "actionId": "r", "version": 2, "kind": "removeSeat", "seat": 1}, "FAILED_PRECONDITION", "seat_free"},
	} {
		st, code := status(c.Call(ctx, tc.fn, tc.tok, tc.data, nil))
		require.Equal(t, []string{tc.status, tc.code}, []string{st, code}, tc.name)
		require.Equal(t, before, raw(t, c, "getView", "dev:u0", map[string]any{"gameId": "l"}), "%s changed the table", tc.name)
	}
	// A table's export and its shuffles (getShuffle, its record's) come
	// at its end; reveal goes to the table, which has no rounds unless
	// trustless.
	st, code := status(c.Call(ctx, "exportGame", "dev:u0", map[string]any{"gameId": "l"}, nil))
	require.Equal(t, []string{"FAILED_PRECONDITION", "not_finished"}, []string{st, code}, "exportGame")
	st, code = status(c.Call(ctx, "getShuffle", "dev:u0", map[string]any{"gameId": "l"}, nil))
	require.Equal(t, []string{"FAILED_PRECONDITION", "not_finished"}, []string{st, code}, "getShuffle")
	st, code = status(c.Call(ctx, "reveal", "dev:u0", map[string]any{"gameId": "l", "actionId": "r", "seat": 0, "index": 1,
		"link": strings.Repeat("0", 64), "digest": strings.Repeat("0", 64), "transcript": strings.Repeat("0", 64), "signature": strings.Repeat("0", 128)}, nil))
	require.Equal(t, []string{"INVALID_ARGUMENT", "invalid_action"}, []string{st, code}, "reveal")

	// A stranger sees the lobby (its free seats), not a started table.
	v, err := functest.TableView(ctx, c, "l", "dev:someone")
	require.NoError(t, err)
	require.Equal(t, -1, v.Seat)
	require.Equal(t, []functions.TableSeat{{UID: "u0"}, {}}, v.Seats)
}
