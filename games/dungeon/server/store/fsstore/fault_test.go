package fsstore_test

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"cloud.google.com/go/firestore"

	"github.com/fairboard/fairboard/audit"
	"github.com/fairboard/fairboard/games/dungeon/engine"
	"github.com/fairboard/fairboard/games/dungeon/server/store"
	"github.com/fairboard/fairboard/games/dungeon/server/store/fsstore"
	"github.com/fairboard/fairboard/internal/emulator"
	"github.com/fairboard/fairboard/rng"
)

// faultyStore is a store on its own client to the suite's emulator, whose
// calls f can fail.
func faultyStore(t *testing.T, f *emulator.Faults, opts ...fsstore.Option) *fsstore.Store {
	t.Helper()
	emu.Require(t)
	emu.Reset(t)
	c, err := emu.Firestore().Client(context.Background(), f.DialOptions()...)
	if err != nil {
		t.Fatal(err)
	}
	rc, err := emu.Firestore().RPC(context.Background(), f.DialOptions()...)
	if err != nil {
		t.Fatal(err)
	}
	return fsstore.New(c, append([]fsstore.Option{fsstore.WithRPC(rc)}, append(opts, fsstore.WithCloseClient())...)...)
}

// counted is bump that counts its calls.
func counted(calls *atomic.Int64) store.Mutator {
	return func(g *engine.Game, _ []engine.Action) (store.Outcome, error) {
		calls.Add(1)
		return bump(g, nil)
	}
}

func mustVersion(t *testing.T, s store.Store, want uint64) {
	t.Helper()
	p, err := s.Game(context.Background(), "hot")
	if err != nil || p.Version != want {
		t.Fatalf("game: %+v, %v; want version %d", p, err, want)
	}
	log, err := s.Log(context.Background(), "hot", 0, 0)
	if err != nil || len(log) != int(want) {
		t.Fatalf("log: %d events, %v; want %d (applied once each)", len(log), err, want)
	}
}

// TestLostCommitAnswerResolved (issue 10, item 3): the commit lands and
// its answer is lost (a deadline on the way back). Apply finds the record
// and answers the action as applied, not ABORTED, without running it
// again.
func TestLostCommitAnswerResolved(t *testing.T) {
	var f emulator.Faults
	s := faultyStore(t, &f)
	defer s.Close()
	var calls atomic.Int64
	f.LoseCommitAnswers(1, false)
	rec, err := s.Apply(context.Background(), store.Request{GameID: "hot", ActionID: "a1", Actor: "u"}, counted(&calls))
	if err != nil || rec.Version != 1 || rec.Replayed {
		t.Fatalf("Apply with its commit's answer lost = %+v, %v; want the applied record", rec, err)
	}
	if calls.Load() != 1 || f.Commits() != 1 {
		t.Errorf("mutator ran %d times, %d commits; want 1 and 1 (found by the look-up)", calls.Load(), f.Commits())
	}
	if st := s.Stats(); st.Unknown != 1 || st.Resolved != 1 {
		t.Errorf("stats %+v; want 1 unknown outcome, resolved", st)
	}
	mustVersion(t, s, 1)
}

// TestDroppedCommitResolved: the commit never reached the database and
// the client got a deadline. Apply cannot know that; it looks for the
// record, does not find it, runs the transaction again and applies the
// action once.
func TestDroppedCommitResolved(t *testing.T) {
	var f emulator.Faults
	s := faultyStore(t, &f)
	defer s.Close()
	var calls atomic.Int64
	f.DropCommits(1)
	rec, err := s.Apply(context.Background(), store.Request{GameID: "hot", ActionID: "a1", Actor: "u"}, counted(&calls))
	if err != nil || rec.Version != 1 {
		t.Fatalf("Apply with its commit dropped = %+v, %v; want the applied record", rec, err)
	}
	if calls.Load() != 2 || f.Commits() != 1 {
		t.Errorf("mutator ran %d times, %d commits; want 2 and 1", calls.Load(), f.Commits())
	}
	if st := s.Stats(); st.Unknown != 1 || st.Resolved != 1 {
		t.Errorf("stats %+v; want 1 unknown outcome, resolved", st)
	}
	mustVersion(t, s, 1)
}

