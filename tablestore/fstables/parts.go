package fstables

import (
	"context"
	"fmt"

	"cloud.google.com/go/firestore"

	"github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/table"
	"github.com/fairboard/fairboard/tablestore"
)

// ChunkSize is the head's chunk size (table.Table.SaveHead): its open
// tail is sealed into a chunk document once it holds this many log
// events, moves or draws.
const ChunkSize = 64

// partDoc is a chunk or a stored result: games/{id}/private/c-{index}
// (%06d) and games/{id}/private/r-{table.ResultID}.
type partDoc struct {
	Saved string `firestore:"saved"`
}

func (s *Store) resultRef(gameID, actor, actionID string) *firestore.DocumentRef {
	_, priv := s.refs(gameID)
	return priv.Parent.Doc("r-" + table.ResultID(actor, actionID))
}

func (s *Store) chunkRef(gameID string, i int) *firestore.DocumentRef {
	_, priv := s.refs(gameID)
	return priv.Parent.Doc(fmt.Sprintf("c-%06d", i))
}

// writeParts queues the chunk the head sealed and its new stored
// results, each created: never over a document that exists (a chunk is
// sealed once; a result's key is never stored twice, a retry writes
// nothing); and an audited table's new audit entries (audit.go).
func (s *Store) writeParts(tx *firestore.Transaction, gameID string, h *table.Head) error {
	if h.Chunk != nil {
		if err := tx.Create(s.chunkRef(gameID, h.ChunkIndex), partDoc{Saved: string(h.Chunk)}); err != nil {
			return err
		}
	}
	for _, r := range h.Results {
		if err := tx.Create(s.resultRef(gameID, r.Actor, r.ActionID), partDoc{Saved: string(r.Data)}); err != nil {
			return err
		}
	}
	return s.writeAudit(tx, gameID, h)
}

// join reads the n sealed chunks of the table gameID in one GetAll and
// returns its head joined with them (table.JoinHead).
func (s *Store) join(ctx context.Context, gameID string, head []byte, n int) ([]byte, error) {
	refs := make([]*firestore.DocumentRef, n)
	for i := range refs {
		refs[i] = s.chunkRef(gameID, i)
	}
	var snaps []*firestore.DocumentSnapshot
	if n > 0 {
		var err error
		if snaps, err = s.c.GetAll(ctx, refs); err != nil {
			return nil, mapErr(err)
		}
	}
	chunks := make([][]byte, n)
	for i, sn := range snaps {
		if !sn.Exists() {
			return nil, fmt.Errorf("fstables: %s: chunk %d of %d is missing", gameID, i, n)
		}
		var d partDoc
		if err := sn.DataTo(&d); err != nil {
			return nil, fmt.Errorf("fstables: decode %s: %w", sn.Ref.Path, err)
		}
		chunks[i] = []byte(d.Saved)
	}
	data, err := table.JoinHead(head, chunks)
	if err != nil {
		return nil, fmt.Errorf("fstables: %s: %w", gameID, err)
	}
	return data, nil
}

var _ tablestore.ViewerAfter = (*Store)(nil)

// ViewAfter implements tablestore.ViewerAfter: one read of the head when
// its open tail holds every event after after.Seq and, at a trustless
// table, the head's moves start at or before after.Moves (the reader's
// client has checked every sealed move: table.TrustlessView.MovesBase),
// else the head and every chunk (in one GetAll: a reader that has checked
// fewer moves, a fresh device, reads the whole protocol once).
func (s *Store) ViewAfter(ctx context.Context, gameID, uid string, after tablestore.After) (*table.View, game.Definition, error) {
	def, t, head, err := s.loadHead(ctx, gameID)
	if err != nil {
		return nil, nil, err
	}
	v := t.View(uid)
	if uint64(t.SealedSeqs()) > after.Seq || v.Trustless != nil && v.Trustless.MovesBase > after.Moves {
		if t, err = s.whole(ctx, gameID, def, t, head); err != nil {
			return nil, nil, err
		}
		v = t.View(uid)
	}
	return v, def, nil
}
