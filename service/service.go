// Package service is the action pipeline between the functions layer and
// the store: it stamps an action with the server's time, runs it through
// the engine inside the store's transaction (rebuilding the game and its
// RNG stream from what each attempt read), and, for games with audit
// enabled, writes the audit entries of the committed attempt afterwards.
//
// It knows nothing of HTTP: errors are the engine's *engine.Error
// rejections, the store's errors, and [ErrSeededRefused].
package service

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"sync/atomic"
	"time"

	"github.com/fairboard/fairboard/engine"
	"github.com/fairboard/fairboard/rng"
	"github.com/fairboard/fairboard/rng/fair"
	"github.com/fairboard/fairboard/session"
	"github.com/fairboard/fairboard/store"
)

// ErrSeededRefused: a create asked for seeded mode and the deployment does
// not allow it (seeded games are replayable by whoever knows the seed, so
// they are for development and tests only).
var ErrSeededRefused = errors.New("service: seeded mode is disabled in this deployment; create the game in crypto mode")

// ErrInvalid: the request is malformed (missing or bad ids, unknown kind).
var ErrInvalid = errors.New("service: invalid request")

// AuditWriter stores a committed action's audit entries. The store is the
// default; tests inject a failing one.
type AuditWriter interface {
	WriteAudit(ctx context.Context, gameID string, entries []rng.Entry) error
}

// Config configures New. Store and Engine are required.
type Config struct {
	Store  store.Store
	Engine *engine.Engine
	// Audit receives the audit entries after each commit; nil means Store.
	Audit AuditWriter
	// AllowSeeded permits creating seeded games (development only).
	AllowSeeded bool
	// ForceAudit turns audit on for every game created, whatever the
	// create action asks.
	ForceAudit bool
	// Now is the clock for Action.At; nil means time.Now.
	Now func() time.Time
	// Timeout bounds each store call; 0 means DefaultTimeout.
	Timeout time.Duration
	// Logger receives audit-write failures; nil means slog.Default().
	Logger *slog.Logger
}

// DefaultTimeout bounds one store call.
const DefaultTimeout = 15 * time.Second

// Service runs actions. Safe for concurrent use.
type Service struct {
	cfg Config

	auditFailures atomic.Int64
	auditWrites   atomic.Int64
	reduceNanos   atomic.Int64
	reduces       atomic.Int64
}

