// Package fsstore is the Firestore implementation of store.Store.
//
// Layout (see docs/store.md):
//
//	games/{gameId}                 public state + ownerUid, playerUids
//	games/{gameId}/private/state   secret state (deck order, rng state, seed) and
//	                               the audit ring (field auditRing: slot → entry, slot = seq % 500)
//	games/{gameId}/log/{seq}       one action's public events {events: [...]}, id = %020d
//	                               of its last event's seq (old games: one event each, id = its seq)
//	games/{gameId}/actions/{key}   store.Record, key = store.RecordKey(actor, actionId)
//	games/{gameId}/applied/{ver}   store.AppliedAction, id = %020d of the version it was applied to
//	games/{gameId}/rngAudit/{slot} old games' audit ring, one entry each (read, never written)
//
// One action is one attempt, or a few: a plain read of the game, its
// private state and the action's record together (GetAll; a record there
// answers the action at once: a retry, a storm of identical submissions),
// the Mutator on a fresh copy, then one write-only commit of everything,
// conditional on what was read: the game document only if its update time
// is unchanged, the record, the log documents, the applied action (and a
// new game) only if they do not exist. No read lock is held, so contenders never wait on
// each other's locks; of two concurrent actions on a game one commit
// fails, and its request tries again after a jittered backoff (at most
// MaxAttempts times, then store.ErrContention). One attempt per game runs
// at a time from one Store. A commit whose answer was lost (a deadline, a
// broken connection) is resolved before answering: new attempts find the
// record, or apply the action once; store.ErrUnavailable only if the
// database stays silent for the resolve timeout.
package fsstore

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"time"

	"cloud.google.com/go/firestore"
	vkit "cloud.google.com/go/firestore/apiv1"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/fairboard/fairboard/games/dungeon/engine"
	"github.com/fairboard/fairboard/games/dungeon/server/store"
)

// DefaultMaxAttempts is the number of attempts Apply makes before giving
// up with store.ErrContention. Each retry re-reads the game and the
// record, so a losing request is re-decided against the winner's state (a
// version-pinned action then gets stale_version), or answered from the
// record if an identical submission applied it.
const DefaultMaxAttempts = 5

// DefaultResolveTimeout bounds how long Apply spends finding out whether
// a commit whose answer was lost landed, on a context of its own (the
// caller's may be the one that expired).
const DefaultResolveTimeout = 10 * time.Second

// Store is a store.Store on a Firestore client.
type Store struct {
	c              *firestore.Client
	rpc            *vkit.Client // the masked read's (WithRPC), or nil
	libCommit      bool         // commit through the library even with rpc (WithLibraryCommit)
	maxAttempts    int
	resolveTimeout time.Duration
	ownClient      bool
	queue          gameQueue

	previous bool // write as the previous release did (WithPreviousLayout)
	// roundWait bounds how long a reveal that would complete its round
	// waits for the others it needs (store.Outcome.Await); 0: never.
	roundWait time.Duration
	// roundPolls: the closer's direct reads before it listens (await.go)
	roundPolls int

	txns, attempts, reads         atomic.Int64
	plainReplays, unknown, solved atomic.Int64
	writes, maxWrites             atomic.Int64
	waits, waited                 atomic.Int64
	waitedNs                      atomic.Int64
}

// committed counts the n writes of a commit that landed.
func (s *Store) committed(n int) {
	s.writes.Add(int64(n))
	for {
		m := s.maxWrites.Load()
		if int64(n) <= m || s.maxWrites.CompareAndSwap(m, int64(n)) {
			return
		}
	}
}

// Option configures New.
type Option func(*Store)

// WithMaxAttempts sets the transaction attempts (n >= 1) per Apply.
func WithMaxAttempts(n int) Option {
	return func(s *Store) {
		if n >= 1 {
			s.maxAttempts = n
		}
	}
}

// WithResolveTimeout sets how long Apply may spend resolving a commit
// whose outcome is unknown (d > 0).
func WithResolveTimeout(d time.Duration) Option {
	return func(s *Store) {
		if d > 0 {
			s.resolveTimeout = d
		}
	}
}

// WithPreviousLayout makes the store write what the previous release
// wrote, which that release's readers understand: the log as one document
// per event (id: the event's seq) instead of one per action; the private
// state set whole; the audit ring left out of the commit (records without
// Ringed: the service writes the ring after the commit, as it did) and
// written by WriteAudit as one document per slot (rngAudit/{slot}). Every
// reader of this release reads both layouts.
//
// It is for a rolling deploy: instances of the previous release read only
// the old log layout, and they set the private state whole, which would
// drop the ring this release keeps in it; so this release first runs with
// it everywhere (FAIRBOARD_STORE_LAYOUT=previous), then without it once no
// previous instance serves (docs/store.md). Tests use it to write an old
// game with the code that wrote them.
func WithPreviousLayout() Option { return func(s *Store) { s.previous = true } }

