package functions_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/functest"
	"github.com/fairboard/fairboard/functions"
	"github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/games/dungeon/engine"
	"github.com/fairboard/fairboard/games/registry"
	"github.com/fairboard/fairboard/names"
	"github.com/fairboard/fairboard/rng"
	"github.com/fairboard/fairboard/table"
	"github.com/fairboard/fairboard/tablestore"
)

// countingTables counts the table store's reads of a table.
type countingTables struct {
	tablestore.Store
	reads *int
}

func (c countingTables) View(ctx context.Context, g, uid string) (*table.View, game.Definition, error) {
	*c.reads++
	return c.Store.View(ctx, g, uid)
}

func (c countingTables) Game(ctx context.Context, g string) (string, error) {
	*c.reads++
	return c.Store.Game(ctx, g)
}

func lookup(t *testing.T, name string) game.Definition {
	def, err := registry.Lookup(name)
	require.NoError(t, err)
	return def
}

type openGames struct {
	Games []functions.OpenGame `json:"games"`
}

// listOpenGames lists the public games waiting for players, newest first,
// with the owner's name, the seats taken and free and the mode; a game by
// link, a full one and a started one are not listed; the list is bounded
// (50 by default, limit 1 to 50, anything else INVALID_ARGUMENT) and
// reads no game.
func TestListOpenGames(t *testing.T) {
	ctx := context.Background()
	reads := 0
	c := newTableServer(t, true, countingTables{tablestore.NewMemory(registry.Lookup), &reads})
	must := func(fn, tok string, d map[string]any) {
		t.Helper()
		require.NoError(t, c.Call(ctx, fn, tok, d, nil), fn)
	}
	list := func(d map[string]any) []functions.OpenGame {
		t.Helper()
		var r openGames
		require.NoError(t, c.Call(ctx, "listOpenGames", "dev:anyone", d, &r))
		return r.Games
	}
	require.Empty(t, list(map[string]any{}))
	must("setName", "dev:p1", map[string]any{"name": "Alice"})
	must("createGame", "dev:p1", map[string]any{"gameId": "d-pub", "actionId": "c", "visibility": "public"})
	must("createGame", "dev:p1", map[string]any{"game": "pig", "gameId": "pig-pub", "actionId": "c", "visibility": "public", "seats": 3})
	must("createGame", "dev:p1", map[string]any{"game": "kuhn", "gameId": "kuhn-link", "actionId": "c"})
	must("createGame", "dev:p1", map[string]any{"game": "kuhn", "gameId": "kuhn-watch", "actionId": "c", "spectators": true})
	must("joinGame", "dev:p2", map[string]any{"game": "pig", "gameId": "pig-pub", "actionId": "j", "version": 1, "seat": 1})

	got := list(map[string]any{})
	require.Len(t, got, 2, "the link games are not listed: %+v", got)
	byID := map[string]functions.OpenGame{}
	for _, g := range got {
		byID[g.GameID] = g
	}
	pig := byID["pig-pub"]
	require.Equal(t, functions.OpenGame{GameID: "pig-pub", Game: "pig", OwnerName: "Alice", Mode: "crypto", Seats: 3, Taken: 1,
		Spectators: true, CreatedAt: pig.CreatedAt}, pig)
	d := byID["d-pub"]
	require.Equal(t, functions.OpenGame{GameID: "d-pub", Game: "dungeon", OwnerName: "Alice", Mode: "crypto", Seats: 6, Taken: 0,
		Spectators: true, CreatedAt: d.CreatedAt}, d)
	require.GreaterOrEqual(t, got[0].CreatedAt, got[1].CreatedAt, "newest first")

	// The owner renames (seated in neither game yet): the lobby says the
	// new name at once; another owner's listing keeps its own.
	must("createGame", "dev:p2", map[string]any{"game": "pig", "gameId": "pig-bob", "actionId": "c", "visibility": "public"})
	must("setName", "dev:p1", map[string]any{"name": "Alicia"})
	for _, g := range list(map[string]any{}) {
		want := map[string]string{"d-pub": "Alicia", "pig-pub": "Alicia", "pig-bob": names.Default("p2", false)}[g.GameID]
		require.Equal(t, want, g.OwnerName, g.GameID)
	}
	must("joinGame", "dev:p3", map[string]any{"game": "pig", "gameId": "pig-bob", "actionId": "j", "version": 1, "seat": 0})
	must("joinGame", "dev:p4", map[string]any{"game": "pig", "gameId": "pig-bob", "actionId": "j", "version": 2, "seat": 1})

	// Full, then started: no longer listed.
	must("joinGame", "dev:p1", map[string]any{"game": "pig", "gameId": "pig-pub", "actionId": "j", "version": 2, "seat": 0})
	must("joinGame", "dev:p3", map[string]any{"game": "pig", "gameId": "pig-pub", "actionId": "j", "version": 3, "seat": 2})
	require.Len(t, list(map[string]any{}), 1, "a full game is not listed")
	must("joinGame", "dev:p1", map[string]any{"gameId": "d-pub", "actionId": "j1", "seat": 0, "class": "warrior"})
	must("joinGame", "dev:p2", map[string]any{"gameId": "d-pub", "actionId": "j2", "seat": 1, "class": "monk"})
	require.Equal(t, 2, list(map[string]any{})[0].Taken)
	must("startGame", "dev:p1", map[string]any{"gameId": "d-pub", "actionId": "s"})
	require.Empty(t, list(map[string]any{}), "a started game is not listed")

	// Bounds: 55 public games, 50 listed by default, newest first.
	for i := range 55 {
		must("createGame", "dev:p4", map[string]any{"game": "pig", "gameId": fmt.Sprintf("many-%02d", i), "actionId": "c", "visibility": "public"})
	}
	before := reads
	all := list(map[string]any{})
	require.Len(t, all, 50)
	require.Equal(t, before, reads, "listing reads no table")
	for i := 1; i < len(all); i++ {
		require.True(t, all[i-1].CreatedAt > all[i].CreatedAt || all[i-1].CreatedAt == all[i].CreatedAt && all[i-1].GameID > all[i].GameID,
			"newest first: %v then %v", all[i-1], all[i])
	}
	require.Equal(t, "many-54", all[0].GameID, "the newest first")
	require.Len(t, list(map[string]any{"limit": 3}), 3)
	require.Len(t, list(map[string]any{"limit": 50}), 50)
	for _, bad := range []map[string]any{{"limit": -1}, {"limit": 51}, {"limit": "3"}, {"other": 1}} {
		st, _ := status(c.Call(ctx, "listOpenGames", "dev:anyone", bad, nil))
		require.Equal(t, "INVALID_ARGUMENT", st, "%v", bad)
	}
	st, _ := status(c.Call(ctx, "listOpenGames", "", map[string]any{}, nil))
	require.Equal(t, "UNAUTHENTICATED", st)
	// A visibility that is neither: refused on both paths, nothing made.
	for _, d := range []map[string]any{{"gameId": "bad-v", "actionId": "c", "visibility": "secret"},
		{"game": "pig", "gameId": "bad-v", "actionId": "c", "visibility": "Public"}} {
		st, code := status(c.Call(ctx, "createGame", "dev:p1", d, nil))
		require.Equal(t, [2]string{"INVALID_ARGUMENT", "invalid_visibility"}, [2]string{st, code}, "%v", d)
	}
}

