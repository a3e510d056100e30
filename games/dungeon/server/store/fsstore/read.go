package fsstore

import (
	"context"
	"fmt"

	"cloud.google.com/go/firestore"
	"google.golang.org/api/iterator"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/fairboard/fairboard/games/dungeon/engine"
	"github.com/fairboard/fairboard/games/dungeon/server/store"
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
	if isTable(d) {
		return nil, fmt.Errorf("%w: %s", store.ErrNotFound, gameID)
	}
	delete(d, fieldOwner)
	delete(d, fieldPlayers)
	delete(d, fieldDue)
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
	if !snaps[0].Exists() || isTable(snaps[0].Data()) {
		return nil, fmt.Errorf("%w: %s", store.ErrNotFound, gameID)
	}
	var g engine.Game
	if err := decodeGame(snaps[0].Data(), privateData(snaps[1]), &g); err != nil {
		return nil, err
	}
	return &g, nil
}

// Applied implements store.Store: the applied collection, by document id
// (the zero-padded version of its first action), ascending, each
// document's run expanded (a document of one action, as every document
// before runs existed, is a run without next).
func (s *Store) Applied(ctx context.Context, gameID string) ([]store.AppliedAction, error) {
	if !store.ValidID(gameID) {
		return []store.AppliedAction{}, nil
	}
	q := s.game(gameID).Collection("applied").OrderBy(firestore.DocumentID, firestore.Asc)
	runs, err := queryAll[store.AppliedRun](ctx, s, q, "applied")
	if err != nil {
		return nil, err
	}
	out := []store.AppliedAction{}
	for i := range runs {
		out = append(out, runs[i].Actions()...)
	}
	return out, nil
}

// Staged implements store.Store.
func (s *Store) Staged(ctx context.Context, gameID string, index uint32) ([]engine.Action, error) {
	if !store.ValidID(gameID) {
		return []engine.Action{}, nil
	}
	return s.stagedOf(ctx, s.game(gameID), index)
}

// Due implements store.Store: one query of the games by their dueAt
// field (indexed: firestore.indexes.json does not exempt it), returning
// document names only.
func (s *Store) Due(ctx context.Context, before int64, limit int) ([]string, error) {
	q := s.c.Collection("games").Where(fieldDue, "<=", before).OrderBy(fieldDue, firestore.Asc).Select()
	if limit > 0 {
		q = q.Limit(limit)
	}
	snaps, err := q.Documents(ctx).GetAll()
	s.reads.Add(int64(max(1, len(snaps))))
	if err != nil {
		return nil, mapErr(err)
	}
	out := make([]string, len(snaps))
	for i, snap := range snaps {
		out[i] = snap.Ref.ID
	}
	return out, nil
}

// Log implements store.Store. It reads the log documents after seq
// after, ordered by id (the last seq each holds, zero-padded), and
// expands them into events: a document of the per-action layout holds its
// action's events, one of the old layout is one event, and a game played
// on across the change holds both. The first document read may hold
// events at or before after (the action's first events): they are
// dropped. limit counts events; documents are read in batches no larger
// than the events still wanted, so a page reads at most one batch more
// than it returns.
func (s *Store) Log(ctx context.Context, gameID string, after uint64, limit int) ([]engine.Event, error) {
	out := []engine.Event{}
	if !store.ValidID(gameID) {
		return out, nil
	}
	logs := s.game(gameID).Collection("log")
	cursor := logID(after)
	for {
		q := logs.OrderBy(firestore.DocumentID, firestore.Asc).StartAfter(cursor)
		batch := 0
		if limit > 0 {
			batch = min(limit-len(out), maxLogBatch)
			q = q.Limit(batch)
		}
		snaps, err := q.Documents(ctx).GetAll()
		s.reads.Add(int64(max(1, len(snaps))))
		if err != nil {
			return nil, mapErr(err)
		}
		for _, snap := range snaps {
			if out, err = appendLogDoc(out, snap.Data(), after); err != nil {
				return nil, fmt.Errorf("fsstore: decode log %s: %w", snap.Ref.ID, err)
			}
			if limit > 0 && len(out) >= limit {
				return out[:limit], nil
			}
		}
		if limit <= 0 || len(snaps) < batch {
			return out, nil
		}
		cursor = snaps[len(snaps)-1].Ref.ID
	}
}

// DecodeGameDoc decodes the fields of a games/{id} document, as a client's
// listener receives them, into the game's public state (the store's
// derived fields, ownerUid, playerUids and dueAt, left out).
func DecodeGameDoc(d map[string]any) (*engine.Public, error) {
	delete(d, fieldOwner)
	delete(d, fieldPlayers)
	delete(d, fieldDue)
	var p engine.Public
	if err := store.FromDoc(d, &p); err != nil {
		return nil, fmt.Errorf("fsstore: decode game: %w", err)
	}
	return &p, nil
}

// DecodeLogDoc returns the events of a log document (either layout: one
// action's {events: [...]}, or one event) with seq > after, in order.
func DecodeLogDoc(d map[string]any, after uint64) ([]engine.Event, error) {
	return appendLogDoc(nil, d, after)
}

// maxLogBatch is the most log documents Log asks for at once.
const maxLogBatch = 100

// appendLogDoc appends the events of log document d with seq > after.
func appendLogDoc(out []engine.Event, d map[string]any, after uint64) ([]engine.Event, error) {
	raw, ok := d[fieldEvents]
	if !ok {
		var e engine.Event
		if err := store.FromDoc(d, &e); err != nil {
			return nil, err
		}
		if e.Seq > after {
			out = append(out, e)
		}
		return out, nil
	}
	list, ok := raw.([]any)
	if !ok {
		return nil, fmt.Errorf("%s is %T, not an array", fieldEvents, raw)
	}
	for i, v := range list {
		m, ok := v.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("%s[%d] is %T, not a map", fieldEvents, i, v)
		}
		var e engine.Event
		if err := store.FromDoc(m, &e); err != nil {
			return nil, fmt.Errorf("%s[%d]: %w", fieldEvents, i, err)
		}
		if e.Seq > after {
			out = append(out, e)
		}
	}
	return out, nil
}

// queryAll runs q and decodes every document it returns into a T, in
// order (an empty slice, not nil, when there is none); what names the
// collection in errors.
func queryAll[T any](ctx context.Context, s *Store, q firestore.Query, what string) ([]T, error) {
	out := []T{}
	err := queryEach(ctx, s, q, what, func(v *T, _ *firestore.DocumentSnapshot) error {
		out = append(out, *v)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// queryEach runs q and hands each document it returns, decoded into a T,
// to each with its snapshot, in order, until each fails; it counts one
// read a document (one for none).
func queryEach[T any](ctx context.Context, s *Store, q firestore.Query, what string, each func(v *T, snap *firestore.DocumentSnapshot) error) error {
	n := 0
	it := q.Documents(ctx)
	defer it.Stop()
	defer func() { s.reads.Add(int64(max(1, n))) }()
	for {
		snap, err := it.Next()
		if err == iterator.Done {
			return nil
		}
		if err != nil {
			return mapErr(err)
		}
		n++
		var v T
		if err := store.FromDoc(snap.Data(), &v); err != nil {
			return fmt.Errorf("fsstore: decode %s %s: %w", what, snap.Ref.ID, err)
		}
		if err := each(&v, snap); err != nil {
			return err
		}
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
