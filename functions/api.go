// Package functions is the game's HTTP API as Cloud Functions (2nd gen) on
// the Functions Framework for Go, speaking Firebase's callable protocol so
// a client's httpsCallable works unchanged: createGame, joinGame,
// startGame, act and getView. Each verifies the caller's Firebase ID token
// (the uid comes from the token, never from the body), decodes the body's
// data strictly, runs the action through the service (one Firestore
// transaction) and maps the outcome to a callable status (see
// docs/functions.md for the table).
//
// [API] holds the handlers; deploy.go registers them with the Functions
// Framework, wired from the environment; cmd/gamectl serve runs them
// locally.
package functions

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"

	"github.com/fairboard/fairboard/engine"
	"github.com/fairboard/fairboard/functions/callable"
	"github.com/fairboard/fairboard/rng"
	"github.com/fairboard/fairboard/service"
)

// Names lists the functions, as deployed (entry points are the same
// names with a capital: CreateGame, ...).
var Names = []string{"createGame", "joinGame", "startGame", "act", "getView"}

// API serves the functions over one service and token verifier.
type API struct {
	svc    *service.Service
	verify callable.TokenVerifier
	log    *slog.Logger
}

// New returns the API with the token verifier (AdminVerifier's client,
// or InsecureDevVerifier for local development). log may be nil
// (slog.Default()).
func New(svc *service.Service, v callable.TokenVerifier, log *slog.Logger) *API {
	if log == nil {
		log = slog.Default()
	}
	return &API{svc: svc, verify: v, log: log}
}

// Service returns the API's service.
func (a *API) Service() *service.Service { return a.svc }

// Handler returns the handler of the named function, or nil.
func (a *API) Handler(name string) http.HandlerFunc {
	switch name {
	case "createGame":
		return a.CreateGame
	case "joinGame":
		return a.JoinGame
	case "startGame":
		return a.StartGame
	case "act":
		return a.Act
	case "getView":
		return a.GetView
	}
	return nil
}

// Mux serves every function at /NAME (the emulator-style path a client's
// httpsCallableFromURL can target).
func (a *API) Mux() *http.ServeMux {
	m := http.NewServeMux()
	for _, n := range Names {
		m.HandleFunc("/"+n, a.Handler(n))
	}
	return m
}

// CreateGame creates a game owned by the caller: data [CreateRequest],
// result [service.Result].
func (a *API) CreateGame(w http.ResponseWriter, r *http.Request) {
	a.serve(w, r, "createGame", func(ctx context.Context, uid string, data json.RawMessage) (any, error) {
		var q CreateRequest
		if err := decodeData(data, &q); err != nil {
			return nil, err
		}
		mode := q.Mode
		switch mode {
		case "":
			mode = string(rng.ModeCrypto)
		case string(rng.ModeCrypto), string(rng.ModeSeeded):
		default:
			return nil, invalid("mode must be \"crypto\" or \"seeded\"")
		}
		if mode == string(rng.ModeSeeded) && q.Seed == "" {
			return nil, invalid("seeded mode needs a seed")
		}
		if mode == string(rng.ModeCrypto) && q.Seed != "" {
			return nil, invalid("a seed is only for seeded mode")
		}
		return a.svc.Do(ctx, q.GameID, engine.Action{Kind: engine.ActCreate, Actor: uid, ID: q.ActionID,
			GameID: q.GameID, Mode: mode, Seed: q.Seed, Audit: q.Audit})
	})
}

// JoinGame seats the caller: data [JoinRequest], result [service.Result].
func (a *API) JoinGame(w http.ResponseWriter, r *http.Request) {
	a.serve(w, r, "joinGame", func(ctx context.Context, uid string, data json.RawMessage) (any, error) {
		var q JoinRequest
		if err := decodeData(data, &q); err != nil {
			return nil, err
		}
		return a.svc.Do(ctx, q.GameID, engine.Action{Kind: engine.ActJoin, Actor: uid, ID: q.ActionID,
			Seat: q.Seat, Class: q.Class, KeepSmokeBomb: q.KeepSmokeBomb})
	})
}

// StartGame starts the caller's game (owner only): data [StartRequest],
// result [service.Result].
func (a *API) StartGame(w http.ResponseWriter, r *http.Request) {
	a.serve(w, r, "startGame", func(ctx context.Context, uid string, data json.RawMessage) (any, error) {
		var q StartRequest
		if err := decodeData(data, &q); err != nil {
			return nil, err
		}
		return a.svc.Do(ctx, q.GameID, engine.Action{Kind: engine.ActStart, Actor: uid, ID: q.ActionID})
	})
}

// Act applies one in-game action by the caller: data [ActRequest], result
// [service.Result].
func (a *API) Act(w http.ResponseWriter, r *http.Request) {
	a.serve(w, r, "act", func(ctx context.Context, uid string, data json.RawMessage) (any, error) {
		var q ActRequest
		if err := decodeData(data, &q); err != nil {
			return nil, err
		}
		if !inGame[q.Kind] {
			return nil, invalid(fmt.Sprintf("unknown action kind %q", q.Kind))
		}
		if q.ActionID == "" {
			return nil, invalid("actionId is required")
		}
		return a.svc.Do(ctx, q.GameID, q.action(uid))
	})
}

// GetView returns the game's public state and its log after a seq: data
// [ViewRequest], result [service.View]. Seated players may view their
// game (as the security rules let them read it); while the game is in its
// lobby any signed-in user may, to see the free seats. Others get
// PERMISSION_DENIED.
func (a *API) GetView(w http.ResponseWriter, r *http.Request) {
	a.serve(w, r, "getView", func(ctx context.Context, uid string, data json.RawMessage) (any, error) {
		var q ViewRequest
		if err := decodeData(data, &q); err != nil {
			return nil, err
		}
		v, err := a.svc.View(ctx, q.GameID, q.AfterSeq)
		if err != nil {
			return nil, err
		}
		if p, _ := v.Public.Player(uid); p == nil && v.Public.Phase != engine.PhaseLobby {
			return nil, errNotSeated
		}
		return v, nil
	})
}
