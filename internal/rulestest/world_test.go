package rulestest

import (
	"io"
	"log/slog"
	"strings"
	"testing"
	"time"

	"cloud.google.com/go/firestore"
	firebase "firebase.google.com/go/v4"
	"google.golang.org/api/iterator"

	"github.com/fairboard/fairboard/games/dungeon/engine"
	"github.com/fairboard/fairboard/games/dungeon/server/service"
	"github.com/fairboard/fairboard/games/dungeon/server/service/trustlesstest"
	"github.com/fairboard/fairboard/games/dungeon/server/store"
	"github.com/fairboard/fairboard/games/dungeon/server/store/fsstore"
	"github.com/fairboard/fairboard/internal/emulator"
	"github.com/fairboard/fairboard/lobby"
	"github.com/fairboard/fairboard/lobby/fslobby"
	"github.com/fairboard/fairboard/names/fsnames"
)

// The seeded world of the rules tests: games written through the store, users signed in through the Auth emulator.

// world is the seeded database and the users' ID tokens.
type world struct {
	tokens map[string]string // uid → ID token from the Auth emulator
	// paths of real documents the store wrote, by name: "g1 log" (g1's
	// first log document, one action's events), "g1 record" (alice's
	// record of an action), "g3 log" (one event, the previous layout),
	// "g3 audit" (an rngAudit slot document of the previous layout).
	paths map[string]string
}

// Users: alice owns g1 and sits in it with bob (a started game, audit on),
// and g4 (a trustless game whose first round is open, alice revealed);
// carol alone sits in g2 (its lobby); dave sits nowhere (he owns t1, a
// Kuhn poker table alice and bob play: seatTable). g3 is a game alice and
// bob play, written by the previous release's layout (one log document
// per event, an rngAudit document per slot).
var users = []string{"alice", "bob", "carol", "dave"}

var eng = engine.NewReference(engine.DefaultRules())

