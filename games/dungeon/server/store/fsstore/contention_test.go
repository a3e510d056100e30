package fsstore_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"

	"github.com/fairboard/fairboard/games/dungeon/engine"
	"github.com/fairboard/fairboard/games/dungeon/server/store"
	"github.com/fairboard/fairboard/games/dungeon/server/store/fsstore"
)

// bump creates a bare game or adds one to its version, logging one event.
func bump(g *engine.Game, _ []engine.Action) (store.Outcome, error) {
	p := &g.Public
	if p.Phase == engine.PhaseNone {
		p.GameID, p.Phase = "hot", engine.PhaseLobby
	}
	p.Version++
	p.LogSeq++
	return store.Outcome{Events: []engine.Event{{Seq: p.LogSeq, Type: engine.EvRoundEnded, Round: int(p.Version)}}}, nil
}

// TestContentionWithoutRetries: with one attempt per Apply, concurrent
// actions on one hot game from 30 separate stores (as from 30 server
// instances, so the per-process queue does not order them) either commit
// or fail with ErrContention (the emulator's lock waits and aborts), and
// the game equals the committed ones applied in order: no lost or doubled
// update.
func TestContentionWithoutRetries(t *testing.T) {
	base := newStore(t)
	defer base.Close()
	ctx := context.Background()
	if _, err := base.Apply(ctx, store.Request{GameID: "hot", ActionID: "a0", Actor: "u"}, bump); err != nil {
		t.Fatal(err)
	}
	const n = 30
	var wg sync.WaitGroup
	var mu sync.Mutex
	ok, aborted := 0, 0
	stores := make([]*fsstore.Store, n)
	for i := range n {
		stores[i] = fsstore.New(base.Client(), fsstore.WithRPC(base.RPC()), fsstore.WithMaxAttempts(1))
	}
	s := stores[0]
	for i := range n {
		wg.Go(func() {
			_, err := stores[i].Apply(ctx, store.Request{GameID: "hot", ActionID: fmt.Sprintf("b%d", i), Actor: "u"}, bump)
			mu.Lock()
			defer mu.Unlock()
			switch {
			case err == nil:
				ok++
			case errors.Is(err, store.ErrContention):
				aborted++
			default:
				t.Errorf("action %d: %v; want success or ErrContention", i, err)
			}
		})
	}
	wg.Wait()
	p, err := s.Game(ctx, "hot")
	if err != nil || p.Version != uint64(ok+1) {
		t.Fatalf("version %v (%v) after %d committed", p, err, ok)
	}
	log, err := s.Log(ctx, "hot", 0, 0)
	if err != nil || len(log) != ok+1 {
		t.Fatalf("log %d events, %v; want %d", len(log), err, ok+1)
	}
	for i, e := range log {
		if e.Round != i+1 {
			t.Fatalf("log[%d] round %d: lost or doubled update", i, e.Round)
		}
	}
	records := 0
	for i := range n {
		_, err := s.Action(ctx, "hot", "u", fmt.Sprintf("b%d", i))
		switch {
		case err == nil:
			records++
		case !errors.Is(err, store.ErrNotFound):
			t.Fatal(err)
		}
	}
	if records != ok {
		t.Errorf("%d action records for %d committed actions (an aborted one left a record?)", records, ok)
	}
	t.Logf("emulator, 1 attempt, 30 stores: %d committed, %d ErrContention", ok, aborted)
}
