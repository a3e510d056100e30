package fstables

import (
	"context"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/fairboard/fairboard/match"
)

// Saved returns the table gameID's saved JSON (table.Save), for the
// server and tests.
func (s *Store) Saved(ctx context.Context, gameID string) ([]byte, error) {
	_, privRef := s.refs(gameID)
	snap, err := privRef.Get(ctx)
	if status.Code(err) == codes.NotFound {
		return nil, notCreated(gameID)
	}
	if err != nil {
		return nil, mapErr(err)
	}
	var d privateDoc
	if err := snap.DataTo(&d); err != nil {
		return nil, err
	}
	return []byte(d.Saved), nil
}

// Record implements tablestore.Store: one read of the private table.
func (s *Store) Record(ctx context.Context, gameID, uid string) (*match.Record, error) {
	_, t, err := s.load(ctx, gameID)
	if err != nil {
		return nil, err
	}
	return t.Record(uid)
}
