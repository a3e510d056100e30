package fsstore

import (
	"context"

	"cloud.google.com/go/firestore"
	"google.golang.org/grpc/status"
)

// batch is the writes of one atomic commit being built. Its methods queue
// a write; a write Firestore cannot build (a value it cannot hold) is
// reported by commit, before anything is sent.
type batch struct{ b *firestore.WriteBatch }

func (w batch) Create(ref *firestore.DocumentRef, data any) error {
	w.b.Create(ref, data)
	return nil
}

func (w batch) Set(ref *firestore.DocumentRef, data any) error {
	w.b.Set(ref, data)
	return nil
}

func (w batch) Update(ref *firestore.DocumentRef, ups []firestore.Update, pre ...firestore.Precondition) error {
	w.b.Update(ref, ups, pre...)
	return nil
}

// commit makes one atomic commit of the writes queue adds, and returns how
// many it queued and whether the commit was sent (false: nothing can have
// been written). It is one Commit call, without a transaction: the store
// reads before it commits, without locks (attempt), so a transaction
// would only add its BeginTransaction round trip; what makes the commit
// safe is its writes' preconditions (a document unchanged since it was
// read, or not there yet), which Firestore checks atomically with the
// writes, inside a transaction or not.
func (s *Store) commit(ctx context.Context, queue func(w batch) (int, error)) (n int, sent bool, err error) {
	//lint:ignore SA1019 WriteBatch is the client's only atomic commit without a BeginTransaction round trip (see above).
	b := s.c.Batch()
	if n, err = queue(batch{b}); err != nil {
		return 0, false, err
	}
	if _, err = b.Commit(ctx); err != nil {
		// An error that is not a gRPC status was raised by the client
		// before anything was sent (a write it could not build).
		if _, isStatus := status.FromError(err); !isStatus {
			return 0, false, err
		}
		return n, true, err
	}
	return n, true, nil
}
