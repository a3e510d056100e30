package storetest

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/fairboard/fairboard/games/dungeon/engine"
	"github.com/fairboard/fairboard/games/dungeon/server/store"
	"github.com/fairboard/fairboard/rng"
)

// The contract on a trustless round's staged reveals (Outcome.Stage,
// Staged, the Mutator's staged argument), on applied runs and on Due.

// roundGame is a Mutator that makes a bare trustless game of seats seats
// with an action pending at index 1 (deadline 5000), due at 5000.
func roundGame(gameID string, seats int) store.Mutator {
	return func(g *engine.Game, staged []engine.Action) (store.Outcome, error) {
		p := &g.Public
		p.GameID, p.Phase, p.Owner, p.RNG.Mode = gameID, engine.PhasePlaying, "owner", rng.ModeTrustless
		p.Version, p.LogSeq = 7, 1
		t := &engine.Trustless{NextIndex: 1, Pending: &engine.Pending{Index: 1, Deadline: 5000}}
		for i := range seats {
			t.Seats = append(t.Seats, engine.TrustSeat{UID: fmt.Sprint("u", i), Seat: i})
		}
		p.Trustless = t
		return store.Outcome{Events: []engine.Event{{Seq: 1, Type: engine.EvRoundEnded}}, DueAt: 5000}, nil
	}
}

// reveal is seat's test reveal for index, accepted at at.
func reveal(seat int, index uint32, at int64) engine.Action {
	return engine.Action{Kind: engine.ActReveal, Actor: fmt.Sprint("u", seat), ID: fmt.Sprintf("u%d:r%d", seat, index), At: at,
		Seat: seat, Index: index, Link: fmt.Sprintf("%064x", 1000+seat), Digest: fmt.Sprintf("%064x", 7), Transcript: fmt.Sprintf("%064x", 8),
		Signature: fmt.Sprintf("%0128x", 9+seat)}
}

// staging is a Mutator that stages a (and records what it was given).
func staging(a engine.Action, saw *[]engine.Action) store.Mutator {
	return func(g *engine.Game, staged []engine.Action) (store.Outcome, error) {
		if saw != nil {
			*saw = slices.Clone(staged)
		}
		g.Public.Version = 999 // must not be written: a staged reveal writes no game
		return store.Outcome{Stage: &a}, nil
	}
}

func stageReq(game string, a engine.Action) store.Request {
	r := store.Request{GameID: game, ActionID: "r" + fmt.Sprint(a.Index), Actor: a.Actor, Kind: engine.ActReveal, Fingerprint: "fp-" + a.ID, Staging: true}
	return r
}