// WithRoundWait sets how long a reveal that would complete its round
// waits for the other seats' reveals to be staged (store.Outcome.Await)
// before it stages itself (d >= 0; 0: it stages at once, as a store did
// before rounds closed in their last reveal's commit). Default
// DefaultRoundWait.
func WithRoundWait(d time.Duration) Option {
	return func(s *Store) {
		if d >= 0 {
			s.roundWait = d
		}
	}
}

// WithRoundPolls sets how many direct reads of the round's staged
// reveals a waiting closer makes before it listens instead (n >= 0; 0:
// it listens at once). Default DefaultRoundPolls.
func WithRoundPolls(n int) Option {
	return func(s *Store) {
		if n >= 0 {
			s.roundPolls = n
		}
	}
}

// WithCloseClient makes Close close the client too.
func WithCloseClient() Option { return func(s *Store) { s.ownClient = true } }

// New returns a store on the client. Close does not close the client
// unless WithCloseClient is given. Each Store has its own per-game queue:
// two Stores on one client behave like two server instances.
func New(c *firestore.Client, opts ...Option) *Store {
	s := &Store{c: c, maxAttempts: DefaultMaxAttempts, resolveTimeout: DefaultResolveTimeout, roundWait: DefaultRoundWait, roundPolls: DefaultRoundPolls}
	for _, o := range opts {
		o(s)
	}
	return s
}

// Stats counts the store's work since it was made.
type Stats struct {
	// Transactions is the number of Apply calls that passed validation
	// and got their turn on the game.
	Transactions int64
	// Attempts is the number of attempts (read, then commit unless the
	// record answered); more than Transactions means retries after a lost
	// race or an unknown outcome.
	Attempts int64
	// PlainReplays counts attempts answered from an existing record,
	// with no commit.
	PlainReplays int64
	// Unknown counts commits whose outcome was unknown (answer lost);
	// Resolved, those of them Apply then found committed (or committed).
	Unknown, Resolved int64
	// Reads counts the documents read (transactional and plain; a query
	// that returns nothing counts one).
	Reads int64
	// Writes counts the writes of the commits that landed (Apply's, and
	// WriteAudit's repairs): each document created, set, updated or
	// deleted is one, as Firestore bills them.
	Writes int64
	// MaxWrites is the most writes one commit held.
	MaxWrites int64
	// Waits counts the reveals that awaited the others of their round
	// (store.Outcome.Await); Waited, those that saw them all staged in
	// time (and so closed the round in their own commit, unless the
	// game changed meanwhile).
	Waits, Waited int64
	// WaitTime is the time those reveals spent waiting, in all.
	WaitTime time.Duration
}

// Stats returns the counters.
func (s *Store) Stats() Stats {
	return Stats{Transactions: s.txns.Load(), Attempts: s.attempts.Load(), PlainReplays: s.plainReplays.Load(),
		Unknown: s.unknown.Load(), Resolved: s.solved.Load(), Reads: s.reads.Load(),
		Writes: s.writes.Load(), MaxWrites: s.maxWrites.Load(), Waits: s.waits.Load(), Waited: s.waited.Load(),
		WaitTime: time.Duration(s.waitedNs.Load())}
}

// Client returns the underlying client.
func (s *Store) Client() *firestore.Client { return s.c }

// Close implements store.Store.
func (s *Store) Close() error {
	if s.ownClient {
		if s.rpc != nil {
			s.rpc.Close()
		}
		return s.c.Close()
	}
	return nil
}

func (s *Store) game(id string) *firestore.DocumentRef { return s.c.Collection("games").Doc(id) }

// record is the document of a record (key: store.RecordKey).
func record(game *firestore.DocumentRef, key string) *firestore.DocumentRef {
	return game.Collection("actions").Doc(key)
}

func logID(seq uint64) string { return fmt.Sprintf("%020d", seq) }

// appliedRef is the document of the action applied to version v.
func appliedRef(game *firestore.DocumentRef, v uint64) *firestore.DocumentRef {
	return game.Collection("applied").Doc(fmt.Sprintf("%020d", v))
}

// mapErr turns Firestore and gRPC errors into the store's.
func mapErr(err error) error {
	if err == nil {
		return nil
	}
	var rej *engine.Error
	if errors.As(err, &rej) || errors.Is(err, store.ErrInvalid) || errors.Is(err, store.ErrActionIDReused) ||
		errors.Is(err, store.ErrNotFound) || errors.Is(err, store.ErrUnavailable) || errors.Is(err, store.ErrContention) {
		return err
	}
	switch status.Code(err) {
	case codes.Aborted:
		return fmt.Errorf("%w: %v", store.ErrContention, err)
	case codes.Unavailable, codes.DeadlineExceeded, codes.ResourceExhausted:
		return fmt.Errorf("%w: %v", store.ErrUnavailable, err)
	case codes.Canceled:
		return fmt.Errorf("%w: %w", context.Canceled, err)
	}
	if errors.Is(err, context.DeadlineExceeded) {
		return fmt.Errorf("%w: %w", store.ErrUnavailable, err)
	}
	return err
}
