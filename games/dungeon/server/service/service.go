// Package service is the action pipeline between the functions layer and
// the store: it checks every field of a request (limits.go), stamps the
// action with the server's time, runs it through the engine inside the
// store's transaction (rebuilding the game and its RNG stream from what
// each attempt read, and listing the action among the game's applied
// actions in the same commit), keeps callers who are not in a game from
// reading it or leaving anything in it, and, for games with audit
// enabled, hands the action's audit entries to the store, which rings
// them in the same commit (entries of an earlier release's records, which
// it wrote after the commit, are repaired when a retry finds them
// missing). For the members of a
// finished game it builds the game's export and lists its shuffles
// (export.go); it recomputes shuffles for anyone (VerifyShuffle).
//
// It knows nothing of HTTP: errors are the engine's *engine.Error
// rejections, the store's errors, [ErrSeededRefused] and [*FieldError].
package service

import (
	"context"
	"crypto/ed25519"
	"errors"
	"fmt"
	"log/slog"
	"sync/atomic"
	"time"

	"github.com/fairboard/fairboard/audit"
	"github.com/fairboard/fairboard/games/dungeon/engine"
	"github.com/fairboard/fairboard/games/dungeon/server/store"
	"github.com/fairboard/fairboard/internal/checks"
	"github.com/fairboard/fairboard/rng"
	"github.com/fairboard/fairboard/rng/fair"
)

// ErrSeededRefused: a create asked for seeded mode and the deployment does
// not allow it (seeded games are replayable by whoever knows the seed, so
// they are for development and tests only).
var ErrSeededRefused = errors.New("service: seeded mode is disabled in this deployment; create the game in crypto mode")

// ErrInvalid: the request is malformed; the error is a [*FieldError]
// naming the field.
var ErrInvalid = errors.New("service: invalid request")

// AuditWriter stores audit entries in a game's ring, idempotently
// (store.Store.WriteAudit), and says how many it stored: the repair of a
// replayed action recorded by an earlier release (the store rings every
// action it applies in the action's own commit). The store is the
// default; tests inject a failing one.
type AuditWriter interface {
	WriteAudit(ctx context.Context, gameID string, entries []audit.Entry) (int, error)
}

// Config configures New. Store and Engine are required.
type Config struct {
	Store  store.Store
	Engine *engine.Engine
	// Audit writes the entries that a commit did not ring (an earlier
	// release's records, repaired on replay); nil means Store.
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
	// Logger receives audit-write failures and repairs; nil means
	// slog.Default().
	Logger *slog.Logger
	// AbortGrace is how long after a trustless round's public deadline
	// the server waits before it aborts the round (0 means
	// DefaultAbortGrace). A reveal is refused after the deadline, and a
	// reveal accepted before it is staged within half the grace or not
	// at all (its commit is not sent later), so an abort never misses a
	// reveal that was accepted in time (docs/functions.md, "Deadlines").
	AbortGrace time.Duration
	// FairDeadline is how long a fair game may stay unfinished after its
	// create: past it, the next call on the game or the scheduled sweep
	// abandons it as the server, which reveals its seeds (0 means
	// DefaultFairDeadline; negative: never).
	FairDeadline time.Duration
	// AckKey, if set, signs every acknowledgement of a reveal (Result.Ack):
	// the server's Ed25519 key, whose public half the operator publishes,
	// so that a seat later named as missing a round can show a third party
	// that the server held its reveal (docs/fairness.md, the threat model).
	AckKey ed25519.PrivateKey
}

// DefaultTimeout bounds one store call.
const DefaultTimeout = 15 * time.Second

// DefaultAbortGrace is Config.AbortGrace's default: above the time a
// staging commit may take once sent (a few hundred milliseconds at the
// worst seen), with a wide margin.
const DefaultAbortGrace = 10 * time.Second

// DefaultFairDeadline is Config.FairDeadline's default: a fair game is
// abandoned (and its seeds revealed) two days after its create if it has
// not finished by then. Whole games take well under an hour.
const DefaultFairDeadline = 48 * time.Hour

// Service runs actions. Safe for concurrent use.
type Service struct {
	cfg Config

	auditFailures atomic.Int64
	auditWrites   atomic.Int64
	auditRepairs  atomic.Int64
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
	if cfg.AbortGrace <= 0 {
		cfg.AbortGrace = DefaultAbortGrace
	}
	if cfg.FairDeadline == 0 {
		cfg.FairDeadline = DefaultFairDeadline
	}
	return &Service{cfg: cfg}
}

// AllowSeeded reports whether the service creates seeded games.
func (s *Service) AllowSeeded() bool { return s.cfg.AllowSeeded }

// ForceAudit reports whether the deployment turns audit on for every
// game created (Config.ForceAudit): the functions' table games follow
// it too.
func (s *Service) ForceAudit() bool { return s.cfg.ForceAudit }

// Rules returns the engine's ruleset.
func (s *Service) Rules() *engine.Ruleset { return s.cfg.Engine.Rules() }

