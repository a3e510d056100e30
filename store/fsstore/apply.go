package fsstore

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strconv"
	"time"

	"cloud.google.com/go/firestore"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/fairboard/fairboard/audit"
	"github.com/fairboard/fairboard/engine"
	"github.com/fairboard/fairboard/store"
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
)

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
	s.reads.Add(int64(len(refs)))
	snaps, err := s.c.GetAll(ctx, refs)
	var got *prefetch
	if pre != nil {
		p := <-pre
		got = &p
	}
	if err != nil {
		return nil, failed, 0, err
	}
	if key != "" && snaps[2].Exists() {
		rec, err := decodeRecord(snaps[2].Data(), req)
		if err != nil {
			return nil, failed, 0, err
		}
		s.plainReplays.Add(1)
		return rec, committed, 0, nil
	}
	var g engine.Game
	exists := snaps[0].Exists()
	// Each document is converted from its snapshot once: the game's
	// decoding and the commit's diff read the same maps.
	var pubData, privData map[string]any
	if exists {
		pubData, privData = snaps[0].Data(), privateData(snaps[1])
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
			return s.writeAll(w, refs, snaps[0], pubData, privData, &g, r, run, out.DueAt)
		}
	}
	// One commit applies the writes atomically and checks their
	// preconditions; no lock was held before it.
	queued, sent, err := s.commit(ctx, writes)
	switch {
	case err == nil:
		s.committed(queued)
		if r.Staged && req.Close != nil {
			r.Closed, r.CloseErr = s.closeAfter(ctx, req.Close, refs[:2], snaps[0], pubData, privData, out.Stage)
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
func (s *Store) closeAfter(ctx context.Context, close store.Mutator, refs []*firestore.DocumentRef, old *firestore.DocumentSnapshot, pubData, privData map[string]any, a *engine.Action) (bool, error) {
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
	if err := decodeGame(pubData, privData, &g); err != nil {
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
		return s.writeAll(w, refs, old, pubData, privData, &g, r, run, out.DueAt)
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

// writeAll queues the writes of an applied action, at most five
// whatever the number of events, audit entries or staged reveals it
// applied: the game document (created if it did not exist, else its
// changed fields updated, removed fields deleted, only if unchanged since
// old was read; with the derived ownerUid, playerUids and dueAt); the
// private state, if the action changed it (its changed fields replaced
// and, for a game with audit on, the action's audit entries put in the
// ring it holds: one write); one log document holding every event of the
// commit (none when it has no event); the applied run (run, if not nil:
// one document for the staged reveals and the action); the new record. It
// returns how many writes it queued.
//
// old is the game document's snapshot, oldPub its data and oldPriv the
// private state's data without the ring (nil when there is none), as read
// before the commit.
func (s *Store) writeAll(tx batch, refs []*firestore.DocumentRef, old *firestore.DocumentSnapshot, oldPub, oldPriv map[string]any, g *engine.Game, r *store.Record, run *store.AppliedRun, due int64) (int, error) {
	pub, err := store.ToDoc(&g.Public)
	if err != nil {
		return 0, err
	}
	uids := make([]any, len(g.Public.Players))
	for i, p := range g.Public.Players {
		uids[i] = p.UID
	}
	pub[fieldOwner], pub[fieldPlayers] = g.Public.Owner, uids
	if due > 0 {
		pub[fieldDue] = due
	}
	sec, err := store.ToDoc(&g.Secret)
	if err != nil {
		return 0, err
	}
	var ring []firestore.Update
	if r.Ringed {
		if ring, err = ringUpdates(r.Audit); err != nil {
			return 0, err
		}
	}
	n := 0
	if !old.Exists() {
		err = tx.Create(refs[0], pub)
	} else {
		err = tx.Update(refs[0], replace(oldPub, pub), firestore.LastUpdateTime(old.UpdateTime))
	}
	if err != nil {
		return 0, err
	}
	n++
	if s.previous {
		oldPriv = nil // set whole
	}
	switch err := writePrivate(tx, refs[1], oldPriv, sec, ring); {
	case err == nil:
		n++
	case !errors.Is(err, errUnchanged):
		return 0, err
	}
	logs := refs[0].Collection("log")
	if s.previous {
		for i := range r.Events {
			d, err := store.JSONToDoc(r.Events[i].AppendJSON(nil))
			if err != nil {
				return 0, err
			}
			if err := tx.Create(logs.Doc(logID(r.Events[i].Seq)), d); err != nil {
				return 0, err
			}
			n++
		}
	} else if len(r.Events) > 0 {
		d, err := logDoc(r.Events)
		if err != nil {
			return 0, err
		}
		if err := tx.Create(logs.Doc(logID(r.Events[len(r.Events)-1].Seq)), d); err != nil {
			return 0, err
		}
		n++
	}
	switch {
	case run == nil:
	case s.previous:
		// The previous release read one action a document.
		for _, ap := range run.Actions() {
			if err := createDoc(tx, appliedRef(refs[0], ap.Version), ap); err != nil {
				return 0, err
			}
			n++
		}
	default:
		// One document for the run: a round's staged reveals and the
		// action that applied them are one commit's, and one write.
		if err := createDoc(tx, appliedRef(refs[0], run.Version), run); err != nil {
			return 0, err
		}
		n++
	}
	if len(refs) == 3 {
		if err := createDoc(tx, refs[2], r); err != nil {
			return 0, err
		}
		n++
	}
	return n, nil
}

// logDoc is the log document of one action: {events: [event, ...]}, each
// element what a one-event document of the old layout holds.
func logDoc(events []engine.Event) (map[string]any, error) {
	list := make([]any, len(events))
	var buf []byte
	for i := range events {
		buf = events[i].AppendJSON(buf[:0])
		d, err := store.JSONToDoc(buf)
		if err != nil {
			return nil, err
		}
		list[i] = d
	}
	return map[string]any{fieldEvents: list}, nil
}

// writePrivate queues the one write of the private state: created whole
// (with the ring's entries) when it does not exist; otherwise its secret
// fields replaced, the fields no longer there deleted, and the ring's
// slots that the action fills set, the rest of the ring left as it is.
func writePrivate(tx batch, ref *firestore.DocumentRef, prev, sec map[string]any, ring []firestore.Update) error {
	if prev == nil {
		if len(ring) > 0 {
			slots := make(map[string]any, len(ring))
			for _, u := range ring {
				slots[u.FieldPath[1]] = u.Value
			}
			sec[fieldRing] = slots
		}
		return tx.Set(ref, sec)
	}
	ups := append(replace(prev, sec), ring...)
	if len(ups) == 0 {
		return errUnchanged
	}
	return tx.Update(ref, ups)
}

// errUnchanged: the private state is the one read and the action rang
// nothing, so there is nothing to write (an action that draws nothing).
var errUnchanged = errors.New("fsstore: private state unchanged")

// ringUpdates are the updates that put entries in the ring the private
// state holds (field auditRing, one key per slot: seq % audit.RingSize,
// in decimal; the value the entry's JSON, a string). Entries come in seq
// order, so a later one in the same slot wins.
//
// A slot holds the entry's JSON as a string, not as a map, because every
// action reads the private state: a ring of 500 entries as maps is about
// 4,000 values for the client to decode on every read (it doubled an
// audited action's time), as strings 500.
func ringUpdates(entries []audit.Entry) ([]firestore.Update, error) {
	if len(entries) == 0 {
		return nil, nil
	}
	bySlot := make(map[int]int, len(entries)) // slot → index in ups
	var ups []firestore.Update
	for _, e := range entries {
		b, err := json.Marshal(e)
		if err != nil {
			return nil, fmt.Errorf("%w: audit entry %d: %v", store.ErrInvalid, e.Seq, err)
		}
		slot := audit.Slot(e.Seq)
		if i, ok := bySlot[slot]; ok {
			ups[i].Value = string(b)
			continue
		}
		bySlot[slot] = len(ups)
		ups = append(ups, firestore.Update{FieldPath: firestore.FieldPath{fieldRing, strconv.Itoa(slot)}, Value: string(b)})
	}
	return ups, nil
}

// replace is the field updates that turn document old into doc: every
// field of doc that old does not hold with the same value set (a map or
// an array replaced whole), every other field of old deleted; in field
// order. Old is the document as read, and the commit that applies them
// is conditional on it being unchanged (the game), or on the game being
// unchanged (the private state, which only actions write), so leaving out
// the fields that did not change writes the same document.
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
	ups := make([]firestore.Update, 0, len(keys))
	for _, k := range keys {
		v, ok := doc[k]
		if !ok {
			v = firestore.Delete
		} else if was, had := old[k]; had && reflect.DeepEqual(was, v) {
			continue
		}
		ups = append(ups, firestore.Update{FieldPath: firestore.FieldPath{k}, Value: v})
	}
	return ups
}

func createDoc(tx batch, ref *firestore.DocumentRef, v any) error {
	d, err := store.ToDoc(v)
	if err != nil {
		return err
	}
	return tx.Create(ref, d)
}

// writeStage queues the three writes of a staged reveal a: its public
// marker (reveals/{id}), the reveal itself with its link (links/{id},
// never readable by clients) and its record r, each only if it does not
// exist; nothing of the game. A duplicate (the seat's reveal for that
// index staged already, or the record written) fails the commit, and the
// next attempt's read shows why.
func writeStage(tx batch, game *firestore.DocumentRef, refs []*firestore.DocumentRef, r *store.Record, a *engine.Action) (int, error) {
	id := stageID(a.Index, a.Seat)
	if err := createDoc(tx, game.Collection(collMarks).Doc(id), store.MarkOf(a)); err != nil {
		return 0, err
	}
	if err := createDoc(tx, game.Collection(collLinks).Doc(id), store.StagedReveal{Index: a.Index, Seat: a.Seat, Action: *a}); err != nil {
		return 0, err
	}
	n := 2
	if len(refs) == 3 {
		if err := createDoc(tx, refs[2], r); err != nil {
			return 0, err
		}
		n++
	}
	return n, nil
}

// The collections of a trustless round's staged reveals: the public
// markers and the hidden reveals (docs/store.md, "Reveals").
const (
	collMarks = "reveals"
	collLinks = "links"
)

// stageID is the document id of seat's staged reveal for index: the
// index zero-padded to 20 digits, "-", the seat to 3, so that ids sort by
// index, then seat.
func stageID(index uint32, seat int) string { return fmt.Sprintf("%020d-%03d", index, seat) }

// stagedOf reads the reveals staged for index (one query of the links
// collection by id range), in the order they were accepted.
func (s *Store) stagedOf(ctx context.Context, game *firestore.DocumentRef, index uint32) ([]engine.Action, error) {
	out, _, err := s.stagedAt(ctx, game, index)
	return out, err
}

// stagedAt is stagedOf with the time each seat's staged reveal was
// written (its document's creation), by seat.
func (s *Store) stagedAt(ctx context.Context, game *firestore.DocumentRef, index uint32) ([]engine.Action, map[int]time.Time, error) {
	q := game.Collection(collLinks).OrderBy(firestore.DocumentID, firestore.Asc).
		StartAt(fmt.Sprintf("%020d-", index)).EndBefore(fmt.Sprintf("%020d.", index))
	out := []engine.Action{}
	created := map[int]time.Time{}
	err := queryEach(ctx, s, q, collLinks, func(d *store.StagedReveal, snap *firestore.DocumentSnapshot) error {
		if d.Index != index || d.Action.Index != index || d.Action.Seat != d.Seat {
			return fmt.Errorf("fsstore: the staged reveal of seat %d for index %d holds index %d seat %d", d.Seat, d.Index, d.Action.Index, d.Action.Seat)
		}
		out = append(out, d.Action)
		created[d.Seat] = snap.CreateTime
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	store.SortStaged(out)
	return out, created, nil
}

// privateData is the private state's data without its audit ring, or nil
// when the game has no private state yet.
func privateData(snap *firestore.DocumentSnapshot) map[string]any {
	if !snap.Exists() {
		return nil
	}
	d := snap.Data()
	delete(d, fieldRing)
	return d
}

// decodeGame fills g from the game document's data and the private
// state's (privateData). It leaves both maps as they are.
func decodeGame(pub, priv map[string]any, g *engine.Game) error {
	pub = maps.Clone(pub)
	delete(pub, fieldOwner)
	delete(pub, fieldPlayers)
	delete(pub, fieldDue)
	if err := store.FromDoc(pub, &g.Public); err != nil {
		return fmt.Errorf("fsstore: decode game: %w", err)
	}
	if priv != nil {
		if err := store.FromDoc(priv, &g.Secret); err != nil {
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