// New returns a service for cfg. It panics if Store or Engine is nil (a
// wiring mistake).
func New(cfg Config) *Service {
	if cfg.Store == nil || cfg.Engine == nil {
		panic("service.New: Store and Engine are required")
	}
	if cfg.Audit == nil {
		cfg.Audit = cfg.Store
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = DefaultTimeout
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	return &Service{cfg: cfg}
}

// AllowSeeded reports whether the service creates seeded games.
func (s *Service) AllowSeeded() bool { return s.cfg.AllowSeeded }

// Rules returns the engine's ruleset.
func (s *Service) Rules() *engine.Ruleset { return s.cfg.Engine.Rules() }

// Stats are the service's counters since New.
type Stats struct {
	// AuditWrites counts audit writes attempted after a commit.
	AuditWrites int64
	// AuditFailures counts audit writes that failed (the moves stand).
	AuditFailures int64
	// Reduces counts engine dispatches (one per transaction attempt).
	Reduces int64
	// ReduceTime is the total time spent in engine dispatch and stream
	// restore/save.
	ReduceTime time.Duration
}

// Stats returns the counters.
func (s *Service) Stats() Stats {
	return Stats{
		AuditWrites:   s.auditWrites.Load(),
		AuditFailures: s.auditFailures.Load(),
		Reduces:       s.reduces.Load(),
		ReduceTime:    time.Duration(s.reduceNanos.Load()),
	}
}

// Result is the outcome of an applied action.
type Result struct {
	GameID   string         `json:"gameId"`
	ActionID string         `json:"actionId,omitempty"`
	Version  uint64         `json:"version"`
	Events   []engine.Event `json:"events"`
	// Replayed is true when the action had already been applied (or
	// rejected) and this is its stored result.
	Replayed bool `json:"replayed"`
}

// fingerprint identifies an action's content for idempotency: its JSON
// without the server-stamped time.
func fingerprint(a engine.Action) string {
	a.At = 0
	b, _ := json.Marshal(a)
	return string(b)
}

// Do applies the action a (whose Actor the caller has authenticated) to
// the game gameID. For create, a.GameID must be gameID (or empty).
//
// It returns the result, or an error: an *engine.Error rejection (also
// when a retried action had been rejected; the Result is then nil),
// ErrSeededRefused, ErrInvalid, or the store's ErrContention,
// ErrUnavailable, ErrActionIDReused, ErrNotFound.
func (s *Service) Do(ctx context.Context, gameID string, a engine.Action) (*Result, error) {
	if !store.ValidID(gameID) || (a.ID != "" && !store.ValidID(a.ID)) || a.Actor == "" {
		return nil, fmt.Errorf("%w: game id, action id or actor", ErrInvalid)
	}
	if a.Kind == engine.ActCreate {
		if a.GameID == "" {
			a.GameID = gameID
		}
		if a.GameID != gameID {
			return nil, fmt.Errorf("%w: create names game %q in a request for %q", ErrInvalid, a.GameID, gameID)
		}
		if a.Mode == string(rng.ModeSeeded) && !s.cfg.AllowSeeded {
			return nil, ErrSeededRefused
		}
		if s.cfg.ForceAudit {
			a.Audit = true
		}
	}
	a.At = s.cfg.Now().UnixMilli()
	req := store.Request{GameID: gameID, ActionID: a.ID, Actor: a.Actor, Kind: a.Kind, Fingerprint: fingerprint(a)}
	if a.Kind == engine.ActCreate && a.Mode != string(rng.ModeSeeded) {
		// The engine refuses a crypto or fair game without the server's
		// seed (the key of its deck salts); it is drawn here, after the
		// fingerprint, so a retried create is still the same action.
		seed, err := fair.NewServerSeed()
		if err != nil {
			return nil, err
		}
		a.ServerSeed = seed
	}
	var entries []rng.Entry
	m := func(g *engine.Game) ([]engine.Event, error) {
		entries = nil // only the attempt that commits counts
		var col collector
		ev, err := s.reduce(g, a, &col)
		if err != nil {
			return nil, err
		}
		entries = col.entries
		return ev, nil
	}
	cctx, cancel := context.WithTimeout(ctx, s.cfg.Timeout)
	rec, err := s.cfg.Store.Apply(cctx, req, m)
	cancel()
	if err != nil {
		return nil, err
	}
	if err := rec.Err(); err != nil {
		return nil, err
	}
	if !rec.Replayed && len(entries) > 0 {
		s.writeAudit(ctx, gameID, a.ID, entries)
	}
	ev := rec.Events
	if ev == nil {
		ev = []engine.Event{} // [] not null for clients, even when nothing was logged
	}
	return &Result{GameID: gameID, ActionID: a.ID, Version: rec.Version, Events: ev, Replayed: rec.Replayed}, nil
}

// reduce rebuilds the stream from g and dispatches a copy of a.
func (s *Service) reduce(g *engine.Game, a engine.Action, col *collector) ([]engine.Event, error) {
	start := time.Now()
	defer func() {
		s.reduceNanos.Add(int64(time.Since(start)))
		s.reduces.Add(1)
	}()
	var st *rng.Stream
	if a.Kind != engine.ActCreate && g.Public.Phase != engine.PhaseNone {
		var opts []rng.Option
		if g.Public.RNG.AuditEnabled {
			opts = append(opts, rng.WithAuditor(col))
		}
		var err error
		if st, err = session.Stream(g, opts...); err != nil {
			return nil, fmt.Errorf("service: restore stream: %w", err)
		}
	}
	ev, err := s.cfg.Engine.Dispatch(g, &a, st, nil)
	if err != nil {
		return nil, err
	}
	if st != nil {
		if err := g.SaveStream(st); err != nil {
			return nil, fmt.Errorf("service: save stream: %w", err)
		}
	}
	return ev, nil
}

// writeAudit stores the committed attempt's entries; a failure is logged
// and counted, and the move stands.
func (s *Service) writeAudit(ctx context.Context, gameID, actionID string, entries []rng.Entry) {
	s.auditWrites.Add(1)
	actx, cancel := context.WithTimeout(context.WithoutCancel(ctx), s.cfg.Timeout)
	defer cancel()
	if err := s.cfg.Audit.WriteAudit(actx, gameID, entries); err != nil {
		s.auditFailures.Add(1)
		s.cfg.Logger.Error("audit write failed; the move stands",
			"game", gameID, "action", actionID, "entries", len(entries), "err", err)
	}
}

// collector is the rng.Auditor of one transaction attempt.
type collector struct{ entries []rng.Entry }

// Record implements rng.Auditor.
func (c *collector) Record(e rng.Entry) { c.entries = append(c.entries, e) }
