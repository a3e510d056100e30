package fsstore

import (
	"context"
	"fmt"
	"sort"
	"strconv"

	"cloud.google.com/go/firestore"
	"google.golang.org/api/iterator"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/fairboard/fairboard/audit"
	"github.com/fairboard/fairboard/engine"
	"github.com/fairboard/fairboard/store"
)

// Game implements store.Store.
func (s *Store) Game(ctx context.Context, gameID string) (*engine.Public, error) {
	if !store.ValidID(gameID) {
		return nil, fmt.Errorf("%w: %s", store.ErrNotFound, gameID)
	}
	s.reads.Add(1)
	snap, err := s.game(gameID).Get(ctx)
	if status.Code(err) == codes.NotFound {
		return nil, fmt.Errorf("%w: %s", store.ErrNotFound, gameID)
	}
	if err != nil {
		return nil, mapErr(err)
	}
	d := snap.Data()
	delete(d, fieldOwner)
	delete(d, fieldPlayers)
	var p engine.Public
	if err := store.FromDoc(d, &p); err != nil {
		return nil, fmt.Errorf("fsstore: decode game: %w", err)
	}
	return &p, nil
}

// State implements store.Store: the game document and its private state,
// read together.
func (s *Store) State(ctx context.Context, gameID string) (*engine.Game, error) {
	if !store.ValidID(gameID) {
		return nil, fmt.Errorf("%w: %s", store.ErrNotFound, gameID)
	}
	ref := s.game(gameID)
	s.reads.Add(2)
	snaps, err := s.c.GetAll(ctx, []*firestore.DocumentRef{ref, ref.Collection("private").Doc("state")})
	if err != nil {
		return nil, mapErr(err)
	}
	if !snaps[0].Exists() {
		return nil, fmt.Errorf("%w: %s", store.ErrNotFound, gameID)
	}
	var g engine.Game
	if err := decodeGame(snaps[0].Data(), snaps[1], &g); err != nil {
		return nil, err
	}
	return &g, nil
}

// Applied implements store.Store: the applied collection, by document id
// (the zero-padded version), ascending.
func (s *Store) Applied(ctx context.Context, gameID string) ([]store.AppliedAction, error) {
	if !store.ValidID(gameID) {
		return []store.AppliedAction{}, nil
	}
	q := s.game(gameID).Collection("applied").OrderBy(firestore.DocumentID, firestore.Asc)
	return queryAll[store.AppliedAction](ctx, s, q, "applied")
}

// Log implements store.Store: a query on the seq field, ascending.
func (s *Store) Log(ctx context.Context, gameID string, after uint64, limit int) ([]engine.Event, error) {
	if !store.ValidID(gameID) {
		return []engine.Event{}, nil
	}
	q := s.game(gameID).Collection("log").OrderBy(firestore.DocumentID, firestore.Asc).
		StartAfter(logID(after))
	if limit > 0 {
		q = q.Limit(limit)
	}
	return queryAll[engine.Event](ctx, s, q, "log")
}

// queryAll runs q and decodes every document it returns into a T, in
// order (an empty slice, not nil, when there is none); what names the
// collection in errors.
func queryAll[T any](ctx context.Context, s *Store, q firestore.Query, what string) ([]T, error) {
	out := []T{}
	it := q.Documents(ctx)
	defer it.Stop()
	defer func() { s.reads.Add(int64(max(1, len(out)))) }()
	for {
		snap, err := it.Next()
		if err == iterator.Done {
			return out, nil
		}
		if err != nil {
			return nil, mapErr(err)
		}
		var v T
		if err := store.FromDoc(snap.Data(), &v); err != nil {
			return nil, fmt.Errorf("fsstore: decode %s %s: %w", what, snap.Ref.ID, err)
		}
		out = append(out, v)
	}
}

// Action implements store.Store.
func (s *Store) Action(ctx context.Context, gameID, actor, actionID string) (*store.Record, error) {
	if !store.ValidID(gameID) || !store.ValidID(actionID) {
		return nil, fmt.Errorf("%w: %s/%s", store.ErrNotFound, gameID, actionID)
	}
	s.reads.Add(1)
	snap, err := record(s.game(gameID), store.RecordKey(actor, actionID)).Get(ctx)
	if status.Code(err) == codes.NotFound {
		return nil, fmt.Errorf("%w: %s/%s", store.ErrNotFound, gameID, actionID)
	}
	if err != nil {
		return nil, mapErr(err)
	}
	var rec store.Record
	if err := store.FromDoc(snap.Data(), &rec); err != nil {
		return nil, fmt.Errorf("fsstore: decode action record: %w", err)
	}
	return &rec, nil
}