// Stats are the service's counters since New.
type Stats struct {
	// AuditWrites counts the ring writes the service made itself: for an
	// action that drew and whose commit did not ring its entries (an
	// earlier release's record, on its replay; see store.Record.Ringed).
	// The stores of this release ring every action in its own commit, so
	// on them it stays 0.
	AuditWrites int64
	// AuditFailures counts those writes that failed (the moves stand;
	// each failure is logged, and the next replay of the action repairs).
	AuditFailures int64
	// AuditRepairs counts replays that found some of their action's
	// entries missing from the ring and wrote them.
	AuditRepairs int64
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
		AuditRepairs:  s.auditRepairs.Load(),
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
	// Staged is true for a reveal (Service.Reveal): it is held, apart
	// from the game, until every seat has revealed; Version is the
	// game's version it was staged against and Events is empty. The
	// round's events come with the commit that closes it (in the log).
	Staged bool `json:"staged,omitempty"`
	// Ack is the server's signed acknowledgement of the reveal the call
	// brought (Reveal, DoRevealing), when Config.AckKey is set.
	Ack *Ack `json:"ack,omitempty"`
}

// Do applies the action a, sent by a.Actor (whom the caller has
// authenticated), to the game gameID. For create, a.GameID must be gameID
// (or empty). a.ID is the client's action id: a retry with the same id by
// the same actor gets the first answer.
//
// Every field is checked first (ErrInvalid, a *FieldError naming it),
// before the store is touched. A caller who is not in a game past its
// lobby (neither seated nor its owner) is answered as if the game did not
// exist (store.ErrNotFound) and leaves nothing in it; the rejection of a
// caller not in the game is answered but not recorded.
//
// It returns the result, or an error: an *engine.Error rejection (also
// when a retried action had been rejected; the Result is then nil),
// ErrSeededRefused, ErrInvalid, or the store's ErrContention,
// ErrUnavailable, ErrActionIDReused, ErrNotFound.
func (s *Service) Do(ctx context.Context, gameID string, a engine.Action) (*Result, error) {
	return s.do(ctx, gameID, a, nil)
}

// DoRevealing is Do for an action of a trustless game sent with its
// actor's own reveal rv (engine.ActReveal's Seat, Index, Link, Digest,
// Transcript and Signature) for the index the action will use if it
// draws (docs/fairness.md, "An action with its reveal"): applied
// together, in one commit, or not at all. The action must become pending
// (an action that draws nothing takes no reveal: invalid_action), and
// the reveal must be one the engine accepts for it right after (its
// refusals, wrong_link, wrong_digest, bad_signature, ..., refuse the
// action too). The reveal is applied into the game (the link in its
// private state, the marker in Public.trustless.pending.reveals), so the
// round waits for the other seats only. Errors: as Do, and a *FieldError
// naming a reveal field.
func (s *Service) DoRevealing(ctx context.Context, gameID string, a, rv engine.Action) (*Result, error) {
	return s.do(ctx, gameID, a, &rv)
}

// revealSuffix makes the engine action id of an action's own reveal from
// the action's: "actor:actionId" + revealSuffix.
const revealSuffix = ".reveal"

