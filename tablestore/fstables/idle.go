package fstables

import (
	"context"
	"fmt"

	"cloud.google.com/go/firestore"

	"github.com/fairboard/fairboard/table"
)

// fieldTableActed is publicDoc.TableActedAt's field; fieldPhase and
// fieldVersion publicDoc's Phase and Version.
const (
	fieldTableActed = "tableActedAt"
	fieldPhase      = "phase"
	fieldVersion    = "version"
)

// actedAt is tableActedAt for a table after an action at at: at, until
// the table is finished (0: absent).
func actedAt(t *table.Table, at int64) int64 {
	if t.Phase() == table.PhaseFinished || at <= 0 {
		return 0
	}
	return at
}

// Idle implements tablestore.Store: one query of the games by phase and
// their tableActedAt field (the composite index of firestore.indexes.json
// on phase and tableActedAt), reading each one's version only.
func (s *Store) Idle(ctx context.Context, phase table.Phase, before int64, limit int) ([]table.IdleTable, error) {
	q := s.c.Collection(collGames).Where(fieldPhase, "==", string(phase)).Where(fieldTableActed, "<=", before).
		OrderBy(fieldTableActed, firestore.Asc).Select(fieldVersion, fieldTableActed)
	if limit > 0 {
		q = q.Limit(limit)
	}
	snaps, err := q.Documents(ctx).GetAll()
	if err != nil {
		return nil, mapErr(err)
	}
	out := make([]table.IdleTable, len(snaps))
	for i, snap := range snaps {
		var d struct {
			Version int64 `firestore:"version"`
			ActedAt int64 `firestore:"tableActedAt"`
		}
		if err := snap.DataTo(&d); err != nil || d.Version < 1 {
			return nil, fmt.Errorf("fstables: %s: a table's version and tableActedAt: %v", snap.Ref.Path, err)
		}
		out[i] = table.IdleTable{GameID: snap.Ref.ID, Version: uint64(d.Version), ActedAt: d.ActedAt}
	}
	return out, nil
}
