package bot_test

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/fairboard/fairboard/games/dungeon/engine"
	"github.com/fairboard/fairboard/games/dungeon/policy"
	"github.com/fairboard/fairboard/games/dungeon/tools/bot"
	"github.com/fairboard/fairboard/rng"
)

func seatsN(n, k int) []bot.Seat {
	out := make([]bot.Seat, n)
	for i := range out {
		var p policy.Policy = policy.Cautious{}
		if (i+k)%2 == 1 {
			p = policy.Aggressive{}
		}
		out[i] = bot.Seat{Class: engine.Classes[(i+k)%4], Policy: p}
	}
	return out
}

func logJSON(ev []engine.Event) []byte {
	var b []byte
	for i := range ev {
		b = ev[i].AppendJSON(b)
	}
	return b
}

// A runner reuses its game, buffers and dispatcher from game to game; the
// games must be exactly those of fresh runners, also when the number of
// players grows and shrinks between games (a reset game keeps old players'
// item lists, old decks' piles and the old turn order's memory).
func TestReusedRunnerEqualsFresh(t *testing.T) {
	eng := engine.NewReference(engine.DefaultRules())
	reused := bot.NewRunner(eng)
	for i := range 40 {
		seed, seats := fmt.Sprint("reuse-", i), seatsN(2+(i*3)%5, i)
		g1, ev1, err := reused.Play(seed, seats, nil)
		if err != nil {
			t.Fatal(err)
		}
		h1, _ := g1.Hash()
		log1 := logJSON(ev1)
		g2, ev2, err := bot.NewRunner(eng).Play(seed, seats, nil)
		if err != nil {
			t.Fatal(err)
		}
		h2, _ := g2.Hash()
		if h1 != h2 || !bytes.Equal(log1, logJSON(ev2)) {
			t.Fatalf("%s (%d players): the reused runner's game differs from a fresh one's", seed, len(seats))
		}
	}
}

// A dispatcher gives what Engine.Dispatch gives, action by action.
func TestDispatcherEqualsDispatch(t *testing.T) {
	eng := engine.NewReference(engine.DefaultRules())
	r := bot.NewRunner(eng)
	r.Record = true
	if _, _, err := r.Play("disp", seatsN(4, 1), nil); err != nil {
		t.Fatal(err)
	}
	acts := r.Actions()
	var ga, gb engine.Game
	sa, _ := rng.NewSeeded("disp")
	sb, _ := rng.NewSeeded("disp")
	d := eng.NewDispatcher()
	var la, lb []engine.Event
	for i := range acts {
		var err1, err2 error
		la, err1 = eng.Dispatch(&ga, &acts[i], sa, la[:0])
		lb, err2 = d.Dispatch(&gb, &acts[i], sb, lb[:0])
		if err1 != nil || err2 != nil || !bytes.Equal(logJSON(la), logJSON(lb)) {
			t.Fatalf("action %d: %v %v", i, err1, err2)
		}
	}
	ha, _ := ga.Hash()
	hb, _ := gb.Hash()
	if ha != hb || ga.Public.Phase != engine.PhaseFinished {
		t.Fatal("dispatcher and Dispatch end in different games")
	}
	// A rejection leaves the game as it was, through a dispatcher too.
	bad := engine.Action{Kind: engine.ActMove, Actor: "p1"}
	if _, err := d.Dispatch(&gb, &bad, sb, nil); err == nil {
		t.Fatal("a move after the end was accepted")
	}
	if h, _ := gb.Hash(); h != hb {
		t.Fatal("a rejected action changed the game")
	}
}

// Reset leaves a game whose JSON is the zero game's.
func TestResetIsZeroGame(t *testing.T) {
	eng := engine.NewReference(engine.DefaultRules())
	g, _, err := bot.NewRunner(eng).Play("reset", seatsN(5, 2), nil)
	if err != nil {
		t.Fatal(err)
	}
	g.Reset()
	got, _ := g.CanonicalJSON()
	want, _ := (&engine.Game{}).CanonicalJSON()
	if !bytes.Equal(got, want) || g.Public.Phase != engine.PhaseNone {
		t.Fatalf("after Reset: %s", got)
	}
}

// The policies allocate nothing per decision, and a whole game on a reused
// runner allocates only a few dozen times (a fight's Combat, a duel, the
// seeded stream, the game id): a guard against allocations creeping back
// into the engine's hot paths (there were 445 per game before).
func TestAllocations(t *testing.T) {
	if testing.Short() {
		t.Skip("allocation counts are measured in the full run")
	}
	eng := engine.NewReference(engine.DefaultRules())
	r := bot.NewRunner(eng)
	seats := seatsN(4, 0)
	g, _, err := r.Play("allocs", seats, nil)
	if err != nil {
		t.Fatal(err)
	}
	mid := g.Clone()
	mid.Public.Phase, mid.Public.Step = engine.PhasePlaying, engine.StepManage
	for _, st := range []engine.Step{engine.StepManage, engine.StepPreDuel, engine.StepMoveOrSleep, engine.StepCapacity} {
		mid.Public.Step = st
		for _, pol := range []policy.Policy{policy.Cautious{}, policy.Aggressive{}} {
			if n := testing.AllocsPerRun(100, func() { _ = pol.Choose(&mid.Public, eng.Rules(), "p1") }); n != 0 {
				t.Fatalf("%s allocates %.0f times per decision in step %s", pol.Name(), n, st)
			}
		}
	}
	i := 0
	n := testing.AllocsPerRun(20, func() {
		i++
		if _, _, err := r.Play(fmt.Sprint("allocs-", i), seats, nil); err != nil {
			t.Fatal(err)
		}
	})
	if n > 60 {
		t.Fatalf("a whole 4-player game allocates %.0f times; want at most 60", n)
	}
}
