// The audit ring of a game: the repair of entries an earlier release's
// ring write left out (WriteAudit), and the ring read from both layouts.

package fsstore

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"

	"cloud.google.com/go/firestore"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/fairboard/fairboard/audit"
	"github.com/fairboard/fairboard/games/dungeon/server/store"
)

// WriteAudit implements store.Store: a repair of entries that an
// earlier release's ring write left out (Apply rings an action's entries
// in its own commit). A plain read of the game, its private state (which
// holds the ring) and the old layout's slot documents the entries would
// be in finds what is missing; if nothing is (a replay checking its
// action's entries), nothing else happens. Otherwise the missing entries
// are put in the private state's ring in one transaction that reads it
// again, so that a concurrent action's newer entry in the same slot wins.
// A failure leaves the ring as it was, never with an older entry over a
// newer one.
func (s *Store) WriteAudit(ctx context.Context, gameID string, entries []audit.Entry) (int, error) {
	if !store.ValidID(gameID) {
		return 0, fmt.Errorf("%w: game %q", store.ErrInvalid, gameID)
	}
	if len(entries) == 0 {
		return 0, nil
	}
	in := audit.NewRing(audit.RingSize) // the newest incoming entry per slot
	for _, e := range entries {
		in.Put(e)
	}
	cand := in.Entries()
	ups, err := ringUpdates(cand)
	if err != nil {
		return 0, err
	}
	byseq := make(map[uint64]firestore.Update, len(cand))
	for i, e := range cand {
		byseq[e.Seq] = ups[i]
	}
	gameRef := s.game(gameID)
	privRef := gameRef.Collection("private").Doc("state")
	old := gameRef.Collection("rngAudit")
	refs := []*firestore.DocumentRef{gameRef, privRef}
	for _, e := range cand {
		refs = append(refs, old.Doc(strconv.Itoa(audit.Slot(e.Seq))))
	}
	s.reads.Add(int64(len(refs)))
	snaps, err := s.c.GetAll(ctx, refs)
	if err != nil {
		return 0, mapErr(err)
	}
	if !snaps[0].Exists() || isTable(snaps[0].Data()) {
		return 0, fmt.Errorf("%w: %s", store.ErrNotFound, gameID)
	}
	held, err := heldSeqs(snaps[1], snaps[2:])
	if err != nil {
		return 0, err
	}
	missing := unheld(cand, held)
	if len(missing) == 0 {
		return 0, nil
	}
	if s.previous {
		return s.writeSlotDocs(ctx, old, missing)
	}
	n := 0
	err = s.c.RunTransaction(ctx, func(ctx context.Context, tx *firestore.Transaction) error {
		n = 0
		s.reads.Add(1)
		priv, err := tx.Get(privRef)
		if err != nil && status.Code(err) != codes.NotFound {
			return err
		}
		now, err := heldSeqs(priv, nil)
		if err != nil {
			return err
		}
		for slot, seq := range held { // the old layout's slots, read above
			now[slot] = max(now[slot], seq)
		}
		still := unheld(missing, now)
		if len(still) == 0 {
			return nil
		}
		w := make([]firestore.Update, len(still))
		for i, e := range still {
			w[i] = byseq[e.Seq]
		}
		if priv.Exists() {
			err = tx.Update(privRef, w)
		} else {
			slots := make(map[string]any, len(w))
			for _, u := range w {
				slots[u.FieldPath[1]] = u.Value
			}
			err = tx.Set(privRef, map[string]any{fieldRing: slots}, firestore.Merge(fieldPaths(w)...))
		}
		n = len(still)
		return err
	}, firestore.MaxAttempts(s.maxAttempts))
	if err != nil {
		return 0, mapErr(err)
	}
	if n > 0 {
		s.committed(1)
	}
	return n, nil
}

// writeSlotDocs is WriteAudit's write as the previous release made it
// (WithPreviousLayout): the missing entries as documents of rngAudit, one
// per slot, in a transaction that reads their slots again so that a
// concurrent writer of a newer entry wins.
func (s *Store) writeSlotDocs(ctx context.Context, slots *firestore.CollectionRef, missing []audit.Entry) (int, error) {
	refs := func(es []audit.Entry) []*firestore.DocumentRef {
		out := make([]*firestore.DocumentRef, len(es))
		for i, e := range es {
			out[i] = slots.Doc(strconv.Itoa(audit.Slot(e.Seq)))
		}
		return out
	}
	n := 0
	err := s.c.RunTransaction(ctx, func(ctx context.Context, tx *firestore.Transaction) error {
		n = 0
		rs := refs(missing)
		s.reads.Add(int64(len(rs)))
		snaps, err := tx.GetAll(rs)
		if err != nil {
			return err
		}
		held, err := heldSeqs(nil, snaps)
		if err != nil {
			return err
		}
		still := unheld(missing, held)
		for i, ref := range refs(still) {
			d, err := store.ToDoc(still[i])
			if err != nil {
				return fmt.Errorf("%w: audit entry %d: %v", store.ErrInvalid, still[i].Seq, err)
			}
			if err := tx.Set(ref, d); err != nil {
				return err
			}
		}
		n = len(still)
		return nil
	}, firestore.MaxAttempts(s.maxAttempts))
	if err != nil {
		return 0, mapErr(err)
	}
	s.committed(n)
	return n, nil
}

