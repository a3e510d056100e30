// An action's read of its documents with a field mask: the raw
// BatchGetDocuments call, which the client library's GetAll makes
// without one, and the documents it returns converted straight from
// their protobuf values.

package fsstore

import (
	"context"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"
	"time"

	"cloud.google.com/go/firestore"
	vkit "cloud.google.com/go/firestore/apiv1"
	pb "cloud.google.com/go/firestore/apiv1/firestorepb"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/fairboard/fairboard/games/dungeon/engine"
	"github.com/fairboard/fairboard/games/dungeon/server/store"
)

// WithRPC gives the store a raw Firestore client (cloud.google.com/go/
// firestore/apiv1) of the same database as its client, for the one read
// of every attempt: a BatchGetDocuments call with a field mask
// (ReadMask), so that the private state's audit ring, which no action
// needs, is neither sent nor decoded, and the documents are converted
// from their protobuf values without the library's snapshots. Without it
// the store reads with the library's GetAll, whole documents. Close closes it
// only under WithCloseClient, as the client.
func WithRPC(rc *vkit.Client) Option { return func(s *Store) { s.rpc = rc } }

// RPC returns the raw client WithRPC gave, or nil.
func (s *Store) RPC() *vkit.Client { return s.rpc }

// readMask is the field mask of an attempt's read: every top-level field
// an action reads of the game document (engine.Public's, the derived
// ownerUid, playerUids and dueAt, and a table's game, which tells a
// table's id), of the private state (engine.Secret's, not the ring) and
// of the record (store.Record's). One mask serves the three documents
// of the one call (Firestore takes one mask a request); a field one
// document does not hold is not returned for it.
var readMask = maskOf(
	jsonFields(reflect.TypeFor[engine.Public]()),
	[]string{fieldOwner, fieldPlayers, fieldDue, fieldTableGame},
	secretFields,
	jsonFields(reflect.TypeFor[store.Record]()),
)

// ReadMask returns the field paths of an attempt's read (WithRPC), in
// the order sent: what an action cannot do without reading.
func ReadMask() []string { return append([]string(nil), readMask...) }

// maskOf is the union of the field lists, each name once, in order, as
// a field path (a name that is not a plain identifier in backquotes).
func maskOf(lists ...[]string) []string {
	seen := map[string]bool{}
	var out []string
	for _, l := range lists {
		for _, f := range l {
			if seen[f] {
				continue
			}
			seen[f] = true
			out = append(out, fieldPath(f))
		}
	}
	return out
}

// fieldPath is field name f as a field path: as it is when it is a plain
// identifier, else in backquotes.
func fieldPath(f string) string {
	plain := f != ""
	for i, r := range f {
		if !(r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || i > 0 && r >= '0' && r <= '9') {
			plain = false
		}
	}
	if plain {
		return f
	}
	return "`" + strings.NewReplacer("\\", "\\\\", "`", "\\`").Replace(f) + "`"
}

// docRead is one document as an attempt read it.
type docRead struct {
	exists  bool
	data    map[string]any // its fields (the private state's without the ring), nil if it does not exist
	updated time.Time      // its update time, the precondition of a commit that updates it
}

// readDocs reads the documents refs name in one call (one consistent
// snapshot): the game, its private state and, if there are three, the
// record. With a raw client (WithRPC) it is one BatchGetDocuments with
// the read mask; without, the library's GetAll, the private state's ring
// left out of its data after the fact.
func (s *Store) readDocs(ctx context.Context, refs []*firestore.DocumentRef) ([]docRead, error) {
	s.reads.Add(int64(len(refs)))
	if s.rpc != nil {
		return readMasked(ctx, s.rpc, refs, readMask)
	}
	snaps, err := s.c.GetAll(ctx, refs)
	if err != nil {
		return nil, err
	}
	out := make([]docRead, len(snaps))
	for i, snap := range snaps {
		if !snap.Exists() {
			continue
		}
		out[i] = docRead{exists: true, updated: snap.UpdateTime}
		if i == 1 {
			out[i].data = privateData(snap)
		} else {
			out[i].data = snap.Data()
		}
	}
	return out, nil
}