// A game open to spectators (spectators: true, or public) is read by a
// signed-in user who is not in it after its start: the same view as a
// player's for the dungeon, the public part for a table (no seat, no
// legal move), and its export once over; a game by link alone stays
// NOT_FOUND to the same user, in play and at its end.
func TestSpectators(t *testing.T) {
	ctx := context.Background()
	c := newTableServer(t, true, tablestore.NewMemory(registry.Lookup))
	must := func(fn, tok string, d map[string]any) {
		t.Helper()
		require.NoError(t, c.Call(ctx, fn, tok, d, nil), fn)
	}
	// The dungeon: one game open to spectators, one by link; both started.
	for _, g := range []struct {
		id   string
		open bool
	}{{"d-open", true}, {"d-link", false}} {
		must("createGame", "dev:p1", map[string]any{"gameId": g.id, "actionId": "c", "mode": "seeded", "seed": "x", "spectators": g.open})
		must("joinGame", "dev:p1", map[string]any{"gameId": g.id, "actionId": "j1", "seat": 0, "class": "warrior"})
		must("joinGame", "dev:p2", map[string]any{"gameId": g.id, "actionId": "j2", "seat": 1, "class": "monk"})
		must("startGame", "dev:p1", map[string]any{"gameId": g.id, "actionId": "s"})
	}
	var player, watcher map[string]any
	must("getView", "dev:p2", map[string]any{"gameId": "d-open"})
	require.NoError(t, c.Call(ctx, "getView", "dev:p2", map[string]any{"gameId": "d-open"}, &player))
	require.NoError(t, c.Call(ctx, "getView", "dev:watcher", map[string]any{"gameId": "d-open"}, &watcher))
	require.Equal(t, true, watcher["spectating"])
	delete(watcher, "spectating")
	require.Equal(t, player, watcher, "a spectator reads the players' view")
	st, _ := status(c.Call(ctx, "getView", "dev:watcher", map[string]any{"gameId": "d-link"}, nil))
	require.Equal(t, "NOT_FOUND", st, "a game by link is hidden from strangers once started")
	st, code := status(c.Call(ctx, "exportGame", "dev:watcher", map[string]any{"gameId": "d-open"}, nil))
	require.Equal(t, [2]string{"FAILED_PRECONDITION", "not_finished"}, [2]string{st, code})
	st, code = status(c.Call(ctx, "getShuffle", "dev:watcher", map[string]any{"gameId": "d-open"}, nil))
	require.Equal(t, [2]string{"FAILED_PRECONDITION", "not_finished"}, [2]string{st, code}, "the shuffles wait for the end, as for a player")
	for _, id := range []string{"d-open", "d-link"} {
		must("act", "dev:p1", map[string]any{"gameId": id, "actionId": "ab", "kind": "abandon"})
	}
	var x map[string]any
	require.NoError(t, c.Call(ctx, "exportGame", "dev:watcher", map[string]any{"gameId": "d-open"}, &x), "a spectator exports a finished game")
	var mine map[string]any
	require.NoError(t, c.Call(ctx, "exportGame", "dev:p1", map[string]any{"gameId": "d-open"}, &mine))
	require.Equal(t, mine, x)
	st, _ = status(c.Call(ctx, "exportGame", "dev:watcher", map[string]any{"gameId": "d-link"}, nil))
	require.Equal(t, "NOT_FOUND", st)
	// The shuffles, as the export: the spectator of the finished open
	// game reads what its players read; the game by link stays hidden.
	var shufW, shufP map[string]any
	require.NoError(t, c.Call(ctx, "getShuffle", "dev:watcher", map[string]any{"gameId": "d-open"}, &shufW), "a spectator reads the shuffles")
	require.NoError(t, c.Call(ctx, "getShuffle", "dev:p2", map[string]any{"gameId": "d-open"}, &shufP))
	require.NotEmpty(t, shufP["shuffles"], "the game shuffled its decks at the start")
	require.Equal(t, shufP, shufW)
	require.NoError(t, c.Call(ctx, "getShuffle", "dev:watcher", map[string]any{"gameId": "d-open", "deckId": "treasure.t1"}, nil), "one deck too")
	for _, id := range []string{"d-link", "nothing-here"} {
		st, _ = status(c.Call(ctx, "getShuffle", "dev:watcher", map[string]any{"gameId": id}, nil))
		require.Equal(t, "NOT_FOUND", st, id)
	}

	// A table with private parts (Kuhn poker), public (which opens it to
	// spectators), and one by link.
	kuhn := lookup(t, "kuhn")
	toks := []string{"dev:k1", "dev:k2"}
	require.NoError(t, functest.TableLobbyWith(ctx, c, kuhn, "k-open", "s", toks, map[string]any{"visibility": "public"}))
	require.NoError(t, functest.TableLobby(ctx, c, kuhn, "k-link", "s", toks))
	v, err := functest.TableView(ctx, c, "k-open", "dev:watcher")
	require.NoError(t, err)
	require.True(t, v.Spectating)
	require.Equal(t, table.NoSeat, v.Seat)
	require.JSONEq(t, "[]", string(v.Legal))
	require.NotContains(t, string(v.State), "card", "the public part only")
	own, err := functest.TableView(ctx, c, "k-open", "dev:k1")
	require.NoError(t, err)
	require.Contains(t, string(own.State), "card", "control: a seat reads its card in the same call")
	_, err = functest.TableView(ctx, c, "k-link", "dev:watcher")
	st, _ = status(err)
	require.Equal(t, "NOT_FOUND", st)
	st, code = status(c.Call(ctx, "exportGame", "dev:watcher", map[string]any{"gameId": "k-open"}, nil))
	require.Equal(t, [2]string{"FAILED_PRECONDITION", "not_finished"}, [2]string{st, code})
	for _, id := range []string{"k-open", "k-link"} {
		bots, err := rng.NewSeeded("spect/" + id)
		require.NoError(t, err)
		_, _, err = functest.PlayTable(ctx, c, kuhn, id, toks, bots, 100)
		require.NoError(t, err)
	}
	var rec, recMine map[string]any
	require.NoError(t, c.Call(ctx, "exportGame", "dev:watcher", map[string]any{"gameId": "k-open"}, &rec))
	require.NoError(t, c.Call(ctx, "exportGame", "dev:k2", map[string]any{"gameId": "k-open"}, &recMine))
	require.Equal(t, recMine, rec)
	st, _ = status(c.Call(ctx, "exportGame", "dev:watcher", map[string]any{"gameId": "k-link"}, nil))
	require.Equal(t, "NOT_FOUND", st)
}

