package fsstore

import (
	"context"
	"errors"
	"fmt"
	"time"

	"cloud.google.com/go/firestore"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/fairboard/fairboard/games/dungeon/engine"
	"github.com/fairboard/fairboard/games/dungeon/server/store"
)

// Derived fields of games/{id} that the security rules read; they are not
// part of engine.Public and are dropped when the document is decoded.
const (
	fieldOwner   = "ownerUid"
	fieldPlayers = "playerUids"
	// fieldDue is store.Outcome.DueAt (unix ms), absent when 0: the one
	// field the server queries (Due, for its sweep), so it keeps its
	// index (firestore.indexes.json exempts every other).
	fieldDue = "dueAt"
	// fieldTableGame is the game field of a table game's games/{id}
	// (tablestore/fstables): the dungeon's documents have none. This
	// store answers a table's id as a game that does not exist, so that
	// the functions reach the dungeon without first asking the table
	// store whether the id is a table's.
	fieldTableGame = "game"
)

// isTable reports whether a games/{id} document's data is a table
// game's, not the dungeon's.
func isTable(pub map[string]any) bool {
	_, ok := pub[fieldTableGame]
	return ok
}

// fieldEvents is the field of a log document that holds its action's
// events (a document of the old layout is one event, without it).
const fieldEvents = "events"

