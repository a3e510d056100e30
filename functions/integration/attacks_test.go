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