// rematchID is the rematch's id as docs/functions.md gives it, computed
// here by its words.
func rematchID(old string) string {
	sum := sha256.Sum256([]byte("fairboard-rematch/v1\x00" + old))
	return "rm" + hex.EncodeToString(sum[:])[:32]
}

type rematchResult struct {
	GameID  string            `json:"gameId"`
	Game    string            `json:"game"`
	Mode    string            `json:"mode"`
	Seat    int               `json:"seat"`
	Class   string            `json:"class"`
	Options map[string]string `json:"options"`
}

// rematch: every player's call reaches the same new game, of the same
// game, mode, rules and seat count, with the seats rotated by one and
// kept for their players; refused to a stranger, a spectator, the owner
// without a seat, and before the end.
func TestRematchTable(t *testing.T) {
	ctx := context.Background()
	c := newTableServer(t, true, tablestore.NewMemory(registry.Lookup))
	pig := lookup(t, "pig")
	toks := []string{"dev:a", "dev:b", "dev:c"}
	require.NoError(t, functest.TableLobbyWith(ctx, c, pig, "pig-1", "s", toks,
		map[string]any{"spectators": true, "rules": map[string]any{"goal": 20, "dieSides": 6}}))
	refused := func(tok, g, wantSt, wantCode string) {
		t.Helper()
		st, code := status(c.Call(ctx, "rematch", tok, map[string]any{"gameId": g}, nil))
		require.Equal(t, [2]string{wantSt, wantCode}, [2]string{st, code}, "%s on %s", tok, g)
	}
	refused("dev:a", "pig-1", "FAILED_PRECONDITION", "not_finished")
	bots, err := rng.NewSeeded("rematch/bots")
	require.NoError(t, err)
	_, end, err := functest.PlayTable(ctx, c, pig, "pig-1", toks, bots, 10000)
	require.NoError(t, err)
	require.Equal(t, "finished", end.Phase)

	refused("dev:watcher", "pig-1", "PERMISSION_DENIED", "not_seated")
	refused("dev:a", "nope", "NOT_FOUND", "not_created")
	refused("dev:a", "bad id!", "INVALID_ARGUMENT", "invalid_gameId")
	st, _ := status(c.Call(ctx, "rematch", "dev:a", map[string]any{"gameId": "pig-1", "extra": 1}, nil))
	require.Equal(t, "INVALID_ARGUMENT", st)
	// A link game's stranger: NOT_FOUND, as for no game.
	require.NoError(t, functest.TableLobby(ctx, c, pig, "pig-link", "s", toks[:2]))
	refused("dev:watcher", "pig-link", "NOT_FOUND", "not_created")

	want := rematchID("pig-1")
	for i, tok := range []string{"dev:b", "dev:a", "dev:c", "dev:a"} {
		var r rematchResult
		require.NoError(t, c.Call(ctx, "rematch", tok, map[string]any{"gameId": "pig-1"}, &r), "call %d", i)
		seat := map[string]int{"dev:a": 1, "dev:b": 2, "dev:c": 0}[tok]
		require.Equal(t, rematchResult{GameID: want, Game: "pig", Mode: "seeded", Seat: seat}, r, "call %d", i)
	}
	v, err := functest.TableView(ctx, c, want, "dev:a")
	require.NoError(t, err)
	require.Equal(t, "lobby", v.Phase)
	require.Equal(t, "a", v.Owner)
	require.Len(t, v.Seats, 3)
	require.Equal(t, end.RulesHash, v.RulesHash, "the same rules")
	// The seats are kept: another's join there is refused; each player joins its own.
	st, code := status(c.Call(ctx, "joinGame", "dev:intruder", map[string]any{"gameId": want, "actionId": "j", "version": v.Version, "seat": 0}, nil))
	require.Equal(t, [2]string{"PERMISSION_DENIED", "seat_reserved"}, [2]string{st, code})
	st, code = status(c.Call(ctx, "joinGame", "dev:a", map[string]any{"gameId": want, "actionId": "j", "version": v.Version, "seat": 0}, nil))
	require.Equal(t, [2]string{"PERMISSION_DENIED", "seat_reserved"}, [2]string{st, code}, "not another player's seat either")
	for _, j := range []struct {
		tok  string
		seat int
	}{{"dev:c", 0}, {"dev:a", 1}, {"dev:b", 2}} {
		v, err = functest.TableView(ctx, c, want, j.tok)
		require.NoError(t, err)
		require.NoError(t, c.Call(ctx, "joinGame", j.tok, map[string]any{"gameId": want, "actionId": "j", "version": v.Version, "seat": j.seat}, nil))
	}
	v, err = functest.TableView(ctx, c, want, "dev:a")
	require.NoError(t, err)
	require.NoError(t, c.Call(ctx, "startGame", "dev:a", map[string]any{"gameId": want, "actionId": "s", "version": v.Version}, nil))
	v, err = functest.TableView(ctx, c, want, "dev:watcher")
	require.NoError(t, err, "the rematch of a game open to spectators is open to them")
	require.Equal(t, []string{"c", "a", "b"}, []string{v.Seats[0].UID, v.Seats[1].UID, v.Seats[2].UID})
}

