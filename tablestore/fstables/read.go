package fstables

import (
	"context"

	"github.com/fairboard/fairboard/match"
)

// Saved returns the table gameID saved whole (table.JoinHead of its
// head and sealed chunks: SavedFormat, without the stored results kept
// apart), for the server and tests.
func (s *Store) Saved(ctx context.Context, gameID string) ([]byte, error) {
	_, t, head, err := s.loadHead(ctx, gameID)
	if err != nil {
		return nil, err
	}
	return s.join(ctx, gameID, head, t.SealedChunks())
}

// Record implements tablestore.Store: reads of the head and its sealed
// chunks.
func (s *Store) Record(ctx context.Context, gameID, uid string) (*match.Record, error) {
	_, t, err := s.load(ctx, gameID)
	if err != nil {
		return nil, err
	}
	return t.Record(uid)
}
