// Package fsstore is the Firestore implementation of store.Store.
//
// Layout (see docs/store.md):
//
//	games/{gameId}                 public state + ownerUid, playerUids
//	games/{gameId}/private/state   secret state (deck order, rng state, seed)
//	games/{gameId}/log/{seq}       one public event each, id = %020d seq
//	games/{gameId}/actions/{id}    store.Record of each action
//	games/{gameId}/rngAudit/{slot} audit ring, slot = seq % 500
//
// One action is one RunTransaction: the game, its private state and the
// action record are read together (GetAll), the Mutator runs on a fresh
// copy, and the writes are committed together. The client retries ABORTED
// commits up to MaxAttempts times, re-running the whole function (re-read,
// re-reduce); past that the store returns store.ErrContention. A deadline
// that strikes after the store has answered the reads (a commit waiting on
// a hot game's lock) is ErrContention too; one before is ErrUnavailable.
package fsstore

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"

	"cloud.google.com/go/firestore"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/fairboard/fairboard/engine"
	"github.com/fairboard/fairboard/store"
)

// DefaultMaxAttempts is the number of times Apply runs its transaction
// before giving up with store.ErrContention: the first try and two retries.
// Each retry re-reads the game, so a losing request is re-decided against
// the winner's state (a version-pinned action then gets stale_version); a
// request still losing after that gets ABORTED quickly rather than queueing
// behind a hot game.
const DefaultMaxAttempts = 3

// Store is a store.Store on a Firestore client.
type Store struct {
	c           *firestore.Client
	maxAttempts int
	ownClient   bool

	txns     atomic.Int64
	attempts atomic.Int64
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

// WithCloseClient makes Close close the client too.
func WithCloseClient() Option { return func(s *Store) { s.ownClient = true } }

// New returns a store on the client. Close does not close the client
// unless WithCloseClient is given.
func New(c *firestore.Client, opts ...Option) *Store {
	s := &Store{c: c, maxAttempts: DefaultMaxAttempts}
	for _, o := range opts {
		o(s)
	}
	return s
}

// Stats counts Apply's work since the store was made.
type Stats struct {
	// Transactions is the number of RunTransaction calls (one per Apply
	// that passed validation).
	Transactions int64
	// Attempts is the number of times a transaction function ran; more
	// than Transactions means retries after ABORTED.
	Attempts int64
}

// Stats returns the counters.
func (s *Store) Stats() Stats {
	return Stats{Transactions: s.txns.Load(), Attempts: s.attempts.Load()}
}

// Client returns the underlying client.
func (s *Store) Client() *firestore.Client { return s.c }

// Close implements store.Store.
func (s *Store) Close() error {
	if s.ownClient {
		return s.c.Close()
	}
	return nil
}

func (s *Store) game(id string) *firestore.DocumentRef { return s.c.Collection("games").Doc(id) }

func logID(seq uint64) string { return fmt.Sprintf("%020d", seq) }

// mapErr turns Firestore and gRPC errors into the store's.
func mapErr(err error) error {
	if err == nil {
		return nil
	}
	var rej *engine.Error
	if errors.As(err, &rej) || errors.Is(err, store.ErrInvalid) || errors.Is(err, store.ErrActionIDReused) ||
		errors.Is(err, store.ErrNotFound) {
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
