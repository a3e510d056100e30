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

	"github.com/fairboard/fairboard/engine"
	"github.com/fairboard/fairboard/rng"
	"github.com/fairboard/fairboard/store"
)

// Game implements store.Store.
func (s *Store) Game(ctx context.Context, gameID string) (*engine.Public, error) {
	if !store.ValidID(gameID) {
		return nil, fmt.Errorf("%w: %s", store.ErrNotFound, gameID)
	}
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

// Log implements store.Store: a query on the seq field, ascending.
func (s *Store) Log(ctx context.Context, gameID string, after uint64, limit int) ([]engine.Event, error) {
	out := []engine.Event{}
	if !store.ValidID(gameID) {
		return out, nil
	}
	q := s.game(gameID).Collection("log").OrderBy(firestore.DocumentID, firestore.Asc).
		StartAfter(logID(after))
	if limit > 0 {
		q = q.Limit(limit)
	}
	it := q.Documents(ctx)
	defer it.Stop()
	for {
		snap, err := it.Next()
		if err == iterator.Done {
			return out, nil
		}
		if err != nil {
			return nil, mapErr(err)
		}
		var e engine.Event
		if err := store.FromDoc(snap.Data(), &e); err != nil {
			return nil, fmt.Errorf("fsstore: decode log %s: %w", snap.Ref.ID, err)
		}
		out = append(out, e)
	}
}

// Action implements store.Store.
func (s *Store) Action(ctx context.Context, gameID, actionID string) (*store.Record, error) {
	if !store.ValidID(gameID) || !store.ValidID(actionID) {
		return nil, fmt.Errorf("%w: %s/%s", store.ErrNotFound, gameID, actionID)
	}
	snap, err := s.game(gameID).Collection("actions").Doc(actionID).Get(ctx)
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

// WriteAudit implements store.Store: the ring slots are written in one
// write-only transaction (outside any action's transaction), so a failure
// leaves the ring as it was.
func (s *Store) WriteAudit(ctx context.Context, gameID string, entries []rng.Entry) error {
	if !store.ValidID(gameID) {
		return fmt.Errorf("%w: game %q", store.ErrInvalid, gameID)
	}
	entries = store.LastAudit(entries)
	if len(entries) == 0 {
		return nil
	}
	docs := make([]map[string]any, len(entries))
	for i, e := range entries {
		d, err := store.ToDoc(e)
		if err != nil {
			return err
		}
		docs[i] = d
	}
	ring := s.game(gameID).Collection("rngAudit")
	err := s.c.RunTransaction(ctx, func(ctx context.Context, tx *firestore.Transaction) error {
		for i, e := range entries {
			if err := tx.Set(ring.Doc(strconv.FormatUint(e.Seq%store.AuditRing, 10)), docs[i]); err != nil {
				return err
			}
		}
		return nil
	}, firestore.MaxAttempts(s.maxAttempts))
	return mapErr(err)
}

// Audit implements store.Store.
func (s *Store) Audit(ctx context.Context, gameID string) ([]rng.Entry, error) {
	out := []rng.Entry{}
	if !store.ValidID(gameID) {
		return out, nil
	}
	snaps, err := s.game(gameID).Collection("rngAudit").Documents(ctx).GetAll()
	if err != nil {
		return nil, mapErr(err)
	}
	for _, snap := range snaps {
		var e rng.Entry
		if err := store.FromDoc(snap.Data(), &e); err != nil {
			return nil, fmt.Errorf("fsstore: decode audit %s: %w", snap.Ref.ID, err)
		}
		out = append(out, e)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Seq < out[j].Seq })
	return out, nil
}
