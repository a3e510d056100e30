package fsstore

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"time"

	"cloud.google.com/go/firestore"

	"github.com/fairboard/fairboard/games/dungeon/engine"
	"github.com/fairboard/fairboard/games/dungeon/server/store"
)

// DefaultRoundWait is how long a reveal that would complete its round
// waits, at most, for the other reveals it needs to be staged
// (store.Outcome.Await): reveals sent together are staged within a few
// commits' time; a seat later than this is waited for by no one (the
// reveal stages, and the last to arrive closes the round).
const DefaultRoundWait = 500 * time.Millisecond

// DefaultRoundPolls is how many direct reads of the round's staged reveals a
// closer makes, one after the other, before it listens instead: reveals
// sent together land within a few commits' time, and a read that follows
// the last one sees it sooner than a listener delivers it (the
// emulator's listeners took 25 ms to their first snapshot and tens more
// to each change under load; issue 29's 6-player rounds). A seat later
// than that costs no more reads: the listener waits for it.
const DefaultRoundPolls = 6

// awaitStaged reads the round index's staged reveals directly, up to
// the store's round polls (DefaultRoundPolls) times back to back, then listens to them (one snapshot
// listener on the round's id range: its first snapshot reads what is
// staged, each later one only what changed) until every seat of seats is
// among them, and returns them (in the order they were accepted); once
// the store's round wait has passed, it reads the staged reveals once
// more directly and returns what it finds. Reads only: it writes
// nothing, holds no lock and contends with nothing. The context's end
// is an error.
func (s *Store) awaitStaged(ctx context.Context, game *firestore.DocumentRef, index uint32, seats []int) ([]engine.Action, error) {
	s.waits.Add(1)
	defer func(t0 time.Time) { s.waitedNs.Add(int64(time.Since(t0))) }(time.Now())
	deadline := time.Now().Add(s.roundWait)
	for range s.roundPolls {
		staged, err := s.stagedOf(ctx, game, index)
		if err != nil {
			return nil, err
		}
		if all(staged, seats) {
			s.waited.Add(1)
			return staged, nil
		}
		if !time.Now().Before(deadline) {
			return staged, nil
		}
	}
	wctx, cancel := context.WithDeadline(ctx, deadline)
	defer cancel()
	it := roundQuery(game, index).Snapshots(wctx)
	defer it.Stop()
	// The staged reveals seen so far, by document: each snapshot after
	// the first decodes only the documents it changed.
	seen := map[string]engine.Action{}
	for {
		snap, err := it.Next()
		if err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			// The wait ended: one direct look, which also catches a
			// staging the listener has not delivered yet (the emulator's
			// listeners were seen to lag by seconds under load), so that
			// the round still closes in this commit when all are staged.
			return s.stagedOf(ctx, game, index)
		}
		s.reads.Add(int64(max(1, len(snap.Changes))))
		for _, ch := range snap.Changes {
			d := ch.Doc
			if ch.Kind == firestore.DocumentRemoved {
				delete(seen, d.Ref.ID)
				continue
			}
			var v store.StagedReveal
			if err := store.FromDoc(d.Data(), &v); err != nil {
				return nil, fmt.Errorf("fsstore: decode %s %s: %w", collLinks, d.Ref.ID, err)
			}
			if err := checkStaged(&v, index); err != nil {
				return nil, err
			}
			seen[d.Ref.ID] = v.Reveal()
		}
		staged := slices.Collect(maps.Values(seen))
		store.SortStaged(staged)
		if all(staged, seats) {
			s.waited.Add(1)
			return staged, nil
		}
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
