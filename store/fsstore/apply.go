package fsstore

import (
	"context"
	"errors"
	"fmt"

	"cloud.google.com/go/firestore"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/fairboard/fairboard/engine"
	"github.com/fairboard/fairboard/store"
)

// Derived fields of games/{id} that the security rules read; they are not
// part of engine.Public and are dropped when the document is decoded.
const (
	fieldOwner   = "ownerUid"
	fieldPlayers = "playerUids"
)

// Apply implements store.Store with one Firestore transaction.
func (s *Store) Apply(ctx context.Context, req store.Request, m store.Mutator) (*store.Record, error) {
	if !store.ValidID(req.GameID) || (req.ActionID != "" && !store.ValidID(req.ActionID)) {
		return nil, fmt.Errorf("%w: game %q action %q", store.ErrInvalid, req.GameID, req.ActionID)
	}
	gameRef := s.game(req.GameID)
	privRef := gameRef.Collection("private").Doc("state")
	refs := []*firestore.DocumentRef{gameRef, privRef}
	if req.ActionID != "" {
		refs = append(refs, gameRef.Collection("actions").Doc(req.ActionID))
	}
	s.txns.Add(1)
	var rec *store.Record
	read := false // the store answered our reads at least once
	err := s.c.RunTransaction(ctx, func(ctx context.Context, tx *firestore.Transaction) error {
		s.attempts.Add(1)
		rec = nil
		snaps, err := tx.GetAll(refs)
		if err != nil {
			return err
		}
		read = true
		if len(refs) == 3 && snaps[2].Exists() {
			rec, err = decodeRecord(snaps[2].Data(), req)
			return err
		}
		var g engine.Game
		exists := snaps[0].Exists()
		if exists {
			if err := decodeGame(snaps[0].Data(), snaps[1], &g); err != nil {
				return err
			}
		}
		events, err := m(&g)
		r := &store.Record{ActionID: req.ActionID, Actor: req.Actor, Kind: req.Kind, Fingerprint: req.Fingerprint}
		var rej *engine.Error
		if errors.As(err, &rej) {
			r.Rejection = &store.Rejection{Code: rej.Code, Msg: rej.Msg}
			r.Events = []engine.Event{}
			if len(refs) == 3 && exists {
				if err := setDoc(tx, refs[2], r); err != nil {
					return err
				}
			}
			rec = r
			return nil
		}
		if err != nil {
			return err
		}
		r.Version, r.Events = g.Public.Version, events
		if err := s.writeAll(tx, refs, &g, r); err != nil {
			return err
		}
		rec = r
		return nil
	}, firestore.MaxAttempts(s.maxAttempts))
	if err != nil {
		if read && timedOut(err) {
			// The store answered the reads, then the commit (or a retry)
			// ran out of time: waiting on a hot game's lock, not an outage.
			return nil, fmt.Errorf("%w: %v", store.ErrContention, err)
		}
		return nil, mapErr(err)
	}
	return rec, nil
}

// timedOut reports whether err is a deadline.
func timedOut(err error) bool {
	return status.Code(err) == codes.DeadlineExceeded || errors.Is(err, context.DeadlineExceeded)
}

// writeAll queues the writes of an applied action.
func (s *Store) writeAll(tx *firestore.Transaction, refs []*firestore.DocumentRef, g *engine.Game, r *store.Record) error {
	pub, err := store.ToDoc(&g.Public)
	if err != nil {
		return err
	}
	uids := make([]any, len(g.Public.Players))
	for i, p := range g.Public.Players {
		uids[i] = p.UID
	}
	pub[fieldOwner], pub[fieldPlayers] = g.Public.Owner, uids
	sec, err := store.ToDoc(&g.Secret)
	if err != nil {
		return err
	}
	if err := tx.Set(refs[0], pub); err != nil {
		return err
	}
	if err := tx.Set(refs[1], sec); err != nil {
		return err
	}
	logs := refs[0].Collection("log")
	for i := range r.Events {
		d, err := store.JSONToDoc(r.Events[i].AppendJSON(nil))
		if err != nil {
			return err
		}
		if err := tx.Create(logs.Doc(logID(r.Events[i].Seq)), d); err != nil {
			return err
		}
	}
	if len(refs) == 3 {
		return setDoc(tx, refs[2], r)
	}
	return nil
}

func setDoc(tx *firestore.Transaction, ref *firestore.DocumentRef, v any) error {
	d, err := store.ToDoc(v)
	if err != nil {
		return err
	}
	return tx.Set(ref, d)
}

// decodeGame fills g from the game document and the private snapshot.
func decodeGame(pub map[string]any, priv *firestore.DocumentSnapshot, g *engine.Game) error {
	delete(pub, fieldOwner)
	delete(pub, fieldPlayers)
	if err := store.FromDoc(pub, &g.Public); err != nil {
		return fmt.Errorf("fsstore: decode game: %w", err)
	}
	if priv.Exists() {
		if err := store.FromDoc(priv.Data(), &g.Secret); err != nil {
			return fmt.Errorf("fsstore: decode private state: %w", err)
		}
	}
	return nil
}

// decodeRecord decodes a stored record and checks it belongs to req.
func decodeRecord(d map[string]any, req store.Request) (*store.Record, error) {
	var rec store.Record
	if err := store.FromDoc(d, &rec); err != nil {
		return nil, fmt.Errorf("fsstore: decode action record: %w", err)
	}
	if rec.Actor != req.Actor || rec.Fingerprint != req.Fingerprint || rec.Kind != req.Kind {
		return nil, fmt.Errorf("%w: %s", store.ErrActionIDReused, req.ActionID)
	}
	rec.Replayed = true
	return &rec, nil
}