// A dungeon game's rematch: the same mode (a fair game with a fresh
// commitment), the players' classes, the seats rotated; the owner who
// ended it keeps the new game.
func TestRematchDungeon(t *testing.T) {
	ctx := context.Background()
	c := newTableServer(t, true, tablestore.NewMemory(registry.Lookup))
	must := func(fn, tok string, d map[string]any) {
		t.Helper()
		require.NoError(t, c.Call(ctx, fn, tok, d, nil), fn)
	}
	must("createGame", "dev:p1", map[string]any{"gameId": "df", "actionId": "c", "mode": "fair"})
	must("joinGame", "dev:p1", map[string]any{"gameId": "df", "actionId": "j1", "seat": 0, "class": "warrior", "entropy": "01"})
	must("joinGame", "dev:p2", map[string]any{"gameId": "df", "actionId": "j2", "seat": 1, "class": "monk", "entropy": "02"})
	st, code := status(c.Call(ctx, "rematch", "dev:p1", map[string]any{"gameId": "df"}, nil))
	require.Equal(t, [2]string{"FAILED_PRECONDITION", "not_finished"}, [2]string{st, code})
	must("startGame", "dev:p1", map[string]any{"gameId": "df", "actionId": "s"})
	must("act", "dev:p1", map[string]any{"gameId": "df", "actionId": "ab", "kind": "abandon"})
	st, code = status(c.Call(ctx, "rematch", "dev:p3", map[string]any{"gameId": "df"}, nil))
	require.Equal(t, [2]string{"NOT_FOUND", "not_created"}, [2]string{st, code}, "a stranger of a game by link")

	want := rematchID("df")
	var r1, r2 rematchResult
	require.NoError(t, c.Call(ctx, "rematch", "dev:p2", map[string]any{"gameId": "df"}, &r2))
	require.NoError(t, c.Call(ctx, "rematch", "dev:p1", map[string]any{"gameId": "df"}, &r1))
	require.Equal(t, rematchResult{GameID: want, Game: "dungeon", Mode: "fair", Seat: 1, Class: "warrior"}, r1)
	require.Equal(t, rematchResult{GameID: want, Game: "dungeon", Mode: "fair", Seat: 0, Class: "monk"}, r2)
	var old, nu struct {
		State struct {
			Owner    string `json:"owner"`
			Phase    string `json:"phase"`
			Fairness struct {
				Commitment string `json:"commitmentHex"`
			} `json:"fairness"`
		} `json:"state"`
	}
	require.NoError(t, c.Call(ctx, "getView", "dev:p1", map[string]any{"gameId": "df"}, &old))
	require.NoError(t, c.Call(ctx, "getView", "dev:p1", map[string]any{"gameId": want}, &nu))
	require.Equal(t, "p1", nu.State.Owner)
	require.Equal(t, "lobby", nu.State.Phase)
	require.NotEmpty(t, nu.State.Fairness.Commitment)
	require.NotEqual(t, old.State.Fairness.Commitment, nu.State.Fairness.Commitment, "a fresh server seed")
	st, code = status(c.Call(ctx, "joinGame", "dev:p1", map[string]any{"gameId": want, "actionId": "j", "seat": 0, "class": "warrior", "entropy": "03"}, nil))
	require.Equal(t, [2]string{"PERMISSION_DENIED", "seat_reserved"}, [2]string{st, code})
	must("joinGame", "dev:p2", map[string]any{"gameId": want, "actionId": "j", "seat": 0, "class": "monk", "entropy": "04"})
	must("joinGame", "dev:p1", map[string]any{"gameId": want, "actionId": "j", "seat": 1, "class": "warrior", "entropy": "05"})
	must("startGame", "dev:p1", map[string]any{"gameId": want, "actionId": "s"})
}

