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
	"github.com/fairboard/fairboard/games/dungeon/engine"
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

// Outcome is what a [Mutator] produced: the public log events, the audit
// entries, the actions applied, and when the server must next act on the
// game by itself; or a reveal to stage.
type Outcome struct {
	// Events are the action's public log events, in seq order.
	Events []engine.Event
	// Audit are the audit entries the action drew, in seq order. The
	// store puts them in the game's audit ring in the action's own commit
	// (so the ring cannot miss them, and costs no write of its own) and
	// keeps them in the action's record (never readable by clients), which
	// replays answer with.
	Audit []audit.Entry
	// Applied are the actions the game applied, in order, for the game's
	// list of applied actions ([Store.Applied]; an export replays them):
	// the staged reveals the Mutator applied first (see [Mutator]), then
	// its own action. The store writes them, in the same commit as the
	// action, as the [AppliedAction]s of the versions they were applied
	// to, consecutive from the stored game's version before the Mutator
	// ran (0 for create). Empty records nothing (the service always sets
	// it). They are never readable by clients, and hold no server secret
	// (the service leaves the server seed out).
	Applied []engine.Action
	// DueAt (unix ms; 0 for none) is when the server must act on the game
	// by itself if nobody does before: the deadline of a trustless game's
	// open round (its abort), the end of a fair game left unfinished (its
	// abandon). The store keeps it with the game, outside engine.Public,
	// and [Store.Due] finds the games whose time has come without a scan.
	DueAt int64
	// Stage, if not nil, is a reveal of the game's open trustless round
	// to hold apart from the game instead of applying it (docs/store.md,
	// "Reveals"): the store writes its public marker ([Mark]), the reveal
	// itself (which holds the link: never readable by clients) and its
	// record ([Record.Staged]), each only if it does not exist, and
	// nothing of the game: so a round's reveals, which arrive together,
	// do not contend for the game document. The Mutator must leave g as
	// it was; Events, Audit, Applied and DueAt are ignored. A later
	// Apply on the game hands the staged reveals to its Mutator, which
	// applies them first. A reveal whose seat is staged already for that
	// index is never written (ErrContention, after the retries).
	Stage *engine.Action
	// Await, with Stage, names the seats whose staged reveals would let
	// the Mutator complete the round itself instead of staging (the
	// service names them for one reveal of a round only: docs/store.md,
	// "Reveals"). A store may then, rather than stage at once, wait a
	// bounded time for those seats' reveals to be staged by other
	// requests, and run the Mutator again, on a fresh copy of the game it
	// read, with the staged reveals it found; that second outcome is
	// committed as any (its Await ignored): the round closed in this
	// request's one commit, or the reveal staged. A store that does not
	// wait (Memory, whose requests on a game take turns) stages at once.
	Await []int
	// CloserWaits, with Stage, says that the round's closer had not
	// staged when this reveal read the round: it waits for this staging
	// and closes the round, so the store need not look again after
	// staging (Request.Close).
	CloserWaits bool
}

// AppliedAction is one action the game applied: Version is the game's
// version it was applied to (0 for the create, then 1, 2, ...: the
// export's numbering), Action the action (the engine's action id, the
// server's time; no server seed).
type AppliedAction struct {
	Version uint64        `json:"version"`
	Action  engine.Action `json:"action"`
}

// AppliedRun is how a store keeps the actions one commit applied: the
// first at Version, each of Next at the version after the one before (a
// round's staged reveals and the action that applied them). A run of one
// action has no Next, and is exactly an [AppliedAction] (what every
// commit wrote before runs existed).
type AppliedRun struct {
	Version uint64          `json:"version"`
	Action  engine.Action   `json:"action"`
	Next    []engine.Action `json:"next,omitempty"`
}

// Actions expands the run into its applied actions.
func (r *AppliedRun) Actions() []AppliedAction {
	out := make([]AppliedAction, 0, 1+len(r.Next))
	out = append(out, AppliedAction{Version: r.Version, Action: r.Action})
	for i := range r.Next {
		out = append(out, AppliedAction{Version: r.Version + 1 + uint64(i), Action: r.Next[i]})
	}
	return out
}

