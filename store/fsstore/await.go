package fsstore

import (
	"context"
	"slices"
	"time"

	"cloud.google.com/go/firestore"

	"github.com/fairboard/fairboard/engine"
)

// DefaultRoundWait is how long a reveal that would complete its round
// waits, at most, for the other reveals it needs to be staged
// (store.Outcome.Await): reveals sent together are staged within a few
// commits' time; a seat later than this is waited for by no one (the
// reveal stages, and the last to arrive closes the round).
const DefaultRoundWait = 500 * time.Millisecond

// First and longest pause between two looks at a round's staged reveals
// while a reveal awaits them: short at first (the reveals sent with it
// are being committed), then at most pollMax apart, so that a seat that
// does not come costs at most about DefaultRoundWait/pollMax reads.
const (
	pollFirst = 1 * time.Millisecond
	pollMax   = 25 * time.Millisecond
)

// awaitStaged reads the round index's staged reveals (one query a look)
// until every seat of seats is among them or the store's round wait has
// passed, and returns the last it read (in the order they were accepted).
// Reads only: it writes nothing, holds no lock and contends with nothing.
// The context's end is an error.
func (s *Store) awaitStaged(ctx context.Context, game *firestore.DocumentRef, index uint32, seats []int) ([]engine.Action, error) {
	s.waits.Add(1)
	deadline := time.Now().Add(s.roundWait)
	d := pollFirst
	for {
		if err := sleep(ctx, d); err != nil {
			return nil, err
		}
		staged, _, err := s.stagedAt(ctx, game, index)
		if err != nil {
			return nil, err
		}
		if all(staged, seats) {
			s.waited.Add(1)
			return staged, nil
		}
		if !time.Now().Add(d).Before(deadline) {
			return staged, nil
		}
		d = min(2*d, pollMax)
	}
}

// all reports whether every seat of seats has a reveal in staged.
func all(staged []engine.Action, seats []int) bool {
	for _, seat := range seats {
		if !slices.ContainsFunc(staged, func(a engine.Action) bool { return a.Seat == seat }) {
			return false
		}
	}
	return true
}
