// Package store persists games: the public state, the secret state, the
// public log, the record of every action's outcome (by action id), the
// server's list of every applied action in order, and the RNG audit ring.
//
// [Store] is the interface the service layer uses; [Memory] is the
// in-process implementation (embedded server, unit tests) and
// store/fsstore the Firestore one. Both pass the contract suite in
// store/storetest. One action is one call to [Store.Apply], which runs one
// transaction: read, reduce through the caller's [Mutator], write.
package store

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"

	"github.com/fairboard/fairboard/audit"
	"github.com/fairboard/fairboard/engine"
)

// The errors a Store returns (wrapped; match with errors.Is).
var (
	// ErrNotFound: the game does not exist.
	ErrNotFound = errors.New("store: game not found")
	// ErrContention: the transaction lost to concurrent writers more times
	// than the store retries, or the context ended while it waited for its
	// turn. Nothing was written; the caller may retry the same action
	// (same action id) safely.
	ErrContention = errors.New("store: contention, transaction aborted")
	// ErrUnavailable: the backing database could not be reached or did
	// not answer in time, and the store could not find out whether the
	// action was committed. Nothing is known to be written; a retry with
	// the same action id is safe (it replays the action if it landed).
	ErrUnavailable = errors.New("store: unavailable")
	// ErrActionIDReused: the caller already used this action id in this
	// game for another action.
	ErrActionIDReused = errors.New("store: action id already used for a different action")
	// ErrInvalid: a game id or action id is not a valid document id, or
	// a value cannot be stored exactly (an integer beyond int64).
	ErrInvalid = errors.New("store: invalid id or value")
)

// Outcome is what a [Mutator] produced: the public log events and, for a
// game with audit on, the audit entries it drew.
type Outcome struct {
	// Events are the action's public log events, in seq order.
	Events []engine.Event
	// Audit are the audit entries the action drew, in seq order. The
	// store puts them in the game's audit ring in the action's own commit
	// (so the ring cannot miss them, and costs no write of its own) and
	// keeps them in the action's record (never readable by clients), which
	// replays answer with.
	Audit []audit.Entry
	// Applied is the action as the game applied it, for the game's list of
	// applied actions ([Store.Applied]; an export replays them). The store
	// writes it, in the same commit as the action, as the [AppliedAction]
	// of the version the action was applied to (the stored game's version
	// before the Mutator ran: 0 for create). nil records nothing (the
	// service always sets it). It is never readable by clients, and holds
	// no server secret (the service leaves the server seed out).
	Applied *engine.Action
}

// AppliedAction is one action the game applied: Version is the game's
// version it was applied to (0 for the create, then 1, 2, ...: the
// export's numbering), Action the action (the engine's action id, the
// server's time; no server seed).
type AppliedAction struct {
	Version uint64        `json:"version"`
	Action  engine.Action `json:"action"`
}

// Mutator applies one action to g, a fresh working copy of the stored game
// (the zero Game if the game does not exist yet), and returns its outcome.
// Apply may call it more than once (once per transaction attempt), each
// time with a new copy; it must rebuild everything it needs (the RNG stream
// included) from g and keep nothing between calls but what the last call
// produced.
//
// Returning an *engine.Error rejects the action: nothing of the game is
// written, the rejection is recorded (see [Store.Apply]). Returning an
// [*Unrecorded] rejects it without recording it. Any other error aborts
// Apply and is returned as is.
type Mutator func(g *engine.Game) (Outcome, error)

// Unrecorded is a rejection the store answers but does not record: the
// rejection of a caller who is not in the game, which must leave nothing
// behind. (It deliberately does not unwrap to the *engine.Error.)
type Unrecorded struct{ Rejection *engine.Error }

func (u *Unrecorded) Error() string { return "unrecorded rejection: " + u.Rejection.Error() }

// Request names the action Apply runs.
type Request struct {
	// GameID is the game's document id (see [ValidID]).
	GameID string
	// ActionID makes the action idempotent: if the actor has a record
	// with this id in the game, Apply returns it without calling the
	// Mutator. Action ids belong to their actor: another actor's record
	// with the same id is a different record ([RecordKey]). "" disables
	// idempotency (no record is read or written).
	ActionID string
	// Actor is the uid that sent the action.
	Actor string
	// Kind is the action kind, stored in the record.
	Kind engine.ActionKind
	// Fingerprint identifies the action's content (the service's is a
	// SHA-256 of its canonical JSON without time); the actor's record
	// with the same id and another fingerprint or kind gives
	// ErrActionIDReused.
	Fingerprint string
}

// RecordKey is the document id of the record of actor's action actionID:
// 32 hex digits of SHA-256(actor), "_", actionID. Keyed by actor, one
// user's action id can never block or reveal another's; hashed, any uid
// makes a valid document id (at most 161 characters).
func RecordKey(actor, actionID string) string {
	h := sha256.Sum256([]byte(actor))
	return hex.EncodeToString(h[:16]) + "_" + actionID
}