// readAttempts bounds the calls of one masked read when the database is
// unavailable (as the library's GetAll retries), and readPause is the
// first pause between them, doubled each time.
const (
	readAttempts = 5
	readPause    = 50 * time.Millisecond
)

// readMasked makes one BatchGetDocuments call for refs with mask (field
// paths) and converts what it returns; a call that fails as unavailable
// before it answers is made again, at most readAttempts times.
func readMasked(ctx context.Context, rc *vkit.Client, refs []*firestore.DocumentRef, mask []string) ([]docRead, error) {
	for n := 0; ; n++ {
		out, err := readOnce(ctx, rc, refs, mask)
		if status.Code(err) != codes.Unavailable || n+1 >= readAttempts {
			return out, err
		}
		if err := sleep(ctx, readPause<<n); err != nil {
			return nil, err
		}
	}
}

func readOnce(ctx context.Context, rc *vkit.Client, refs []*firestore.DocumentRef, mask []string) ([]docRead, error) {
	names := make([]string, len(refs))
	for i, r := range refs {
		names[i] = r.Path
	}
	db, _, ok := strings.Cut(names[0], "/documents/")
	if !ok {
		return nil, fmt.Errorf("fsstore: document name %q has no database", names[0])
	}
	stream, err := rc.BatchGetDocuments(ctx, &pb.BatchGetDocumentsRequest{
		Database: db, Documents: names, Mask: &pb.DocumentMask{FieldPaths: mask}})
	if err != nil {
		return nil, err
	}
	out := make([]docRead, len(refs))
	got := make([]bool, len(refs))
	for {
		resp, err := stream.Recv()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, err
		}
		name := resp.GetMissing()
		found := resp.GetFound()
		if found != nil {
			name = found.GetName()
		}
		i := indexOf(names, name)
		if i < 0 {
			return nil, fmt.Errorf("fsstore: read returned %q, which was not asked for", name)
		}
		got[i] = true
		if found == nil {
			continue
		}
		d, err := fromProtoFields(found.GetFields())
		if err != nil {
			return nil, fmt.Errorf("fsstore: decode %s: %w", name, err)
		}
		out[i] = docRead{exists: true, data: d, updated: found.GetUpdateTime().AsTime()}
	}
	for i, ok := range got {
		if !ok {
			return nil, status.Errorf(codes.Unavailable, "fsstore: read ended without %s", names[i])
		}
	}
	return out, nil
}

func indexOf(names []string, name string) int {
	for i, n := range names {
		if n == name {
			return i
		}
	}
	return -1
}

// fromProtoFields converts a document's fields to the values store.ToDoc
// makes (nil, bool, string, int64, float64, []any, map[string]any), as
// the library's snapshot Data does for them. A value of another kind (a
// timestamp, bytes, a reference, a point, a vector: no document of this
// store holds one) is an error.
func fromProtoFields(fields map[string]*pb.Value) (map[string]any, error) {
	out := make(map[string]any, len(fields))
	for k, v := range fields {
		x, err := fromProto(v)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", k, err)
		}
		out[k] = x
	}
	return out, nil
}

func fromProto(v *pb.Value) (any, error) {
	switch x := v.GetValueType().(type) {
	case *pb.Value_NullValue:
		return nil, nil
	case *pb.Value_BooleanValue:
		return x.BooleanValue, nil
	case *pb.Value_IntegerValue:
		return x.IntegerValue, nil
	case *pb.Value_DoubleValue:
		return x.DoubleValue, nil
	case *pb.Value_StringValue:
		return x.StringValue, nil
	case *pb.Value_ArrayValue:
		vs := x.ArrayValue.GetValues()
		out := make([]any, len(vs))
		for i, e := range vs {
			y, err := fromProto(e)
			if err != nil {
				return nil, fmt.Errorf("[%d]: %w", i, err)
			}
			out[i] = y
		}
		return out, nil
	case *pb.Value_MapValue:
		return fromProtoFields(x.MapValue.GetFields())
	}
	return nil, fmt.Errorf("a %T, which no document of this store holds", v.GetValueType())
}
