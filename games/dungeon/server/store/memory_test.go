package store_test

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/fairboard/fairboard/audit"
	"github.com/fairboard/fairboard/games/dungeon/engine"
	"github.com/fairboard/fairboard/games/dungeon/server/store"
	"github.com/fairboard/fairboard/games/dungeon/server/store/storetest"
	"github.com/fairboard/fairboard/rng"
)

func TestMemoryContract(t *testing.T) {
	storetest.Run(t, func(t *testing.T) store.Store { return store.NewMemory() })
}

// TestMemoryProbesLeaveNothing: actions, reads and audit writes on game
// ids that do not exist (a client probing ids) leave no entry behind, so
// the development server's memory cannot be grown by probing; a game that
// is created stays.
func TestMemoryProbesLeaveNothing(t *testing.T) {
	m := store.NewMemory()
	ctx := context.Background()
	notCreated := func(g *engine.Game, _ []engine.Action) (store.Outcome, error) {
		return store.Outcome{}, engine.Reject(engine.CodeNotCreated, "the game has not been created")
	}
	for i := range 1000 {
		id := fmt.Sprintf("probe-%d", i)
		r := store.Request{GameID: id, ActionID: "a", Actor: "mallory", Kind: engine.ActMove, Fingerprint: "f"}
		if rec, err := m.Apply(ctx, r, notCreated); err != nil || rec.Rejection == nil {
			t.Fatalf("probe %d: %+v, %v", i, rec, err)
		}
		m.Game(ctx, id)
		m.Log(ctx, id, 0, 0)
		m.Action(ctx, id, "mallory", "a")
		m.Audit(ctx, id)
		if _, err := m.WriteAudit(ctx, id, []audit.Entry{{Entry: rng.Entry{Seq: 1, Tag: rng.TagTestOnly, Kind: rng.KindDice, Data: rng.Data{Sides: 6, Value: 1}}}}); !errors.Is(err, store.ErrNotFound) {
			t.Fatalf("WriteAudit on probe %d: %v; want ErrNotFound", i, err)
		}
	}
	if n := m.Games(); n != 0 {
		t.Fatalf("%d entries after 1000 probes; want 0", n)
	}
	create := func(g *engine.Game, _ []engine.Action) (store.Outcome, error) {
		g.Public.GameID, g.Public.Phase, g.Public.Version, g.Public.LogSeq = "real", engine.PhaseLobby, 1, 1
		return store.Outcome{Events: []engine.Event{{Seq: 1, Type: engine.EvGameCreated}}}, nil
	}
	if _, err := m.Apply(ctx, store.Request{GameID: "real", Actor: "alice"}, create); err != nil {
		t.Fatal(err)
	}
	if n := m.Games(); n != 1 {
		t.Errorf("%d entries after creating one game; want 1", n)
	}
}
