// Package audit records the RNG's audit entries (the spec's rngAudit): a
// [Recorder] implements rng.Auditor, keeps the last N entries in a [Ring]
// (500 by default, as the spec suggests) and, if asked, every entry of the
// game (for --audit-out and fixtures). [Ring] and [Entry] (an entry with the
// server's time) are also what the stores keep per game.
//
// Recording never fails and never changes a draw: an Auditor cannot return
// an error. A sink that writes entries elsewhere ([Recorder.Sink]) reports
// its failures to the Recorder, which counts them (Failures) and keeps
// recording.
package audit

import (
	"github.com/fairboard/fairboard/rng"
)

// DefaultCapacity is the Recorder's default ring size: [RingSize].
const DefaultCapacity = RingSize

// Recorder is an rng.Auditor for one stream (one game): its entries come in
// seq order. The zero value is not ready; use New. Not safe for concurrent
// use (nor is the stream that feeds it).
type Recorder struct {
	ring  *Ring
	count uint64
	all   []rng.Entry
	keep  bool

	// Sink, if set, receives every entry too; an error it returns is
	// counted in Failures and otherwise ignored.
	Sink     func(rng.Entry) error
	Failures uint64
}

// Option configures a Recorder.
type Option func(*Recorder)

// WithCapacity sets the ring buffer's size (n >= 1; smaller values mean 1).
func WithCapacity(n int) Option {
	return func(r *Recorder) { r.ring = NewRing(n) }
}

// KeepAll makes the recorder keep every entry, not only the last N.
func KeepAll() Option { return func(r *Recorder) { r.keep = true } }

// New returns a recorder with the options applied.
func New(opts ...Option) *Recorder {
	r := &Recorder{}
	for _, o := range opts {
		o(r)
	}
	if r.ring == nil {
		r.ring = NewRing(DefaultCapacity)
	}
	return r
}

// Record implements rng.Auditor.
func (r *Recorder) Record(e rng.Entry) {
	r.count++
	r.ring.Put(Entry{Entry: e})
	if r.keep {
		r.all = append(r.all, e)
	}
	if r.Sink != nil {
		if err := r.Sink(e); err != nil {
			r.Failures++
		}
	}
}

// Count returns how many entries were recorded in all.
func (r *Recorder) Count() uint64 { return r.count }

// Last returns the ring's entries, oldest first (at most its capacity), as
// a new slice.
func (r *Recorder) Last() []rng.Entry {
	es := r.ring.Entries()
	out := make([]rng.Entry, len(es))
	for i := range es {
		out[i] = es[i].Entry
	}
	return out
}

// All returns every entry recorded, in seq order, if the recorder was made
// with KeepAll (else nil). The slice is the recorder's.
func (r *Recorder) All() []rng.Entry { return r.all }

// Reset forgets every entry (capacity and options stay).
func (r *Recorder) Reset() {
	r.ring.Reset()
	r.count, r.all, r.Failures = 0, r.all[:0], 0
}
