package functions_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http/httptest"
	"os"
	"strings"
	"testing"

	"github.com/fairboard/fairboard/functest"
	"github.com/fairboard/fairboard/functions"
	"github.com/fairboard/fairboard/functions/callable"
	"github.com/fairboard/fairboard/games/dungeon/engine"
	"github.com/fairboard/fairboard/games/dungeon/policy"
	"github.com/fairboard/fairboard/games/dungeon/server/dungeonfn"
	"github.com/fairboard/fairboard/games/dungeon/server/service"
	"github.com/fairboard/fairboard/games/dungeon/server/store"
	"github.com/fairboard/fairboard/games/dungeon/tools/bot"
)

var eng = engine.NewReference(engine.DefaultRules())

func newServer(t *testing.T, allowSeeded bool) (*functest.Client, *store.Memory) {
	t.Helper()
	mem := store.NewMemory()
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	svc := service.New(service.Config{Store: mem, Engine: eng, AllowSeeded: allowSeeded, Logger: quiet})
	srv := httptest.NewServer(functions.New(dungeonfn.New(svc), functions.InsecureDevVerifier{}, quiet).Mux())
	t.Cleanup(srv.Close)
	return &functest.Client{Base: srv.URL}, mem
}

func seats(n int) []functest.Player {
	out := make([]functest.Player, n)
	for i, c := range policy.DefaultClasses(n) {
		var p policy.Policy = policy.Cautious{}
		if i%2 == 1 {
			p = policy.Aggressive{}
		}
		out[i] = functest.Player{UID: policy.UID(i), Token: "dev:" + policy.UID(i), Seat: bot.Seat{Class: c, Policy: p}}
	}
	return out
}

func TestWholeGameOverHTTP(t *testing.T) {
	c, _ := newServer(t, true)
	ps := seats(3)
	got, _, err := functest.PlayBots(context.Background(), c, "bot-http-1", "http-1", ps, eng.Rules())
	if err != nil {
		t.Fatal(err)
	}
	bs := make([]bot.Seat, len(ps))
	for i := range ps {
		bs[i] = ps[i].Seat
	}
	_, want, err := bot.NewRunner(eng).Play("http-1", bs, nil)
	if err != nil {
		t.Fatal(err)
	}
	a, _ := json.Marshal(got)
	b, _ := json.Marshal(want)
	if string(a) != string(b) {
		t.Errorf("log over HTTP (%d events) differs from the bot driver's (%d)", len(got), len(want))
	}
}

// lobby creates game g owned by p1 with p1 and p2 seated.
func lobby(t *testing.T, c *functest.Client, g string) {
	t.Helper()
	ctx := context.Background()
	must := func(name, tok string, d map[string]any) {
		t.Helper()
		if err := c.Call(ctx, name, tok, d, nil); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
	}
	must("createGame", "dev:p1", map[string]any{"gameId": g, "actionId": "c", "mode": "seeded", "seed": "x"})
	must("joinGame", "dev:p1", map[string]any{"gameId": g, "actionId": "j1", "seat": 0, "class": "warrior"})
	must("joinGame", "dev:p2", map[string]any{"gameId": g, "actionId": "j2", "seat": 1, "class": "monk"})
}

