// Package storetest is the contract every store.Store must pass: call
// [Run] from the implementation's tests with a constructor that returns an
// empty store.
package storetest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
	"sync/atomic"
	"testing"

	"github.com/fairboard/fairboard/games/dungeon/engine"
	"github.com/fairboard/fairboard/games/dungeon/server/store"
	"github.com/fairboard/fairboard/rng"
)

// Option adjusts the contract to a store's documented variant.
type Option func(*contract)

type contract struct{ ringAfterCommit bool }

// RingsAfterCommit is the contract of a store that leaves the audit ring
// to its caller (fsstore.WithPreviousLayout, as the previous release
// did): Apply keeps an action's audit entries in its record only, not
// Ringed, and the ring holds what WriteAudit puts in it.
func RingsAfterCommit() Option { return func(c *contract) { c.ringAfterCommit = true } }

// Run runs the contract suite. newStore must return an empty store (or
// one whose games do not collide with the ids the suite uses: each subtest
// uses its own game ids); the suite closes it.
func Run(t *testing.T, newStore func(t *testing.T) store.Store, opts ...Option) {
	var c contract
	for _, o := range opts {
		o(&c)
	}
	testRingInCommit := func(t *testing.T, s store.Store) { testRing(t, s, c.ringAfterCommit) }
	tests := []struct {
		name string
		fn   func(t *testing.T, s store.Store)
	}{
		{"UnknownGame", testUnknownGame},
		{"ApplyAndRead", testApplyAndRead},
		{"Idempotent", testIdempotent},
		{"ActionIDReused", testActionIDReused},
		{"Rejection", testRejection},
		{"MutatorError", testMutatorError},
		{"InvalidIDs", testInvalidIDs},
		{"RoundTripExact", testRoundTripExact},
		{"IntOutOfRange", testIntOutOfRange},
		{"RealGame", testRealGame},
		{"AuditRing", testAuditRing},
		{"RecordsPerActor", testRecordsPerActor},
		{"Unrecorded", testUnrecorded},
		{"RecordKeepsAudit", testRecordKeepsAudit},
		{"ConcurrentSameAction", testConcurrentSameAction},
		{"ConcurrentActions", testConcurrentActions},
		{"Applied", testApplied},
		{"LogPaging", testLogPaging},
		{"RingInCommit", testRingInCommit},
		{"Staged", testStaged},
		{"StagedClose", testStagedClose},
		{"Due", testDue},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := newStore(t)
			t.Cleanup(func() { s.Close() })
			tc.fn(t, s)
		})
	}
}

// counter is a Mutator that creates a bare game or bumps its version,
// emitting one RoundEnded event per call with Round = the new version.
func counter(gameID string, calls *atomic.Int64) store.Mutator {
	return func(g *engine.Game, _ []engine.Action) (store.Outcome, error) {
		if calls != nil {
			calls.Add(1)
		}
		p := &g.Public
		if p.Phase == engine.PhaseNone {
			p.GameID, p.Phase, p.Owner = gameID, engine.PhaseLobby, "owner"
			p.RNG.Mode = rng.ModeSeeded
		}
		p.Version++
		p.LogSeq++
		g.Secret.RNGState = "state-" + strconv.FormatUint(p.Version, 10)
		return store.Outcome{Events: []engine.Event{{Seq: p.LogSeq, Type: engine.EvRoundEnded, Round: int(p.Version)}}}, nil
	}
}

func req(game, action string) store.Request {
	return store.Request{GameID: game, ActionID: action, Actor: "owner", Kind: engine.ActMove, Fingerprint: "fp-" + action}
}

func mustApply(t *testing.T, s store.Store, r store.Request, m store.Mutator) *store.Record {
	t.Helper()
	rec, err := s.Apply(context.Background(), r, m)
	if err != nil {
		t.Fatalf("Apply(%s/%s): %v", r.GameID, r.ActionID, err)
	}
	return rec
}

func testUnknownGame(t *testing.T, s store.Store) {
	ctx := context.Background()
	if _, err := s.Game(ctx, "nope"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("Game(unknown) = %v, want ErrNotFound", err)
	}
	if _, err := s.Action(ctx, "nope", "owner", "a1"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("Action(unknown) = %v, want ErrNotFound", err)
	}
	log, err := s.Log(ctx, "nope", 0, 0)
	if err != nil || len(log) != 0 {
		t.Errorf("Log(unknown) = %v, %v; want empty", log, err)
	}
	a, err := s.Audit(ctx, "nope")
	if err != nil || len(a) != 0 {
		t.Errorf("Audit(unknown) = %v, %v; want empty", a, err)
	}
}

