package fsstore

import (
	"context"
	"errors"
	"fmt"
	"slices"

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

// outcome is what one attempt is known to have done.
type outcome int

const (
	committed outcome = iota // committed, or nothing to commit (a replay)
	lost                     // not committed, and a new attempt may succeed
	failed                   // not committed; the error is the answer
	unknown                  // the commit was sent and its answer lost
)

// Apply implements store.Store. See the package documentation for the
// sequence: per-game queue, attempts (each a plain read, then an
// optimistic write-only commit) with backoff, resolution of an unknown
// outcome.
func (s *Store) Apply(ctx context.Context, req store.Request, m store.Mutator) (*store.Record, error) {
	if !store.ValidID(req.GameID) || (req.ActionID != "" && !store.ValidID(req.ActionID)) {
		return nil, fmt.Errorf("%w: game %q action %q", store.ErrInvalid, req.GameID, req.ActionID)
	}
	key := ""
	if req.ActionID != "" {
		key = store.RecordKey(req.Actor, req.ActionID)
	}
	release, err := s.queue.acquire(ctx, req.GameID)
	if err != nil {
		return nil, fmt.Errorf("%w: still waiting for the game's previous action: %w", store.ErrContention, err)
	}
	defer release()
	s.txns.Add(1)
	var last error
	for n := 0; n < s.maxAttempts; n++ {
		if n > 0 {
			if err := sleep(ctx, pause(n)); err != nil {
				return nil, fmt.Errorf("%w: %v (after %v)", store.ErrContention, err, last)
			}
		}
		rec, out, err := s.attempt(ctx, req, key, m)
		switch out {
		case committed:
			return rec, nil
		case failed:
			return nil, mapErr(err)
		case unknown:
			return s.resolve(ctx, req, key, m, err)
		}
		last = err
	}
	return nil, fmt.Errorf("%w: %d attempts: %v", store.ErrContention, s.maxAttempts, last)
}

// attempt makes one attempt and says what is known of it. It reads the
// game, its private state and the action's record with one plain read
// (no transaction, so no lock is held while the engine runs): a record
// there answers the action (a retry, a storm of identical submissions).
// Otherwise the mutator runs on the game read, and the writes are
// committed together, conditional on what was read: the game document
// only if it is unchanged since (its update time), the record, the log
// documents (and a new game) only if they do not exist. Of two concurrent
// actions on a game, one commit fails (lost); both never land.
func (s *Store) attempt(ctx context.Context, req store.Request, key string, m store.Mutator) (*store.Record, outcome, error) {
	s.attempts.Add(1)
	gameRef := s.game(req.GameID)
	refs := []*firestore.DocumentRef{gameRef, gameRef.Collection("private").Doc("state")}
	if key != "" {
		refs = append(refs, record(gameRef, key))
	}
	s.reads.Add(int64(len(refs)))
	snaps, err := s.c.GetAll(ctx, refs)
	if err != nil {
		return nil, failed, err
	}
	if key != "" && snaps[2].Exists() {
		rec, err := decodeRecord(snaps[2].Data(), req)
		if err != nil {
			return nil, failed, err
		}
		s.plainReplays.Add(1)
		return rec, committed, nil
	}
	var g engine.Game
	exists := snaps[0].Exists()
	if exists {
		if err := decodeGame(snaps[0].Data(), snaps[1], &g); err != nil {
			return nil, failed, err
		}
	}
	before := g.Public.Version
	out, err := m(&g)
	r := &store.Record{ActionID: req.ActionID, Actor: req.Actor, Kind: req.Kind, Fingerprint: req.Fingerprint}
	var rej *engine.Error
	var unrec *store.Unrecorded
	var writes func(tx *firestore.Transaction) error
	switch {
	case errors.As(err, &unrec):
		r.Rejection, r.Events = &store.Rejection{Code: unrec.Rejection.Code, Msg: unrec.Rejection.Msg}, []engine.Event{}
		return r, committed, nil
	case errors.As(err, &rej):
		r.Rejection, r.Events = &store.Rejection{Code: rej.Code, Msg: rej.Msg}, []engine.Event{}
		if key == "" || !exists {
			return r, committed, nil
		}
		writes = func(tx *firestore.Transaction) error { return createDoc(tx, refs[2], r) }
	case err != nil:
		return nil, failed, err
	default:
		r.Version, r.Events, r.Audit = g.Public.Version, out.Events, out.Audit
		if r.Events == nil {
			r.Events = []engine.Event{}
		}
		var ap *store.AppliedAction
		if out.Applied != nil {
			ap = &store.AppliedAction{Version: before, Action: *out.Applied}
		}
		writes = func(tx *firestore.Transaction) error { return writeAll(tx, refs, snaps[0], &g, r, ap) }
	}
	// A write-only transaction: its commit applies the writes atomically
	// and checks their preconditions; it holds no lock before.
	sent := false  // the commit was sent
	var wErr error // queueing the writes failed (a value Firestore cannot hold)
	err = s.c.RunTransaction(ctx, func(ctx context.Context, tx *firestore.Transaction) error {
		if wErr = writes(tx); wErr == nil {
			sent = true
		}
		return wErr
	}, firestore.MaxAttempts(1))
	switch {
	case err == nil:
		return r, committed, nil
	case !sent:
		// BeginTransaction failed, or a write could not be queued:
		// nothing was committed.
		return nil, failed, err
	}
	switch status.Code(err) {
	case codes.Aborted, codes.FailedPrecondition, codes.AlreadyExists:
		// Refused by the database: not committed (a concurrent action
		// changed the game, or created the record or a log document).
		return nil, lost, err
	}
	// Any other error of a commit that was sent leaves its outcome
	// unknown: a deadline, a broken connection, or the answer to the
	// client's own retry of a commit whose first answer was lost.
	return nil, unknown, err
}

// definite reports whether a commit error, on a fresh attempt, means the
// database refused it for good (retrying cannot help).
func definite(err error) bool {
	switch status.Code(err) {
	case codes.InvalidArgument, codes.PermissionDenied, codes.NotFound, codes.OutOfRange, codes.Unimplemented:
		return true
	}
	return false
}

// resolve finds out whether an action whose commit answer was lost
// landed: it makes new attempts, each of which first reads the record.
// The record is there if the first commit landed (before that read, or
// after it: then the new attempt's conditional commit fails and the next
// one finds it); if the first commit never lands, a new attempt applies
// the action once. It works on a context of its own, bounded by the
// resolve timeout, since the caller's may be the one that expired. A
// record found this way is answered as applied, not Replayed: it is most
// likely this request's own commit.
func (s *Store) resolve(ctx context.Context, req store.Request, key string, m store.Mutator, cause error) (*store.Record, error) {
	s.unknown.Add(1)
	if key == "" {
		return nil, fmt.Errorf("%w: the commit's answer was lost and without an action id its outcome cannot be looked up: %v", store.ErrUnavailable, cause)
	}
	rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), s.resolveTimeout)
	defer cancel()
	last := cause
	for n := 1; ; n++ {
		rec, out, err := s.attempt(rctx, req, key, m)
		switch {
		case out == committed:
			s.solved.Add(1)
			rec.Replayed = false
			return rec, nil
		case out == failed && !retryable(mapErr(err)):
			return nil, mapErr(err)
		case out == unknown && definite(err):
			return nil, err
		}
		last = err
		if sleep(rctx, pause(n)) != nil {
			break
		}
	}
	return nil, fmt.Errorf("%w: the commit's answer was lost and its outcome is still unknown after %v: %v",
		store.ErrUnavailable, s.resolveTimeout, last)
}

