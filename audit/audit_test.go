package audit

import (
	"errors"
	"testing"

	"github.com/fairboard/fairboard/rng"
)

func TestRingKeepsLastN(t *testing.T) {
	s, err := rng.NewSeeded("audit-ring")
	if err != nil {
		t.Fatal(err)
	}
	r := New(WithCapacity(5), KeepAll())
	s.SetAuditor(r)
	for range 12 {
		if _, err := s.Dice(6, rng.TagTestOnly, nil); err != nil {
			t.Fatal(err)
		}
	}
	last := r.Last()
	if len(last) != 5 || last[0].Seq != 8 || last[4].Seq != 12 {
		t.Fatalf("ring = seqs %d..%d (len %d), want 8..12", last[0].Seq, last[len(last)-1].Seq, len(last))
	}
	if len(r.All()) != 12 || r.Count() != 12 {
		t.Fatalf("all = %d, count = %d, want 12", len(r.All()), r.Count())
	}
	for i, e := range r.All() {
		if e.Seq != uint64(i+1) || e.Kind != rng.KindDice {
			t.Fatalf("entry %d = %+v", i, e)
		}
	}
}

func TestSinkFailureIsCountedNotFatal(t *testing.T) {
	s, _ := rng.NewSeeded("audit-sink")
	ref, _ := rng.NewSeeded("audit-sink")
	r := New()
	r.Sink = func(rng.Entry) error { return errors.New("disk full") }
	s.SetAuditor(r)
	for range 3 {
		a, _ := s.Dice(6, rng.TagTestOnly, nil)
		b, _ := ref.Dice(6, rng.TagTestOnly, nil)
		if a != b {
			t.Fatal("a failing sink changed a draw")
		}
	}
	if r.Failures != 3 || r.Count() != 3 || len(r.Last()) != 3 {
		t.Fatalf("failures %d count %d last %d", r.Failures, r.Count(), len(r.Last()))
	}
	if r.All() != nil {
		t.Fatal("All without KeepAll should be nil")
	}
}
