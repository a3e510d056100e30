package fstables

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"

	"cloud.google.com/go/firestore"

	"github.com/fairboard/fairboard/audit"
	"github.com/fairboard/fairboard/table"
	"github.com/fairboard/fairboard/tablestore"
)

// An audited table's ring (docs/store.md, "A table's audit ring") is
// the document games/{id}/private/audit, apart from the head (which
// stays of bounded size, and which every action reads: the ring it
// never needs): its field auditRing maps a slot (seq % 500, as text)
// to the entry's JSON (audit.Entry), as the dungeon's private state
// does. Each action that drew puts its entries (table.Head.Audit) in
// their slots in the action's own transaction: a Set merging only those
// fields, so the action reads nothing more and the ring lands with the
// action or not at all. Under firestore.rules no client reads
// private/{doc}.
const (
	docAudit       = "audit"
	fieldAuditRing = "auditRing"
)

var _ tablestore.AuditReader = (*Store)(nil)

func (s *Store) auditRef(gameID string) *firestore.DocumentRef {
	_, priv := s.refs(gameID)
	return priv.Parent.Doc(docAudit)
}

// writeAudit queues the ring's update of h.Audit (in seq order: of two
// entries of one slot, the newer is kept), if any.
func (s *Store) writeAudit(tx *firestore.Transaction, gameID string, h *table.Head) error {
	if len(h.Audit) == 0 {
		return nil
	}
	slots := make(map[string]any, len(h.Audit))
	var paths []firestore.FieldPath
	for _, e := range h.Audit {
		k := strconv.Itoa(e.Slot)
		if _, ok := slots[k]; !ok {
			paths = append(paths, firestore.FieldPath{fieldAuditRing, k})
		}
		slots[k] = string(e.JSON)
	}
	return tx.Set(s.auditRef(gameID), map[string]any{fieldAuditRing: slots}, firestore.Merge(paths...))
}

// Audit implements tablestore.AuditReader: one GetAll of the private
// table (the table's existence) and its ring.
func (s *Store) Audit(ctx context.Context, gameID string) ([]audit.Entry, error) {
	if !table.ValidID(gameID) {
		return nil, notCreated(gameID)
	}
	_, privRef := s.refs(gameID)
	snaps, err := s.c.GetAll(ctx, []*firestore.DocumentRef{privRef, s.auditRef(gameID)})
	if err != nil {
		return nil, mapErr(err)
	}
	if !snaps[0].Exists() {
		return nil, notCreated(gameID)
	}
	if !snaps[1].Exists() {
		return []audit.Entry{}, nil
	}
	raw, err := snaps[1].DataAt(fieldAuditRing)
	if err != nil {
		return []audit.Entry{}, nil
	}
	m, ok := raw.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("fstables: %s: %s is %T, not a map", snaps[1].Ref.Path, fieldAuditRing, raw)
	}
	out := make([]audit.Entry, 0, len(m))
	for slot, v := range m {
		js, ok := v.(string)
		if !ok {
			return nil, fmt.Errorf("fstables: %s: %s.%s is %T, not an entry's JSON", snaps[1].Ref.Path, fieldAuditRing, slot, v)
		}
		var e audit.Entry
		if err := json.Unmarshal([]byte(js), &e); err != nil {
			return nil, fmt.Errorf("fstables: %s: decode %s.%s: %w", snaps[1].Ref.Path, fieldAuditRing, slot, err)
		}
		out = append(out, e)
	}
	slices.SortFunc(out, func(a, b audit.Entry) int {
		switch {
		case a.Seq < b.Seq:
			return -1
		case a.Seq > b.Seq:
			return 1
		}
		return 0
	})
	return out, nil
}
