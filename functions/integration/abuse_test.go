package integration

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"

	"cloud.google.com/go/firestore"

	"github.com/fairboard/fairboard/functest"
	"github.com/fairboard/fairboard/functions/callable"
	"github.com/fairboard/fairboard/games/dungeon/engine"
	"github.com/fairboard/fairboard/internal/checks"
	"github.com/fairboard/fairboard/rng"
)

// The tests of issue 10 ("the functions under abuse and faults") that run
// over HTTP with Auth emulator tokens on the Firestore emulator. The
// faults of a commit are in fault_test.go, the retry storm in
// concurrency_test.go.

// docs counts the documents of a collection (path relative to the root).
func docs(t *testing.T, e *env, path string) int {
	t.Helper()
	snaps, err := e.fc.Collection(path).Documents(context.Background()).GetAll()
	if err != nil {
		t.Fatal(err)
	}
	return len(snaps)
}

// awaitedAction is the bot action of the player the game awaits.
func awaitedAction(t *testing.T, e *env, gameID string, ps []functest.Player) (functest.Player, engine.Action) {
	t.Helper()
	v := view(t, e, gameID, ps[0].Token)
	for _, p := range ps {
		if p.UID == v.State.Awaiting {
			return p, p.Seat.Policy.Choose(&v.State, eng.Rules(), p.UID)
		}
	}
	t.Fatalf("the game awaits %q", v.State.Awaiting)
	return functest.Player{}, engine.Action{}
}