// Record is the stored outcome of one action: applied (Version > 0,
// Events, Audit) or rejected (Rejection set, nothing of the game written).
// Records are never readable by clients.
type Record struct {
	ActionID    string            `json:"actionId"`
	Actor       string            `json:"actor"`
	Kind        engine.ActionKind `json:"kind"`
	Fingerprint string            `json:"fingerprint"`
	// Version is the game's version after the action; 0 if rejected.
	Version uint64 `json:"version"`
	// Events are the public log events the action produced, in seq order.
	Events []engine.Event `json:"events"`
	// Audit are the audit entries the action drew (audit-enabled games).
	Audit []audit.Entry `json:"audit,omitempty"`
	// Ringed is true when the action's own commit put Audit in the game's
	// ring (every store of this release does). A record without it was
	// written by an earlier release, which wrote the ring after the
	// commit and so may have missed it: a replay repairs those.
	Ringed bool `json:"ringed,omitempty"`
	// Rejection is the engine's rejection, or nil.
	Rejection *Rejection `json:"rejection,omitempty"`
	// Replayed is true when Apply found the action already applied or
	// rejected and returned its record instead of running it (never
	// stored).
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

// Matches checks that a stored record answers req: same actor, kind and
// fingerprint; otherwise ErrActionIDReused.
func (r *Record) Matches(req Request) error {
	if r.Actor != req.Actor || r.Fingerprint != req.Fingerprint || r.Kind != req.Kind {
		return fmt.Errorf("%w: %s", ErrActionIDReused, req.ActionID)
	}
	return nil
}

// Store persists games. Implementations are safe for concurrent use.
// Returned values belong to the caller.
type Store interface {
	// Apply runs one action on the game req.GameID in one transaction.
	//
	// If req.ActionID is set and the actor's record with that id exists,
	// it returns the record with Replayed set (or ErrActionIDReused if the
	// kind or fingerprint differ) and does not call m. Otherwise it calls
	// m on a fresh copy of the stored game. If m succeeds, the new public
	// and secret state, the action's log events, its audit entries (in the
	// game's ring), the applied action (when the Outcome has one) and the
	// record (when ActionID is set) are written together, atomically. If m rejects the
	// action (*engine.Error) on an existing game, only the record of the
	// rejection is written (when ActionID is set), so a retry gets the
	// same rejection; on a game that does not exist, or for an
	// [*Unrecorded] rejection, nothing is written. A rejection is returned
	// as a Record with Rejection set, not as an error.
	//
	// When the commit's outcome is unknown (a deadline or a lost answer
	// after the commit was sent), Apply finds out whether it landed before
	// it answers; it returns ErrUnavailable only if it cannot.
	//
	// Errors: ErrContention, ErrUnavailable, ErrActionIDReused,
	// ErrInvalid, the context's error, or m's non-rejection error.
	Apply(ctx context.Context, req Request, m Mutator) (*Record, error)

	// Game returns the public state of the game, or ErrNotFound.
	Game(ctx context.Context, gameID string) (*engine.Public, error)

	// State returns the whole game, its secret state included (for an
	// export of a finished game), or ErrNotFound.
	State(ctx context.Context, gameID string) (*engine.Game, error)

	// Applied returns every applied action of the game that was recorded
	// (Outcome.Applied), in version order. An unknown game has none.
	Applied(ctx context.Context, gameID string) ([]AppliedAction, error)

	// Log returns up to limit log events with seq > after, in seq order
	// (limit <= 0 means all). An unknown game has an empty log.
	Log(ctx context.Context, gameID string, after uint64, limit int) ([]engine.Event, error)

	// Action returns actor's record of actionID, or ErrNotFound.
	Action(ctx context.Context, gameID, actor, actionID string) (*Record, error)

	// WriteAudit puts entries in the game's audit ring (an [audit.Ring] of
	// [audit.RingSize] slots: an entry is stored unless its slot holds the
	// same or a newer seq), outside any action's transaction, and returns
	// how many it stored. Writing the same entries again stores nothing,
	// so a caller may repeat it. Apply rings an action's entries itself;
	// this repairs the entries of records written before it did (not
	// [Record.Ringed]). Errors: ErrNotFound (no such game), ErrInvalid,
	// ErrUnavailable, ErrContention.
	WriteAudit(ctx context.Context, gameID string, entries []audit.Entry) (int, error)

	// Audit returns the game's audit ring, in seq order.
	Audit(ctx context.Context, gameID string) ([]audit.Entry, error)

	// Close releases the store's resources.
	Close() error
}

// ValidID reports whether id may name a game or an action: 1 to
// [MaxIDLen] characters from [A-Za-z0-9_-], not of the reserved form __x__.
// (Firestore forbids "/", ".", "..", "__x__" and long ids; the narrower set
// keeps ids safe in URLs and logs.)
func ValidID(id string) bool {
	if len(id) == 0 || len(id) > MaxIDLen || (len(id) >= 4 && id[:2] == "__" && id[len(id)-2:] == "__") {
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

// MaxIDLen is the longest game or action id.
const MaxIDLen = 128