// setup resets both emulators, plays the games through the service on
// the Firestore store (fsstore.Apply writes every document: no
// hand-made ones) and signs every user in through the Auth emulator.
func setup(t *testing.T) world {
	t.Helper()
	emu.Require(t)
	emu.Reset(t)
	ctx := t.Context()
	db := emu.Client(t)
	w := world{tokens: map[string]string{}, paths: map[string]string{}}
	cur, prev := fsstore.New(db), fsstore.New(db, fsstore.WithPreviousLayout())
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	for _, g := range []struct {
		id    string
		st    *fsstore.Store
		seats []string
		start bool
	}{{"g1", cur, []string{"alice", "bob"}, true}, {"g2", cur, []string{"carol"}, false}, {"g3", prev, []string{"alice", "bob"}, true}} {
		svc := service.New(service.Config{Store: g.st, Engine: eng, AllowSeeded: true, Logger: quiet})
		do := func(a engine.Action) {
			t.Helper()
			if _, err := svc.Do(ctx, g.id, a); err != nil {
				t.Fatalf("%s %s: %v", g.id, a.Kind, err)
			}
		}
		do(engine.Action{Kind: engine.ActCreate, Actor: g.seats[0], ID: "create", Mode: "seeded", Seed: g.id, Audit: true})
		for i, u := range g.seats {
			do(engine.Action{Kind: engine.ActJoin, Actor: u, ID: "join", Seat: i, Class: engine.Classes[i]})
		}
		if g.start {
			do(engine.Action{Kind: engine.ActStart, Actor: g.seats[0], ID: "start"})
		}
	}
	first := func(coll string) string {
		snaps, err := db.Collection(coll).Limit(1).Documents(ctx).GetAll()
		if err != nil || len(snaps) != 1 {
			t.Fatalf("no document in %s: %v", coll, err)
		}
		p := snaps[0].Ref.Path
		return p[strings.Index(p, "/documents/")+len("/documents/"):]
	}
	// g4: a trustless game alice and bob play; its start is pending
	// (round 1) and alice has revealed: her marker and her staged reveal,
	// with its link, are stored.
	tl := trustlesstest.New(t, service.New(service.Config{Store: cur, Engine: eng, Logger: quiet}), "g4", []string{"alice", "bob"}, 0)
	tl.Start(t)
	if _, err := tl.Reveal(t, 0); err != nil {
		t.Fatal(err)
	}
	// The names, as the functions write them: alice and bob chose theirs,
	// and both are copied into g1.
	ns := fsnames.New(db)
	for u, n := range map[string]string{"alice": "Alice", "bob": "Bob"} {
		if _, err := ns.SetName(ctx, u, n); err != nil {
			t.Fatal(err)
		}
		if err := ns.Seat(ctx, "g1", u, n); err != nil {
			t.Fatal(err)
		}
	}
	// g1's listing, as the functions write it (public, a rematch's kept
	// seats): no client reads it, its owner and a spectator included.
	if err := fslobby.New(db).Put(ctx, lobby.Listing{GameID: "g1", Game: "dungeon", Owner: "alice", OwnerName: "Alice",
		Mode: "crypto", Visibility: lobby.Public, Seats: 6, Taken: 2, Phase: lobby.PhasePlaying, CreatedAt: 1,
		RematchOf: "g0", Reserved: []string{"alice", "bob"}}); err != nil {
		t.Fatal(err)
	}
	w.paths["g4 mark"] = "/" + first("games/g4/reveals")
	w.paths["g4 link"] = "/" + first("games/g4/links")
	w.paths["g1 log"] = "/" + first("games/g1/log")
	w.paths["g3 log"] = "/" + first("games/g3/log")
	w.paths["g3 audit"] = "/" + first("games/g3/rngAudit")
	w.paths["g1 record"] = "/games/g1/actions/" + store.RecordKey("alice", "start")
	seatTable(t, db)
	for _, p := range []string{w.paths["g1 record"], "/games/g1/private/state", "/games/g1/applied/00000000000000000000"} {
		if snap, err := db.Doc(strings.TrimPrefix(p, "/")).Get(ctx); err != nil || !snap.Exists() {
			t.Fatalf("the store did not write %s: %v", p, err)
		}
	}
	app, err := firebase.NewApp(ctx, &firebase.Config{ProjectID: emu.ProjectID()})
	if err != nil {
		t.Fatal(err)
	}
	admin, err := app.Auth(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, u := range users {
		custom, err := admin.CustomToken(ctx, u)
		if err != nil {
			t.Fatal(err)
		}
		uid, tok, err := emu.Auth().SignInWithCustomToken(ctx, custom)
		if err != nil {
			t.Fatal(err)
		}
		if uid != u {
			t.Fatalf("signed in as %q, want %q", uid, u)
		}
		w.tokens[u] = tok
	}
	return w
}

// rulesCase is one end-user request and whether the rules allow it.
type rulesCase struct {
	name  string
	user  string // "" is unauthenticated
	call  call
	allow bool
}

// readCases are the reads: seated players see their game and its log
// (a get of a log document and a listener's query of the log, in both
// layouts), and nothing else is readable by anyone. A path in braces is a
// document the store wrote (world.paths).
var readCases = []rulesCase{
	{"seated owner gets game", "alice", call{"GET", "/games/g1", nil}, true},
	{"seated player gets game", "bob", call{"GET", "/games/g1", nil}, true},
	{"seated player gets log document", "bob", call{"GET", "{g1 log}", nil}, true},
	{"seated player gets old log document", "bob", call{"GET", "{g3 log}", nil}, true},
	{"seated player lists log", "alice", call{"GET", "/games/g1/log", nil}, true},
	{"seated player's listener query of the log", "bob", call{"POST", "/games/g1:runQuery", logQuery()}, true},
	{"seated player's listener query of an old log", "alice", call{"POST", "/games/g3:runQuery", logQuery()}, true},
	{"non-seated player gets game", "carol", call{"GET", "/games/g1", nil}, false},
	{"non-seated player gets log document", "carol", call{"GET", "{g1 log}", nil}, false},
	{"non-seated player gets old log document", "dave", call{"GET", "{g3 log}", nil}, false},
	{"non-seated player lists log", "dave", call{"GET", "/games/g1/log", nil}, false},
	{"non-seated player's listener query of the log", "carol", call{"POST", "/games/g1:runQuery", logQuery()}, false},
	{"non-seated player's listener query of an old log", "dave", call{"POST", "/games/g3:runQuery", logQuery()}, false},
	{"lobby player's listener query of another game's log", "carol", call{"POST", "/games/g3:runQuery", logQuery()}, false},
	{"unauthenticated gets game", "", call{"GET", "/games/g1", nil}, false},
	{"unauthenticated gets log document", "", call{"GET", "{g1 log}", nil}, false},
	{"unauthenticated listener query of the log", "", call{"POST", "/games/g1:runQuery", logQuery()}, false},
	{"signed-in user gets missing game", "alice", call{"GET", "/games/nope", nil}, false},
	{"owner gets private state", "alice", call{"GET", "/games/g1/private/state", nil}, false},
	{"seated player lists private", "bob", call{"GET", "/games/g1/private", nil}, false},
	{"owner gets action record", "alice", call{"GET", "{g1 record}", nil}, false},
	{"seated player lists actions", "bob", call{"GET", "/games/g1/actions", nil}, false},
	{"owner gets applied action", "alice", call{"GET", "/games/g1/applied/00000000000000000000", nil}, false},
	{"seated player gets applied action", "bob", call{"GET", "/games/g1/applied/00000000000000000000", nil}, false},
	{"seated player lists applied actions", "bob", call{"GET", "/games/g1/applied", nil}, false},
	{"owner queries applied actions", "alice", call{"POST", "/games/g1:runQuery", query("applied", false, "", "")}, false},
	{"collection-group query over applied", "alice", call{"POST", ":runQuery", query("applied", true, "", "")}, false},
	{"owner gets old rng audit document", "alice", call{"GET", "{g3 audit}", nil}, false},
	{"seated player lists old rng audit", "bob", call{"GET", "/games/g3/rngAudit", nil}, false},
	{"unauthenticated gets private state", "", call{"GET", "/games/g1/private/state", nil}, false},
	{"list every game", "alice", call{"GET", "/games", nil}, false},
	{"query games unconstrained", "alice", call{"POST", ":runQuery", query("games", false, "", "")}, false},
	{"query someone else's games", "alice", call{"POST", ":runQuery", query("games", false, "playerUids", "carol")}, false},
	{"query own games unauthenticated", "", call{"POST", ":runQuery", query("games", false, "playerUids", "alice")}, false},
	{"collection-group query over logs", "alice", call{"POST", ":runQuery", query("log", true, "", "")}, false},
	{"collection-group query over private", "alice", call{"POST", ":runQuery", query("private", true, "", "")}, false},
	// A trustless round's markers: the seated players'; the staged
	// reveals with their links: nobody's.
	{"seated player gets reveal marker", "bob", call{"GET", "{g4 mark}", nil}, true},
	{"seated player's listener query of the markers", "alice", call{"POST", "/games/g4:runQuery", collQuery("reveals")}, true},
	{"non-seated player gets reveal marker", "carol", call{"GET", "{g4 mark}", nil}, false},
	{"non-seated player's listener query of the markers", "dave", call{"POST", "/games/g4:runQuery", collQuery("reveals")}, false},
	{"unauthenticated gets reveal marker", "", call{"GET", "{g4 mark}", nil}, false},
	{"collection-group query over markers", "alice", call{"POST", ":runQuery", query("reveals", true, "", "")}, false},
	{"owner gets her own staged reveal", "alice", call{"GET", "{g4 link}", nil}, false},
	{"seated player gets a staged reveal", "bob", call{"GET", "{g4 link}", nil}, false},
	{"seated player lists staged reveals", "bob", call{"GET", "/games/g4/links", nil}, false},
	{"seated player's listener query of the staged reveals", "bob", call{"POST", "/games/g4:runQuery", collQuery("links")}, false},
	{"non-seated player's query of the staged reveals", "carol", call{"POST", "/games/g4:runQuery", collQuery("links")}, false},
	{"collection-group query over staged reveals", "alice", call{"POST", ":runQuery", query("links", true, "", "")}, false},
	// The names: a game's, its seated players'; an account's, its own.
	{"seated player gets the game's names", "bob", call{"GET", "/games/g1/names/all", nil}, true},
	{"seated player's listener query of the names", "alice", call{"POST", "/games/g1:runQuery", collQuery("names")}, true},
	{"non-seated player gets the game's names", "carol", call{"GET", "/games/g1/names/all", nil}, false},
	{"non-seated player's listener query of the names", "dave", call{"POST", "/games/g1:runQuery", collQuery("names")}, false},
	{"unauthenticated gets the game's names", "", call{"GET", "/games/g1/names/all", nil}, false},
	{"collection-group query over names", "alice", call{"POST", ":runQuery", query("names", true, "", "")}, false},
	{"user gets her own user document", "alice", call{"GET", "/users/alice", nil}, true},
	{"user gets another's user document", "bob", call{"GET", "/users/alice", nil}, false},
	{"user gets a user document of no account", "dave", call{"GET", "/users/carol", nil}, false},
	{"unauthenticated gets a user document", "", call{"GET", "/users/alice", nil}, false},
	{"user lists the users", "alice", call{"GET", "/users", nil}, false},
	{"user queries the users", "alice", call{"POST", ":runQuery", query("users", false, "", "")}, false},
	// The listings: the functions' alone (a spectator is a signed-in user
	// seated nowhere: every read of a game's documents above is refused
	// to carol and dave, its seat documents in seatReadCases).
	{"owner gets her game's listing", "alice", call{"GET", "/lobby/g1", nil}, false},
	{"spectator gets a game's listing", "dave", call{"GET", "/lobby/g1", nil}, false},
	{"user lists the listings", "dave", call{"GET", "/lobby", nil}, false},
	{"user queries the listings", "dave", call{"POST", ":runQuery", query("lobby", false, "", "")}, false},
	{"unauthenticated gets a listing", "", call{"GET", "/lobby/g1", nil}, false},
}

// writeCases: no client writes anything, seated or owner or not.
var writeCases = []rulesCase{
	{"owner updates game", "alice", call{"PATCH", "/games/g1", fields("ownerUid", "bob")}, false},
	{"seated player updates game", "bob", call{"PATCH", "/games/g1?updateMask.fieldPaths=phase", fields("phase", "over")}, false},
	{"user creates game", "dave", call{"POST", "/games?documentId=g9", fields("ownerUid", "dave")}, false},
	{"owner deletes game", "alice", call{"DELETE", "/games/g1", nil}, false},
	{"owner creates log document", "alice", call{"PATCH", "/games/g1/log/99999999999999999999", fields("type", "GameFinished")}, false},
	{"seated player updates log document", "bob", call{"PATCH", "{g1 log}", fields("type", "cheat")}, false},
	{"seated player updates old log document", "bob", call{"PATCH", "{g3 log}", fields("type", "cheat")}, false},
	{"owner deletes log document", "alice", call{"DELETE", "{g1 log}", nil}, false},
	{"owner writes private state", "alice", call{"PATCH", "/games/g1/private/state", fields("seed", "mine")}, false},
	{"owner deletes private state", "alice", call{"DELETE", "/games/g1/private/state", nil}, false},
	{"seated player lists an applied action", "bob", call{"PATCH", "/games/g1/applied/00000000000000000009", fields("kind", "move")}, false},
	{"owner rewrites an applied action", "alice", call{"PATCH", "/games/g1/applied/00000000000000000000", fields("kind", "start")}, false},
	{"owner deletes an applied action", "alice", call{"DELETE", "/games/g1/applied/00000000000000000000", nil}, false},
	{"seated player records action", "bob", call{"PATCH", "/games/g1/actions/a2", fields("kind", "draw")}, false},
	{"owner writes rng audit", "alice", call{"PATCH", "/games/g1/rngAudit/00002", fields("tag", "x")}, false},
	{"seated player writes a reveal marker", "bob", call{"PATCH", "/games/g4/reveals/00000000000000000001-001", fields("uid", "bob")}, false},
	{"owner rewrites her marker", "alice", call{"PATCH", "{g4 mark}", fields("at", "0")}, false},
	{"seated player stages a reveal", "bob", call{"PATCH", "/games/g4/links/00000000000000000001-001", fields("index", "1")}, false},
	{"owner deletes her staged reveal", "alice", call{"DELETE", "{g4 link}", nil}, false},
	{"seat rewrites its own seat document", "alice", call{"PATCH", "/games/t1/seats/0", fields("private", "{}")}, false},
	{"owner without a seat writes a seat document", "dave", call{"PATCH", "/games/t1/seats/1", fields("uid", "dave")}, false},
	{"unauthenticated creates game", "", call{"PATCH", "/games/g8", fields("ownerUid", "x")}, false},
	{"user writes her own name", "alice", call{"PATCH", "/users/alice", fields("name", "A")}, false},
	{"owner writes her game's listing", "alice", call{"PATCH", "/lobby/g1", fields("visibility", "link")}, false},
	{"user lists a game", "dave", call{"PATCH", "/lobby/g9", fields("visibility", "public")}, false},
	{"user creates her user document", "dave", call{"PATCH", "/users/dave", fields("name", "D")}, false},
	{"user deletes her user document", "alice", call{"DELETE", "/users/alice", nil}, false},
	{"seated player rewrites the game's names", "bob", call{"PATCH", "/games/g1/names/all", fields("byUid", "x")}, false},
	{"seated player deletes the game's names", "bob", call{"DELETE", "/games/g1/names/all", nil}, false},
	{"owner writes elsewhere", "alice", call{"PATCH", "/elsewhere/x", fields("name", "A")}, false},
	{"owner batch-commits an update", "alice", call{"POST", ":commit", map[string]any{"writes": []any{map[string]any{
		"update": map[string]any{"name": "projects/" + emulator.DefaultProjectID + "/databases/(default)/documents/games/g1",
			"fields": map[string]any{"phase": map[string]any{"stringValue": "over"}}},
	}}}}, false},
}

// resolve replaces a {name} path by the document the store wrote.
func (w world) resolve(t *testing.T, c call) call {
	t.Helper()
	if strings.HasPrefix(c.path, "{") {
		p, ok := w.paths[strings.Trim(c.path, "{}")]
		if !ok {
			t.Fatalf("no document %s", c.path)
		}
		c.path = p
	}
	return c
}

// snapshot is every document of the database: path → update time.
func snapshot(t *testing.T, db *firestore.Client) map[string]time.Time {
	t.Helper()
	out := map[string]time.Time{}
	var walk func(cols *firestore.CollectionIterator)
	walk = func(cols *firestore.CollectionIterator) {
		for {
			col, err := cols.Next()
			if err == iterator.Done {
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			snaps, err := col.Documents(t.Context()).GetAll()
			if err != nil {
				t.Fatal(err)
			}
			for _, snap := range snaps {
				out[snap.Ref.Path] = snap.UpdateTime
				walk(snap.Ref.Collections(t.Context()))
			}
		}
	}
	walk(db.Collections(t.Context()))
	return out
}