// RunOf is the run of the actions applied from version v on (nil if none).
func RunOf(v uint64, actions []engine.Action) *AppliedRun {
	if len(actions) == 0 {
		return nil
	}
	return &AppliedRun{Version: v, Action: actions[0], Next: actions[1:]}
}

// Mutator applies one action to g, a fresh working copy of the stored game
// (the zero Game if the game does not exist yet), and returns its outcome.
//
// staged are the reveals of g's open trustless round that were staged
// ([Outcome.Stage]) and not yet applied, in the order they were accepted
// ([SortStaged]); nil for any other game. A Mutator that applies anything
// applies them first (each was checked when it was staged), then its own
// action, and lists them all in Outcome.Applied: so the next action on the
// game closes a round every seat has revealed, and an abort publishes the
// reveals that came.
// Apply may call it more than once (once per transaction attempt), each
// time with a new copy; it must rebuild everything it needs (the RNG stream
// included) from g and keep nothing between calls but what the last call
// produced.
//
// Returning an *engine.Error rejects the action: nothing of the game is
// written, the rejection is recorded (see [Store.Apply]). Returning an
// [*Unrecorded] rejects it without recording it. Any other error aborts
// Apply and is returned as is.
type Mutator func(g *engine.Game, staged []engine.Action) (Outcome, error)

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
	// Staging marks a reveal the Mutator stages (Outcome.Stage): it
	// writes no game document, so it does not wait for the game's other
	// requests (fsstore's per-game queue) and contends with nothing but a
	// duplicate of itself. (The reveal that completes its round is
	// applied instead, conditional on the game document like any action.)
	Staging bool
	// Round, if not 0, is the index of the round the request concerns (a
	// reveal's): the store may read that round's staged reveals together
	// with the game rather than after it. The Mutator still gets the
	// staged reveals of the game's open round, whatever Round says.
	Round uint32
	// Close, with Staging, is what to do once the reveal is staged: the
	// store reads the round's staged reveals again (this one among them)
	// and calls Close on a fresh copy of the game as it read it for the
	// staging (a game with an action pending is frozen until its round
	// closes, so that copy is current unless the round has closed or the
	// game ended since). An outcome that applies something (not Stage) is
	// committed conditional on the game document being unchanged since
	// that read, with no record, once: if the game changed meanwhile,
	// another request closed the round (or ended the game) and nothing is
	// written; Record.Closed tells whether this request's commit applied
	// it. A rejection or any other error from Close writes nothing (an
	// incomplete round: a later reveal closes it). A store may leave
	// Close to another of the round's reveals that sees at least as much
	// (fsstore: only the reveal staged last runs it), so that of a round's
	// reveals, which arrive together, one commits and the others leave
	// the game document alone. A round's reveals so close it without a
	// second read of the game and without contending for it. If the
	// process that should close stops first, the next call on the game
	// (getView, any action) or the sweep closes the round. Not called for
	// a replay or when nothing was staged.
	Close Mutator
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
	// Staged is true for a reveal that was staged ([Outcome.Stage]): held
	// apart from the game until its round closes. Version is then the
	// game's version it was staged against (the game did not change), and
	// Events is empty; the round's events come with the commit that
	// closes it.
	Staged bool `json:"staged,omitempty"`
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
	// Closed is true when the reveal this record stages was followed, in
	// the same Apply, by the commit of Request.Close (never stored).
	Closed bool `json:"-"`
	// CloseErr is why Request.Close could not be committed after the
	// staging, other than the game having changed (an unavailable
	// database, say): the round is then still to close, by the next call
	// on the game or the sweep (never stored).
	CloseErr error `json:"-"`
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

	// Staged returns the reveals staged for index of the game's open
	// trustless round and not yet applied, in the order they were
	// accepted ([SortStaged]). They hold the links: never for clients
	// ([MarkOf] is what a client may see of them). An unknown game, or an
	// index with nothing staged, has none.
	Staged(ctx context.Context, gameID string, index uint32) ([]engine.Action, error)

	// Due returns the ids of the games whose DueAt (Outcome.DueAt) is not
	// after before (unix ms), earliest first, at most limit (limit <= 0:
	// every one). It reads only those games' entries (fsstore: one
	// indexed query), so a sweep never scans every game.
	Due(ctx context.Context, before int64, limit int) ([]string, error)

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
