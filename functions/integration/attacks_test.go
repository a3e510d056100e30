package integration

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"testing"

	"github.com/fairboard/fairboard/engine"
	"github.com/fairboard/fairboard/functions/callable"
	"github.com/fairboard/fairboard/functions/functest"
	"github.com/fairboard/fairboard/player"
)

// revealAnswer is the reveal function's answer as these tests read it.
type revealAnswer struct {
	Version  uint64         `json:"version"`
	Events   []engine.Event `json:"events"`
	Replayed bool           `json:"replayed"`
	Staged   bool           `json:"staged"`
}

// copiesAtOnce sends n copies of seat i's reveal a at once, spread over
// the server instances envs (each its own Firestore client and store, as
// separate processes), under one action id or n; a copy answered ABORTED
// (contention) is sent again, as a client does. It returns how many
// copies were answered as the reveal itself (not replayed), and fails on
// any answer but that, a replay, or one of the refusals allowed.
func copiesAtOnce(t *testing.T, envs []*env, tb *functest.Table, i int, a engine.Action, n int, distinct bool, allowed ...engine.Code) int {
	t.Helper()
	var mu sync.Mutex
	firsts := 0
	var wg sync.WaitGroup
	gate := make(chan struct{})
	for k := range n {
		id := "r1"
		if distinct {
			id = fmt.Sprint("r1-", k)
		}
		wg.Go(func() {
			<-gate
			d := functest.RevealData(a, id)
			d["gameId"] = tb.ID
			for range 20 {
				var res revealAnswer
				err := envs[k%len(envs)].c.Call(context.Background(), "reveal", tb.Players[i].Token, d, &res)
				if functest.Status(err) == string(callable.StatusAborted) {
					continue
				}
				if err != nil {
					if c := engineCode(err); !slices.Contains(allowed, engine.Code(c)) {
						t.Errorf("copy %d: %v (code %q), want an answer or one of %v", k, err, c, allowed)
					}
					return
				}
				if !res.Replayed {
					mu.Lock()
					firsts++
					mu.Unlock()
				}
				return
			}
			t.Errorf("copy %d: still ABORTED after 20 tries", k)
		})
	}
	close(gate)
	wg.Wait()
	return firsts
}

