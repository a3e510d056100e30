// Package store persists games: the public state, the secret state, the
// public log, the record of every applied action and the RNG audit ring.
//
// [Store] is the interface the service layer uses; [Memory] is the
// in-process implementation (embedded server, unit tests) and
// store/fsstore the Firestore one. Both pass the contract suite in
// store/storetest. One action is one call to [Store.Apply], which runs one
// transaction: read, reduce through the caller's [Mutator], write.
package store

import (
	"context"
	"errors"

	"github.com/fairboard/fairboard/engine"
	"github.com/fairboard/fairboard/rng"
)

// The errors a Store returns (wrapped; match with errors.Is).
var (
	// ErrNotFound: the game does not exist.
	ErrNotFound = errors.New("store: game not found")
	// ErrContention: the transaction lost to concurrent writers more times
	// than the store retries. Nothing was written; the caller may retry
	// the same action (same action id) safely.
	ErrContention = errors.New("store: contention, transaction aborted")
	// ErrUnavailable: the backing database could not be reached or did
	// not answer in time. Nothing is known to be written; a retry with the
	// same action id is safe.
	ErrUnavailable = errors.New("store: unavailable")
	// ErrActionIDReused: the action id was already used in this game by
	// another actor or for another action.
	ErrActionIDReused = errors.New("store: action id already used for a different action")
	// ErrInvalid: a game id or action id is not a valid document id, or
	// a value cannot be stored exactly (an integer beyond int64).
	ErrInvalid = errors.New("store: invalid id or value")
)

// Mutator applies one action to g, a fresh working copy of the stored game
// (the zero Game if the game does not exist yet), and returns the events it
// produced. Apply may call it more than once (once per transaction
// attempt), each time with a new copy; it must rebuild everything it needs
// (the RNG stream included) from g and keep nothing between calls but what
// the last call produced.
//
// Returning an *engine.Error rejects the action: nothing of the game is
// written. Any other error aborts Apply and is returned as is.
type Mutator func(g *engine.Game) ([]engine.Event, error)

// Request names the action Apply runs.
type Request struct {
	// GameID is the game's document id (see [ValidID]).
	GameID string
	// ActionID makes the action idempotent: if a record with this id
	// exists, Apply returns it without calling the Mutator. "" disables
	// idempotency (no record is read or written).
	ActionID string
	// Actor is the uid that sent the action; a stored record with another
	// actor gives ErrActionIDReused.
	Actor string
	// Kind is the action kind, stored in the record.
	Kind engine.ActionKind
	// Fingerprint identifies the action's content (the service uses its
	// canonical JSON without time); a stored record with another
	// fingerprint gives ErrActionIDReused.
	Fingerprint string
}

// Record is the stored outcome of one action: applied (Version > 0,
// Events) or rejected (Rejection set, nothing of the game written).
type Record struct {
	ActionID    string            `json:"actionId"`
	Actor       string            `json:"actor"`
	Kind        engine.ActionKind `json:"kind"`
	Fingerprint string            `json:"fingerprint"`
	// Version is the game's version after the action; 0 if rejected.
	Version uint64 `json:"version"`
	// Events are the public log events the action produced, in seq order.
	Events []engine.Event `json:"events"`
	// Rejection is the engine's rejection, or nil.
	Rejection *Rejection `json:"rejection,omitempty"`
	// Replayed is true when Apply returned an existing record instead of
	// running the action (never stored).
	Replayed bool `json:"-"`
}

// Rejection is a stored engine rejection.
type Rejection struct {
	Code engine.Code `json:"code"`
	Msg  string      `json:"msg"`
}

// Err returns the rejection as an *engine.Error, or nil.
func (r *Record) Err() error {
	if r == nil || r.Rejection == nil {
		return nil
	}
	return &engine.Error{Code: r.Rejection.Code, Msg: r.Rejection.Msg}
}

// Store persists games. Implementations are safe for concurrent use.
// Returned values belong to the caller.
type Store interface {
	// Apply runs one action on the game req.GameID in one transaction.
	//
	// If req.ActionID is set and a record with that id exists, it returns
	// the record with Replayed set (or ErrActionIDReused if the actor or
	// fingerprint differ) and does not call m. Otherwise it calls m on a
	// fresh copy of the stored game. If m succeeds, the new public and
	// secret state, one log entry per event and the record (when ActionID
	// is set) are written together, atomically. If m rejects the action
	// (*engine.Error) on an existing game, only the record of the
	// rejection is written (when ActionID is set), so a retry gets the
	// same rejection; on a game that does not exist nothing is written.
	//
	// Errors: ErrContention, ErrUnavailable, ErrActionIDReused,
	// ErrInvalid, the context's error, or m's non-rejection error.
	Apply(ctx context.Context, req Request, m Mutator) (*Record, error)

	// Game returns the public state of the game, or ErrNotFound.
	Game(ctx context.Context, gameID string) (*engine.Public, error)

	// Log returns up to limit log events with seq > after, in seq order
	// (limit <= 0 means all). An unknown game has an empty log.
	Log(ctx context.Context, gameID string, after uint64, limit int) ([]engine.Event, error)

	// Action returns the stored record of an action, or ErrNotFound.
	Action(ctx context.Context, gameID, actionID string) (*Record, error)

	// WriteAudit stores audit entries in the game's ring of the last
	// [AuditRing] entries (slot = seq % AuditRing). It is not part of
	// any action's transaction.
	WriteAudit(ctx context.Context, gameID string, entries []rng.Entry) error

	// Audit returns the game's audit ring, in seq order.
	Audit(ctx context.Context, gameID string) ([]rng.Entry, error)

	// Close releases the store's resources.
	Close() error
}

// AuditRing is the number of audit entries kept per game.
const AuditRing = 500

// ValidID reports whether id may name a game or an action: 1 to 128
// characters from [A-Za-z0-9_-], not of the reserved form __x__. (Firestore forbids "/", ".", "..",
// "__x__" and long ids; the narrower set keeps ids safe in URLs and logs.)
func ValidID(id string) bool {
	if len(id) == 0 || len(id) > 128 || (len(id) >= 4 && id[:2] == "__" && id[len(id)-2:] == "__") {
		return false
	}
	for i := 0; i < len(id); i++ {
		c := id[i]
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9', c == '_', c == '-':
		default:
			return false
		}
	}
	return true
}

// LastAudit returns the last AuditRing entries of es (all if fewer): the
// ones a ring write keeps.
func LastAudit(es []rng.Entry) []rng.Entry {
	if len(es) > AuditRing {
		return es[len(es)-AuditRing:]
	}
	return es
}