func TestRefusals(t *testing.T) {
	c, _ := newServer(t, true)
	ctx := context.Background()
	lobby(t, c, "g1")
	cases := []struct {
		name, fn, token string
		data            any
		status          string
		http            int
		code            string
	}{
		{"no token", "getView", "", map[string]any{"gameId": "g1"}, string(callable.StatusUnauthenticated), 401, ""},
		{"bad token", "getView", "nope", map[string]any{"gameId": "g1"}, string(callable.StatusUnauthenticated), 401, ""},
		{"non-owner start", "startGame", "dev:p2", map[string]any{"gameId": "g1", "actionId": "s2"}, string(callable.StatusPermissionDenied), 403, "not_owner"},
		{"unknown game", "act", "dev:p1", map[string]any{"gameId": "nope", "actionId": "x", "kind": "move"}, string(callable.StatusNotFound), 404, "not_created"},
		{"unknown view", "getView", "dev:p1", map[string]any{"gameId": "nope"}, string(callable.StatusNotFound), 404, "not_created"},
		{"not started", "act", "dev:p1", map[string]any{"gameId": "g1", "actionId": "m", "kind": "move"}, "", 0, ""},
		{"seat taken", "joinGame", "dev:p3", map[string]any{"gameId": "g1", "actionId": "j3", "seat": 0, "class": "scout"}, string(callable.StatusAlreadyExists), 409, "seat_taken"},
		{"unknown field", "act", "dev:p1", map[string]any{"gameId": "g1", "actionId": "u", "kind": "move", "uid": "p2"}, string(callable.StatusInvalidArgument), 400, ""},
		{"wrong type", "joinGame", "dev:p3", map[string]any{"gameId": "g1", "seat": "0", "class": "scout"}, string(callable.StatusInvalidArgument), 400, ""},
		{"unknown kind", "act", "dev:p1", map[string]any{"gameId": "g1", "actionId": "k", "kind": "teleport"}, string(callable.StatusInvalidArgument), 400, ""},
		{"create via act", "act", "dev:p1", map[string]any{"gameId": "g1", "actionId": "k2", "kind": "create"}, string(callable.StatusInvalidArgument), 400, ""},
		{"no action id", "act", "dev:p1", map[string]any{"gameId": "g1", "kind": "move"}, string(callable.StatusInvalidArgument), 400, ""},
		{"bad game id", "act", "dev:p1", map[string]any{"gameId": "a/b", "actionId": "k3", "kind": "move"}, string(callable.StatusInvalidArgument), 400, ""},
		{"no data", "getView", "dev:p1", nil, string(callable.StatusInvalidArgument), 400, ""},
		{"already created", "createGame", "dev:p2", map[string]any{"gameId": "g1", "actionId": "c2", "mode": "crypto"}, string(callable.StatusAlreadyExists), 409, "already_created"},
		{"own action id for another action", "joinGame", "dev:p1", map[string]any{"gameId": "g1", "actionId": "j1", "seat": 2, "class": "scout"}, string(callable.StatusAlreadyExists), 409, "action_id_reused"},
		{"seat out of range", "joinGame", "dev:p3", map[string]any{"gameId": "g1", "actionId": "j9", "seat": 9, "class": "scout"}, string(callable.StatusInvalidArgument), 400, "invalid_seat"},
		{"negative seat", "joinGame", "dev:p3", map[string]any{"gameId": "g1", "actionId": "j9", "seat": -1, "class": "scout"}, string(callable.StatusInvalidArgument), 400, "invalid_seat"},
		{"bad view id", "getView", "dev:p1", map[string]any{"gameId": "a/b"}, string(callable.StatusInvalidArgument), 400, "invalid_gameId"},
		{"huge cardId", "act", "dev:p1", map[string]any{"gameId": "g1", "actionId": "h", "kind": "discard", "cardId": strings.Repeat("<", 200_000)}, string(callable.StatusInvalidArgument), 400, "invalid_cardId"},
		{"huge target", "act", "dev:p1", map[string]any{"gameId": "g1", "actionId": "h", "kind": "offerDuel", "target": strings.Repeat("u", 129)}, string(callable.StatusInvalidArgument), 400, "invalid_target"},
		{"huge seed", "createGame", "dev:p1", map[string]any{"gameId": "g9", "mode": "seeded", "seed": strings.Repeat("s", 257)}, string(callable.StatusInvalidArgument), 400, "invalid_seed"},
		{"huge kind", "act", "dev:p1", map[string]any{"gameId": "g1", "actionId": "h", "kind": strings.Repeat("k", 100_000)}, string(callable.StatusInvalidArgument), 400, ""},
		{"seed in crypto mode", "createGame", "dev:p1", map[string]any{"gameId": "g9", "seed": "s"}, string(callable.StatusInvalidArgument), 400, "invalid_seed"},
		{"unknown mode", "createGame", "dev:p1", map[string]any{"gameId": "g9", "mode": "fair-ish"}, string(callable.StatusInvalidArgument), 400, "invalid_mode"},
		{"entropy not hex", "joinGame", "dev:p3", map[string]any{"gameId": "g1", "actionId": "j9", "seat": 2, "class": "scout", "entropy": "xyz0"}, string(callable.StatusInvalidArgument), 400, "invalid_entropy"},
		{"entropy too long", "joinGame", "dev:p3", map[string]any{"gameId": "g1", "actionId": "j9", "seat": 2, "class": "scout", "entropy": strings.Repeat("00", 65)}, string(callable.StatusInvalidArgument), 400, "invalid_entropy"},
		{"entropy in a seeded game", "joinGame", "dev:p3", map[string]any{"gameId": "g1", "actionId": "j9", "seat": 2, "class": "scout", "entropy": "00ff"}, string(callable.StatusInvalidArgument), 400, "invalid_action"},
		{"export of a game in its lobby", "exportGame", "dev:p2", map[string]any{"gameId": "g1"}, string(callable.StatusFailedPrecondition), 400, "not_finished"},
		{"shuffles of a game in its lobby", "getShuffle", "dev:p1", map[string]any{"gameId": "g1"}, string(callable.StatusFailedPrecondition), 400, "not_finished"},
		{"shuffles of an unknown deck", "getShuffle", "dev:p1", map[string]any{"gameId": "g1", "deckId": "jokers"}, string(callable.StatusInvalidArgument), 400, "invalid_deckId"},
		{"export with a bad id", "exportGame", "dev:p1", map[string]any{"gameId": "../g1"}, string(callable.StatusInvalidArgument), 400, "invalid_gameId"},
		{"export with an unknown field", "exportGame", "dev:p1", map[string]any{"gameId": "g1", "format": "v2"}, string(callable.StatusInvalidArgument), 400, ""},
		{"unknown algorithm", "verifyShuffle", "dev:p1", map[string]any{"algorithm": "riffle", "seed": "00", "claimed_deck": []string{"0"}}, string(callable.StatusInvalidArgument), 400, "invalid_algorithm"},
		{"seed not hex", "verifyShuffle", "dev:p1", map[string]any{"algorithm": "fisher-yates-v1", "seed": "zz", "claimed_deck": []string{"0"}}, string(callable.StatusInvalidArgument), 400, "invalid_seed"},
		{"oversized deck", "verifyShuffle", "dev:p1", map[string]any{"algorithm": "fisher-yates-v1", "seed": "00", "claimed_deck": make([]string, 5000)}, string(callable.StatusInvalidArgument), 400, "invalid_claimed_deck"},
		{"no deck", "verifyShuffle", "dev:p1", map[string]any{"algorithm": "fisher-yates-v1", "seed": "00"}, string(callable.StatusInvalidArgument), 400, "invalid_claimed_deck"},
		{"deck as a string", "verifyShuffle", "dev:p1", map[string]any{"algorithm": "fisher-yates-v1", "seed": "00", "claimed_deck": "0,1"}, string(callable.StatusInvalidArgument), 400, ""},
		{"deck key misspelt", "verifyShuffle", "dev:p1", map[string]any{"algorithm": "fisher-yates-v1", "seed": "00", "claimedDeck": []string{"0"}}, string(callable.StatusInvalidArgument), 400, ""},
		{"verifyShuffle without a token", "verifyShuffle", "", map[string]any{"algorithm": "fisher-yates-v1", "seed": "00", "claimed_deck": []string{"0"}}, string(callable.StatusUnauthenticated), 401, ""},
	}
	for _, tc := range cases {
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false) // '<' as a client sends it, one byte
		enc.Encode(map[string]any{"data": tc.data})
		body := buf.Bytes()
		a, err := c.Raw(ctx, tc.fn, tc.token, body)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if tc.name == "not started" {
			if a.Error == nil || a.Error.Status != string(callable.StatusFailedPrecondition) && a.Error.Status != string(callable.StatusPermissionDenied) {
				t.Errorf("%s: %+v", tc.name, a.Error)
			}
			continue
		}
		if a.Error == nil || a.Error.Status != tc.status || a.HTTP != tc.http {
			t.Errorf("%s: HTTP %d error %+v; want %s (%d)", tc.name, a.HTTP, a.Error, tc.status, tc.http)
			continue
		}
		if len(a.Error.Message) > 300 {
			t.Errorf("%s: a %d-byte message; a refusal must not echo the input", tc.name, len(a.Error.Message))
		}
		if tc.code != "" && a.Error.Details["code"] != tc.code {
			t.Errorf("%s: details %v; want code %s", tc.name, a.Error.Details, tc.code)
		}
	}
	// Nothing refused changed the game.
	var v functest.View
	if err := c.Call(ctx, "getView", "dev:p3", map[string]any{"gameId": "g1"}, &v); err != nil { // lobby: anyone
		t.Fatal(err)
	}
	if v.State.Version != 3 || v.State.Phase != engine.PhaseLobby || len(v.State.Players) != 2 {
		t.Errorf("game after refusals: version %d phase %s players %d", v.State.Version, v.State.Phase, len(v.State.Players))
	}
}