// A trustless game's rematch keeps its mode, chain length and deadline;
// its seats are joined by the players' own chains and keys (a join the
// rematch cannot make for them), each into its rotated seat.
func TestRematchTrustless(t *testing.T) {
	ctx := context.Background()
	c, _ := newServer(t, true)
	ps := seats(2)
	tb, err := functest.NewTable(ctx, c, "tl-old", ps, eng.Rules(), map[string]any{"deadlineMs": 5000})
	require.NoError(t, err)
	require.NoError(t, tb.Act(ctx, 0, engine.Action{Kind: engine.ActAbandon}, "ab"))
	var r rematchResult
	require.NoError(t, c.Call(ctx, "rematch", ps[1].Token, map[string]any{"gameId": "tl-old"}, &r))
	require.Equal(t, rematchResult{GameID: rematchID("tl-old"), Game: "dungeon", Mode: "trustless", Seat: 0, Class: string(ps[1].Seat.Class)}, r)
	var old, nu struct {
		State engine.Public `json:"state"`
	}
	require.NoError(t, c.Call(ctx, "getView", ps[0].Token, map[string]any{"gameId": "tl-old"}, &old))
	require.NoError(t, c.Call(ctx, "getView", ps[0].Token, map[string]any{"gameId": r.GameID}, &nu))
	require.Equal(t, "trustless", string(nu.State.RNG.Mode))
	require.Equal(t, int64(5000), nu.State.Trustless.DeadlineMs)
	require.Equal(t, old.State.Trustless.ChainLength, nu.State.Trustless.ChainLength)
	require.Equal(t, ps[0].UID, nu.State.Owner)
}