// testStaged: a staged reveal writes its record (Staged, the version it
// was staged against, no events) and nothing of the game; Staged and the
// next Mutator get the round's staged reveals in the order they were
// accepted (time, then seat), concurrent stagings all land, a seat's
// second reveal for an index is never written, a replay answers from the
// record; a commit that applies them lists them and the action as one run
// of consecutive versions, and the round's reveals are gone from Staged.
func testStaged(t *testing.T, s store.Store) {
	ctx := context.Background()
	const g = "g-staged"
	mustApply(t, s, store.Request{GameID: g, Actor: "owner", Kind: engine.ActCreate}, roundGame(g, 4))
	if got, err := s.Staged(ctx, g, 1); err != nil || len(got) != 0 {
		t.Fatalf("Staged before any reveal = %v, %v", got, err)
	}
	// Seats 2 and 0 accepted at the same time, seat 3 earlier; seat 1
	// never reveals.
	reveals := []engine.Action{reveal(2, 1, 4000), reveal(0, 1, 4000), reveal(3, 1, 3000)}
	var wg sync.WaitGroup
	errs := make([]error, len(reveals))
	recs := make([]*store.Record, len(reveals))
	for i, a := range reveals {
		wg.Add(1)
		go func() {
			defer wg.Done()
			recs[i], errs[i] = s.Apply(ctx, stageReq(g, a), staging(a, nil))
		}()
	}
	wg.Wait()
	for i := range reveals {
		if errs[i] != nil {
			t.Fatalf("staging seat %d: %v", reveals[i].Seat, errs[i])
		}
		if r := recs[i]; !r.Staged || r.Version != 7 || len(r.Events) != 0 || r.Rejection != nil || r.Replayed {
			t.Errorf("seat %d's staged record = %+v; want staged at version 7, no events", reveals[i].Seat, r)
		}
	}
	p, err := s.Game(ctx, g)
	if err != nil || p.Version != 7 || p.LogSeq != 1 {
		t.Fatalf("the game after stagings = %+v, %v; want it unchanged (version 7)", p, err)
	}
	want := []engine.Action{reveals[2], reveals[1], reveals[0]} // 3000 seat 3; 4000 seat 0; 4000 seat 2
	got, err := s.Staged(ctx, g, 1)
	if err != nil || !slices.Equal(got, want) {
		t.Fatalf("Staged = %+v, %v;\nwant %+v", got, err, want)
	}
	if other, err := s.Staged(ctx, g, 2); err != nil || len(other) != 0 {
		t.Errorf("Staged(index 2) = %v, %v; want none", other, err)
	}
	// A replay answers from the record, without the Mutator.
	if r, err := s.Apply(ctx, stageReq(g, reveals[0]), func(*engine.Game, []engine.Action) (store.Outcome, error) {
		t.Error("the Mutator ran for a replay")
		return store.Outcome{}, nil
	}); err != nil || !r.Replayed || !r.Staged {
		t.Errorf("replayed staging = %+v, %v", r, err)
	}
	// Seat 0 again, under another action id: never written.
	dup := reveals[1]
	dup.Link = fmt.Sprintf("%064x", 5)
	dreq := stageReq(g, dup)
	dreq.ActionID = "again"
	var saw []engine.Action
	if _, err := s.Apply(ctx, dreq, staging(dup, &saw)); !errors.Is(err, store.ErrContention) {
		t.Errorf("a second reveal of seat 0 for index 1: %v, want ErrContention", err)
	}
	if !slices.Equal(saw, want) {
		t.Errorf("the Mutator saw staged %+v; want %+v", saw, want)
	}
	if got, _ := s.Staged(ctx, g, 1); !slices.Equal(got, want) {
		t.Errorf("Staged after the duplicate = %+v", got)
	}
	if _, err := s.Action(ctx, g, dup.Actor, "again"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("the duplicate's record: %v, want none", err)
	}
	// The last seat stages; an action applies the round.
	last := reveal(1, 1, 4500)
	mustApply(t, s, stageReq(g, last), staging(last, nil))
	want = append(want, last)
	var given []engine.Action
	close := func(g *engine.Game, staged []engine.Action) (store.Outcome, error) {
		given = slices.Clone(staged)
		p := &g.Public
		run := slices.Clone(staged)
		for range staged {
			p.Version++
		}
		p.Trustless.Pending, p.Trustless.NextIndex = nil, 2
		p.Version++
		p.LogSeq++
		run = append(run, engine.Action{Kind: engine.ActMove, Actor: "u0", ID: "u0:m"})
		return store.Outcome{Events: []engine.Event{{Seq: p.LogSeq, Type: engine.EvRoundEnded}}, Applied: run}, nil
	}
	rec := mustApply(t, s, store.Request{GameID: g, Actor: "u0", ActionID: "m", Kind: engine.ActMove, Fingerprint: "m"}, close)
	if !slices.Equal(given, want) || rec.Version != 12 || rec.Staged {
		t.Fatalf("the closing Mutator got %+v (record %+v); want %+v", given, rec, want)
	}
	applied, err := s.Applied(ctx, g)
	if err != nil || len(applied) != 5 {
		t.Fatalf("Applied = %+v, %v; want the 4 reveals and the move", applied, err)
	}
	for i, a := range applied {
		if a.Version != 7+uint64(i) {
			t.Errorf("applied[%d] at version %d, want %d", i, a.Version, 7+i)
		}
		if i < 4 && a.Action != want[i] || i == 4 && a.Action.Kind != engine.ActMove {
			t.Errorf("applied[%d] = %+v", i, a.Action)
		}
	}
	// The game no longer has that round open: nothing staged is handed on.
	mustApply(t, s, store.Request{GameID: g, Actor: "owner", Kind: engine.ActMove}, func(g *engine.Game, staged []engine.Action) (store.Outcome, error) {
		if staged != nil {
			t.Errorf("a game with no round open got staged %+v", staged)
		}
		g.Public.Version++
		return store.Outcome{}, nil
	})
	// Staging in a game that does not exist writes nothing.
	if _, err := s.Apply(ctx, stageReq("g-staged-none", last), staging(last, nil)); err == nil {
		t.Error("a reveal staged in a game that does not exist")
	}
	if _, err := s.Game(ctx, "g-staged-none"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("Game(g-staged-none) = %v", err)
	}
}

