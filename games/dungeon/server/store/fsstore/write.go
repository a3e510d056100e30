// The documents one commit writes: the game, its private state and audit
// ring, the log, the applied run and the record.

package fsstore

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strconv"
	"time"

	"cloud.google.com/go/firestore"

	"github.com/fairboard/fairboard/audit"
	"github.com/fairboard/fairboard/games/dungeon/engine"
	"github.com/fairboard/fairboard/games/dungeon/server/store"
)

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
// old is the game document and oldPriv the private state's data without
// the ring (nil when there is none), as read before the commit.
func (s *Store) writeAll(tx batch, refs []*firestore.DocumentRef, old docRead, oldPriv map[string]any, g *engine.Game, r *store.Record, run *store.AppliedRun, due int64) (int, error) {
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
	// The events and audit entries are converted once, for the log
	// document and the ring as for the record.
	evs, err := eventDocs(r.Events)
	if err != nil {
		return 0, err
	}
	ajs, err := entriesJSON(r.Audit)
	if err != nil {
		return 0, err
	}
	var ring []firestore.Update
	if r.Ringed {
		ring = ringUpdatesOf(r.Audit, ajs)
	}
	n := 0
	if !old.exists {
		err = tx.Create(refs[0], pub)
	} else {
		err = tx.Update(refs[0], replace(old.data, pub), old.updated)
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
			if err := tx.Create(logs.Doc(logID(r.Events[i].Seq)), evs[i].(map[string]any)); err != nil {
				return 0, err
			}
			n++
		}
	} else if len(r.Events) > 0 {
		if err := tx.Create(logs.Doc(logID(r.Events[len(r.Events)-1].Seq)), map[string]any{fieldEvents: evs}); err != nil {
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
		d, err := recordDoc(r, evs, ajs)
		if err != nil {
			return 0, err
		}
		if err := tx.Create(refs[2], d); err != nil {
			return 0, err
		}
		n++
	}
	return n, nil
}

// eventDocs are the documents of events, each what a one-event log
// document of the old layout holds and what store.ToDoc makes of it (its
// JSON, Event.AppendJSON): the elements of the action's log document and
// of its record's events. Never nil.
func eventDocs(events []engine.Event) ([]any, error) {
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
	return list, nil
}

// recordDoc is store.ToDoc(r), its events' and audit entries' documents
// built from their conversions for the log and the ring (evs: eventDocs
// of r.Events; ajs: entriesJSON of r.Audit) rather than converted again:
// both are the values' JSON (TestRecordDocIsToDoc).
func recordDoc(r *store.Record, evs []any, ajs [][]byte) (map[string]any, error) {
	rc := *r
	rc.Events, rc.Audit = nil, nil
	d, err := store.ToDoc(&rc)
	if err != nil {
		return nil, err
	}
	d[fieldEvents] = evs
	if len(ajs) > 0 {
		list := make([]any, len(ajs))
		for i, b := range ajs {
			if list[i], err = store.JSONToDoc(b); err != nil {
				return nil, err
			}
		}
		d[fieldAudit] = list
	}
	return d, nil
}

// fieldAudit is the field of a record that holds its audit entries.
const fieldAudit = "audit"

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
	return tx.Update(ref, ups, time.Time{})
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
	js, err := entriesJSON(entries)
	if err != nil {
		return nil, err
	}
	return ringUpdatesOf(entries, js), nil
}

// entriesJSON is each entry's JSON, or nil for none.
func entriesJSON(entries []audit.Entry) ([][]byte, error) {
	if len(entries) == 0 {
		return nil, nil
	}
	out := make([][]byte, len(entries))
	for i, e := range entries {
		b, err := json.Marshal(e)
		if err != nil {
			return nil, fmt.Errorf("%w: audit entry %d: %v", store.ErrInvalid, e.Seq, err)
		}
		out[i] = b
	}
	return out, nil
}

// ringUpdatesOf is ringUpdates of entries whose JSON is js.
func ringUpdatesOf(entries []audit.Entry, js [][]byte) []firestore.Update {
	if len(entries) == 0 {
		return nil
	}
	bySlot := make(map[int]int, len(entries)) // slot → index in ups
	var ups []firestore.Update
	for k, e := range entries {
		b := js[k]
		slot := audit.Slot(e.Seq)
		if i, ok := bySlot[slot]; ok {
			ups[i].Value = string(b)
			continue
		}
		bySlot[slot] = len(ups)
		ups = append(ups, firestore.Update{FieldPath: firestore.FieldPath{fieldRing, strconv.Itoa(slot)}, Value: string(b)})
	}
	return ups
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
		} else if was, had := old[k]; had && sameValue(was, v) {
			continue
		}
		ups = append(ups, firestore.Update{FieldPath: firestore.FieldPath{k}, Value: v})
	}
	return ups
}

// sameValue reports whether two document values are equal as
// reflect.DeepEqual says, for the values a document holds (nil, bool,
// string, int64, float64, []any, map[string]any), without reflection: the
// diff compares every field of the game and of the private state on every
// action, and reflect.DeepEqual took 6% of an action's client CPU. Two
// floats are equal only if their bits are (DeepEqual says 0 == -0: then a
// change of sign is written, never lost). Any other type goes to
// reflect.DeepEqual.
func sameValue(a, b any) bool {
	switch x := a.(type) {
	case nil:
		return b == nil
	case string:
		y, ok := b.(string)
		return ok && x == y
	case int64:
		y, ok := b.(int64)
		return ok && x == y
	case bool:
		y, ok := b.(bool)
		return ok && x == y
	case float64:
		y, ok := b.(float64)
		return ok && math.Float64bits(x) == math.Float64bits(y)
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) || (x == nil) != (y == nil) {
			return false
		}
		for i := range x {
			if !sameValue(x[i], y[i]) {
				return false
			}
		}
		return true
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok || len(x) != len(y) || (x == nil) != (y == nil) {
			return false
		}
		for k, v := range x {
			w, ok := y[k]
			if !ok || !sameValue(v, w) {
				return false
			}
		}
		return true
	}
	return reflect.DeepEqual(a, b)
}

func createDoc(tx batch, ref *firestore.DocumentRef, v any) error {
	d, err := store.ToDoc(v)
	if err != nil {
		return err
	}
	return tx.Create(ref, d)
}