// TestConcurrentDuplicateRevealsOnTheEmulator: the service's
// TestConcurrentDuplicateReveals on Firestore, through the functions,
// the copies spread over 4 server instances: one seat's identical reveal
// sent 8 times at once, under one action id or 8. Staged: one copy is the
// reveal (the others replayed or already_revealed), one staged document
// of that seat, the game document unchanged. Closing: one copy closes the
// round (one RoundRevealed, the game 3 versions on, each seat's reveal
// listed as applied once); the others replayed, already_revealed or
// wrong_index. The control: two seats' reveals sent at once, four copies
// each, stage both seats.
func TestConcurrentDuplicateRevealsOnTheEmulator(t *testing.T) {
	emu.Require(t)
	ctx := context.Background()
	ps := players(t, 3)
	envs := make([]*env, 4)
	for i := range envs {
		envs[i] = newEnv(t, nil)
	}
	e := envs[0]
	table := func(id string) *functest.Table {
		tb, err := functest.NewTable(ctx, e.c, id, ps, eng.Rules(), nil)
		if err != nil {
			t.Fatal(err)
		}
		if err := tb.Act(ctx, 0, engine.Action{Kind: engine.ActStart}, "start"); err != nil {
			t.Fatal(err)
		}
		if err := tb.Sync(ctx); err != nil {
			t.Fatal(err)
		}
		return tb
	}
	reveal := func(tb *functest.Table, i int) engine.Action {
		a, err := tb.Reveal(i)
		if err != nil {
			t.Fatal(err)
		}
		return a
	}
	stagedBy := func(tb *functest.Table) []string {
		staged, err := e.st.Staged(ctx, tb.ID, 1)
		if err != nil {
			t.Fatal(err)
		}
		var who []string
		for _, s := range staged {
			who = append(who, s.Actor)
		}
		slices.Sort(who)
		return who
	}
	for _, distinct := range []bool{false, true} {
		t.Run(fmt.Sprint("distinctIDs=", distinct), func(t *testing.T) {
			tb := table(fmt.Sprint("tl-dup-", distinct))
			v := tb.State.Version
			if n := copiesAtOnce(t, envs, tb, 0, reveal(tb, 0), 8, distinct, engine.CodeAlreadyRevealed); n != 1 {
				t.Fatalf("%d copies were the reveal, want 1", n)
			}
			if who := stagedBy(tb); !slices.Equal(who, []string{"p1"}) {
				t.Fatalf("staged: %v, want p1 once", who)
			}
			if err := tb.Sync(ctx); err != nil {
				t.Fatal(err)
			}
			if tb.State.Version != v {
				t.Fatalf("a staged reveal moved the game from version %d to %d", v, tb.State.Version)
			}
			if err := tb.SendReveal(ctx, 1, reveal(tb, 1)); err != nil {
				t.Fatal(err)
			}
			if n := copiesAtOnce(t, envs, tb, 2, reveal(tb, 2), 8, distinct, engine.CodeAlreadyRevealed, engine.CodeWrongIndex); n != 1 {
				t.Fatalf("%d copies were the closing reveal, want 1", n)
			}
			if err := tb.Sync(ctx); err != nil {
				t.Fatal(err)
			}
			rounds := 0
			for _, ev := range tb.Log {
				if ev.Type == engine.EvRoundRevealed {
					rounds++
				}
			}
			if rounds != 1 || tb.State.Trustless.Pending != nil || tb.State.Version != v+3 {
				t.Fatalf("round 1 closed %d times; pending %v; version %d, want %d", rounds, tb.State.Trustless.Pending, tb.State.Version, v+3)
			}
			applied, err := e.st.Applied(ctx, tb.ID)
			if err != nil {
				t.Fatal(err)
			}
			per := map[string]int{}
			for _, x := range applied {
				if x.Action.Kind == engine.ActReveal {
					per[x.Action.Actor]++
				}
			}
			if per["p1"] != 1 || per["p2"] != 1 || per["p3"] != 1 || len(per) != 3 {
				t.Fatalf("reveals applied: %v, want each seat's once", per)
			}
		})
	}
	t.Run("control", func(t *testing.T) {
		tb := table("tl-dup-control")
		a, b := reveal(tb, 0), reveal(tb, 1)
		var wg sync.WaitGroup
		gate := make(chan struct{})
		for k := range 8 {
			i, r := k%2, a
			if i == 1 {
				r = b
			}
			wg.Go(func() {
				<-gate
				d := functest.RevealData(r, fmt.Sprint("r1-", k))
				d["gameId"] = tb.ID
				for range 20 {
					err := envs[k%len(envs)].c.Call(ctx, "reveal", tb.Players[i].Token, d, nil)
					if functest.Status(err) != string(callable.StatusAborted) {
						return
					}
				}
			})
		}
		close(gate)
		wg.Wait()
		if who := stagedBy(tb); !slices.Equal(who, []string{"p1", "p2"}) {
			t.Fatalf("staged: %v, want p1 and p2 once each", who)
		}
	})
}

// engineCode is a callable error's engine code ("" for none).
func engineCode(err error) string {
	_, c := code(err)
	return c
}