// closing is a staging request's Close for a round of seats seats: it
// refuses while the round's staged reveals are fewer (an engine
// rejection), then applies them and closes the round (the applied run:
// the reveals in the order they came). It requires the game it gets to
// be the one the staging read (version 7), and counts its calls.
func closing(t *testing.T, seats int, calls *atomic.Int64, got *[]engine.Action) store.Mutator {
	return func(g *engine.Game, staged []engine.Action) (store.Outcome, error) {
		calls.Add(1)
		p := &g.Public
		if p.Version != 7 || p.Trustless.Pending == nil {
			t.Errorf("Close got the game at version %d (pending %v); want the one the staging read", p.Version, p.Trustless.Pending)
		}
		if len(staged) < seats {
			return store.Outcome{}, engine.Reject(engine.CodeWrongStep, "the round waits for more reveals")
		}
		*got = slices.Clone(staged)
		p.Version += uint64(len(staged))
		p.Trustless.Pending, p.Trustless.NextIndex = nil, 2
		p.LogSeq++
		return store.Outcome{Events: []engine.Event{{Seq: p.LogSeq, Type: engine.EvRoundEnded}}, Applied: slices.Clone(staged)}, nil
	}
}

// testStagedClose: a staging request's Close runs once the reveal is
// staged, on the game as the staging read it, with the round's staged
// reveals (this one among them); its refusal writes nothing; when it
// applies something the round is committed closed once, whichever of
// the round's concurrent last reveals does it (Closed on exactly one
// record), the applied run lists the reveals in the order they came, and
// the next action gets none of them; a replay runs no Close.
func testStagedClose(t *testing.T, s store.Store) {
	ctx := context.Background()
	const g = "g-staged-close"
	mustApply(t, s, store.Request{GameID: g, Actor: "owner", Kind: engine.ActCreate}, roundGame(g, 3))
	var calls atomic.Int64
	var got []engine.Action
	first := reveal(0, 1, 3000)
	r0 := stageReq(g, first)
	r0.Close = closing(t, 3, &calls, &got)
	rec := mustApply(t, s, r0, staging(first, nil))
	if !rec.Staged || rec.Closed || rec.CloseErr != nil || calls.Load() != 1 {
		t.Fatalf("the first of three reveals: record %+v, Close called %d times; want staged, not closed, Close called once", rec, calls.Load())
	}
	if p, err := s.Game(ctx, g); err != nil || p.Version != 7 {
		t.Fatalf("a Close that refused changed the game: %+v, %v", p, err)
	}
	// The last two at once.
	rest := []engine.Action{reveal(2, 1, 4000), reveal(1, 1, 4000)}
	recs := make([]*store.Record, len(rest))
	errs := make([]error, len(rest))
	var wg sync.WaitGroup
	for i, a := range rest {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := stageReq(g, a)
			r.Close = closing(t, 3, &calls, &got)
			recs[i], errs[i] = s.Apply(ctx, r, staging(a, nil))
		}()
	}
	wg.Wait()
	closed := 0
	for i := range rest {
		if errs[i] != nil {
			t.Fatalf("staging seat %d: %v", rest[i].Seat, errs[i])
		}
		if !recs[i].Staged || recs[i].CloseErr != nil {
			t.Errorf("seat %d's record = %+v", rest[i].Seat, recs[i])
		}
		if recs[i].Closed {
			closed++
		}
	}
	if closed != 1 {
		t.Fatalf("the round was closed by %d of its last reveals; want exactly one", closed)
	}
	want := []engine.Action{first, rest[1], rest[0]} // 3000 seat 0; 4000 seat 1; 4000 seat 2
	if !slices.Equal(got, want) {
		t.Errorf("Close applied %+v; want %+v", got, want)
	}
	p, err := s.Game(ctx, g)
	if err != nil || p.Version != 10 || p.Trustless.Pending != nil || p.LogSeq != 2 {
		t.Fatalf("the game after its round closed = %+v, %v; want version 10, nothing pending", p, err)
	}
	applied, err := s.Applied(ctx, g)
	if err != nil || len(applied) != 3 {
		t.Fatalf("Applied = %+v, %v; want the 3 reveals", applied, err)
	}
	for i, a := range applied {
		if a.Version != 7+uint64(i) || a.Action != want[i] {
			t.Errorf("applied[%d] = %+v; want %+v at version %d", i, a, want[i], 7+i)
		}
	}
	mustApply(t, s, store.Request{GameID: g, Actor: "owner", Kind: engine.ActMove}, func(g *engine.Game, staged []engine.Action) (store.Outcome, error) {
		if staged != nil {
			t.Errorf("after the close, the next action got staged %+v", staged)
		}
		return store.Outcome{}, engine.Reject(engine.CodeWrongStep, "nothing to do")
	})
	// A replay: the record, and no Close.
	n := calls.Load()
	r := stageReq(g, rest[0])
	r.Close = closing(t, 3, &calls, &got)
	if rec, err := s.Apply(ctx, r, staging(rest[0], nil)); err != nil || !rec.Replayed || rec.Closed {
		t.Errorf("a replayed staging = %+v, %v", rec, err)
	}
	if calls.Load() != n {
		t.Error("a replay ran Close")
	}
}