func TestOutOfTurnAndWrongPlayer(t *testing.T) {
	c, _ := newServer(t, true)
	ctx := context.Background()
	lobby(t, c, "g2")
	if err := c.Call(ctx, "startGame", "dev:p1", map[string]any{"gameId": "g2", "actionId": "s"}, nil); err != nil {
		t.Fatal(err)
	}
	var v functest.View
	if err := c.Call(ctx, "getView", "dev:p1", map[string]any{"gameId": "g2"}, &v); err != nil {
		t.Fatal(err)
	}
	other := "p1"
	if v.State.Awaiting == "p1" {
		other = "p2"
	}
	err := c.Call(ctx, "act", "dev:"+other, map[string]any{"gameId": "g2", "actionId": "o1", "kind": "endManage"}, nil)
	if functest.Status(err) != string(callable.StatusPermissionDenied) {
		t.Errorf("out of turn: %v; want PERMISSION_DENIED", err)
	}
	// A stranger gets exactly the answer of a game that does not exist.
	for _, fn := range []struct {
		name string
		data map[string]any
	}{
		{"act", map[string]any{"gameId": "g2", "actionId": "o2", "kind": "endManage"}},
		{"getView", map[string]any{"gameId": "g2"}},
		{"startGame", map[string]any{"gameId": "g2", "actionId": "o2"}},
		{"joinGame", map[string]any{"gameId": "g2", "actionId": "o2", "seat": 3, "class": "scout"}},
		{"exportGame", map[string]any{"gameId": "g2"}},
		{"getShuffle", map[string]any{"gameId": "g2"}},
		{"getShuffle", map[string]any{"gameId": "g2", "deckId": "treasure.t1"}},
	} {
		raw := func(game string) string {
			d := map[string]any{}
			for k, v := range fn.data {
				d[k] = v
			}
			d["gameId"] = game
			body, _ := json.Marshal(map[string]any{"data": d})
			a, err := c.Raw(ctx, fn.name, "dev:stranger", body)
			if err != nil {
				t.Fatal(err)
			}
			b, _ := json.Marshal(a)
			return string(b)
		}
		got, none := raw("g2"), raw("no-such-game")
		if got != none || !strings.Contains(got, `"NOT_FOUND"`) {
			t.Errorf("stranger's %s of a started game answers %s; a missing game %s (want the same NOT_FOUND)", fn.name, got, none)
		}
	}
	err = c.Call(ctx, "act", "dev:"+v.State.Awaiting, map[string]any{"gameId": "g2", "actionId": "o3", "kind": "endManage", "version": v.State.Version - 1}, nil)
	if functest.Status(err) != string(callable.StatusFailedPrecondition) {
		t.Errorf("stale version: %v; want FAILED_PRECONDITION", err)
	}
}

