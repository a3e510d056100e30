package fsstore

import (
	"reflect"
	"testing"

	"github.com/fairboard/fairboard/audit"
	"github.com/fairboard/fairboard/games/dungeon/engine"
	"github.com/fairboard/fairboard/games/dungeon/policy"
	"github.com/fairboard/fairboard/games/dungeon/server/store"
	"github.com/fairboard/fairboard/games/dungeon/tools/bot"
)

// TestRecordDocIsToDoc: the record document a commit writes, built from
// the conversions of its events (for the log) and audit entries (for the
// ring), is store.ToDoc's of the record (reflect.DeepEqual: int64 is not
// float64, an empty list is not nil), for every event and audit entry of
// a whole audited 3-player game, a few at a time, and for records with
// none, rejected, staged, ringed. Positive control: a record without
// events built with a nil list differs.
func TestRecordDocIsToDoc(t *testing.T) {
	eng := engine.NewReference(engine.DefaultRules())
	seats := []bot.Seat{{Class: engine.ClassWarrior, Policy: policy.Cautious{}}, {Class: engine.ClassMonk, Policy: policy.Aggressive{}},
		{Class: engine.ClassScout, Policy: policy.Cautious{}}}
	rec := audit.New(audit.KeepAll())
	_, events, err := bot.NewRunner(eng).Play("recdoc", seats, rec)
	if err != nil {
		t.Fatal(err)
	}
	entries := audit.Stamp(rec.All(), 1_760_000_000_000)
	if len(events) < 50 || len(entries) < 20 {
		t.Fatalf("%d events, %d audit entries: too few to test", len(events), len(entries))
	}
	var records []*store.Record
	for i := 0; i < max(len(events), len(entries)); i += 3 {
		r := &store.Record{ActionID: "a", Actor: "p1", Kind: engine.ActMove, Fingerprint: "ff", Version: uint64(i), Ringed: i%2 == 0,
			Events: events[min(i, len(events)):min(i+3, len(events))], Audit: entries[min(i, len(entries)):min(i+3, len(entries))]}
		records = append(records, r)
	}
	records = append(records,
		&store.Record{ActionID: "b", Actor: "p2", Kind: engine.ActReveal, Events: []engine.Event{}, Staged: true},
		&store.Record{ActionID: "c", Actor: "p3", Kind: engine.ActMove, Events: []engine.Event{},
			Rejection: &store.Rejection{Code: engine.CodeNotYourTurn, Msg: "no"}})
	for i, r := range records {
		evs, err := eventDocs(r.Events)
		if err != nil {
			t.Fatal(err)
		}
		ajs, err := entriesJSON(r.Audit)
		if err != nil {
			t.Fatal(err)
		}
		got, err := recordDoc(r, evs, ajs)
		if err != nil {
			t.Fatal(err)
		}
		want, err := store.ToDoc(r)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("record %d:\n got %#v\nwant %#v", i, got, want)
		}
	}
	r := records[len(records)-1]
	got, err := recordDoc(r, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if want, _ := store.ToDoc(r); reflect.DeepEqual(got, want) {
		t.Fatal("a record's events as nil compared equal to an empty list")
	}
}