func testApplyAndRead(t *testing.T, s store.Store) {
	ctx := context.Background()
	for i := 1; i <= 5; i++ {
		rec := mustApply(t, s, req("g-read", fmt.Sprintf("a%d", i)), counter("g-read", nil))
		if rec.Version != uint64(i) || rec.Replayed || rec.Rejection != nil || len(rec.Events) != 1 || rec.Events[0].Seq != uint64(i) {
			t.Fatalf("action %d: record %+v", i, rec)
		}
	}
	p, err := s.Game(ctx, "g-read")
	if err != nil {
		t.Fatal(err)
	}
	if p.Version != 5 || p.LogSeq != 5 || p.GameID != "g-read" || p.Phase != engine.PhaseLobby {
		t.Errorf("Game = %+v", p)
	}
	all, err := s.Log(ctx, "g-read", 0, 0)
	if err != nil || len(all) != 5 {
		t.Fatalf("Log = %v, %v", all, err)
	}
	for i, e := range all {
		if e.Seq != uint64(i+1) || e.Type != engine.EvRoundEnded || e.Round != i+1 {
			t.Errorf("log[%d] = %+v", i, e)
		}
	}
	part, err := s.Log(ctx, "g-read", 2, 2)
	if err != nil || len(part) != 2 || part[0].Seq != 3 || part[1].Seq != 4 {
		t.Errorf("Log(after 2, limit 2) = %v, %v; want seq 3, 4", part, err)
	}
	rec, err := s.Action(ctx, "g-read", "owner", "a3")
	if err != nil || rec.Version != 3 || rec.Actor != "owner" || len(rec.Events) != 1 || rec.Events[0].Round != 3 {
		t.Errorf("Action(a3) = %+v, %v", rec, err)
	}
	// No action id: applied, nothing recorded.
	rec = mustApply(t, s, req("g-read", ""), counter("g-read", nil))
	if rec.Version != 6 {
		t.Errorf("anonymous action: version %d, want 6", rec.Version)
	}
}

func testIdempotent(t *testing.T, s store.Store) {
	var calls atomic.Int64
	first := mustApply(t, s, req("g-idem", "a1"), counter("g-idem", &calls))
	again := mustApply(t, s, req("g-idem", "a1"), counter("g-idem", &calls))
	if !again.Replayed || first.Replayed {
		t.Errorf("Replayed = %v then %v; want false then true", first.Replayed, again.Replayed)
	}
	if calls.Load() != 1 {
		t.Errorf("mutator called %d times; want 1", calls.Load())
	}
	if again.Version != first.Version || len(again.Events) != 1 || string(again.Events[0].AppendJSON(nil)) != string(first.Events[0].AppendJSON(nil)) {
		t.Errorf("replayed record %+v differs from %+v", again, first)
	}
	p, err := s.Game(context.Background(), "g-idem")
	if err != nil || p.Version != 1 {
		t.Errorf("game version after replay: %v, %v; want 1", p, err)
	}
}

func testActionIDReused(t *testing.T, s store.Store) {
	mustApply(t, s, req("g-reuse", "a1"), counter("g-reuse", nil))
	for _, change := range []func(*store.Request){
		func(r *store.Request) { r.Fingerprint = "something else" },
		func(r *store.Request) { r.Kind = engine.ActSleep },
	} {
		other := req("g-reuse", "a1")
		change(&other)
		if _, err := s.Apply(context.Background(), other, counter("g-reuse", nil)); !errors.Is(err, store.ErrActionIDReused) {
			t.Errorf("same actor and id, other action %+v: %v, want ErrActionIDReused", other, err)
		}
	}
}

func reject(code engine.Code, calls *atomic.Int64) store.Mutator {
	return func(g *engine.Game, _ []engine.Action) (store.Outcome, error) {
		calls.Add(1)
		g.Public.Version = 999 // must not be written
		return store.Outcome{}, engine.Reject(code, "no")
	}
}

func testRejection(t *testing.T, s store.Store) {
	ctx := context.Background()
	var calls atomic.Int64
	// On a game that does not exist: nothing written at all.
	rec := mustApply(t, s, req("g-rej0", "a1"), reject(engine.CodeNotCreated, &calls))
	if !errors.Is(rec.Err(), engine.CodeNotCreated) {
		t.Errorf("rejection = %v", rec.Err())
	}
	if _, err := s.Action(ctx, "g-rej0", "owner", "a1"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("rejection on a missing game was recorded: %v", err)
	}
	if _, err := s.Game(ctx, "g-rej0"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("rejection created the game: %v", err)
	}
	// On an existing game: the rejection is recorded, the game untouched.
	mustApply(t, s, req("g-rej", "a1"), counter("g-rej", nil))
	rec = mustApply(t, s, req("g-rej", "a2"), reject(engine.CodeNotYourTurn, &calls))
	if !errors.Is(rec.Err(), engine.CodeNotYourTurn) || rec.Version != 0 || len(rec.Events) != 0 {
		t.Errorf("rejection record %+v", rec)
	}
	again := mustApply(t, s, req("g-rej", "a2"), counter("g-rej", nil))
	if !again.Replayed || !errors.Is(again.Err(), engine.CodeNotYourTurn) {
		t.Errorf("retried rejection = %+v; want the same rejection, replayed", again)
	}
	p, err := s.Game(ctx, "g-rej")
	if err != nil || p.Version != 1 {
		t.Errorf("game after rejection: %+v, %v; want version 1", p, err)
	}
	if log, _ := s.Log(ctx, "g-rej", 0, 0); len(log) != 1 {
		t.Errorf("log after rejection has %d events; want 1", len(log))
	}
}