// rawCall posts data as one client would ('<' not escaped), and returns
// the answer.
func rawCall(t *testing.T, e *env, fn, tok string, data any) *functest.Answer {
	t.Helper()
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(map[string]any{"data": data}); err != nil {
		t.Fatal(err)
	}
	a, err := e.c.Raw(context.Background(), fn, tok, b.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// TestStrangerLeavesNothing (issue 10, item 1; and the "also worth the
// same care" paragraph): a signed-in user with no seat in a started game
// writes nothing into it, whatever they send and however fast (before:
// a 1 MB record per rejected call, 10,576 records in 20 s), cannot squat
// a player's next actionId, and gets exactly the answer of a game that
// does not exist (no uid of a player echoed, no hint that it exists).
func TestStrangerLeavesNothing(t *testing.T) {
	e := newEnv(t, nil)
	ps := players(t, 2)
	const g = "stranger"
	started(t, e, g, g, ps, false)
	stranger := token(t, "stranger")
	before := docs(t, e, "games/"+g+"/actions")
	p, a := awaitedAction(t, e, g, ps)
	a.ID = "next-move"

	// The player's next id, squatted; a 1,000,000-character cardId; and a
	// 30-way loop of actions.
	squat := functest.ActData(g, a)
	if got := rawCall(t, e, "act", stranger, squat); got.Error == nil || got.Error.Status != string(callable.StatusNotFound) {
		t.Fatalf("stranger's act: %+v; want NOT_FOUND", got.Error)
	}
	huge := map[string]any{"gameId": g, "actionId": "huge", "kind": "discard", "cardId": strings.Repeat("x", 1_000_000)}
	if got := rawCall(t, e, "act", stranger, huge); got.Error == nil || got.Error.Status != string(callable.StatusInvalidArgument) ||
		!strings.Contains(got.Error.Message, "cardId") {
		t.Fatalf("1,000,000-character cardId: %+v; want INVALID_ARGUMENT naming cardId", got.Error)
	}
	var wg sync.WaitGroup
	for w := range 30 {
		wg.Go(func() {
			for i := range 5 {
				d := functest.ActData(g, a)
				d["actionId"] = fmt.Sprintf("loop-%d-%d", w, i)
				if err := e.c.Call(context.Background(), "act", stranger, d, nil); functest.Status(err) != string(callable.StatusNotFound) {
					t.Errorf("stranger's act %d/%d: %v; want NOT_FOUND", w, i, err)
				}
			}
		})
	}
	wg.Wait()
	if after := docs(t, e, "games/"+g+"/actions"); after != before {
		t.Fatalf("the stranger's calls left %d records", after-before)
	}

	// The player's move with the squatted id applies.
	var r functest.Result
	if err := e.c.Call(context.Background(), "act", p.Token, squat, &r); err != nil || r.Replayed {
		t.Fatalf("the player's own next-move after the stranger's: %+v, %v", r, err)
	}

	// Same answer as a game that does not exist, for every function.
	for _, fn := range []struct {
		name string
		data map[string]any
	}{
		{"act", map[string]any{"actionId": "p", "kind": "move"}},
		{"getView", map[string]any{}},
		{"startGame", map[string]any{"actionId": "p"}},
		{"joinGame", map[string]any{"actionId": "p", "seat": 3, "class": "scout"}},
	} {
		answer := func(game string) string {
			d := map[string]any{"gameId": game}
			for k, v := range fn.data {
				d[k] = v
			}
			b, _ := json.Marshal(rawCall(t, e, fn.name, stranger, d))
			return string(b)
		}
		got, none := answer(g), answer("never-created")
		if got != none || strings.Contains(got, ps[0].UID) || strings.Contains(got, ps[1].UID) {
			t.Errorf("stranger's %s: %s; for a missing game: %s; want the same, naming no player", fn.name, got, none)
		}
	}

	// In a lobby, a stranger's rejected join is not recorded either.
	const l = "stranger-lobby"
	if err := e.c.Call(context.Background(), "createGame", ps[0].Token, map[string]any{"gameId": l, "actionId": "c"}, nil); err != nil {
		t.Fatal(err)
	}
	if err := e.c.Call(context.Background(), "joinGame", ps[0].Token, map[string]any{"gameId": l, "actionId": "j", "seat": 0, "class": "monk"}, nil); err != nil {
		t.Fatal(err)
	}
	before = docs(t, e, "games/"+l+"/actions")
	for i := range 5 {
		err := e.c.Call(context.Background(), "joinGame", stranger, map[string]any{"gameId": l, "actionId": fmt.Sprint("j", i), "seat": 0, "class": "monk"}, nil)
		if functest.Status(err) != string(callable.StatusAlreadyExists) {
			t.Errorf("stranger's join of a taken seat: %v; want ALREADY_EXISTS (seat_taken)", err)
		}
	}
	if after := docs(t, e, "games/"+l+"/actions"); after != before {
		t.Errorf("the stranger's rejected joins left %d records", after-before)
	}
}

// TestGetViewChecksBeforeReading (issue 10, item 2): a stranger's getView
// of a started game reads one document (the game) and never the log. The
// positive control: with the service's membership check off, the same
// getView shows the stranger the game and its players.
func TestGetViewChecksBeforeReading(t *testing.T) {
	e := newEnv(t, nil)
	ps := players(t, 2)
	const g = "view-reads"
	started(t, e, g, g, ps, false)
	stranger := token(t, "stranger")
	r0 := e.st.Stats().Reads
	if err := e.c.Call(context.Background(), "getView", stranger, map[string]any{"gameId": g}, nil); functest.Status(err) != string(callable.StatusNotFound) {
		t.Fatalf("stranger's getView: %v; want NOT_FOUND", err)
	}
	if n := e.st.Stats().Reads - r0; n != 1 {
		t.Errorf("the stranger's getView read %d documents; want 1 (the game)", n)
	}
	r0 = e.st.Stats().Reads
	view(t, e, g, ps[1].Token)
	n := e.st.Stats().Reads - r0
	if logs := docs(t, e, "games/"+g+"/log"); n != 1+int64(logs) {
		t.Errorf("a player's getView read %d documents; want the game and its %d log documents", n, logs)
	}
	t.Run("control", func(t *testing.T) {
		checks.Off(t, checks.Visible)
		var v functest.View
		if err := e.c.Call(context.Background(), "getView", stranger, map[string]any{"gameId": g}, &v); err != nil {
			t.Fatalf("with Visible off, the stranger's getView: %v; want the game", err)
		}
		if len(v.State.Players) != 2 || v.State.Players[0].UID != ps[0].UID {
			t.Fatalf("with Visible off, the stranger's getView shows players %+v; want %s's and %s's", v.State.Players, ps[0].UID, ps[1].UID)
		}
	})
}

// TestBadInputBeforeTheStore (issue 10, items 5, 6 and 9): an oversized
// field, a key that only matches case-insensitively, a seat out of range,
// an invalid id in getView: INVALID_ARGUMENT naming the field, nothing
// written.
func TestBadInputBeforeTheStore(t *testing.T) {
	e := newEnv(t, nil)
	ps := players(t, 2)
	const g = "bad-input"
	if err := e.c.Call(context.Background(), "createGame", ps[0].Token, map[string]any{"gameId": g, "actionId": "c", "mode": "seeded", "seed": g}, nil); err != nil {
		t.Fatal(err)
	}
	if err := e.c.Call(context.Background(), "joinGame", ps[0].Token, map[string]any{"gameId": g, "actionId": "j", "seat": 0, "class": "monk"}, nil); err != nil {
		t.Fatal(err)
	}
	if err := e.c.Call(context.Background(), "createGame", ps[0].Token, map[string]any{"gameId": "y", "actionId": "c"}, nil); err != nil {
		t.Fatal(err)
	}
	actions := docs(t, e, "games/"+g+"/actions")
	for _, tc := range []struct {
		name, fn, body, want string
	}{
		{"200,000 '<' in cardId", "act", `{"data":{"gameId":"` + g + `","actionId":"lt","kind":"discard","cardId":"` + strings.Repeat("<", 200_000) + `"}}`, "data.cardId"},
		{"seat and a folded seat", "joinGame", `{"data":{"gameId":"` + g + `","actionId":"j2","seat":3,"ſeat":1,"class":"scout"}}`, `unknown field "ſeat"`},
		{"gameId and GAMEID", "startGame", `{"data":{"gameId":"x","GAMEID":"y","actionId":"s"}}`, `unknown field "GAMEID"`},
		{"seat out of range", "joinGame", `{"data":{"gameId":"` + g + `","actionId":"j3","seat":9,"class":"scout"}}`, "data.seat"},
		{"invalid id in getView", "getView", `{"data":{"gameId":"a/b"}}`, "data.gameId"},
		{"invalid id in act", "act", `{"data":{"gameId":"a/b","actionId":"x","kind":"move"}}`, "data.gameId"},
	} {
		a, err := e.c.Raw(context.Background(), tc.fn, ps[1].Token, []byte(tc.body))
		if err != nil {
			t.Fatal(err)
		}
		if a.Error == nil || a.Error.Status != string(callable.StatusInvalidArgument) || !strings.Contains(a.Error.Message, tc.want) {
			t.Errorf("%s: %+v; want INVALID_ARGUMENT containing %q", tc.name, a.Error, tc.want)
		}
	}
	if n := docs(t, e, "games/"+g+"/actions"); n != actions {
		t.Errorf("bad input wrote %d records", n-actions)
	}
	v := view(t, e, g, ps[0].Token)
	if len(v.State.Players) != 1 || v.State.Players[0].Seat != 0 {
		t.Errorf("players after the bad joins: %+v", v.State.Players)
	}
	if y := view(t, e, "y", ps[0].Token); y.State.Phase != engine.PhaseLobby {
		t.Errorf("game y: phase %s; the GAMEID request must not start it", y.State.Phase)
	}
}

// TestMigrationAndAuditTimestamps (issue 10, item 10): a game stored
// without rng.mode is played as a crypto game and the mode is stored at
// its next action; audit entries carry the server's ts.
func TestMigrationAndAuditTimestamps(t *testing.T) {
	e := newEnv(t, nil)
	ctx := context.Background()
	ps := players(t, 2)
	const g = "no-mode"
	if err := e.c.Call(ctx, "createGame", ps[0].Token, map[string]any{"gameId": g, "actionId": "c", "audit": true}, nil); err != nil {
		t.Fatal(err)
	}
	for i, p := range ps {
		if err := e.c.Call(ctx, "joinGame", p.Token, map[string]any{"gameId": g, "actionId": "j", "seat": i, "class": p.Seat.Class}, nil); err != nil {
			t.Fatal(err)
		}
	}
	ref := e.fc.Doc("games/" + g)
	if _, err := ref.Update(ctx, []firestore.Update{{FieldPath: firestore.FieldPath{"rng", "mode"}, Value: firestore.Delete}}); err != nil {
		t.Fatal(err)
	}
	snap, err := ref.Get(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := snap.Data()["rng"].(map[string]any)["mode"]; ok {
		t.Fatal("rng.mode still stored")
	}
	if v := view(t, e, g, ps[0].Token); v.State.RNG.Mode != rng.ModeCrypto {
		t.Errorf("getView of a game without rng.mode: mode %q; want crypto", v.State.RNG.Mode)
	}
	if err := e.c.Call(ctx, "startGame", ps[0].Token, map[string]any{"gameId": g, "actionId": "s"}, nil); err != nil {
		t.Fatalf("start of a game stored without rng.mode: %v", err)
	}
	snap, err = ref.Get(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if mode := snap.Data()["rng"].(map[string]any)["mode"]; mode != "crypto" {
		t.Errorf("stored rng.mode after start: %v; want crypto", mode)
	}
	priv, err := e.fc.Doc("games/" + g + "/private/state").Get(ctx)
	if err != nil {
		t.Fatal(err)
	}
	ring, _ := priv.Data()["auditRing"].(map[string]any)
	if len(ring) == 0 {
		t.Fatalf("audit ring: %d entries in the private state", len(ring))
	}
	for slot, d := range ring {
		var e struct{ TS int64 }
		if err := json.Unmarshal([]byte(d.(string)), &e); err != nil || e.TS != fixedNow.UnixMilli() {
			t.Fatalf("auditRing.%s = %v (%v); want an entry with the server's ts %d", slot, d, err, fixedNow.UnixMilli())
		}
	}
}
