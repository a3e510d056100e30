package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	firebase "firebase.google.com/go/v4"

	"github.com/fairboard/fairboard/client"
	"github.com/fairboard/fairboard/deploy"
	"github.com/fairboard/fairboard/functions"
	"github.com/fairboard/fairboard/games/dungeon/engine"
	"github.com/fairboard/fairboard/games/dungeon/server/dungeonclient"
	"github.com/fairboard/fairboard/games/dungeon/server/dungeonclient/fswatch"
	"github.com/fairboard/fairboard/games/dungeon/server/dungeonfn"
	"github.com/fairboard/fairboard/games/dungeon/server/service"
	"github.com/fairboard/fairboard/games/dungeon/server/store/fsstore"
	"github.com/fairboard/fairboard/internal/emulator"
)

var emu = emulator.NewSuite(emulator.Config{Firestore: true, Auth: true, Rules: "firestore.rules"})

func TestMain(m *testing.M) {
	code := emu.Run(m)
	if gamectlBin != "" {
		os.RemoveAll(filepath.Dir(gamectlBin))
	}
	os.Exit(code)
}

var eng = engine.NewReference(engine.DefaultRules())

func quiet() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }

// env is the functions on the Firestore emulator with the Auth
// emulator's tokens, served over HTTP; wrap, if not nil, wraps their
// handler.
type env struct {
	url string
	svc *service.Service
	st  *fsstore.Store
	api http.Handler // the functions, unwrapped
}

func newEnv(t *testing.T, wrap func(inner http.Handler) http.Handler) *env {
	t.Helper()
	emu.Require(t)
	ctx := context.Background()
	v, err := deploy.AdminVerifier(ctx, emu.ProjectID())
	if err != nil {
		t.Fatal(err)
	}
	st := fsstore.New(emu.Client(t))
	svc := service.New(service.Config{Store: st, Engine: eng, Logger: quiet()})
	api := functions.New(dungeonfn.New(svc), v, quiet()).Mux()
	var h http.Handler = api
	if wrap != nil {
		h = wrap(api)
	}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return &env{url: srv.URL, svc: svc, st: st, api: api}
}

var (
	tokMu  sync.Mutex
	tokens = map[string]string{}
)

// token returns an Auth emulator ID token for uid (from an Admin SDK
// custom token, so the uid is ours: p1, p2, ... as the bots'), cached.
func token(t testing.TB, uid string) string {
	t.Helper()
	tokMu.Lock()
	defer tokMu.Unlock()
	if tok, ok := tokens[uid]; ok {
		return tok
	}
	ctx := context.Background()
	app, err := firebase.NewApp(ctx, &firebase.Config{ProjectID: emu.ProjectID()})
	if err != nil {
		t.Fatal(err)
	}
	ac, err := app.Auth(ctx)
	if err != nil {
		t.Fatal(err)
	}
	custom, err := ac.CustomToken(ctx, uid)
	if err != nil {
		t.Fatal(err)
	}
	got, tok, err := emu.Auth().SignInWithCustomToken(ctx, custom)
	if err != nil || got != uid {
		t.Fatalf("sign in %s: uid %q, %v", uid, got, err)
	}
	tokens[uid] = tok
	return tok
}

// functionsAs calls the functions at base as uid.
func functionsAs(t testing.TB, base, uid string) *client.Functions {
	tok := token(t, uid)
	return &client.Functions{Base: base, Token: func(context.Context) (string, error) { return tok, nil }}
}

// listener is the client's Watcher as a Firestore listener of the game,
// as uid (with uid's ID token, under the security rules).
func listener(t testing.TB, gameID, uid string) func(context.Context) (dungeonclient.Watcher, error) {
	return firestoreWatch(t, gameID, uid, false)
}

// reader is listener's watcher with its listeners off: it sees the game
// only through the reads fswatch makes when its listeners are silent.
func reader(t testing.TB, gameID, uid string) func(context.Context) (dungeonclient.Watcher, error) {
	return firestoreWatch(t, gameID, uid, true)
}

func firestoreWatch(t testing.TB, gameID, uid string, poll bool) func(context.Context) (dungeonclient.Watcher, error) {
	tok := token(t, uid)
	return func(ctx context.Context) (dungeonclient.Watcher, error) {
		cfg := fswatch.Config{ProjectID: emu.ProjectID(), Emulator: emu.Firestore().Host, GameID: gameID,
			Token: func(context.Context) (string, error) { return tok, nil }}
		if poll {
			cfg.Poll, cfg.Stale = true, 100*time.Millisecond
		}
		return fswatch.New(ctx, cfg)
	}
}

// rest reads path (under .../documents) over Firestore's REST API as the
// token's user.
func rest(t testing.TB, method, path, tok string, body any) (int, []byte) {
	t.Helper()
	code, out, err := emu.Firestore().REST(context.Background(), method, path, tok, body)
	if err != nil {
		t.Fatal(err)
	}
	return code, out
}

// collQuery is a listener's query of a collection under a game, ordered
// by id (limit 0: all).
func collQuery(coll string) map[string]any {
	return map[string]any{"structuredQuery": map[string]any{
		"from":    []any{map[string]any{"collectionId": coll}},
		"orderBy": []any{map[string]any{"field": map[string]any{"fieldPath": "__name__"}, "direction": "ASCENDING"}},
	}}
}

// callInner calls a function of the unwrapped handler as uid (what a
// player's call gets, without going through a test's wrapper).
func callInner(t testing.TB, h http.Handler, name, uid string, data any) []byte {
	t.Helper()
	body, _ := json.Marshal(map[string]any{"data": data})
	req := httptest.NewRequest(http.MethodPost, "/"+name, bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+token(t, uid))
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	if rec.Code != http.StatusOK {
		t.Fatalf("%s as %s: %d %s", name, uid, rec.Code, rec.Body)
	}
	return rec.Body.Bytes()
}

var (
	gamectlOnce sync.Once
	gamectlBin  string
	gamectlErr  error
)

// gamectl builds cmd/gamectl once for the package's tests.
func gamectl(t *testing.T) string {
	t.Helper()
	gamectlOnce.Do(func() {
		dir, err := os.MkdirTemp("", "fairboard-e2e-gamectl-")
		if err != nil {
			gamectlErr = err
			return
		}
		gamectlBin = filepath.Join(dir, "gamectl")
		out, err := exec.Command("go", "env", "GOMOD").Output()
		if err != nil {
			gamectlErr = err
			return
		}
		cmd := exec.Command("go", "build", "-o", gamectlBin, "./cmd/gamectl")
		cmd.Dir = filepath.Dir(strings.TrimSpace(string(out)))
		if out, err := cmd.CombinedOutput(); err != nil {
			gamectlErr = fmt.Errorf("go build gamectl: %v\n%s", err, out)
		}
	})
	if gamectlErr != nil {
		t.Fatal(gamectlErr)
	}
	return gamectlBin
}
