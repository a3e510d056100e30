// Package fslobby keeps the games' listings (package lobby) on
// Firestore, one document a game:
//
//	lobby/{gameId}   the listing's fields, and listed (bool): public, in its lobby, a seat free
//
// written by the functions only and read by no client (firestore.rules
// matches no lobby/: denied). The lobby's list is one query,
// where("listed", "==", true) ordered by createdAt descending, limited:
// it needs the composite index (listed, createdAt desc) of
// firestore.indexes.json; every other field is exempt from indexing.
package fslobby

import (
	"context"
	"errors"
	"fmt"

	"cloud.google.com/go/firestore"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/fairboard/fairboard/lobby"
)

// The collection and its queried fields.
const (
	Coll         = "lobby"
	FieldListed  = "listed"
	FieldCreated = "createdAt"
	FieldOwner   = "ownerUid"
)

// Store is a lobby.Store on a Firestore client.
type Store struct{ c *firestore.Client }

var _ lobby.Store = (*Store)(nil)

// New returns the store on c (which the caller closes).
func New(c *firestore.Client) *Store { return &Store{c: c} }

// doc is a listing as stored: its fields and Listed.
type doc struct {
	lobby.Listing
	Listed bool `firestore:"listed"`
}

// Put implements lobby.Store.
func (s *Store) Put(ctx context.Context, l lobby.Listing) error {
	_, err := s.c.Collection(Coll).Doc(l.GameID).Set(ctx, doc{Listing: l, Listed: l.Listed()})
	return mapErr(err)
}

// Get implements lobby.Store.
func (s *Store) Get(ctx context.Context, gameID string) (*lobby.Listing, error) {
	snap, err := s.c.Collection(Coll).Doc(gameID).Get(ctx)
	if status.Code(err) == codes.NotFound {
		return nil, nil
	}
	if err != nil {
		return nil, mapErr(err)
	}
	var d doc
	if err := snap.DataTo(&d); err != nil {
		return nil, fmt.Errorf("fslobby: decode %s: %w", snap.Ref.Path, err)
	}
	return &d.Listing, nil
}

// Open implements lobby.Store: one query, at most limit documents read.
func (s *Store) Open(ctx context.Context, limit int) ([]lobby.Listing, error) {
	snaps, err := s.c.Collection(Coll).Where(FieldListed, "==", true).
		OrderBy(FieldCreated, firestore.Desc).Limit(lobby.Limit(limit)).Documents(ctx).GetAll()
	if err != nil {
		return nil, mapErr(err)
	}
	out := make([]lobby.Listing, 0, len(snaps))
	for _, snap := range snaps {
		var d doc
		if err := snap.DataTo(&d); err != nil {
			return nil, fmt.Errorf("fslobby: decode %s: %w", snap.Ref.Path, err)
		}
		out = append(out, d.Listing)
	}
	return out, nil
}

// Rename implements lobby.Store: one query (the owner's listed games),
// and one write a listing whose owner's name changes.
func (s *Store) Rename(ctx context.Context, owner, name string) (int, error) {
	snaps, err := s.c.Collection(Coll).Where(FieldOwner, "==", owner).Where(FieldListed, "==", true).Documents(ctx).GetAll()
	if err != nil {
		return 0, mapErr(err)
	}
	n := 0
	for _, snap := range snaps {
		var d doc
		if err := snap.DataTo(&d); err != nil {
			return n, fmt.Errorf("fslobby: decode %s: %w", snap.Ref.Path, err)
		}
		if d.OwnerName == name {
			continue
		}
		if _, err := snap.Ref.Update(ctx, []firestore.Update{{Path: "ownerName", Value: name}}); err != nil {
			return n, mapErr(err)
		}
		n++
	}
	return n, nil
}

func mapErr(err error) error {
	if err == nil || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	switch status.Code(err) {
	case codes.Unavailable, codes.DeadlineExceeded, codes.Aborted:
		return fmt.Errorf("%w: %v", lobby.ErrUnavailable, err)
	}
	return err
}
