package fsstore

import (
	"context"
	"fmt"
	"strings"
	"time"

	"cloud.google.com/go/firestore"
	pb "cloud.google.com/go/firestore/apiv1/firestorepb"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
)

// batch is the writes of one atomic commit being built. Its methods queue
// a write; a write that cannot be built (a value no document of this
// store holds, two updates of one field) is reported by commit, before
// anything is sent.
type batch struct{ list *[]write }

// write is one queued write: a document created (only if it does not
// exist), set whole, or updated (its fields ups; only if it exists, and
// if updated is not zero only if its update time is that).
type write struct {
	ref     *firestore.DocumentRef
	op      writeOp
	data    map[string]any
	ups     []firestore.Update
	updated time.Time
}

type writeOp int

const (
	opCreate writeOp = iota
	opSet
	opUpdate
)

func (w batch) Create(ref *firestore.DocumentRef, data map[string]any) error {
	*w.list = append(*w.list, write{ref: ref, op: opCreate, data: data})
	return nil
}

func (w batch) Set(ref *firestore.DocumentRef, data map[string]any) error {
	*w.list = append(*w.list, write{ref: ref, op: opSet, data: data})
	return nil
}

// Update queues the update of ref's fields ups, conditional on its update
// time being updated (zero: on its existing).
func (w batch) Update(ref *firestore.DocumentRef, ups []firestore.Update, updated time.Time) error {
	*w.list = append(*w.list, write{ref: ref, op: opUpdate, ups: ups, updated: updated})
	return nil
}

// WithLibraryCommit makes a store given a raw client (WithRPC) commit
// through the client library's WriteBatch anyway, as a store without one
// does: the library converts each document's values to protobuf by
// reflection, where the raw commit builds them from the document's own
// types. It is the baseline of the action benchmark's comparison
// (functions/integration, BenchmarkActionVsBare); the two commits write
// the same documents (TestRawCommitIsTheLibrarysCommit).
func WithLibraryCommit() Option { return func(s *Store) { s.libCommit = true } }

// commit makes one atomic commit of the writes queue adds, and returns how
// many it queued and whether the commit was sent (false: nothing can have
// been written). It is one Commit call, without a transaction: the store
// reads before it commits, without locks (attempt), so a transaction
// would only add its BeginTransaction round trip; what makes the commit
// safe is its writes' preconditions (a document unchanged since it was
// read, or not there yet), which Firestore checks atomically with the
// writes, inside a transaction or not.
//
// With a raw client (WithRPC) the call is the raw client's Commit, its
// writes' protobuf built by toWrites; without, the library's WriteBatch
// (which makes the same call, with the same retries).
func (s *Store) commit(ctx context.Context, queue func(w batch) (int, error)) (n int, sent bool, err error) {
	var ws []write
	if n, err = queue(batch{&ws}); err != nil {
		return 0, false, err
	}
	if len(ws) == 0 {
		return 0, false, fmt.Errorf("fsstore: a commit of no writes")
	}
	if s.rpc != nil && !s.libCommit {
		pws, err := toWrites(ws)
		if err != nil {
			return 0, false, err
		}
		db := database(ws[0].ref.Path)
		req := &pb.CommitRequest{Database: db, Writes: pws}
		_, err = s.rpc.Commit(metadata.AppendToOutgoingContext(ctx, resourcePrefix, db), req)
		return sentOrNot(n, err)
	}
	//lint:ignore SA1019 WriteBatch is the client's only atomic commit without a BeginTransaction round trip (see above).
	b := s.c.Batch()
	for _, w := range ws {
		switch w.op {
		case opCreate:
			b.Create(w.ref, w.data)
		case opSet:
			b.Set(w.ref, w.data)
		case opUpdate:
			if w.updated.IsZero() {
				b.Update(w.ref, w.ups)
			} else {
				b.Update(w.ref, w.ups, firestore.LastUpdateTime(w.updated))
			}
		}
	}
	_, err = b.Commit(ctx)
	return sentOrNot(n, err)
}

// sentOrNot is commit's answer for a commit of n writes that returned
// err: an error that is not a gRPC status was raised by the client
// before anything was sent (a write it could not build).
func sentOrNot(n int, err error) (int, bool, error) {
	if err == nil {
		return n, true, nil
	}
	if _, isStatus := status.FromError(err); !isStatus {
		return 0, false, err
	}
	return n, true, err
}

// resourcePrefix is the header naming the database that the library sends
// with each of its calls (its client.go), which the raw commit sends too.
const resourcePrefix = "google-cloud-resource-prefix"

// database is the database of a document's name
// (projects/p/databases/d/documents/...): projects/p/databases/d.
func database(doc string) string {
	db, _, _ := strings.Cut(doc, "/documents/")
	return db
}
