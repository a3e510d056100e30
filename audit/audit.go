// Package audit records the RNG's audit entries (the spec's rngAudit): a
// [Recorder] implements rng.Auditor, keeps the last N entries in a ring
// buffer (500 by default, as the spec suggests for the game document) and,
// if asked, every entry of the game (for --audit-out and fixtures).
//
// Recording never fails and never changes a draw: an Auditor cannot return
// an error. A sink that writes entries elsewhere ([Recorder.Sink]) reports
// its failures to the Recorder, which counts them (Failures) and keeps
// recording.
package audit

import (
	"github.com/fairboard/fairboard/rng"
)

// DefaultCapacity is the ring buffer's default size: the spec's "keep last
// 500 entries".
const DefaultCapacity = 500

// Recorder is an rng.Auditor. The zero value is not ready; use New.
// Not safe for concurrent use (nor is the stream that feeds it).
type Recorder struct {
	ring  []rng.Entry
	next  int // where the next entry goes
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
	return func(r *Recorder) { r.ring = make([]rng.Entry, 0, max(1, n)) }
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
		r.ring = make([]rng.Entry, 0, DefaultCapacity)
	}
	return r
}

// Record implements rng.Auditor.
func (r *Recorder) Record(e rng.Entry) {
	r.count++
	if len(r.ring) < cap(r.ring) {
		r.ring = append(r.ring, e)
	} else {
		r.ring[r.next] = e
	}
	r.next = (r.next + 1) % cap(r.ring)
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

// Last returns the ring buffer's entries, oldest first (at most its
// capacity), as a new slice.
func (r *Recorder) Last() []rng.Entry {
	out := make([]rng.Entry, 0, len(r.ring))
	if len(r.ring) < cap(r.ring) {
		return append(out, r.ring...)
	}
	out = append(out, r.ring[r.next:]...)
	return append(out, r.ring[:r.next]...)
}

// All returns every entry recorded, in seq order, if the recorder was made
// with KeepAll (else nil). The slice is the recorder's.
func (r *Recorder) All() []rng.Entry { return r.all }

// Reset forgets every entry (capacity and options stay).
func (r *Recorder) Reset() {
	r.ring, r.next, r.count, r.all, r.Failures = r.ring[:0], 0, 0, r.all[:0], 0
}
