package fsstore

import (
	"context"
	"fmt"
	"slices"
	"time"

	"cloud.google.com/go/firestore"

	"github.com/fairboard/fairboard/engine"
	"github.com/fairboard/fairboard/store"
)

// DefaultRoundWait is how long a reveal that would complete its round
// waits, at most, for the other reveals it needs to be staged
// (store.Outcome.Await): reveals sent together are staged within a few
// commits' time; a seat later than this is waited for by no one (the
// reveal stages, and the last to arrive closes the round).
const DefaultRoundWait = 500 * time.Millisecond

// roundListener is a snapshot listener on one round's staged reveals
// (the links collection's id range of its index), opened by a reveal's
// attempt together with its read of the game: its first snapshot is the
// attempt's read of the staged reveals, and the reveal that turns out to
// be its round's closer goes on listening on it (await) without opening
// a listener, a round trip, after its read. Every other reveal stops it
// after the first snapshot, so it reads what the one query it replaces
// read.
type roundListener struct {
	s      *Store
	game   *firestore.DocumentRef
	index  uint32
	it     *firestore.QuerySnapshotIterator
	cancel context.CancelFunc // ends the listener (stop, or the wait's end)
}

// prefetch is a reveal's read of its round's staged reveals.
type prefetch struct {
	staged []engine.Action
	err    error
}

// prefetchRound starts reading the round index's staged reveals, for an
// attempt to wait for beside its read of the game: the first snapshot of
// a listener on them (returned, for the attempt to stop), which the
// round's closer then goes on listening to (await) without a round trip
// to open one; or, with the round wait off, one query. The function it
// returns waits for the read and answers it (call it once).
func (s *Store) prefetchRound(ctx context.Context, game *firestore.DocumentRef, index uint32) (*roundListener, func() *prefetch) {
	done := make(chan prefetch, 1)
	var lis *roundListener
	if s.roundWait > 0 {
		lis = s.listenRound(ctx, game, index)
	}
	go func() {
		var p prefetch
		if lis != nil {
			p.staged, p.err = lis.first(ctx)
		} else {
			p.staged, p.err = s.stagedOf(ctx, game, index)
		}
		done <- p
	}()
	return lis, func() *prefetch {
		p := <-done
		return &p
	}
}

// listenRound opens the listener on the round index's staged reveals.
// Nothing is read until first.
func (s *Store) listenRound(ctx context.Context, game *firestore.DocumentRef, index uint32) *roundListener {
	lctx, cancel := context.WithCancel(ctx)
	return &roundListener{s: s, game: game, index: index, it: roundQuery(game, index).Snapshots(lctx), cancel: cancel}
}

// next is the listener's next snapshot: the round's staged reveals, in
// the order they were accepted. It counts one read a changed document
// (one for a first snapshot of none), as Firestore bills a listener.
func (l *roundListener) next() ([]engine.Action, error) {
	snap, err := l.it.Next()
	if err != nil {
		return nil, err
	}
	docs, err := snap.Documents.GetAll()
	l.s.reads.Add(int64(max(1, len(snap.Changes))))
	if err != nil {
		return nil, mapErr(err)
	}
	staged := make([]engine.Action, 0, len(docs))
	for _, d := range docs {
		var v store.StagedReveal
		if err := store.FromDoc(d.Data(), &v); err != nil {
			return nil, fmt.Errorf("fsstore: decode %s %s: %w", collLinks, d.Ref.ID, err)
		}
		if err := checkStaged(&v, l.index); err != nil {
			return nil, err
		}
		staged = append(staged, v.Reveal())
	}
	store.SortStaged(staged)
	return staged, nil
}

// first is the listener's first snapshot, the round's staged reveals as
// the attempt reads them; if the listener fails, one direct query reads
// them instead.
func (l *roundListener) first(ctx context.Context) ([]engine.Action, error) {
	staged, err := l.next()
	if err != nil && ctx.Err() == nil {
		return l.s.stagedOf(ctx, l.game, l.index)
	}
	return staged, err
}

// stop ends the listener; it may be called more than once.
func (l *roundListener) stop() {
	l.cancel()
	l.it.Stop()
}

// await goes on listening (after first) until every seat of seats has a
// staged reveal, and returns them (in the order they were accepted);
// once the store's round wait has passed, it reads the staged reveals
// once more directly and returns what it finds. Reads only: it writes
// nothing, holds no lock and contends with nothing. The context's end
// is an error.
func (l *roundListener) await(ctx context.Context, seats []int) ([]engine.Action, error) {
	l.s.waits.Add(1)
	t := time.AfterFunc(l.s.roundWait, l.cancel)
	defer t.Stop()
	for {
		staged, err := l.next()
		if err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			// The wait ended (or the listener failed): one direct look,
			// which also catches a staging the listener has not
			// delivered yet (the emulator's listeners were seen to lag by
			// seconds under load), so that the round still closes in
			// this commit when all are staged.
			return l.s.stagedOf(ctx, l.game, l.index)
		}
		if all(staged, seats) {
			l.s.waited.Add(1)
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
