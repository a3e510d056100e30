package rulestest

import (
	"net/http"
	"os"
	"slices"
	"strings"
	"testing"

	firebase "firebase.google.com/go/v4"

	"github.com/fairboard/fairboard/internal/emulator"
)

var emu = emulator.NewSuite(emulator.Config{Firestore: true, Auth: true, Rules: "firestore.rules"})

func TestMain(m *testing.M) { os.Exit(emu.Run(m)) }

// world is the seeded database and the users' ID tokens.
type world struct {
	tokens map[string]string // uid → ID token from the Auth emulator
}

// Users: alice owns g1 and sits in it with bob; carol alone sits in g2;
// dave sits nowhere.
var users = []string{"alice", "bob", "carol", "dave"}

// setup resets both emulators, seeds the documents through the Admin
// client and signs every user in through the Auth emulator.
func setup(t *testing.T) world {
	t.Helper()
	emu.Require(t)
	emu.Reset(t)
	ctx := t.Context()
	db := emu.Client(t)
	docs := map[string]map[string]any{
		"games/g1":                              {"ownerUid": "alice", "playerUids": []any{"alice", "bob"}, "phase": "play"},
		"games/g2":                              {"ownerUid": "carol", "playerUids": []any{"carol"}, "phase": "setup"},
		"games/g1/log/0001":                     {"kind": "deal", "seat": 0},
		"games/g2/log/0001":                     {"kind": "deal", "seat": 0},
		"games/g1/private/state":                {"deck": []any{"7H", "2C"}, "seed": "s3cr3t", "rngState": "sfc32:1:2:3:4"},
		"games/g1/actions/a1":                   {"uid": "alice", "kind": "draw"},
		"games/g1/applied/00000000000000000000": {"version": 0, "action": map[string]any{"kind": "join", "actor": "bob", "entropy": "0badc0de"}},
		"games/g1/rngAudit/00001":               {"tag": "deck.shuffle", "value": 17},
	}
	paths := make([]string, 0, len(docs))
	for p := range docs {
		paths = append(paths, p)
	}
	slices.Sort(paths)
	for _, p := range paths {
		if _, err := db.Doc(p).Set(ctx, docs[p]); err != nil {
			t.Fatalf("seed %s: %v", p, err)
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
	w := world{tokens: map[string]string{}}
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

// readCases are the reads: seated players see their game and its log, and
// nothing else is readable by anyone.
var readCases = []rulesCase{
	{"seated owner gets game", "alice", call{"GET", "/games/g1", nil}, true},
	{"seated player gets game", "bob", call{"GET", "/games/g1", nil}, true},
	{"seated player gets log entry", "bob", call{"GET", "/games/g1/log/0001", nil}, true},
	{"seated player lists log", "alice", call{"GET", "/games/g1/log", nil}, true},
	{"non-seated player gets game", "carol", call{"GET", "/games/g1", nil}, false},
	{"non-seated player gets log entry", "carol", call{"GET", "/games/g1/log/0001", nil}, false},
	{"non-seated player lists log", "dave", call{"GET", "/games/g1/log", nil}, false},
	{"unauthenticated gets game", "", call{"GET", "/games/g1", nil}, false},
	{"unauthenticated gets log entry", "", call{"GET", "/games/g1/log/0001", nil}, false},
	{"signed-in user gets missing game", "alice", call{"GET", "/games/nope", nil}, false},
	{"owner gets private state", "alice", call{"GET", "/games/g1/private/state", nil}, false},
	{"seated player lists private", "bob", call{"GET", "/games/g1/private", nil}, false},
	{"owner gets action record", "alice", call{"GET", "/games/g1/actions/a1", nil}, false},
	{"seated player lists actions", "bob", call{"GET", "/games/g1/actions", nil}, false},
	{"owner gets applied action", "alice", call{"GET", "/games/g1/applied/00000000000000000000", nil}, false},
	{"seated player gets applied action", "bob", call{"GET", "/games/g1/applied/00000000000000000000", nil}, false},
	{"seated player lists applied actions", "bob", call{"GET", "/games/g1/applied", nil}, false},
	{"owner queries applied actions", "alice", call{"POST", "/games/g1:runQuery", query("applied", false, "", "")}, false},
	{"collection-group query over applied", "alice", call{"POST", ":runQuery", query("applied", true, "", "")}, false},
	{"owner gets rng audit entry", "alice", call{"GET", "/games/g1/rngAudit/00001", nil}, false},
	{"seated player lists rng audit", "bob", call{"GET", "/games/g1/rngAudit", nil}, false},
	{"unauthenticated gets private state", "", call{"GET", "/games/g1/private/state", nil}, false},
	{"list every game", "alice", call{"GET", "/games", nil}, false},
	{"query games unconstrained", "alice", call{"POST", ":runQuery", query("games", false, "", "")}, false},
	{"query someone else's games", "alice", call{"POST", ":runQuery", query("games", false, "playerUids", "carol")}, false},
	{"query own games unauthenticated", "", call{"POST", ":runQuery", query("games", false, "playerUids", "alice")}, false},
	{"collection-group query over logs", "alice", call{"POST", ":runQuery", query("log", true, "", "")}, false},
	{"collection-group query over private", "alice", call{"POST", ":runQuery", query("private", true, "", "")}, false},
}

// writeCases: no client writes anything, seated or owner or not.
var writeCases = []rulesCase{
	{"owner updates game", "alice", call{"PATCH", "/games/g1", fields("ownerUid", "bob")}, false},
	{"seated player updates game", "bob", call{"PATCH", "/games/g1?updateMask.fieldPaths=phase", fields("phase", "over")}, false},
	{"user creates game", "dave", call{"POST", "/games?documentId=g9", fields("ownerUid", "dave")}, false},
	{"owner deletes game", "alice", call{"DELETE", "/games/g1", nil}, false},
	{"owner creates log entry", "alice", call{"PATCH", "/games/g1/log/0002", fields("kind", "win")}, false},
	{"seated player updates log entry", "bob", call{"PATCH", "/games/g1/log/0001", fields("kind", "cheat")}, false},
	{"owner deletes log entry", "alice", call{"DELETE", "/games/g1/log/0001", nil}, false},
	{"owner writes private state", "alice", call{"PATCH", "/games/g1/private/state", fields("seed", "mine")}, false},
	{"owner deletes private state", "alice", call{"DELETE", "/games/g1/private/state", nil}, false},
	{"seated player lists an applied action", "bob", call{"PATCH", "/games/g1/applied/00000000000000000009", fields("kind", "move")}, false},
	{"owner rewrites an applied action", "alice", call{"PATCH", "/games/g1/applied/00000000000000000000", fields("kind", "start")}, false},
	{"owner deletes an applied action", "alice", call{"DELETE", "/games/g1/applied/00000000000000000000", nil}, false},
	{"seated player records action", "bob", call{"PATCH", "/games/g1/actions/a2", fields("kind", "draw")}, false},
	{"owner writes rng audit", "alice", call{"PATCH", "/games/g1/rngAudit/00002", fields("tag", "x")}, false},
	{"unauthenticated creates game", "", call{"PATCH", "/games/g8", fields("ownerUid", "x")}, false},
	{"owner writes elsewhere", "alice", call{"PATCH", "/users/alice", fields("name", "A")}, false},
	{"owner batch-commits an update", "alice", call{"POST", ":commit", map[string]any{"writes": []any{map[string]any{
		"update": map[string]any{"name": "projects/" + emulator.DefaultProjectID + "/databases/(default)/documents/games/g1",
			"fields": map[string]any{"phase": map[string]any{"stringValue": "over"}}},
	}}}}, false},
}

func TestRules(t *testing.T) {
	w := setup(t)
	for _, group := range [][]rulesCase{readCases, writeCases} {
		for _, tc := range group {
			t.Run(tc.name, func(t *testing.T) {
				code, body := do(t, tc.call, w.tokens[tc.user])
				switch {
				case tc.allow && code != http.StatusOK:
					t.Fatalf("%s %s as %q: %d %s, want 200", tc.call.method, tc.call.path, tc.user, code, body)
				case !tc.allow && code != http.StatusForbidden:
					t.Fatalf("%s %s as %q: %d %s, want 403 PERMISSION_DENIED", tc.call.method, tc.call.path, tc.user, code, body)
				case !tc.allow && !strings.Contains(string(body), "PERMISSION_DENIED"):
					t.Fatalf("denial body %s lacks PERMISSION_DENIED", body)
				}
			})
		}
	}
	// No denied write changed anything.
	db, err := emu.Firestore().Client(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	g1, err := db.Doc("games/g1").Get(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if g1.Data()["ownerUid"] != "alice" || g1.Data()["phase"] != "play" {
		t.Errorf("games/g1 changed: %v", g1.Data())
	}
	for _, p := range []string{"games/g9", "games/g8", "games/g1/log/0002", "users/alice", "games/g1/actions/a2", "games/g1/applied/00000000000000000009"} {
		if snap, err := db.Doc(p).Get(t.Context()); err == nil && snap.Exists() {
			t.Errorf("%s was created by a denied write", p)
		}
	}
	if s, err := db.Doc("games/g1/private/state").Get(t.Context()); err != nil || s.Data()["seed"] != "s3cr3t" {
		t.Errorf("private state changed or gone: %v %v", s.Data(), err)
	}
	if s, err := db.Doc("games/g1/applied/00000000000000000000").Get(t.Context()); err != nil || s.Data()["action"].(map[string]any)["kind"] != "join" {
		t.Errorf("applied action changed or gone: %v %v", s.Data(), err)
	}
}

// A seated player's own-games query, the one the client makes, returns
// exactly the games they sit in.
func TestQueryOwnGames(t *testing.T) {
	w := setup(t)
	for _, tc := range []struct {
		user string
		want []string
	}{{"alice", []string{"g1"}}, {"bob", []string{"g1"}}, {"carol", []string{"g2"}}, {"dave", nil}} {
		user, want := tc.user, tc.want
		code, body := do(t, call{"POST", ":runQuery", query("games", false, "playerUids", user)}, w.tokens[user])
		if code != http.StatusOK {
			t.Fatalf("%s's own-games query: %d %s", user, code, body)
		}
		var got []string
		for _, n := range queryNames(t, body) {
			got = append(got, n[strings.LastIndexByte(n, '/')+1:])
		}
		if !slices.Equal(got, want) {
			t.Errorf("%s's games = %v, want %v", user, got, want)
		}
	}
}

// The allowed reads return the seeded data, not an empty shell.
func TestSeatedReadReturnsDocument(t *testing.T) {
	w := setup(t)
	code, body := do(t, call{"GET", "/games/g1/log/0001", nil}, w.tokens["bob"])
	if code != http.StatusOK || !strings.Contains(string(body), `"deal"`) {
		t.Fatalf("bob reads g1/log/0001: %d %s", code, body)
	}
}

// A malformed bearer is rejected (the emulator answers 400 "invalid jwt"),
// never treated as a user or as anonymous.
func TestGarbageTokenRejected(t *testing.T) {
	setup(t)
	code, body := do(t, call{"GET", "/games/g1", nil}, "not-a-token")
	if code != http.StatusBadRequest && code != http.StatusUnauthorized && code != http.StatusForbidden {
		t.Fatalf("garbage token read games/g1: %d %s, want a rejection", code, body)
	}
}
