// Package fsnames keeps the players' names (package names) on Firestore:
//
//	users/{uid}               {name, games: [gameId, ...]}   the account itself reads it
//	games/{gameId}/names/all  {byUid: {uid: name, ...}}       the game's seated players read it
//
// Both are written by the functions only (firestore.rules). A game's
// copy lives in its own document, beside the game document and never in
// it: the stores of the games (store/fsstore, tablestore/fstables) write
// the game document whole or conditionally on its update time, and a
// rename must neither be wiped by the next move nor make that move
// contend.
package fsnames

import (
	"context"
	"errors"
	"fmt"

	"cloud.google.com/go/firestore"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/fairboard/fairboard/names"
)

// The collections and fields.
const (
	CollUsers = "users"
	CollNames = "names"
	DocNames  = "all"
	FieldName = "name"
	// FieldGames is users/{uid}'s list of the games its name was copied
	// into and not dropped since (names.Store.Drop).
	FieldGames = "games"
	// FieldByUID is games/{id}/names/all's map of uid to name.
	FieldByUID = "byUid"
)

// Store is a names.Store on a Firestore client.
type Store struct{ c *firestore.Client }

var _ names.Store = (*Store)(nil)

// New returns the store on c (which the caller closes).
func New(c *firestore.Client) *Store { return &Store{c: c} }

func (s *Store) user(uid string) *firestore.DocumentRef { return s.c.Collection(CollUsers).Doc(uid) }

func (s *Store) game(gameID string) *firestore.DocumentRef {
	return s.c.Collection("games").Doc(gameID).Collection(CollNames).Doc(DocNames)
}

// Name implements names.Store.
func (s *Store) Name(ctx context.Context, uid string) (string, error) {
	snap, err := s.user(uid).Get(ctx)
	if status.Code(err) == codes.NotFound {
		return "", nil
	}
	if err != nil {
		return "", mapErr(err)
	}
	v, _ := snap.DataAt(FieldName)
	name, _ := v.(string)
	return name, nil
}

// SetName implements names.Store: one write of users/{uid}'s name, then
// one read of its games.
func (s *Store) SetName(ctx context.Context, uid, name string) ([]string, error) {
	if _, err := s.user(uid).Set(ctx, map[string]any{FieldName: name}, firestore.Merge([]string{FieldName})); err != nil {
		return nil, mapErr(err)
	}
	snap, err := s.user(uid).Get(ctx)
	if err != nil {
		return nil, mapErr(err)
	}
	v, _ := snap.DataAt(FieldGames)
	list, _ := v.([]any)
	var games []string
	for _, g := range list {
		if id, ok := g.(string); ok {
			games = append(games, id)
		}
	}
	return games, nil
}

// Seat implements names.Store: the game's copy and the user's list, in
// one batch.
func (s *Store) Seat(ctx context.Context, gameID, uid, name string) error {
	b := s.c.Batch()
	b.Set(s.game(gameID), map[string]any{FieldByUID: map[string]any{uid: name}}, firestore.MergeAll)
	b.Set(s.user(uid), map[string]any{FieldGames: firestore.ArrayUnion(gameID)}, firestore.MergeAll)
	_, err := b.Commit(ctx)
	return mapErr(err)
}

// Drop implements names.Store.
func (s *Store) Drop(ctx context.Context, uid, gameID string) error {
	_, err := s.user(uid).Set(ctx, map[string]any{FieldGames: firestore.ArrayRemove(gameID)}, firestore.MergeAll)
	return mapErr(err)
}

// Names implements names.Store.
func (s *Store) Names(ctx context.Context, gameID string) (map[string]string, error) {
	out := map[string]string{}
	snap, err := s.game(gameID).Get(ctx)
	if status.Code(err) == codes.NotFound {
		return out, nil
	}
	if err != nil {
		return nil, mapErr(err)
	}
	v, _ := snap.DataAt(FieldByUID)
	m, _ := v.(map[string]any)
	for uid, n := range m {
		if name, ok := n.(string); ok {
			out[uid] = name
		}
	}
	return out, nil
}

func mapErr(err error) error {
	if err == nil || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	switch status.Code(err) {
	case codes.Unavailable, codes.DeadlineExceeded, codes.Aborted:
		return fmt.Errorf("%w: %v", names.ErrUnavailable, err)
	}
	return err
}
