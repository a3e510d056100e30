package fstables

import (
	"context"

	"cloud.google.com/go/firestore"

	"github.com/fairboard/fairboard/table"
	"github.com/fairboard/fairboard/tablestore"
)

// NewChunked is New with the head's chunk size n (tests seal with a
// small one).
func NewChunked(c *firestore.Client, lookup tablestore.Lookup, n int) *Store {
	s := New(c, lookup)
	s.chunk = n
	return s
}

// WriteAuditOf rings h.Audit in the table gameID's ring in one
// transaction of its own, as an action's commit does (writeAudit).
func (s *Store) WriteAuditOf(ctx context.Context, gameID string, h *table.Head) error {
	return s.c.RunTransaction(ctx, func(_ context.Context, tx *firestore.Transaction) error {
		return s.writeAudit(tx, gameID, h)
	})
}

// OnBackfillRead has f called by each backfill step between its read of
// a table it will stamp and the stamp (an action there races the step).
func (s *Store) OnBackfillRead(f func(gameID string)) { s.backfillRead = f }

// BackfillBlind drops the stamp's precondition (the control of the race
// test: the stamp then overwrites an action's time).
func (s *Store) BackfillBlind() { s.backfillBlind = true }
