package audit

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/fairboard/fairboard/rng"
)

func dice(seq uint64, v int64) Entry {
	return Entry{Entry: rng.Entry{Seq: seq, Tag: rng.TagTestOnly, Kind: rng.KindDice, Data: rng.Data{Sides: 6, Value: v}}, TS: 7}
}

// A ring of 4: seqs 1..10 put in order leave 7..10 (slots 3, 0, 1, 2);
// putting them again, or old ones afterwards, changes nothing.
func TestRingKeepsNewestPerSlot(t *testing.T) {
	r := NewRing(4)
	for s := uint64(1); s <= 10; s++ {
		if !r.Put(dice(s, int64(s))) {
			t.Fatalf("Put(%d) refused on its first put", s)
		}
	}
	for s := uint64(1); s <= 10; s++ {
		if r.Put(dice(s, 99)) {
			t.Errorf("Put(%d) again was stored; the slot holds the same or a newer seq", s)
		}
	}
	got := r.Entries()
	if len(got) != 4 || r.Len() != 4 || r.Cap() != 4 {
		t.Fatalf("ring holds %d (Len %d); want 4", len(got), r.Len())
	}
	for i, e := range got {
		if e.Seq != uint64(7+i) || e.Data.Value != int64(7+i) {
			t.Errorf("entry %d = seq %d value %d; want seq %d value %d", i, e.Seq, e.Data.Value, 7+i, 7+i)
		}
	}
	if !r.Holds(3) || !r.Holds(10) || r.Holds(11) {
		t.Error("Holds: 3 is superseded by 7 (held or newer), 10 is held, 11 is not")
	}
}

// Out of order: a late repair of seq 2 after seq 6 (same slot in a ring of
// 4) is refused; seq 3 into an empty slot is taken.
func TestRingOrderDoesNotMatter(t *testing.T) {
	r := NewRing(4)
	r.Put(dice(6, 6))
	if r.Put(dice(2, 2)) {
		t.Error("seq 2 replaced seq 6 in slot 2")
	}
	if !r.Put(dice(3, 3)) {
		t.Error("seq 3 refused in an empty slot")
	}
	got := r.Entries()
	if len(got) != 2 || got[0].Seq != 3 || got[1].Seq != 6 {
		t.Fatalf("entries %+v; want seqs 3, 6", got)
	}
	r.Reset()
	if r.Len() != 0 || len(r.Entries()) != 0 || r.Holds(6) {
		t.Error("Reset left entries")
	}
	if !r.Put(dice(2, 2)) {
		t.Error("after Reset, seq 2 refused")
	}
}

func TestSlot(t *testing.T) {
	for _, c := range []struct {
		seq  uint64
		slot int
	}{{0, 0}, {1, 1}, {499, 499}, {500, 0}, {1234, 234}, {1<<64 - 1, 115}} { // 2^64-1 = 36893488147419103*500 + 115
		if got := Slot(c.seq); got != c.slot {
			t.Errorf("Slot(%d) = %d, want %d", c.seq, got, c.slot)
		}
	}
}

func TestEntryJSON(t *testing.T) {
	e := dice(3, 5)
	e.TS = 1760000000123
	b, err := json.Marshal(e)
	if err != nil {
		t.Fatal(err)
	}
	const want = `{"ts":1760000000123,"seq":3,"tag":"test.only","ctx":{},"kind":"dice","data":{"sides":6,"value":5}}`
	if string(b) != want {
		t.Fatalf("JSON %s\nwant %s", b, want)
	}
	var back Entry
	if err := json.Unmarshal(b, &back); err != nil || back.TS != e.TS || back.Seq != 3 || back.Data.Value != 5 {
		t.Fatalf("read back %+v, %v", back, err)
	}
	// Written before ts existed: TS 0.
	if err := json.Unmarshal([]byte(`{"seq":3,"tag":"test.only","ctx":{},"kind":"dice","data":{"sides":6,"value":5}}`), &back); err != nil || back.TS != 0 {
		t.Fatalf("entry without ts: %+v, %v", back, err)
	}
	for _, bad := range []string{
		`{"ts":"x","seq":3,"tag":"test.only","ctx":{},"kind":"dice","data":{"sides":6,"value":5}}`,
		`{"ts":1.5,"seq":3,"tag":"test.only","ctx":{},"kind":"dice","data":{"sides":6,"value":5}}`,
		`{"ts":1,"seq":3,"tag":"test.only","ctx":{},"kind":"dice","data":{"sides":6,"value":5},"extra":1}`,
		`[1]`,
	} {
		if err := json.Unmarshal([]byte(bad), &back); !errors.Is(err, rng.ErrEntryJSON) {
			t.Errorf("Unmarshal(%s) = %v; want rng.ErrEntryJSON", bad, err)
		}
	}
}

func TestStamp(t *testing.T) {
	es := Stamp([]rng.Entry{dice(1, 1).Entry, dice(2, 2).Entry}, 42)
	if len(es) != 2 || es[0].TS != 42 || es[1].TS != 42 || es[1].Seq != 2 {
		t.Fatalf("Stamp = %+v", es)
	}
}

// Holds for a slot past the ones grown so far: a ring of 4 holding seq 1
// (slot 1) has grown two slots; seq 2 and 3 (slots 2 and 3) are not held.
func TestRingHoldsPastTheGrownSlots(t *testing.T) {
	r := NewRing(4)
	r.Put(dice(1, 1))
	if !r.Holds(1) || r.Holds(2) || r.Holds(3) || r.Holds(4) {
		t.Error("Holds: want 1 held; 2, 3 (slots not grown) and 4 (slot 0, empty) not")
	}
}