// WriteAudit implements store.Store. A plain read of the game and of the
// slots the entries go to finds what is missing; if nothing is (a replay
// checking its action's entries), nothing else happens. Otherwise the
// missing entries are written in one transaction that reads their slots
// again, so that a concurrent writer of a newer entry in the same slot
// wins. A failure leaves the ring as it was or partly repaired, never
// with an older entry over a newer one.
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
	docs := make(map[uint64]map[string]any, len(cand))
	for _, e := range cand {
		d, err := store.ToDoc(e)
		if err != nil {
			return 0, fmt.Errorf("%w: audit entry %d: %v", store.ErrInvalid, e.Seq, err)
		}
		docs[e.Seq] = d
	}
	gameRef := s.game(gameID)
	ring := gameRef.Collection("rngAudit")
	slotRefs := func(es []audit.Entry) []*firestore.DocumentRef {
		refs := make([]*firestore.DocumentRef, len(es))
		for i, e := range es {
			refs[i] = ring.Doc(strconv.Itoa(audit.Slot(e.Seq)))
		}
		return refs
	}
	refs := append([]*firestore.DocumentRef{gameRef}, slotRefs(cand)...)
	s.reads.Add(int64(len(refs)))
	snaps, err := s.c.GetAll(ctx, refs)
	if err != nil {
		return 0, mapErr(err)
	}
	if !snaps[0].Exists() {
		return 0, fmt.Errorf("%w: %s", store.ErrNotFound, gameID)
	}
	missing, err := missingEntries(cand, snaps[1:])
	if err != nil || len(missing) == 0 {
		return 0, err
	}
	n := 0
	err = s.c.RunTransaction(ctx, func(ctx context.Context, tx *firestore.Transaction) error {
		n = 0
		refs := slotRefs(missing)
		s.reads.Add(int64(len(refs)))
		snaps, err := tx.GetAll(refs)
		if err != nil {
			return err
		}
		still, err := missingEntries(missing, snaps)
		if err != nil {
			return err
		}
		for _, e := range still {
			if err := tx.Set(ring.Doc(strconv.Itoa(audit.Slot(e.Seq))), docs[e.Seq]); err != nil {
				return err
			}
		}
		n = len(still)
		return nil
	}, firestore.MaxAttempts(s.maxAttempts))
	if err != nil {
		return 0, mapErr(err)
	}
	return n, nil
}

// missingEntries returns the entries of es (one per slot) that their
// slot's snapshot neither holds nor supersedes.
func missingEntries(es []audit.Entry, slots []*firestore.DocumentSnapshot) ([]audit.Entry, error) {
	var out []audit.Entry
	for i, e := range es {
		if slots[i].Exists() {
			var held audit.Entry
			if err := store.FromDoc(slots[i].Data(), &held); err != nil {
				return nil, fmt.Errorf("fsstore: decode audit slot %s: %w", slots[i].Ref.ID, err)
			}
			if held.Seq >= e.Seq {
				continue
			}
		}
		out = append(out, e)
	}
	return out, nil
}

// Audit implements store.Store.
func (s *Store) Audit(ctx context.Context, gameID string) ([]audit.Entry, error) {
	out := []audit.Entry{}
	if !store.ValidID(gameID) {
		return out, nil
	}
	snaps, err := s.game(gameID).Collection("rngAudit").Documents(ctx).GetAll()
	s.reads.Add(int64(max(1, len(snaps))))
	if err != nil {
		return nil, mapErr(err)
	}
	for _, snap := range snaps {
		var e audit.Entry
		if err := store.FromDoc(snap.Data(), &e); err != nil {
			return nil, fmt.Errorf("fsstore: decode audit %s: %w", snap.Ref.ID, err)
		}
		out = append(out, e)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Seq < out[j].Seq })
	return out, nil
}