func fieldPaths(ups []firestore.Update) []firestore.FieldPath {
	out := make([]firestore.FieldPath, len(ups))
	for i, u := range ups {
		out[i] = u.FieldPath
	}
	return out
}

// heldSeqs returns, per slot, the seq of the entry the ring holds: the
// private state's ring (priv, which may not exist) and the given slot
// documents of the old layout.
func heldSeqs(priv *firestore.DocumentSnapshot, slots []*firestore.DocumentSnapshot) (map[int]uint64, error) {
	held := map[int]uint64{}
	es, err := privateRing(priv)
	if err != nil {
		return nil, err
	}
	for _, e := range es {
		held[audit.Slot(e.Seq)] = max(held[audit.Slot(e.Seq)], e.Seq)
	}
	for _, snap := range slots {
		if !snap.Exists() {
			continue
		}
		var e audit.Entry
		if err := store.FromDoc(snap.Data(), &e); err != nil {
			return nil, fmt.Errorf("fsstore: decode audit slot %s: %w", snap.Ref.ID, err)
		}
		held[audit.Slot(e.Seq)] = max(held[audit.Slot(e.Seq)], e.Seq)
	}
	return held, nil
}

// unheld returns the entries of es (one per slot) whose slot holds
// neither them nor a newer entry.
func unheld(es []audit.Entry, held map[int]uint64) []audit.Entry {
	var out []audit.Entry
	for _, e := range es {
		if h, ok := held[audit.Slot(e.Seq)]; ok && h >= e.Seq {
			continue
		}
		out = append(out, e)
	}
	return out
}

// privateRing decodes the ring the private state holds (none if priv is
// nil or does not exist).
func privateRing(priv *firestore.DocumentSnapshot) ([]audit.Entry, error) {
	if priv == nil || !priv.Exists() {
		return nil, nil
	}
	raw, err := priv.DataAt(fieldRing)
	if err != nil {
		return nil, nil // no ring yet
	}
	m, ok := raw.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("fsstore: private %s is %T, not a map", fieldRing, raw)
	}
	out := make([]audit.Entry, 0, len(m))
	for slot, v := range m {
		js, ok := v.(string)
		if !ok {
			return nil, fmt.Errorf("fsstore: %s.%s is %T, not an entry's JSON", fieldRing, slot, v)
		}
		var e audit.Entry
		if err := json.Unmarshal([]byte(js), &e); err != nil {
			return nil, fmt.Errorf("fsstore: decode %s.%s: %w", fieldRing, slot, err)
		}
		out = append(out, e)
	}
	return out, nil
}

// Audit implements store.Store: the ring the private state holds, and
// the old layout's slot documents of a game stored before it (a slot
// keeps its newest entry, wherever it is).
func (s *Store) Audit(ctx context.Context, gameID string) ([]audit.Entry, error) {
	out := []audit.Entry{}
	if !store.ValidID(gameID) {
		return out, nil
	}
	ref := s.game(gameID)
	s.reads.Add(1)
	priv, err := ref.Collection("private").Doc("state").Get(ctx)
	if err != nil && status.Code(err) != codes.NotFound {
		return nil, mapErr(err)
	}
	ring := audit.NewRing(audit.RingSize)
	es, err := privateRing(priv)
	if err != nil {
		return nil, err
	}
	for _, e := range es {
		ring.Put(e)
	}
	snaps, err := ref.Collection("rngAudit").Documents(ctx).GetAll()
	s.reads.Add(int64(max(1, len(snaps))))
	if err != nil {
		return nil, mapErr(err)
	}
	for _, snap := range snaps {
		var e audit.Entry
		if err := store.FromDoc(snap.Data(), &e); err != nil {
			return nil, fmt.Errorf("fsstore: decode audit %s: %w", snap.Ref.ID, err)
		}
		ring.Put(e)
	}
	return append(out, ring.Entries()...), nil
}