func TestSeededRefusedInProduction(t *testing.T) {
	c, mem := newServer(t, false)
	err := c.Call(context.Background(), "createGame", "dev:p1", map[string]any{"gameId": "g3", "mode": "seeded", "seed": "s"}, nil)
	e, ok := err.(*functest.Error)
	if !ok || e.Status != string(callable.StatusFailedPrecondition) || !strings.Contains(e.Message, "seeded") {
		t.Fatalf("seeded create in production: %v", err)
	}
	if _, err := mem.Game(context.Background(), "g3"); err == nil {
		t.Error("refused create wrote the game")
	}
	var r functest.Result
	if err := c.Call(context.Background(), "createGame", "dev:p1", map[string]any{"gameId": "g3"}, &r); err != nil || r.Version != 1 {
		t.Errorf("crypto create: %+v, %v", r, err)
	}
}

func TestProtocolShape(t *testing.T) {
	c, _ := newServer(t, true)
	ctx := context.Background()
	for _, body := range []string{`{"data":{"gameId":"g"},"extra":1}`, `not json`, `{"data":{"gameId":"g"}} x`} {
		a, err := c.Raw(ctx, "getView", "dev:p1", []byte(body))
		if err != nil {
			t.Fatal(err)
		}
		if a.Error == nil || a.Error.Status != string(callable.StatusInvalidArgument) {
			t.Errorf("body %s: %+v", body, a.Error)
		}
	}
}