func (s *Service) do(ctx context.Context, gameID string, a engine.Action, rv *engine.Action) (*Result, error) {
	if a.Kind == engine.ActCreate && a.GameID == "" {
		a.GameID = gameID
	}
	if err := checkAction(s.cfg.Engine.Rules(), gameID, &a); err != nil {
		return nil, err
	}
	var erv engine.Action // the reveal as the engine applies it
	if rv != nil {
		switch a.Kind {
		case engine.ActCreate, engine.ActJoin, engine.ActStart, engine.ActReveal, engine.ActAbort:
			return nil, &FieldError{"reveal", "comes only with an in-game action"}
		}
		erv = *rv
		erv.Kind, erv.Actor, erv.ID = engine.ActReveal, a.Actor, ""
		if err := checkAction(s.cfg.Engine.Rules(), gameID, &erv); err != nil {
			var fe *FieldError
			if errors.As(err, &fe) {
				return nil, &FieldError{"reveal." + fe.Field, fe.Problem}
			}
			return nil, err
		}
	}
	if a.Kind == engine.ActCreate {
		if a.Mode == string(rng.ModeSeeded) && !s.cfg.AllowSeeded {
			return nil, ErrSeededRefused
		}
		if s.cfg.ForceAudit {
			a.Audit = true
		}
	}
	a.At = s.cfg.Now().UnixMilli()
	req := request(gameID, a)
	if rv != nil {
		// The same action id with another reveal is another request.
		req.Fingerprint = fingerprintPair(a, erv)
		erv.At, erv.ID = a.At, EngineActionID(a.Actor, a.ID)+revealSuffix
	}
	if a.Kind == engine.ActCreate && a.Mode != string(rng.ModeSeeded) && a.Mode != string(rng.ModeTrustless) {
		// The engine refuses a crypto or fair game without the server's
		// seed (the key of its deck salts); it is drawn here, and the
		// fingerprint leaves it out, so a retried create is still the same
		// action. A trustless game has none.
		seed, err := fair.NewServerSeed()
		if err != nil {
			return nil, err
		}
		a.ServerSeed = seed
	}
	ea := a
	ea.ID = EngineActionID(a.Actor, a.ID)
	// The game's list of applied actions (an export replays it) keeps the
	// action as the engine applied it, but never the server's seed: a
	// fair game reveals it at its end, a crypto game's salt key never.
	applied := ea
	applied.ServerSeed = ""
	m := func(g *engine.Game, staged []engine.Action) (store.Outcome, error) {
		if !visible(&g.Public, a.Actor) {
			return store.Outcome{}, notFound(gameID)
		}
		now := s.cfg.Now().UnixMilli()
		if s.due(g, now) {
			return store.Outcome{}, errSettleFirst
		}
		var col collector
		// The reveals staged for the open round come first: if every seat
		// has revealed, they close it (and this action follows); if not,
		// an action other than the owner's abandon is refused (pending).
		ev, run, err := s.applyStaged(g, staged, &col)
		if err != nil {
			return store.Outcome{}, err
		}
		own, err := s.reduce(g, ea, &col)
		run = append(run, applied)
		if err == nil && rv != nil {
			// The actor's own reveal, for the round its action opened.
			if t := g.Public.Trustless; t == nil || t.Pending == nil || t.Pending.Index != erv.Index || t.Pending.Action.Actor != a.Actor {
				err = engine.Reject(engine.CodeInvalidAction, fmt.Sprintf("a reveal for index %d came with %s, which did not become pending at that index: only an action that draws takes its actor's reveal", erv.Index, a.Kind))
			} else {
				var more []engine.Event
				more, err = s.reduce(g, erv, &col)
				own, run = append(own, more...), append(run, erv)
			}
		}
		var rej *engine.Error
		if errors.As(err, &rej) && !member(&g.Public, a.Actor) {
			return store.Outcome{}, &store.Unrecorded{Rejection: rej}
		}
		if err != nil {
			return store.Outcome{}, err
		}
		return store.Outcome{Events: append(ev, own...), Audit: audit.Stamp(col.entries, a.At),
			Applied: run, DueAt: s.dueAt(&g.Public)}, nil
	}
	rec, err := s.apply(ctx, req, m)
	if err != nil {
		return nil, err
	}
	if err := rec.Err(); err != nil {
		return nil, err
	}
	if !rec.Ringed && len(rec.Audit) > 0 {
		// The commit did not ring the entries: a record of an earlier
		// release (which wrote the ring after the commit, so they may be
		// missing), or a store that leaves the ring to its caller.
		s.writeAudit(ctx, gameID, a.ID, rec.Audit, rec.Replayed)
	}
	ev := rec.Events
	if ev == nil {
		ev = []engine.Event{} // [] not null for clients, even when nothing was logged
	}
	res := &Result{GameID: gameID, ActionID: a.ID, Version: rec.Version, Events: ev, Replayed: rec.Replayed, Staged: rec.Staged}
	if rv != nil {
		res.Ack = s.ack(gameID, a.Actor, rv)
	}
	return res, nil
}

// apply runs the request through the store, bounded by the service's
// timeout. A game that is due (a trustless round past its deadline and
// grace, a fair game past its deadline: the mutator answers
// errSettleFirst, and nothing is written) is settled first, and the
// request then runs again: each call on a game first applies what the
// server owes it.
func (s *Service) apply(ctx context.Context, req store.Request, m store.Mutator) (*store.Record, error) {
	for try := 0; ; try++ {
		cctx, cancel := context.WithTimeout(ctx, s.cfg.Timeout)
		rec, err := s.cfg.Store.Apply(cctx, req, m)
		cancel()
		if !errors.Is(err, errSettleFirst) || try == 2 {
			return rec, err
		}
		if _, err := s.settle(ctx, req.GameID); err != nil && !errors.Is(err, errNothingToSettle) {
			return nil, err
		}
	}
}

// visible reports whether uid may see the game: anyone while it is not
// created (so create and not_created answer as usual) or in its lobby (to
// see the free seats and join), otherwise its members only: its seated
// players (as the security rules let them read it) and its owner (who may
// abandon it).
func visible(p *engine.Public, uid string) bool {
	return p.Phase == engine.PhaseNone || p.Phase == engine.PhaseLobby || member(p, uid) || !checks.On(checks.Visible)
}

// member reports whether uid is in the game: seated, or its owner. Only
// members' rejections are recorded.
func member(p *engine.Public, uid string) bool {
	if p.Owner == uid {
		return true
	}
	pl, _ := p.Player(uid)
	return pl != nil
}

// notFound is the answer to a caller who may not see the game: the same
// as for a game that does not exist.
func notFound(gameID string) error { return fmt.Errorf("%w: %s", store.ErrNotFound, gameID) }