// TestCrossGameReplayThroughTheFunctions: the service's
// TestCrossGameReplayRefused through the functions on Firestore: p1 and
// p2 sit at games A and B with the same keys and chain secrets. A's start,
// signed by p1, sent to B is bad_signature; p1's reveal of A's index 1
// sent to B is wrong_digest, and with B's digest and transcript
// bad_signature; B's game document keeps its version and nothing is
// staged in it. The controls: the start and the reveal are A's, which
// takes them.
func TestCrossGameReplayThroughTheFunctions(t *testing.T) {
	emu.Require(t)
	ctx := context.Background()
	e := newEnv(t, nil)
	ps := players(t, 2)
	a, err := functest.NewTable(ctx, e.c, "tl-xg-a", ps, eng.Rules(), nil)
	if err != nil {
		t.Fatal(err)
	}
	b := &functest.Table{C: e.c, ID: "tl-xg-b", Players: ps}
	if err := b.Call(ctx, "createGame", 0, map[string]any{"actionId": "create", "mode": "trustless"}, nil); err != nil {
		t.Fatal(err)
	}
	if err := b.Sync(ctx); err != nil {
		t.Fatal(err)
	}
	for i, s := range a.Seats {
		sec := s.Secrets()
		sec.GameID = b.ID
		twin, err := player.RestoreSeat(eng.Rules(), sec)
		if err != nil {
			t.Fatal(err)
		}
		if err := twin.Follow(b.Log); err != nil {
			t.Fatal(err)
		}
		b.Seats = append(b.Seats, twin)
		j, err := twin.Join(ps[i].Seat.Class, false, b.State.Version)
		if err != nil {
			t.Fatal(err)
		}
		if err := b.Call(ctx, "joinGame", i, map[string]any{"actionId": "join", "seat": i, "class": j.Class, "chainHead": j.ChainHead,
			"publicKey": j.PublicKey, "version": j.Version, "signature": j.Signature}, nil); err != nil {
			t.Fatal(err)
		}
		if err := b.Sync(ctx); err != nil {
			t.Fatal(err)
		}
	}
	unchanged := func(what string, version uint64) {
		t.Helper()
		if err := b.Sync(ctx); err != nil {
			t.Fatal(err)
		}
		staged, err := e.st.Staged(ctx, b.ID, 1)
		if err != nil {
			t.Fatal(err)
		}
		if b.State.Version != version || len(staged) != 0 {
			t.Fatalf("%s: B at version %d (was %d), %d staged", what, b.State.Version, version, len(staged))
		}
	}

	start := engine.Action{Kind: engine.ActStart, Actor: "p1", Version: a.State.Version}
	if err := a.Seats[0].Sign(&start); err != nil {
		t.Fatal(err)
	}
	v := b.State.Version
	err = b.Call(ctx, "startGame", 0, map[string]any{"actionId": "replayed", "version": start.Version, "signature": start.Signature}, nil)
	if engineCode(err) != string(engine.CodeBadSignature) {
		t.Fatalf("A's start in B: %v, want bad_signature", err)
	}
	unchanged("A's start in B", v)
	if err := a.Call(ctx, "startGame", 0, map[string]any{"actionId": "start", "version": start.Version, "signature": start.Signature}, nil); err != nil {
		t.Fatalf("A's start in A: %v", err)
	}
	if err := a.Sync(ctx); err != nil {
		t.Fatal(err)
	}
	if err := b.Act(ctx, 0, engine.Action{Kind: engine.ActStart}, "start"); err != nil {
		t.Fatal(err)
	}
	if err := b.Sync(ctx); err != nil {
		t.Fatal(err)
	}

	rv, err := a.Reveal(0)
	if err != nil {
		t.Fatal(err)
	}
	v = b.State.Version
	err = b.Call(ctx, "reveal", 0, functest.RevealData(rv, "replayed-r1"), nil)
	if engineCode(err) != string(engine.CodeWrongDigest) {
		t.Fatalf("A's reveal in B: %v, want wrong_digest", err)
	}
	moved := rv
	pd := b.State.Trustless.Pending
	moved.Digest, moved.Transcript = pd.Digest.String(), pd.Transcript.String()
	err = b.Call(ctx, "reveal", 0, functest.RevealData(moved, "replayed-moved"), nil)
	if engineCode(err) != string(engine.CodeBadSignature) {
		t.Fatalf("A's reveal in B over B's pending action: %v, want bad_signature", err)
	}
	unchanged("A's reveal in B", v)
	if err := a.SendReveal(ctx, 0, rv); err != nil {
		t.Fatalf("A's reveal in A: %v", err)
	}
}