// TestKeysAreCaseSensitive (issue 10, item 6): encoding/json would match
// "ſeat" to seat and "GAMEID" to gameId; keys must match exactly.
func TestKeysAreCaseSensitive(t *testing.T) {
	c, mem := newServer(t, true)
	ctx := context.Background()
	lobby(t, c, "g1")
	lobby(t, c, "y")
	for _, tc := range []struct{ fn, body string }{
		{"joinGame", `{"data":{"gameId":"g1","actionId":"j3","seat":3,"ſeat":2,"class":"scout"}}`},
		{"joinGame", `{"data":{"gameId":"g1","actionId":"j3","Seat":2,"class":"scout"}}`},
		{"startGame", `{"data":{"gameId":"x","GAMEID":"y","actionId":"s"}}`},
		{"getView", `{"data":{"GameId":"g1"}}`},
	} {
		a, err := c.Raw(ctx, tc.fn, "dev:p1", []byte(tc.body))
		if err != nil {
			t.Fatal(err)
		}
		if a.Error == nil || a.Error.Status != string(callable.StatusInvalidArgument) || !strings.Contains(a.Error.Message, "unknown field") {
			t.Errorf("%s %s: %+v; want INVALID_ARGUMENT, unknown field", tc.fn, tc.body, a.Error)
		}
	}
	for _, g := range []string{"g1", "y"} {
		if p, err := mem.Game(ctx, g); err != nil || p.Version != 3 || p.Phase != engine.PhaseLobby {
			t.Errorf("game %s changed: %+v, %v", g, p, err)
		}
	}
}

// TestProbingLeavesNoMemory (issue 10, item 8): on the development
// server's in-memory store, calls on game ids that do not exist leave no
// entry behind, so probing cannot grow its memory.
func TestProbingLeavesNoMemory(t *testing.T) {
	c, mem := newServer(t, true)
	ctx := context.Background()
	lobby(t, c, "g1")
	for i := range 300 {
		id := fmt.Sprintf("probe-%d", i)
		for _, call := range []struct {
			fn   string
			data map[string]any
		}{
			{"act", map[string]any{"gameId": id, "actionId": "a", "kind": "move"}},
			{"getView", map[string]any{"gameId": id}},
			{"joinGame", map[string]any{"gameId": id, "actionId": "j", "seat": 0, "class": "monk"}},
			{"startGame", map[string]any{"gameId": id, "actionId": "s"}},
			{"exportGame", map[string]any{"gameId": id}},
			{"getShuffle", map[string]any{"gameId": id}},
		} {
			if err := c.Call(ctx, call.fn, "dev:mallory", call.data, nil); functest.Status(err) != string(callable.StatusNotFound) {
				t.Fatalf("%s on %s: %v; want NOT_FOUND", call.fn, id, err)
			}
		}
	}
	if n := mem.Games(); n != 1 {
		t.Errorf("the store holds %d games after 1800 probes; want 1", n)
	}
}

// TestEveryFunctionServedAndDeployed: every name of functions.Names has a
// handler, is served by Mux, and is in the deploy loops of the README and
// docs/functions.md (which deploy exactly functions.Names and playConfig).
func TestEveryFunctionServedAndDeployed(t *testing.T) {
	c, _ := newServer(t, true)
	api := functions.New(dungeonfn.New(service.New(service.Config{Store: store.NewMemory(), Engine: eng})), functions.InsecureDevVerifier{}, nil)
	for _, n := range functions.Names {
		if api.Handler(n) == nil {
			t.Errorf("%s has no handler", n)
		}
		a, err := c.Raw(context.Background(), n, "", []byte(`{"data":{}}`))
		if err != nil || a.HTTP != 401 {
			t.Errorf("%s is not served (an unauthenticated call answered %+v, %v)", n, a, err)
		}
	}
	// and playConfig, which serves the play page's configuration
	// (deploy.PlayConfigName; deploy imports this package).
	loop := "for f in " + strings.Join(functions.Names, " ") + " playConfig; do"
	for _, doc := range []string{"../README.md", "../docs/functions.md"} {
		b, err := os.ReadFile(doc)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(b), loop) {
			t.Errorf("%s does not deploy every function with %q", doc, loop)
		}
	}
}