// retryable reports whether a mapped error may go away by itself.
func retryable(err error) bool {
	return errors.Is(err, store.ErrUnavailable) || errors.Is(err, store.ErrContention)
}

// writeAll queues the writes of an applied action: the game document
// (created if it did not exist, else updated field by field, removed
// fields deleted, only if unchanged since old was read), the private
// state, one new log document per event, the new applied action (ap, if
// not nil), the new record.
func writeAll(tx *firestore.Transaction, refs []*firestore.DocumentRef, old *firestore.DocumentSnapshot, g *engine.Game, r *store.Record, ap *store.AppliedAction) error {
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
	if !old.Exists() {
		err = tx.Create(refs[0], pub)
	} else {
		err = tx.Update(refs[0], replace(old.Data(), pub), firestore.LastUpdateTime(old.UpdateTime))
	}
	if err != nil {
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
	if ap != nil {
		if err := createDoc(tx, appliedRef(refs[0], ap.Version), ap); err != nil {
			return err
		}
	}
	if len(refs) == 3 {
		return createDoc(tx, refs[2], r)
	}
	return nil
}

// replace is the field updates that turn document old into doc: every
// field of doc set (a map or an array replaced whole), every other field
// of old deleted; in field order.
func replace(old, doc map[string]any) []firestore.Update {
	keys := make([]string, 0, len(doc)+len(old))
	for k := range doc {
		keys = append(keys, k)
	}
	for k := range old {
		if _, ok := doc[k]; !ok {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	ups := make([]firestore.Update, len(keys))
	for i, k := range keys {
		v, ok := doc[k]
		if !ok {
			v = firestore.Delete
		}
		ups[i] = firestore.Update{FieldPath: firestore.FieldPath{k}, Value: v}
	}
	return ups
}

func createDoc(tx *firestore.Transaction, ref *firestore.DocumentRef, v any) error {
	d, err := store.ToDoc(v)
	if err != nil {
		return err
	}
	return tx.Create(ref, d)
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
	if err := rec.Matches(req); err != nil {
		return nil, err
	}
	rec.Replayed = true
	return &rec, nil
}
