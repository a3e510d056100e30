package storetest

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"

	"github.com/fairboard/fairboard/audit"
	"github.com/fairboard/fairboard/games/dungeon/engine"
	"github.com/fairboard/fairboard/games/dungeon/server/store"
	"github.com/fairboard/fairboard/rng"
)

// The contract on records (per actor, unrecorded rejections, the audit
// entries they keep) and on the audit ring.

// auditEntries returns dice entries with seqs from..to, stamped ts.
func auditEntries(from, to uint64, ts int64) []audit.Entry {
	var es []audit.Entry
	for i := from; i <= to; i++ {
		es = append(es, audit.Entry{TS: ts, Entry: rng.Entry{Seq: i, Tag: rng.Tag("dice:test"), Kind: rng.KindDice,
			Data: rng.Data{Sides: 6, Value: int64(i%6 + 1)}}})
	}
	return es
}

func testAuditRing(t *testing.T, s store.Store) {
	ctx := context.Background()
	if _, err := s.WriteAudit(ctx, "g-audit", auditEntries(1, 3, 5)); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("WriteAudit on a game that does not exist = %v; want ErrNotFound", err)
	}
	mustApply(t, s, req("g-audit", "a1"), counter("g-audit", nil))
	es := auditEntries(1, 620, 1_760_000_000_000)
	for _, part := range [][]audit.Entry{es[:300], es[300:]} {
		n, err := s.WriteAudit(ctx, "g-audit", part)
		// 300 new entries, then 320 (of which 120 replace seqs 1..120).
		if err != nil || n != len(part) {
			t.Fatalf("WriteAudit(%d entries) = %d, %v; want all stored", len(part), n, err)
		}
	}
	check := func(when string) {
		t.Helper()
		got, err := s.Audit(ctx, "g-audit")
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != audit.RingSize || got[0].Seq != 121 || got[len(got)-1].Seq != 620 {
			t.Fatalf("%s: ring holds %d entries, seq %d..%d; want 500, 121..620", when, len(got), got[0].Seq, got[len(got)-1].Seq)
		}
		for i, e := range got {
			w := es[120+i]
			if e.Seq != w.Seq || e.Tag != w.Tag || e.Kind != w.Kind || e.Data.Value != w.Data.Value || e.Data.Sides != 6 || e.TS != w.TS {
				t.Fatalf("%s: ring[%d] = %+v, want %+v", when, i, e, w)
			}
		}
	}
	check("after two writes")
	// Idempotent: the same entries again, or old ones late, store nothing
	// and change nothing.
	for _, part := range [][]audit.Entry{es[500:], es[:50], auditEntries(1, 120, 99)} {
		if n, err := s.WriteAudit(ctx, "g-audit", part); err != nil || n != 0 {
			t.Errorf("rewriting seqs %d..%d stored %d (%v); want 0", part[0].Seq, part[len(part)-1].Seq, n, err)
		}
	}
	check("after rewrites")
	if n, err := s.WriteAudit(ctx, "g-audit", nil); err != nil || n != 0 {
		t.Errorf("WriteAudit(nil) = %d, %v", n, err)
	}
}

// testRecordsPerActor: an action id belongs to its actor. Another actor's
// use of the same id is a different action with its own record: it
// neither blocks nor replays the first actor's.
func testRecordsPerActor(t *testing.T, s store.Store) {
	ctx := context.Background()
	first := mustApply(t, s, req("g-actor", "a1"), counter("g-actor", nil))
	other := req("g-actor", "a1")
	other.Actor, other.Fingerprint = "mallory", "mallory's own"
	rec := mustApply(t, s, other, counter("g-actor", nil))
	if rec.Replayed || rec.Version != first.Version+1 {
		t.Errorf("another actor's a1: %+v; want its own action applied (version %d)", rec, first.Version+1)
	}
	for _, actor := range []string{"owner", "mallory"} {
		r, err := s.Action(ctx, "g-actor", actor, "a1")
		if err != nil || r.Actor != actor {
			t.Errorf("Action(%s, a1) = %+v, %v", actor, r, err)
		}
	}
	if _, err := s.Action(ctx, "g-actor", "eve", "a1"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("Action(eve, a1) = %v; want ErrNotFound", err)
	}
	again := mustApply(t, s, req("g-actor", "a1"), counter("g-actor", nil))
	if !again.Replayed || again.Version != first.Version {
		t.Errorf("owner's retry of a1: %+v; want the first record replayed", again)
	}
	if k1, k2 := store.RecordKey("owner", "a1"), store.RecordKey("mallory", "a1"); k1 == k2 || !store.ValidID(k1[:32]) {
		t.Errorf("RecordKey: %q and %q", k1, k2)
	}
}

// testUnrecorded: an Unrecorded rejection is answered and leaves nothing:
// no record, no game; a retry runs the mutator again.
func testUnrecorded(t *testing.T, s store.Store) {
	ctx := context.Background()
	mustApply(t, s, req("g-unrec", "a1"), counter("g-unrec", nil))
	var calls atomic.Int64
	stranger := func(g *engine.Game, _ []engine.Action) (store.Outcome, error) {
		calls.Add(1)
		g.Public.Version = 999
		return store.Outcome{}, &store.Unrecorded{Rejection: engine.Reject(engine.CodeSeatTaken, "taken")}
	}
	for range 2 {
		rec := mustApply(t, s, req("g-unrec", "x"), stranger)
		if rec.Replayed || !errors.Is(rec.Err(), engine.CodeSeatTaken) {
			t.Errorf("unrecorded rejection answered %+v", rec)
		}
	}
	if calls.Load() != 2 {
		t.Errorf("mutator ran %d times for two submissions; want 2 (nothing recorded to replay)", calls.Load())
	}
	if _, err := s.Action(ctx, "g-unrec", "owner", "x"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("the unrecorded rejection was recorded: %v", err)
	}
	if p, err := s.Game(ctx, "g-unrec"); err != nil || p.Version != 1 {
		t.Errorf("game after unrecorded rejections: %+v, %v", p, err)
	}
}

// testRecordKeepsAudit: an applied action's record keeps its audit
// entries (for repairs), and a replay returns them.
func testRecordKeepsAudit(t *testing.T, s store.Store) {
	ctx := context.Background()
	es := auditEntries(1, 3, 1_760_000_000_777)
	withAudit := func(g *engine.Game, _ []engine.Action) (store.Outcome, error) {
		out, err := counter("g-rec-audit", nil)(g, nil)
		out.Audit = es
		return out, err
	}
	mustApply(t, s, req("g-rec-audit", "a1"), withAudit)
	rec, err := s.Action(ctx, "g-rec-audit", "owner", "a1")
	if err != nil || len(rec.Audit) != 3 || rec.Audit[2].Seq != 3 || rec.Audit[2].TS != es[2].TS || rec.Audit[2].Data.Value != es[2].Data.Value {
		t.Fatalf("record's audit = %+v, %v", rec, err)
	}
	again := mustApply(t, s, req("g-rec-audit", "a1"), withAudit)
	if !again.Replayed || len(again.Audit) != 3 {
		t.Errorf("replay = %+v; want the record with its 3 audit entries", again)
	}
}
