package storetest

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/fairboard/fairboard/games/dungeon/engine"
	"github.com/fairboard/fairboard/games/dungeon/server/session"
	"github.com/fairboard/fairboard/games/dungeon/server/store"
)

// retryable reports whether err is an answer the caller may retry.
func retryable(err error) bool {
	return errors.Is(err, store.ErrContention)
}

func testConcurrentSameAction(t *testing.T, s store.Store) {
	mustApply(t, s, req("g-same", "a0"), counter("g-same", nil))
	const n = 20
	var wg sync.WaitGroup
	recs := make([]*store.Record, n)
	errs := make([]error, n)
	for i := range n {
		wg.Go(func() {
			recs[i], errs[i] = s.Apply(context.Background(), req("g-same", "a1"), counter("g-same", nil))
		})
	}
	wg.Wait()
	for i := range n {
		if errs[i] != nil {
			if !retryable(errs[i]) {
				t.Errorf("submission %d: %v", i, errs[i])
			}
			continue
		}
		if recs[i].Version != 2 || len(recs[i].Events) != 1 || recs[i].Events[0].Seq != 2 {
			t.Errorf("submission %d: record %+v; want version 2, event seq 2", i, recs[i])
		}
	}
	p, err := s.Game(context.Background(), "g-same")
	if err != nil || p.Version != 2 {
		t.Fatalf("game after %d identical submissions: %+v, %v; want version 2", n, p, err)
	}
	if log, _ := s.Log(context.Background(), "g-same", 0, 0); len(log) != 2 {
		t.Errorf("log has %d events; want 2", len(log))
	}
}

func testConcurrentActions(t *testing.T, s store.Store) {
	mustApply(t, s, req("g-many", "a0"), counter("g-many", nil))
	const n = 10
	var wg sync.WaitGroup
	var ok atomic.Int64
	for i := range n {
		wg.Go(func() {
			// Retry contention like a client would, with the same id.
			for range 20 {
				_, err := s.Apply(context.Background(), req("g-many", fmt.Sprintf("b%d", i)), counter("g-many", nil))
				if err == nil {
					ok.Add(1)
					return
				}
				if !retryable(err) {
					t.Errorf("action %d: %v", i, err)
					return
				}
			}
			t.Errorf("action %d: still contended after 20 tries", i)
		})
	}
	wg.Wait()
	p, err := s.Game(context.Background(), "g-many")
	if err != nil || p.Version != uint64(ok.Load())+1 {
		t.Fatalf("game after %d applied actions: %+v, %v", ok.Load(), p, err)
	}
	log, err := s.Log(context.Background(), "g-many", 0, 0)
	if err != nil || len(log) != int(p.Version) {
		t.Fatalf("log: %d events, %v; want %d", len(log), err, p.Version)
	}
	for i, e := range log {
		if e.Seq != uint64(i+1) || e.Round != i+1 {
			t.Errorf("log[%d] = seq %d round %d: lost or duplicated update", i, e.Seq, e.Round)
		}
	}
}

// testRealGame plays create, joins and start through the engine, one Apply
// per action, and checks the stored game equals the one built in memory.
func testRealGame(t *testing.T, s store.Store) {
	eng := engine.NewReference(engine.DefaultRules())
	var ref engine.Game
	var refLog []engine.Event
	actions := []engine.Action{
		{Kind: engine.ActCreate, Actor: "p1", ID: "c", GameID: "g-real", Mode: "seeded", Seed: "store-contract"},
		{Kind: engine.ActJoin, Actor: "p1", ID: "j1", Seat: 0, Class: engine.ClassWarrior},
		{Kind: engine.ActJoin, Actor: "p2", ID: "j2", Seat: 1, Class: engine.ClassMonk},
		{Kind: engine.ActStart, Actor: "p1", ID: "s"},
	}
	step := func(g *engine.Game, a engine.Action) (store.Outcome, error) {
		if a.Kind == engine.ActCreate {
			ev, err := eng.Dispatch(g, &a, nil, nil)
			return store.Outcome{Events: ev}, err
		}
		s, err := session.Stream(g)
		if err != nil {
			return store.Outcome{}, err
		}
		ev, err := eng.Dispatch(g, &a, s, nil)
		if err != nil {
			return store.Outcome{}, err
		}
		return store.Outcome{Events: ev}, g.SaveStream(s)
	}
	for _, a := range actions {
		out, err := step(&ref, a)
		if err != nil {
			t.Fatalf("reference %s: %v", a.Kind, err)
		}
		refLog = append(refLog, out.Events...)
		r := store.Request{GameID: "g-real", ActionID: a.ID, Actor: a.Actor, Kind: a.Kind, Fingerprint: a.ID}
		rec := mustApply(t, s, r, func(g *engine.Game, _ []engine.Action) (store.Outcome, error) { return step(g, a) })
		if rec.Rejection != nil || rec.Version != ref.Public.Version {
			t.Fatalf("%s: record %+v", a.Kind, rec)
		}
	}
	var gotJSON []byte
	mustApply(t, s, req("g-real", "peek"), func(g *engine.Game, _ []engine.Action) (store.Outcome, error) {
		gotJSON, _ = g.CanonicalJSON()
		return store.Outcome{}, engine.Reject(engine.CodeWrongStep, "peek")
	})
	wantJSON, _ := ref.CanonicalJSON()
	if string(gotJSON) != string(wantJSON) {
		t.Errorf("stored game differs from the reference:\n got %s\nwant %s", gotJSON, wantJSON)
	}
	log, err := s.Log(context.Background(), "g-real", 0, 0)
	if err != nil || len(log) != len(refLog) {
		t.Fatalf("log: %d events, %v; want %d", len(log), err, len(refLog))
	}
	for i := range log {
		if string(log[i].AppendJSON(nil)) != string(refLog[i].AppendJSON(nil)) {
			t.Errorf("log[%d] = %s, want %s", i, log[i].AppendJSON(nil), refLog[i].AppendJSON(nil))
		}
	}
}
