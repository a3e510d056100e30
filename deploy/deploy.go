// Package deploy wires the game's functions to Google Cloud for a
// deployment: Firestore as the store, the Firebase Admin SDK as the token
// verifier, and the Functions Framework registration of every function
// of functions.Names. It is the only package of the
// server that imports those clients, so that everything else (the handlers
// in package functions, the in-memory store, gamectl's default build)
// builds without them. The repository's root package imports it.
package deploy

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"sync"
	"time"

	"cloud.google.com/go/firestore"

	"github.com/fairboard/fairboard/functions"
	"github.com/fairboard/fairboard/games/registry"
	"github.com/fairboard/fairboard/games/registry/server"
	"github.com/fairboard/fairboard/games/registry/server/fsserver"
	"github.com/fairboard/fairboard/lobby/fslobby"
	"github.com/fairboard/fairboard/names/fsnames"
	"github.com/fairboard/fairboard/tablestore/fstables"
)

// The deployment's environment variables.
const (
	// EnvAllowSeeded = "1" lets createGame make seeded games. Development
	// deployments only: a seeded game is replayable by anyone who learns
	// its seed.
	EnvAllowSeeded = "FAIRBOARD_ALLOW_SEEDED"
	// EnvAudit = "1" turns the RNG audit ring on for every new game
	// (otherwise a create asks for it with "audit": true).
	EnvAudit = "FAIRBOARD_AUDIT"
	// EnvStoreLayout = "previous" makes the dungeon's store write what
	// the previous release wrote (fsserver.Open's previousLayout:
	// fsstore.WithPreviousLayout), for the first step of a rolling
	// deploy (docs/store.md); "" or "current" is this release's layout.
	EnvStoreLayout = "FAIRBOARD_STORE_LAYOUT"
)

// StoreLayout reads a value of EnvStoreLayout: "" or "current" false,
// "previous" true (the previous release's layout); anything else is an
// error naming it.
func StoreLayout(layout string) (previous bool, err error) {
	switch layout {
	case "", "current":
		return false, nil
	case "previous":
		return true, nil
	}
	return false, fmt.Errorf("deploy: %s=%q: want \"current\" (or unset) or \"previous\"", EnvStoreLayout, layout)
}

// Deployed returns the handler of the named function in a deployment:
// it builds the API from the environment on first use ([FromEnv]) and
// answers UNAVAILABLE while that fails.
func Deployed(name string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		a, err := deployed()
		if err != nil {
			slog.Error("deploy: not configured", "err", err)
			w.Header().Set("Content-Type", "application/json; charset=utf-8")
			w.WriteHeader(http.StatusServiceUnavailable)
			w.Write([]byte(`{"error":{"status":"UNAVAILABLE","message":"service not configured"}}`))
			return
		}
		a.Handler(name)(w, r)
	}
}

// The deployed entry points, one per function, for a buildpack's
// generated main or a root package that re-exports them.
var (
	CreateGame    = Deployed("createGame")
	JoinGame      = Deployed("joinGame")
	StartGame     = Deployed("startGame")
	Act           = Deployed("act")
	GetView       = Deployed("getView")
	ExportGame    = Deployed("exportGame")
	GetShuffle    = Deployed("getShuffle")
	VerifyShuffle = Deployed("verifyShuffle")
	Reveal        = Deployed("reveal")
	SetName       = Deployed("setName")
	GetName       = Deployed("getName")
	ListOpenGames = Deployed("listOpenGames")
	Rematch       = Deployed("rematch")
	Sweep         = Deployed(functions.SweepName)
)

var (
	deployOnce sync.Once
	deployAPI  *functions.API
	deployErr  error
)

// deployed builds the API of a deployment from the environment once:
// Firestore and the Admin SDK for GOOGLE_CLOUD_PROJECT (emulators when
// FIRESTORE_EMULATOR_HOST / FIREBASE_AUTH_EMULATOR_HOST are set).
func deployed() (*functions.API, error) {
	deployOnce.Do(func() { deployAPI, deployErr = FromEnv(context.Background()) })
	return deployAPI, deployErr
}

// FromEnv builds an API on Firestore and Firebase Auth for the project
// in GOOGLE_CLOUD_PROJECT (or GCLOUD_PROJECT), with seeded mode, audit
// and the store's layout from EnvAllowSeeded, EnvAudit and EnvStoreLayout. Tokens of disabled accounts and
// revoked sessions are refused (CheckRevoked(DefaultRevocationTTL)). It
// fails if FIREBASE_AUTH_EMULATOR_HOST is set beside a project that is not
// a demo- project.
func FromEnv(ctx context.Context) (*functions.API, error) {
	project := os.Getenv("GOOGLE_CLOUD_PROJECT")
	if project == "" {
		project = os.Getenv("GCLOUD_PROJECT")
	}
	if project == "" {
		return nil, errors.New("deploy: GOOGLE_CLOUD_PROJECT is not set")
	}
	previous, err := StoreLayout(os.Getenv(EnvStoreLayout))
	if err != nil {
		return nil, err
	}
	tableIdle, lobbyIdle, err := idleFromEnv(os.Getenv)
	if err != nil {
		return nil, err
	}
	v, err := AdminVerifier(ctx, project, CheckRevoked(DefaultRevocationTTL))
	if err != nil {
		return nil, err
	}
	fairDeadline, err := FairDeadline(os.Getenv(EnvFairDeadline))
	if err != nil {
		return nil, err
	}
	ackKey, err := AckKey(os.Getenv(EnvAckKey))
	if err != nil {
		return nil, err
	}
	if ackKey != nil {
		slog.Info("deploy: reveals and deal messages (the dungeon's and the tables') are acknowledged with the server's signature", "ackPublicKey", AckPublicKey(ackKey))
	}
	c, err := firestore.NewClient(ctx, project)
	if err != nil {
		return nil, err
	}
	// The dungeon's store, reading the actions with their field mask
	// (fsserver.Open closes c if it fails).
	dungeon, err := fsserver.Open(ctx, c, previous, server.Config{
		AckKey:       ackKey,
		AllowSeeded:  os.Getenv(EnvAllowSeeded) == "1",
		ForceAudit:   os.Getenv(EnvAudit) == "1",
		FairDeadline: fairDeadline,
	})
	if err != nil {
		return nil, err
	}
	api := functions.New(dungeon, v, nil).WithTables(fstables.New(c, registry.Lookup)).OneIDSpace().WithNames(fsnames.New(c)).WithLobby(fslobby.New(c)).
		WithAckKey(ackKey).WithTableIdle(tableIdle, lobbyIdle)
	if aud, inv := os.Getenv(EnvSweepAudience), os.Getenv(EnvSweepInvoker); aud != "" || inv != "" {
		auth, err := OIDCSweepAuthorizer(ctx, aud, inv)
		if err != nil {
			return nil, err
		}
		api.WithSweep(auth)
	}
	return api, nil
}

// FairDeadline reads EnvFairDeadline: "" the service's default (0), "off"
// never (-1), else a positive Go duration ("48h").
func FairDeadline(v string) (time.Duration, error) { return durationOrOff(EnvFairDeadline, v, "48h") }
