package integration

import (
	"context"
	"io"
	"log/slog"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"cloud.google.com/go/firestore"
	firebase "firebase.google.com/go/v4"
	"google.golang.org/grpc"

	"github.com/fairboard/fairboard/audit"
	"github.com/fairboard/fairboard/deploy"
	"github.com/fairboard/fairboard/functest"
	"github.com/fairboard/fairboard/functions"
	"github.com/fairboard/fairboard/games/dungeon/engine"
	"github.com/fairboard/fairboard/games/dungeon/server/dungeonfn"
	"github.com/fairboard/fairboard/games/dungeon/server/service"
	"github.com/fairboard/fairboard/games/dungeon/server/store/fsstore"
	"github.com/fairboard/fairboard/internal/emulator"
)

// The Firestore emulator enforces the project's security rules for end-user
// requests; the functions' admin client bypasses them, as in production.
var emu = emulator.NewSuite(emulator.Config{Firestore: true, Auth: true, Rules: "firestore.rules"})

func TestMain(m *testing.M) {
	code := emu.Run(m)
	if gamectlBin != "" {
		os.RemoveAll(filepath.Dir(gamectlBin))
	}
	os.Exit(code)
}

var eng = engine.NewReference(engine.DefaultRules())

// fixedNow is the service clock in these tests, so replays can reproduce
// the states exactly.
var fixedNow = time.UnixMilli(1_760_000_000_000)

// env is one server: the real handlers on the emulators.
type env struct {
	c     *functest.Client
	svc   *service.Service
	st    *fsstore.Store
	fc    *firestore.Client
	audit *countingAudit
}

func quiet() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }

// newEnv starts a server on the suite's emulators; mod adjusts the
// service's configuration (AllowSeeded is on unless mod turns it off).
func newEnv(t testing.TB, mod func(*service.Config)) *env {
	t.Helper()
	return newFaultyEnv(t, mod, nil)
}

// newFaultyEnv is newEnv with the Firestore client's calls going through
// faults (nil: none) and the store's options.
func newFaultyEnv(t testing.TB, mod func(*service.Config), faults *emulator.Faults, opts ...fsstore.Option) *env {
	t.Helper()
	emu.Require(t)
	ctx := context.Background()
	var dial []grpc.DialOption
	if faults != nil {
		dial = faults.DialOptions()
	}
	fc := emu.Client(t, dial...)
	v, err := deploy.AdminVerifier(ctx, emu.ProjectID())
	if err != nil {
		t.Fatal(err)
	}
	// Read as a deployed store does: with the field mask (fsstore.WithRPC).
	st := fsstore.New(fc, append([]fsstore.Option{fsstore.WithRPC(emu.RPC(t, dial...))}, opts...)...)
	e := &env{st: st, fc: fc, audit: &countingAudit{w: st}}
	cfg := service.Config{Store: st, Engine: eng, AllowSeeded: true, Audit: e.audit, Logger: quiet(),
		Now: func() time.Time { return fixedNow }}
	if mod != nil {
		mod(&cfg)
	}
	e.svc = service.New(cfg)
	srv := httptest.NewServer(functions.New(dungeonfn.New(e.svc), v, quiet()).Mux())
	t.Cleanup(srv.Close)
	e.c = &functest.Client{Base: srv.URL}
	return e
}

// countingAudit passes audit writes to w, or fails them while fail is set.
type countingAudit struct {
	w    service.AuditWriter
	mu   sync.Mutex
	fail bool
}

func (a *countingAudit) WriteAudit(ctx context.Context, g string, es []audit.Entry) (int, error) {
	a.mu.Lock()
	fail := a.fail
	a.mu.Unlock()
	if fail {
		return 0, errInjected
	}
	return a.w.WriteAudit(ctx, g, es)
}

// customToken is an Admin SDK custom token for uid, which a client
// exchanges with the Auth emulator for an ID token.
func customToken(t testing.TB, uid string) string {
	t.Helper()
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
	return custom
}

var (
	tokMu  sync.Mutex
	tokens = map[string]string{}
)

// token returns an Auth emulator ID token for uid (made from an Admin SDK
// custom token, so the uid is ours to choose: p1, p2, ... as the bots use).
func token(t testing.TB, uid string) string {
	t.Helper()
	tokMu.Lock()
	defer tokMu.Unlock()
	if tok, ok := tokens[uid]; ok {
		return tok
	}
	ctx := context.Background()
	got, tok, err := emu.Auth().SignInWithCustomToken(ctx, customToken(t, uid))
	if err != nil || got != uid {
		t.Fatalf("sign in %s: uid %q, %v", uid, got, err)
	}
	tokens[uid] = tok
	return tok
}