// testDue: Due finds the games whose DueAt has come, earliest first, up
// to its limit; a commit without DueAt (or one that changes it) takes the
// game out (or moves it).
func testDue(t *testing.T, s store.Store) {
	ctx := context.Background()
	set := func(id string, due int64) {
		mustApply(t, s, store.Request{GameID: id, Actor: "owner", Kind: engine.ActMove}, func(g *engine.Game, _ []engine.Action) (store.Outcome, error) {
			p := &g.Public
			p.GameID, p.Phase, p.Owner, p.RNG.Mode = id, engine.PhaseLobby, "owner", rng.ModeSeeded
			p.Version++
			return store.Outcome{DueAt: due}, nil
		})
	}
	set("g-due-a", 3000)
	set("g-due-b", 1000)
	set("g-due-c", 2000)
	set("g-due-none", 0)
	set("g-due-late", 9000)
	ids := func(before int64, limit int) []string {
		got, err := s.Due(ctx, before, limit)
		if err != nil {
			t.Fatal(err)
		}
		var mine []string // other subtests' games may share the store
		for _, id := range got {
			if len(id) > 6 && id[:6] == "g-due-" {
				mine = append(mine, id)
			}
		}
		return mine
	}
	if got := ids(3000, 0); !slices.Equal(got, []string{"g-due-b", "g-due-c", "g-due-a"}) {
		t.Errorf("Due(3000) = %v", got)
	}
	if got := ids(2999, 0); !slices.Equal(got, []string{"g-due-b", "g-due-c"}) {
		t.Errorf("Due(2999) = %v", got)
	}
	if got := ids(999, 0); len(got) != 0 {
		t.Errorf("Due(999) = %v", got)
	}
	set("g-due-b", 0)    // settled
	set("g-due-c", 8000) // moved
	if got := ids(5000, 0); !slices.Equal(got, []string{"g-due-a"}) {
		t.Errorf("Due(5000) after changes = %v", got)
	}
	if got, err := s.Due(ctx, 10_000, 1); err != nil || len(got) != 1 {
		t.Errorf("Due(limit 1) = %v, %v", got, err)
	}
}
