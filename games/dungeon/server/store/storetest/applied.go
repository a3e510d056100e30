package storetest

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/fairboard/fairboard/games/dungeon/engine"
	"github.com/fairboard/fairboard/games/dungeon/server/store"
)

// The contract on the list of applied actions and on State.

// appliedAction is the n-th test action: every field set that a stored
// action keeps.
func appliedAction(n int) *engine.Action {
	return &engine.Action{Kind: engine.ActJoin, Actor: fmt.Sprintf("p%d", n), ID: fmt.Sprintf("p%d:j%d", n, n),
		Version: uint64(n), At: 1_760_000_000_000 + int64(n), Seat: n, Class: engine.ClassMonk, KeepSmokeBomb: n%2 == 0,
		Entropy: fmt.Sprintf("%02x0badc0de", n), Target: "τ-target", CardID: "t1-sword-1"}
}

// applying is counter with the action recorded as applied: a join with
// entropy and a time, so that every field the export reads round-trips.
func applying(gameID string, n int) store.Mutator {
	c := counter(gameID, nil)
	return func(g *engine.Game, _ []engine.Action) (store.Outcome, error) {
		out, err := c(g, nil)
		out.Applied = []engine.Action{*appliedAction(n)}
		return out, err
	}
}

// testApplied: every applied action is listed once, in version order,
// numbered by the version it was applied to (0 for the first), with or
// without an action id; rejections, unrecorded rejections, mutator errors
// and replays add nothing; an outcome without Applied adds nothing either.
func testApplied(t *testing.T, s store.Store) {
	ctx := context.Background()
	const g = "g-applied"
	if got, err := s.Applied(ctx, g); err != nil || len(got) != 0 {
		t.Fatalf("Applied(unknown) = %v, %v; want empty", got, err)
	}
	if _, err := s.State(ctx, g); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("State(unknown) = %v, want ErrNotFound", err)
	}
	mustApply(t, s, req(g, ""), applying(g, 0)) // no action id: still listed
	mustApply(t, s, req(g, "a1"), applying(g, 1))
	mustApply(t, s, req(g, ""), applying(g, 2))
	// A replay of a1 lists nothing new.
	if rec := mustApply(t, s, req(g, "a1"), applying(g, 99)); !rec.Replayed {
		t.Errorf("a1 again not replayed: %+v", rec)
	}
	// A rejection, an unrecorded rejection, a failing mutator: nothing.
	mustApply(t, s, req(g, "rej"), func(g *engine.Game, _ []engine.Action) (store.Outcome, error) {
		g.Public.Version++
		return store.Outcome{Applied: []engine.Action{*appliedAction(98)}}, engine.Reject(engine.CodeWrongStep, "no")
	})
	mustApply(t, s, req(g, "unrec"), func(g *engine.Game, _ []engine.Action) (store.Outcome, error) {
		return store.Outcome{Applied: []engine.Action{*appliedAction(97)}}, &store.Unrecorded{Rejection: engine.Reject(engine.CodeSeatTaken, "taken")}
	})
	if _, err := s.Apply(ctx, req(g, "boom"), func(g *engine.Game, _ []engine.Action) (store.Outcome, error) {
		return store.Outcome{Applied: []engine.Action{*appliedAction(96)}}, errors.New("boom")
	}); err == nil {
		t.Fatal("a failing mutator succeeded")
	}
	// Applied but with nothing to list.
	mustApply(t, s, req(g, "bare"), counter(g, nil))
	mustApply(t, s, req(g, "a4"), applying(g, 4))

	got, err := s.Applied(ctx, g)
	if err != nil {
		t.Fatal(err)
	}
	want := []uint64{0, 1, 2, 4}
	if len(got) != len(want) {
		t.Fatalf("Applied lists %d actions, want %d (versions %v): %+v", len(got), len(want), want, got)
	}
	for i, a := range got {
		if a.Version != want[i] {
			t.Errorf("applied[%d].Version = %d, want %d", i, a.Version, want[i])
		}
		if w := *appliedAction(int(want[i])); a.Action != w {
			t.Errorf("applied[%d].Action = %+v, want %+v", i, a.Action, w)
		}
	}
	st, err := s.State(ctx, g)
	if err != nil {
		t.Fatal(err)
	}
	if st.Public.Version != 5 || st.Public.GameID != g || st.Secret.RNGState != "state-5" {
		t.Errorf("State = public %+v, secret %+v; want version 5, rngState state-5", st.Public, st.Secret)
	}
	// Lists are per game.
	mustApply(t, s, req(g+"-other", ""), applying(g+"-other", 7))
	if got, err := s.Applied(ctx, g+"-other"); err != nil || len(got) != 1 || got[0].Version != 0 {
		t.Errorf("the other game's list = %+v, %v; want one action at version 0", got, err)
	}
	if got, err := s.Applied(ctx, g); err != nil || len(got) != len(want) {
		t.Errorf("the first game's list changed: %d actions, %v", len(got), err)
	}
	// Many actions come back in version order (ids sort as numbers).
	for i := range 12 {
		mustApply(t, s, req(g+"-many", fmt.Sprintf("m%d", i)), applying(g+"-many", i))
	}
	many, err := s.Applied(ctx, g+"-many")
	if err != nil || len(many) != 12 {
		t.Fatalf("Applied(many) = %d actions, %v", len(many), err)
	}
	for i, a := range many {
		if a.Version != uint64(i) || a.Action.Seat != i {
			t.Errorf("many[%d] = version %d seat %d", i, a.Version, a.Action.Seat)
		}
	}
}
