package table

import (
	"fmt"
	"slices"

	"github.com/fairboard/fairboard/audit"
	"github.com/fairboard/fairboard/rng"
)

// The audit ring of a table (docs/store.md, "A table's audit ring"): a
// table created with CreateRequest.Audit records its game's RNG audit
// entries (rng.Entry: tag, context, kind, values) as the dungeon's games
// do, each stamped with the time of the action that drew it
// (Action.At, unix ms: audit.Entry.TS) and numbered from 1 over the
// table's game (Seq: the stream's own seq in seeded, fair and trustless
// modes; a crypto table's stream, new after each restore, is numbered
// on by the table). The table keeps in memory the ring (audit.Ring of
// audit.RingSize, 500) of the entries drawn since it was made or
// restored (Table.Audit; table.Memory keeps its tables, so the whole
// ring), and hands a store that saves it in parts the entries of its
// actions since, encoded (Head.Audit), for the store to ring in the
// action's own commit. The saved table keeps only whether audit is on
// and its counts: the ring lives apart from the head, which stays of
// bounded size.
//
// Audit never blocks or undoes an action: an entry that does not encode
// drops the entries of its action (Table.AuditDropped counts such
// actions, and the saved table keeps the count and the last reason), the
// action is applied all the same. Nothing of it reaches a reader: not
// the views, the public part, a result nor an error.

// encodeAuditEntry encodes an entry for the stores (audit.Entry's JSON);
// the tests replace it to inject a failure (export_test.go).
var encodeAuditEntry = func(e audit.Entry) ([]byte, error) { return e.MarshalJSON() }

// AuditEntry is one audit entry as a store rings it: Slot is
// audit.Slot(Seq) (seq % audit.RingSize: a slot keeps the entry of the
// highest seq put in it), JSON the entry's (audit.Entry: the spec's
// {ts, seq, tag, ctx, kind, data}).
type AuditEntry struct {
	Slot int
	Seq  uint64
	JSON []byte
}

// savedAudit is the saved table's audit part: present iff audit is on.
// Count is the number of entries the game drew (the last seq), Dropped
// the number of actions whose entries were dropped, LastDrop why the
// last one was.
type savedAudit struct {
	Count    uint64 `json:"count"`
	Dropped  uint64 `json:"dropped,omitempty"`
	LastDrop string `json:"lastDrop,omitempty"`
}

// tableAudit is an audited table's recorder: the rng.Auditor of its
// match's stream.
type tableAudit struct {
	savedAudit
	pending []rng.Entry  // the entries of the action being applied
	ring    *audit.Ring  // the entries since the table was made or restored
	fresh   []AuditEntry // the same, encoded, for SaveHead (the last audit.RingSize)
}

func newTableAudit(s savedAudit) *tableAudit {
	return &tableAudit{savedAudit: s, ring: audit.NewRing(audit.RingSize)}
}

// Record implements rng.Auditor: the entry waits for its action's end.
func (a *tableAudit) Record(e rng.Entry) { a.pending = append(a.pending, e) }

// auditor returns the table's rng.Auditor, nil if audit is off.
func (t *Table) auditor() rng.Auditor {
	if t.aud == nil {
		return nil
	}
	return t.aud
}

// auditBegin forgets the entries of an action not applied (a refusal's,
// or a restore's replay).
func (t *Table) auditBegin() {
	if t.aud != nil {
		t.aud.pending = t.aud.pending[:0]
	}
}

// auditCommit rings the entries of the action applied at (unix ms): it
// numbers and stamps them, encodes them, and puts them in the ring; if
// one does not encode, none of the action's is kept (counted in
// Dropped, its reason in LastDrop), and the numbering goes on past
// them.
func (t *Table) auditCommit(at int64) {
	a := t.aud
	if a == nil || len(a.pending) == 0 {
		return
	}
	es := make([]audit.Entry, len(a.pending))
	enc := make([]AuditEntry, len(a.pending))
	var err error
	for i, e := range a.pending {
		e.Seq = a.Count + uint64(i) + 1
		es[i] = audit.Entry{Entry: e, TS: at}
		var b []byte
		if b, err = encodeAuditEntry(es[i]); err != nil {
			err = fmt.Errorf("entry %d (%s): %w", e.Seq, e.Tag, err)
			break
		}
		enc[i] = AuditEntry{Slot: audit.Slot(e.Seq), Seq: e.Seq, JSON: b}
	}
	a.Count += uint64(len(a.pending))
	a.pending = a.pending[:0]
	if err != nil {
		a.Dropped++
		a.LastDrop = err.Error()
		return
	}
	for _, e := range es {
		a.ring.Put(e)
	}
	// Entries older than the last audit.RingSize would be overwritten in
	// the store's ring anyway: a table kept in memory (Memory, which
	// never saves it) keeps no more.
	a.fresh = append(a.fresh, enc...)
	if n := len(a.fresh) - audit.RingSize; n > 0 {
		a.fresh = slices.Delete(a.fresh, 0, n)
	}
}

// Audited reports whether the table keeps an audit ring
// (CreateRequest.Audit).
func (t *Table) Audited() bool { return t.aud != nil }

// Audit returns the audit ring of the entries the table's game drew
// since the table was made or restored, in seq order (at most
// audit.RingSize, the last ones); nil if audit is off. A table kept in
// memory (Memory) holds its whole ring; a store that saves tables keeps
// the ring itself (Head.Audit). For the server only.
func (t *Table) Audit() []audit.Entry {
	if t.aud == nil {
		return nil
	}
	return t.aud.ring.Entries()
}

// AuditDropped returns how many of the table's actions had their audit
// entries dropped (an entry that did not encode) and why the last one
// was; 0 and "" if audit is off.
func (t *Table) AuditDropped() (uint64, string) {
	if t.aud == nil {
		return 0, ""
	}
	return t.aud.Dropped, t.aud.LastDrop
}

// savedAuditPart is the audit part a save keeps, nil if audit is off.
func (t *Table) savedAuditPart() *savedAudit {
	if t.aud == nil {
		return nil
	}
	s := t.aud.savedAudit
	return &s
}

// Audit returns the audit ring of the table gameID (Table.Audit: its
// whole ring, in seq order; nil if audit is off): for the server only,
// never a reader. not_created if there is no table.
func (s *Memory) Audit(gameID string) ([]audit.Entry, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	t, ok := s.tables[gameID]
	if !ok {
		return nil, reject(CodeNotCreated, "no game "+gameID)
	}
	return t.Audit(), nil
}
