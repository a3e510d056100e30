package fstables

import (
	"context"

	"cloud.google.com/go/firestore"
)

// fieldTableDue is publicDoc.TableDueAt's field.
const fieldTableDue = "tableDueAt"

// Due implements tablestore.Store: one query of the games by their
// tableDueAt field (indexed: firestore.indexes.json does not exempt it),
// returning document names only.
func (s *Store) Due(ctx context.Context, before int64, limit int) ([]string, error) {
	q := s.c.Collection(collGames).Where(fieldTableDue, "<=", before).OrderBy(fieldTableDue, firestore.Asc).Select()
	if limit > 0 {
		q = q.Limit(limit)
	}
	snaps, err := q.Documents(ctx).GetAll()
	if err != nil {
		return nil, mapErr(err)
	}
	out := make([]string, len(snaps))
	for i, snap := range snaps {
		out[i] = snap.Ref.ID
	}
	return out, nil
}
