// Package server wires the dungeon's own server into the programs (gamectl
// serve, the deployment): the dungeon's path of the functions
// (games/dungeon/server/dungeonfn, a functions.Dungeon) over its service
// and its store of games, in memory here and on Firestore in fsserver.
// Like games/registry/tools it is the registry's wiring, kept apart so
// that the pages' WebAssembly, which imports the registry, does not link
// the server; only gamectl and deploy import it, and package
// functions reaches the dungeon through the interface alone.
package server

import (
	"crypto/ed25519"
	"log/slog"
	"time"

	"github.com/fairboard/fairboard/functions"
	"github.com/fairboard/fairboard/games/dungeon/engine"
	_ "github.com/fairboard/fairboard/games/dungeon/reducers" // the reference game of engine.NewReference
	"github.com/fairboard/fairboard/games/dungeon/server/dungeonfn"
	"github.com/fairboard/fairboard/games/dungeon/server/service"
	"github.com/fairboard/fairboard/games/dungeon/server/store"
)

// Config is what a program sets of the dungeon's server.
type Config struct {
	// AllowSeeded lets createGame make seeded (replayable) games:
	// development only.
	AllowSeeded bool
	// ForceAudit turns the RNG audit ring on for every new game.
	ForceAudit bool
	// AckKey signs the acknowledgements of reveals and deal messages
	// (nil: unsigned).
	AckKey ed25519.PrivateKey
	// FairDeadline is how long a fair game may wait before the sweep
	// abandons it: 0 the service's default, negative never.
	FairDeadline time.Duration
	// Logger is the service's log (nil: slog.Default()).
	Logger *slog.Logger
}

// Server is the dungeon's path of the functions (pass it to
// functions.New) over the dungeon's reference engine with its default
// rules and one store of games, which Close closes.
type Server struct {
	functions.Dungeon
	st store.Store
}

// Close closes the server's store (on Firestore, its client too).
func (s *Server) Close() error { return s.st.Close() }

// Memory returns the dungeon's server on a store in memory (games vanish
// with the process): gamectl serve's default.
func Memory(cfg Config) *Server { return On(store.NewMemory(), cfg) }

// On returns the dungeon's server on the store st (fsserver.Open's on
// Firestore).
func On(st store.Store, cfg Config) *Server {
	svc := service.New(service.Config{Store: st, Engine: engine.NewReference(engine.DefaultRules()),
		AllowSeeded: cfg.AllowSeeded, ForceAudit: cfg.ForceAudit, AckKey: cfg.AckKey,
		FairDeadline: cfg.FairDeadline, Logger: cfg.Logger})
	return &Server{Dungeon: dungeonfn.New(svc), st: st}
}
