package integration

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/fairboard/fairboard/functest"
	"github.com/fairboard/fairboard/functions/callable"
	"github.com/fairboard/fairboard/games/dungeon/engine"
	"github.com/fairboard/fairboard/internal/checks"
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
// (contention) is sent again, up to tries times, as a client does. It
// returns how many copies were answered as the reveal itself (not
// replayed), and what the others got that is neither a replay nor one of
// the refusals allowed (a copy still ABORTED after its tries among them,
// as aborted: the store's contention).
func copiesAtOnce(envs []*env, tb *functest.Table, i int, a engine.Action, n, tries int, distinct bool, allowed ...engine.Code) (firsts int, unnamed []string) {
	var mu sync.Mutex
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
			var res revealAnswer
			var err error
			for range tries {
				err = envs[k%len(envs)].c.Call(context.Background(), "reveal", tb.Players[i].Token, d, &res)
				if functest.Status(err) != string(callable.StatusAborted) {
					break
				}
			}
			mu.Lock()
			defer mu.Unlock()
			switch c := engineCode(err); {
			case functest.Status(err) == string(callable.StatusAborted):
				unnamed = append(unnamed, fmt.Sprintf("copy %d: aborted: still ABORTED after %d tries: %v", k, tries, err))
			case err != nil && !slices.Contains(allowed, engine.Code(c)):
				unnamed = append(unnamed, fmt.Sprintf("copy %d: %v (code %q), want an answer or one of %v", k, err, c, allowed))
			case err == nil && !res.Replayed:
				firsts++
			}
		})
	}
	close(gate)
	wg.Wait()
	return firsts, unnamed
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
// each, stage both seats. The positive control (8 action ids, the service's
// StagedOnce and the engine's RevealOnce off), as the service's: the
// staged copies end as the store's contention (ABORTED), which the test's
// answer check names; one is staged all the same (the staged document is
// the seat's, for the index) and the round closes once: the store keeps
// the copies out, and has no switch.
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
	// dup plays the two rounds of copies on a fresh game; off: the
	// once-checks are off (the positive control), and the staged copies
	// must end as the store's contention.
	dup := func(t *testing.T, id string, distinct, off bool) {
		tb := table(id)
		v := tb.State.Version
		if !off {
			if n, un := copiesAtOnce(envs, tb, 0, reveal(tb, 0), 8, 20, distinct, engine.CodeAlreadyRevealed); n != 1 || len(un) > 0 {
				t.Fatalf("%d copies were the reveal, want 1; %q", n, un)
			}
		} else {
			// Three tries each: a copy the store refuses stays ABORTED.
			n, un := copiesAtOnce(envs, tb, 0, reveal(tb, 0), 8, 3, distinct, engine.CodeAlreadyRevealed)
			if n != 1 || len(un) == 0 {
				t.Fatalf("with StagedOnce, RevealOnce off: %d copies were the reveal, %q refused unnamed; want 1, and the others refused by the store", n, un)
			}
			for _, u := range un {
				if !strings.Contains(u, ": aborted: ") {
					t.Fatalf("with StagedOnce, RevealOnce off: %s; want the store's contention", u)
				}
			}
			t.Logf("%d of 8 copies refused by the store alone: %s", len(un), un[0])
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
		if n, un := copiesAtOnce(envs, tb, 2, reveal(tb, 2), 8, 20, distinct, engine.CodeAlreadyRevealed, engine.CodeWrongIndex); n != 1 || len(un) > 0 {
			t.Fatalf("%d copies were the closing reveal, want 1; %q", n, un)
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
	}
	for _, distinct := range []bool{false, true} {
		t.Run(fmt.Sprint("distinctIDs=", distinct), func(t *testing.T) {
			dup(t, fmt.Sprint("tl-dup-", distinct), distinct, false)
		})
	}
	t.Run("distinctIDs=true without StagedOnce, RevealOnce", func(t *testing.T) {
		checks.Off(t, checks.StagedOnce)
		checks.Off(t, checks.RevealOnce)
		dup(t, "tl-dup-off", true, true)
	})
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
