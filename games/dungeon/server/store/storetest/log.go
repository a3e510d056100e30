package storetest

import (
	"context"
	"fmt"
	"testing"

	"github.com/fairboard/fairboard/audit"
	"github.com/fairboard/fairboard/games/dungeon/engine"
	"github.com/fairboard/fairboard/games/dungeon/server/store"
	"github.com/fairboard/fairboard/rng"
)

// The contract on the log's paging and on the audit entries an action
// rings in its own commit.

// burst is a Mutator that creates a bare game or bumps its version,
// emitting n RoundEnded events (Round = their seq) and, if audited, one
// audit entry per event (seq = the event's).
func burst(gameID string, n int, audited bool) store.Mutator {
	return func(g *engine.Game, _ []engine.Action) (store.Outcome, error) {
		p := &g.Public
		if p.Phase == engine.PhaseNone {
			p.GameID, p.Phase, p.Owner = gameID, engine.PhaseLobby, "owner"
			p.RNG.Mode = rng.ModeSeeded
		}
		p.Version++
		var out store.Outcome
		for range n {
			p.LogSeq++
			out.Events = append(out.Events, engine.Event{Seq: p.LogSeq, Type: engine.EvRoundEnded, Round: int(p.LogSeq)})
			if audited {
				out.Audit = append(out.Audit, audit.Entry{TS: int64(p.LogSeq), Entry: rng.Entry{Seq: p.LogSeq,
					Tag: rng.Tag("dice:test"), Kind: rng.KindDice, Data: rng.Data{Sides: 6, Value: int64(p.LogSeq%6 + 1)}}})
			}
		}
		p.RNG.Seq = p.LogSeq
		return out, nil
	}
}

// logBursts are the events per action of testLogPaging: none, one, many,
// in every order around each other.
var logBursts = []int{1, 0, 3, 5, 0, 0, 1, 2, 7, 1, 0, 4}

// testLogPaging: whatever number of events each action writes (none, one,
// many), Log(after, limit) is exactly the events with seq > after, the
// first limit of them (all if limit <= 0), for every after, including one
// inside an action's events, and every limit.
func testLogPaging(t *testing.T, s store.Store) {
	ctx := context.Background()
	const g = "g-paging"
	var all []engine.Event
	for i, n := range logBursts {
		rec := mustApply(t, s, req(g, fmt.Sprintf("a%d", i)), burst(g, n, false))
		if len(rec.Events) != n {
			t.Fatalf("action %d: %d events recorded, want %d", i, len(rec.Events), n)
		}
		all = append(all, rec.Events...)
	}
	total := len(all)
	for after := 0; after <= total+1; after++ {
		for _, limit := range []int{0, 1, 2, 3, 7, total, total + 5, -1} {
			got, err := s.Log(ctx, g, uint64(after), limit)
			if err != nil {
				t.Fatalf("Log(after %d, limit %d): %v", after, limit, err)
			}
			want := all[min(after, total):]
			if limit > 0 && limit < len(want) {
				want = want[:limit]
			}
			if len(got) != len(want) {
				t.Fatalf("Log(after %d, limit %d) = %d events, want %d", after, limit, len(got), len(want))
			}
			for i := range got {
				if string(got[i].AppendJSON(nil)) != string(want[i].AppendJSON(nil)) {
					t.Fatalf("Log(after %d, limit %d)[%d] = %s, want %s", after, limit, i, got[i].AppendJSON(nil), want[i].AppendJSON(nil))
				}
			}
		}
	}
}

// testRing: an action's audit entries are in the ring once Apply
// returns, with no WriteAudit; its record says so (Ringed), and keeps
// them. Past RingSize the ring holds the last RingSize entries. A store
// that rings after the commit (afterCommit) keeps them in the record, not
// Ringed, and the ring holds them once they are written.
func testRing(t *testing.T, s store.Store, afterCommit bool) {
	ctx := context.Background()
	const g = "g-ring-commit"
	seq := 0
	for i := 0; seq < audit.RingSize+37; i++ {
		n := 1 + (i*7)%40 // 1..40 entries an action
		rec := mustApply(t, s, req(g, fmt.Sprintf("a%d", i)), burst(g, n, true))
		seq += n
		if rec.Ringed == afterCommit || len(rec.Audit) != n {
			t.Fatalf("action %d: record Ringed %v with %d entries; want ringed %v, %d", i, rec.Ringed, len(rec.Audit), !afterCommit, n)
		}
		if afterCommit {
			if m, err := s.WriteAudit(ctx, g, rec.Audit); err != nil || m != n {
				t.Fatalf("action %d: WriteAudit = %d, %v; want %d stored", i, m, err, n)
			}
		}
		ring, err := s.Audit(ctx, g)
		if err != nil {
			t.Fatal(err)
		}
		want := min(seq, audit.RingSize)
		if len(ring) != want || ring[len(ring)-1].Seq != uint64(seq) || ring[0].Seq != uint64(seq-want+1) {
			t.Fatalf("after action %d: ring holds %d entries; want %d, seq %d..%d", i, len(ring), want, seq-want+1, seq)
		}
		for j, e := range ring {
			if w := uint64(seq - want + 1 + j); e.Seq != w || e.TS != int64(w) || e.Data.Value != int64(w%6+1) || e.Tag != "dice:test" {
				t.Fatalf("after action %d: ring[%d] = %+v; want seq %d", i, j, e, w)
			}
		}
		again, err := s.Action(ctx, g, "owner", fmt.Sprintf("a%d", i))
		if err != nil || again.Ringed == afterCommit || len(again.Audit) != n {
			t.Fatalf("stored record of action %d: %+v, %v", i, again, err)
		}
	}
	// An action without entries is not ringed.
	if rec := mustApply(t, s, req(g, "quiet"), burst(g, 2, false)); rec.Ringed {
		t.Errorf("an action without audit entries says Ringed")
	}
}