// fieldRing is the field of games/{id}/private/state that holds the audit
// ring: a map from slot (seq % audit.RingSize, in decimal) to the entry.
const fieldRing = "auditRing"

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
	if !req.Staging {
		// A reveal to stage writes no game document: it waits for nothing.
		release, err := s.queue.acquire(ctx, req.GameID)
		if err != nil {
			return nil, fmt.Errorf("%w: still waiting for the game's previous action: %w", store.ErrContention, err)
		}
		defer release()
	}
	s.txns.Add(1)
	var last error
	for n := 0; n < s.maxAttempts; n++ {
		if n > 0 {
			if err := sleep(ctx, pause(n)); err != nil {
				return nil, fmt.Errorf("%w: %v (after %v)", store.ErrContention, err, last)
			}
		}
		rec, out, queued, err := s.attempt(ctx, req, key, m)
		switch out {
		case committed:
			return rec, nil
		case failed:
			return nil, mapErr(err)
		case unknown:
			return s.resolve(ctx, req, key, m, err, queued)
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
//
// It also returns the writes the commit held when its outcome is unknown
// (resolve counts them once it finds the commit landed).
func (s *Store) attempt(ctx context.Context, req store.Request, key string, m store.Mutator) (*store.Record, outcome, int, error) {
	s.attempts.Add(1)
	gameRef := s.game(req.GameID)
	refs := []*firestore.DocumentRef{gameRef, gameRef.Collection("private").Doc("state")}
	if key != "" {
		refs = append(refs, record(gameRef, key))
	}
	// A reveal names its round: its staged reveals are read beside the
	// game, in the same round trip's time.
	type prefetch struct {
		staged []engine.Action
		err    error
	}
	var pre chan prefetch
	if req.Round > 0 {
		pre = make(chan prefetch, 1)
		go func() {
			st, err := s.stagedOf(ctx, gameRef, req.Round)
			pre <- prefetch{st, err}
		}()
	}
	snaps, err := s.readDocs(ctx, refs)
	readAt := time.Now()
	var got *prefetch
	if pre != nil {
		p := <-pre
		got = &p
	}
	if err != nil {
		return nil, failed, 0, err
	}
	if key != "" && snaps[2].exists {
		rec, err := decodeRecord(snaps[2].data, req)
		if err != nil {
			return nil, failed, 0, err
		}
		s.plainReplays.Add(1)
		return rec, committed, 0, nil
	}
	var g engine.Game
	// Each document is converted from its read once: the game's decoding
	// and the commit's diff read the same maps.
	old := snaps[0]
	if old.exists && isTable(old.data) {
		// A table's id: no dungeon game, and no write of this store's
		// may touch it (a create is refused, any other action is one on
		// a game not created).
		if req.Kind == engine.ActCreate {
			return &store.Record{ActionID: req.ActionID, Actor: req.Actor, Kind: req.Kind, Fingerprint: req.Fingerprint,
				Rejection: &store.Rejection{Code: engine.CodeAlreadyCreated, Msg: "the game exists"}, Events: []engine.Event{}}, committed, 0, nil
		}
		old = docRead{}
	}
	exists, pubData, privData := old.exists, old.data, snaps[1].data
	if exists {
		if err := decodeGame(pubData, privData, &g); err != nil {
			return nil, failed, 0, err
		}
	}
	var staged []engine.Action
	if round, open := store.OpenRound(&g.Public); exists && open {
		if got != nil && round == req.Round {
			staged, err = got.staged, got.err
		} else {
			staged, err = s.stagedOf(ctx, gameRef, round)
		}
		if err != nil {
			return nil, failed, 0, err
		}
	}
	before := g.Public.Version
	out, err := m(&g, staged)
	if err == nil && out.Stage != nil && len(out.Await) > 0 && s.roundWait > 0 && exists {
		// The reveal that would complete the round once the seats it
		// names have staged: wait for them, then decide again on a fresh
		// copy of the game as read (frozen while an action is pending;
		// the commit is conditional on it anyway).
		got, werr := s.awaitStaged(ctx, gameRef, out.Stage.Index, out.Await)
		if werr != nil {
			return nil, failed, 0, werr
		}
		g = engine.Game{}
		if err := decodeGame(pubData, privData, &g); err != nil {
			return nil, failed, 0, err
		}
		out, err = m(&g, got)
		out.Await = nil
	}
	r := &store.Record{ActionID: req.ActionID, Actor: req.Actor, Kind: req.Kind, Fingerprint: req.Fingerprint}
	var rej *engine.Error
	var unrec *store.Unrecorded
	var writes func(w batch) (int, error)
	switch {
	case errors.As(err, &unrec):
		r.Rejection, r.Events = &store.Rejection{Code: unrec.Rejection.Code, Msg: unrec.Rejection.Msg}, []engine.Event{}
		return r, committed, 0, nil
	case errors.As(err, &rej):
		r.Rejection, r.Events = &store.Rejection{Code: rej.Code, Msg: rej.Msg}, []engine.Event{}
		if key == "" || !exists {
			return r, committed, 0, nil
		}
		writes = func(w batch) (int, error) { return 1, createDoc(w, refs[2], r) }
	case err != nil:
		return nil, failed, 0, err
	case out.Stage != nil:
		if !exists {
			return nil, failed, 0, fmt.Errorf("%w: a reveal staged in a game that does not exist", store.ErrInvalid)
		}
		r.Version, r.Events, r.Staged = before, []engine.Event{}, true
		writes = func(w batch) (int, error) { return writeStage(w, gameRef, refs, r, out.Stage) }
	default:
		r.Version, r.Events, r.Audit = g.Public.Version, out.Events, out.Audit
		r.Ringed = len(r.Audit) > 0 && !s.previous
		if r.Events == nil {
			r.Events = []engine.Event{}
		}
		run := store.RunOf(before, out.Applied)
		writes = func(w batch) (int, error) {
			return s.writeAll(w, refs, old, privData, &g, r, run, out.DueAt)
		}
	}
	// One commit applies the writes atomically and checks their
	// preconditions; no lock was held before it.
	queued, sent, err := s.commit(ctx, writes)
	switch {
	case err == nil:
		s.committed(queued)
		if r.Staged && req.Close != nil && !s.closerCloses(&out, readAt) {
			r.Closed, r.CloseErr = s.closeAfter(ctx, req.Close, refs[:2], old, privData, out.Stage)
		}
		return r, committed, 0, nil
	case !sent:
		// A write could not be queued: nothing was committed.
		return nil, failed, 0, err
	}
	switch status.Code(err) {
	case codes.Aborted, codes.FailedPrecondition, codes.AlreadyExists:
		// Refused by the database: not committed (a concurrent action
		// changed the game, or created the record or a log document).
		return nil, lost, 0, err
	}
	// Any other error of a commit that was sent leaves its outcome
	// unknown: a deadline, a broken connection, or the answer to the
	// client's own retry of a commit whose first answer was lost.
	return nil, unknown, queued, err
}

// closerCloses reports whether a staging need not look at its round
// again after its commit (docs/store.md, "Reveals", step 5): the round's
// closer had not staged when this reveal read the round (out.CloserWaits),
// so it is waiting for this staging and closes the round itself; this
// store waits (a round wait above 0); and the commit landed within a
// quarter of that wait after the read. Otherwise (a closer staged
// already, or a slow commit) the staging looks, and may close the round.
// The one race left: a closer that gives up its wait, stages and looks
// between this read and this commit sees neither this staging nor is
// seen; the round, complete, is then closed by the next call on the game
// (getView included) or by the sweep, as after a crashed closer.
func (s *Store) closerCloses(out *store.Outcome, readAt time.Time) bool {
	return out.CloserWaits && s.roundWait > 0 && time.Since(readAt) < s.roundWait/4
}

// closeAfter runs close (store.Request.Close) once the reveal a is
// staged: it reads the round's staged reveals again (one query) and, if
// a's was written last of them (by its document's creation time; the
// higher seat on a tie), applies close to the game as attempt read it
// (old, pubData, privData: refs are the game document and its private
// state), then commits what close applied, conditional on the game
// document being unchanged since that read, once. The reveal written
// last sees every other (the query follows its own commit, and sees
// every commit before it), so of the round's reveals one, and only one,
// may close it, and the others leave the game document alone. It reports
// whether the commit landed; a game changed meanwhile (an abort, or a
// close by a retried reveal) is not an error, nor is close's refusal (a
// round still incomplete), nor a later reveal. Any other error is
// returned: the round then closes at the next call on the game.
func (s *Store) closeAfter(ctx context.Context, close store.Mutator, refs []*firestore.DocumentRef, old docRead, privData map[string]any, a *engine.Action) (bool, error) {
	index := a.Index
	staged, created, err := s.stagedAt(ctx, refs[0], index)
	if err != nil {
		return false, err
	}
	mine, ok := created[a.Seat]
	if !ok {
		return false, fmt.Errorf("fsstore: seat %d's reveal for index %d, staged, is not among the round's", a.Seat, index)
	}
	for seat, t := range created {
		if t.After(mine) || t.Equal(mine) && seat > a.Seat {
			return false, nil // staged after this one: that one closes
		}
	}
	var g engine.Game
	if err := decodeGame(old.data, privData, &g); err != nil {
		return false, err
	}
	if round, open := store.OpenRound(&g.Public); !open || round != index {
		return false, nil
	}
	before := g.Public.Version
	out, err := close(&g, staged)
	if err != nil || out.Stage != nil {
		return false, nil
	}
	r := &store.Record{Version: g.Public.Version, Events: out.Events, Audit: out.Audit}
	r.Ringed = len(r.Audit) > 0 && !s.previous
	run := store.RunOf(before, out.Applied)
	s.txns.Add(1)
	s.attempts.Add(1)
	queued, _, err := s.commit(ctx, func(w batch) (int, error) {
		return s.writeAll(w, refs, old, privData, &g, r, run, out.DueAt)
	})
	switch status.Code(err) {
	case codes.OK:
		s.committed(queued)
		return true, nil
	case codes.Aborted, codes.FailedPrecondition, codes.AlreadyExists:
		return false, nil
	}
	return false, err
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
//
// queued is the writes of the commit whose answer was lost: counted once
// a look-up finds that commit's record (a new attempt that commits counts
// its own).
func (s *Store) resolve(ctx context.Context, req store.Request, key string, m store.Mutator, cause error, queued int) (*store.Record, error) {
	s.unknown.Add(1)
	if key == "" {
		return nil, fmt.Errorf("%w: the commit's answer was lost and without an action id its outcome cannot be looked up: %v", store.ErrUnavailable, cause)
	}
	rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), s.resolveTimeout)
	defer cancel()
	last := cause
	for n := 1; ; n++ {
		rec, out, _, err := s.attempt(rctx, req, key, m)
		switch {
		case out == committed:
			s.solved.Add(1)
			if rec.Replayed { // found: the lost commit landed
				s.committed(queued)
			}
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