func testMutatorError(t *testing.T, s store.Store) {
	boom := errors.New("boom")
	_, err := s.Apply(context.Background(), req("g-err", "a1"), func(g *engine.Game, _ []engine.Action) (store.Outcome, error) {
		g.Public.Version = 5
		return store.Outcome{}, boom
	})
	if !errors.Is(err, boom) {
		t.Errorf("Apply = %v, want the mutator's error", err)
	}
	if _, err := s.Action(context.Background(), "g-err", "owner", "a1"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("failed action recorded: %v", err)
	}
	if _, err := s.Game(context.Background(), "g-err"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("failed action created the game: %v", err)
	}
}

func testInvalidIDs(t *testing.T, s store.Store) {
	for _, r := range []store.Request{req("a/b", "x"), req("", "x"), req("ok", "../x"), req("__x__", "x")} {
		if _, err := s.Apply(context.Background(), r, counter("x", nil)); !errors.Is(err, store.ErrInvalid) {
			t.Errorf("Apply(%q, %q) = %v, want ErrInvalid", r.GameID, r.ActionID, err)
		}
	}
}

// exotic is a game with the values most likely to be bent by a document
// store: the extremes of int64, nil next to empty slices, unicode.
func exotic(gameID string) engine.Game {
	var g engine.Game
	p := &g.Public
	p.GameID, p.Owner, p.Phase, p.Version = gameID, "üñí\u2028", engine.PhasePlaying, 1
	p.RNG = engine.RNGInfo{Mode: rng.ModeSeeded, Seq: math.MaxInt64, AuditEnabled: true}
	p.CreatedAt, p.StartedAt, p.FinishedAt = math.MaxInt64, math.MinInt64, 1<<53+1
	p.Players = []engine.Player{{UID: "a", Items: []string{}}, {UID: "b", Items: nil, HP: -1}}
	p.Combat = &engine.Combat{ID: "c1", Enemies: []engine.Enemy{}}
	p.Duel = &engine.Duel{ID: "d1"}
	p.Bracket = &engine.Bracket{Finalists: nil}
	p.Decks = []engine.DeckInfo{{ID: "x", Discard: []string{""}}}
	g.Secret = engine.Secret{Seed: "s", RNGState: "st", Decks: []engine.SecretDeck{{ID: "x", Cards: []string{}}}}
	return g
}

func testRoundTripExact(t *testing.T, s store.Store) {
	want := exotic("g-exact")
	wantJSON, _ := want.CanonicalJSON()
	set := func(g *engine.Game, _ []engine.Action) (store.Outcome, error) {
		// A JSON copy: Game.Clone turns empty slices into nil.
		return store.Outcome{Events: []engine.Event{{Seq: 1, Type: engine.EvGameCreated, UID: "a", GameID: "g-exact"}}}, json.Unmarshal(wantJSON, g)
	}
	mustApply(t, s, req("g-exact", "a1"), set)
	var seen []byte
	check := func(g *engine.Game, _ []engine.Action) (store.Outcome, error) {
		seen, _ = g.CanonicalJSON()
		return store.Outcome{}, engine.Reject(engine.CodeWrongStep, "look only")
	}
	mustApply(t, s, req("g-exact", "a2"), check)
	if string(seen) != string(wantJSON) {
		t.Errorf("game read back differs:\n got %s\nwant %s", seen, wantJSON)
	}
	p, err := s.Game(context.Background(), "g-exact")
	if err != nil {
		t.Fatal(err)
	}
	got := engine.Game{Public: *p, Secret: want.Secret}
	gotJSON, _ := got.CanonicalJSON()
	if string(gotJSON) != string(wantJSON) {
		t.Errorf("Game() differs:\n got %s\nwant %s", gotJSON, wantJSON)
	}
}

func testIntOutOfRange(t *testing.T, s store.Store) {
	_, err := s.Apply(context.Background(), req("g-big", "a1"), func(g *engine.Game, _ []engine.Action) (store.Outcome, error) {
		g.Public = engine.Public{GameID: "g-big", Phase: engine.PhaseLobby, Version: math.MaxUint64}
		return store.Outcome{}, nil
	})
	if !errors.Is(err, store.ErrInvalid) {
		t.Errorf("version 2^64-1: %v, want ErrInvalid", err)
	}
	if _, err := s.Game(context.Background(), "g-big"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("refused game was written: %v", err)
	}
}