// TestUnresolvableIsUnavailable: the commit lands, its answer is lost and
// the database then stops answering. Apply gives up after the resolve
// timeout with ErrUnavailable (never ErrContention, which says nothing was
// written); once the database answers again, the retry with the same id
// replays the action that landed.
func TestUnresolvableIsUnavailable(t *testing.T) {
	var f emulator.Faults
	s := faultyStore(t, &f, fsstore.WithResolveTimeout(time.Second))
	defer s.Close()
	var calls atomic.Int64
	req := store.Request{GameID: "hot", ActionID: "a1", Actor: "u"}
	f.LoseCommitAnswers(1, true)
	_, err := s.Apply(context.Background(), req, counted(&calls))
	if !errors.Is(err, store.ErrUnavailable) || errors.Is(err, store.ErrContention) {
		t.Fatalf("Apply = %v; want ErrUnavailable", err)
	}
	f.Unblock()
	rec, err := s.Apply(context.Background(), req, counted(&calls))
	if err != nil || !rec.Replayed || rec.Version != 1 {
		t.Fatalf("retry = %+v, %v; want the landed action replayed", rec, err)
	}
	mustVersion(t, s, 1)

	// Without an action id there is no record to look up: unknown.
	f.LoseCommitAnswers(1, false)
	_, err = s.Apply(context.Background(), store.Request{GameID: "hot", Actor: "u"}, counted(&calls))
	if !errors.Is(err, store.ErrUnavailable) {
		t.Errorf("Apply without an action id, answer lost = %v; want ErrUnavailable", err)
	}
}

// many is a Mutator that creates the game "hot" or bumps it, logging
// four events and drawing three audit entries an action.
func many(calls *atomic.Int64) store.Mutator {
	return func(g *engine.Game, _ []engine.Action) (store.Outcome, error) {
		calls.Add(1)
		p := &g.Public
		if p.Phase == engine.PhaseNone {
			p.GameID, p.Phase = "hot", engine.PhaseLobby
		}
		p.Version++
		var out store.Outcome
		for range 4 {
			p.LogSeq++
			out.Events = append(out.Events, engine.Event{Seq: p.LogSeq, Type: engine.EvRoundEnded, Round: int(p.LogSeq)})
		}
		for range 3 {
			p.RNG.Seq++
			out.Audit = append(out.Audit, audit.Entry{TS: 5, Entry: rng.Entry{Seq: p.RNG.Seq, Tag: "dice:test", Kind: rng.KindDice,
				Data: rng.Data{Sides: 6, Value: 2}}})
		}
		g.Secret.RNGState = fmt.Sprint("state-", p.Version)
		out.Applied = []engine.Action{{Kind: engine.ActMove, Actor: "u", ID: fmt.Sprint("u:a", p.Version)}}
		return out, nil
	}
}

// TestLostAnswerWritesNothingTwice: an action with many events and audit
// entries, whose commit lands and whose answer is lost, or whose commit
// never reaches the database: once Apply has resolved it, the game holds
// it once: one log document with its four events, one applied action, one
// record, its three entries in the ring; and the writes counted are those
// of one commit (five), none of a second.
func TestLostAnswerWritesNothingTwice(t *testing.T) {
	for _, lose := range []string{"answer", "commit"} {
		t.Run(lose, func(t *testing.T) {
			var f emulator.Faults
			s := faultyStore(t, &f)
			defer s.Close()
			ctx := context.Background()
			var calls atomic.Int64
			if _, err := s.Apply(ctx, store.Request{GameID: "hot", ActionID: "a1", Actor: "u"}, many(&calls)); err != nil {
				t.Fatal(err)
			}
			w0 := s.Stats().Writes
			switch lose {
			case "answer":
				f.LoseCommitAnswers(1, false)
			case "commit":
				f.DropCommits(1)
			}
			rec, err := s.Apply(ctx, store.Request{GameID: "hot", ActionID: "a2", Actor: "u"}, many(&calls))
			if err != nil || rec.Version != 2 || len(rec.Events) != 4 {
				t.Fatalf("Apply with its %s lost = %+v, %v; want the applied record", lose, rec, err)
			}
			if w := s.Stats().Writes - w0; w != 5 {
				t.Errorf("%d writes counted; want the 5 of one commit", w)
			}
			c := s.Client()
			for coll, want := range map[string]int{"log": 2, "applied": 2, "actions": 2} {
				if n := len(mustDocs(t, c.Collection("games/hot/"+coll).Query)); n != want {
					t.Errorf("%s holds %d documents; want %d", coll, n, want)
				}
			}
			log, err := s.Log(ctx, "hot", 0, 0)
			if err != nil || len(log) != 8 || log[7].Seq != 8 {
				t.Errorf("log: %d events, %v; want 8, each once", len(log), err)
			}
			ring, err := s.Audit(ctx, "hot")
			if err != nil || len(ring) != 6 || ring[5].Seq != 6 {
				t.Errorf("ring: %d entries, %v; want 6", len(ring), err)
			}
		})
	}
}

func mustDocs(t *testing.T, q firestore.Query) []*firestore.DocumentSnapshot {
	t.Helper()
	snaps, err := q.Documents(context.Background()).GetAll()
	if err != nil {
		t.Fatal(err)
	}
	return snaps
}
