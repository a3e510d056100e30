package audit

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"

	"github.com/fairboard/fairboard/rng"
)

// RingSize is the spec's "keep last 500 entries": the size of every game's
// audit ring, in memory ([Recorder]) and in the stores (rngAudit).
const RingSize = 500

// Entry is an audit entry as a game keeps it: the rng.Entry and TS, the
// server's time of the action that drew it (unix milliseconds; the spec's
// rngAudit "ts: server timestamp"). Every entry of one action has the same
// TS. An entry written before TS existed reads back with TS 0.
//
// Its JSON is the rng.Entry's object with "ts" added:
//
//	{"ts":1760000000000,"seq":1,"tag":"move.roll","ctx":{},"kind":"dice","data":{"sides":4,"value":2}}
type Entry struct {
	rng.Entry
	TS int64
}

// MarshalJSON implements json.Marshaler. It fails (rng.ErrEntryJSON) for an
// entry the rng package would not read back.
func (e Entry) MarshalJSON() ([]byte, error) {
	b, err := e.Entry.MarshalJSON()
	if err != nil {
		return nil, err
	}
	out := make([]byte, 0, len(b)+24)
	out = append(out, `{"ts":`...)
	out = strconv.AppendInt(out, e.TS, 10)
	out = append(out, ',')
	return append(out, b[1:]...), nil
}

// UnmarshalJSON implements json.Unmarshaler: "ts" (an integer, optional)
// and the rest as rng.Entry decodes it, strictly.
func (e *Entry) UnmarshalJSON(b []byte) error {
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(b, &fields); err != nil {
		return fmt.Errorf("%w: %v", rng.ErrEntryJSON, err)
	}
	var out Entry
	if raw, ok := fields["ts"]; ok {
		d := json.NewDecoder(bytes.NewReader(raw))
		d.UseNumber()
		var n json.Number
		if err := d.Decode(&n); err != nil {
			return fmt.Errorf("%w: ts must be an integer", rng.ErrEntryJSON)
		}
		ts, err := strconv.ParseInt(string(n), 10, 64)
		if err != nil {
			return fmt.Errorf("%w: ts must be an integer, not %s", rng.ErrEntryJSON, n)
		}
		out.TS = ts
		delete(fields, "ts")
	}
	rest, err := json.Marshal(fields)
	if err != nil {
		return err
	}
	if err := out.Entry.UnmarshalJSON(rest); err != nil {
		return err
	}
	*e = out
	return nil
}

// Stamp returns es as Entries with the time ts.
func Stamp(es []rng.Entry, ts int64) []Entry {
	out := make([]Entry, len(es))
	for i, e := range es {
		out[i] = Entry{Entry: e, TS: ts}
	}
	return out
}

// Slot is the ring slot of the entry with sequence number seq in a ring of
// RingSize: seq % RingSize. The stores name their documents by it.
func Slot(seq uint64) int { return int(seq % RingSize) }

// Ring is the ring of a game's last entries: the entry with sequence
// number s lives in slot s % n, and a slot keeps the entry with the
// highest seq ever put in it. So putting entries is idempotent and needs
// no order: putting the same entries again, or an old action's entries
// after newer ones (a late repair), changes nothing, and once a game has
// drawn n entries or more the ring holds exactly its last n (seqs are
// consecutive). This is the one ring of the project: the [Recorder] keeps
// one in memory, the stores keep one per game (store.Memory in a Ring,
// fsstore one document per slot, deciding its writes with a Ring).
//
// The zero value is not ready; use NewRing. Not safe for concurrent use.
type Ring struct {
	n     int
	slots []Entry // grown on demand up to n; slot i unused if !used[i]
	used  []bool
	count int
}

// NewRing returns an empty ring of n slots (n < 1 means 1).
func NewRing(n int) *Ring { return &Ring{n: max(1, n)} }

// Cap returns the ring's number of slots.
func (r *Ring) Cap() int { return r.n }

// Len returns the number of entries held.
func (r *Ring) Len() int { return r.count }

// Put stores e in its slot unless the slot holds an entry with the same or
// a higher seq, and reports whether it stored it.
func (r *Ring) Put(e Entry) bool {
	i := int(e.Seq % uint64(r.n))
	if i >= len(r.slots) {
		r.slots = slices.Grow(r.slots, i+1-len(r.slots))[:i+1]
		r.used = slices.Grow(r.used, i+1-len(r.used))[:i+1]
	}
	if r.used[i] && r.slots[i].Seq >= e.Seq {
		return false
	}
	if !r.used[i] {
		r.count++
	}
	r.slots[i], r.used[i] = e, true
	return true
}

// Holds reports whether the ring holds an entry with sequence number seq,
// or a newer one in its slot (so that seq can no longer be put).
func (r *Ring) Holds(seq uint64) bool {
	i := int(seq % uint64(r.n))
	return i < len(r.slots) && r.used[i] && r.slots[i].Seq >= seq
}

// Entries returns the entries held, in seq order, as a new slice.
func (r *Ring) Entries() []Entry {
	out := make([]Entry, 0, r.count)
	for i := range r.slots {
		if r.used[i] {
			out = append(out, r.slots[i])
		}
	}
	slices.SortFunc(out, func(a, b Entry) int {
		switch {
		case a.Seq < b.Seq:
			return -1
		case a.Seq > b.Seq:
			return 1
		}
		return 0
	})
	return out
}

// Reset empties the ring, keeping its memory.
func (r *Ring) Reset() {
	clear(r.slots)
	clear(r.used)
	r.slots, r.used, r.count = r.slots[:0], r.used[:0], 0
}
