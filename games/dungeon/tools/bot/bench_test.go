package bot_test

import (
	"fmt"
	"testing"

	"github.com/fairboard/fairboard/audit"
	"github.com/fairboard/fairboard/games/dungeon/engine"
	"github.com/fairboard/fairboard/games/dungeon/policy"
	"github.com/fairboard/fairboard/games/dungeon/tools/bot"
	"github.com/fairboard/fairboard/rng"
)

func seats4() []bot.Seat {
	return []bot.Seat{{Class: engine.ClassWarrior, Policy: policy.Cautious{}}, {Class: engine.ClassMonk, Policy: policy.Aggressive{}},
		{Class: engine.ClassDuelist, Policy: policy.Aggressive{}}, {Class: engine.ClassScout, Policy: policy.Cautious{}}}
}

func TestPlayIsDeterministic(t *testing.T) {
	eng := engine.NewReference(engine.DefaultRules())
	r1, r2 := bot.NewRunner(eng), bot.NewRunner(eng)
	g1, _, err1 := r1.Play("det", seats4(), nil)
	g2, _, err2 := r2.Play("det", seats4(), audit.New())
	if err1 != nil || err2 != nil {
		t.Fatal(err1, err2)
	}
	h1, _ := g1.Hash()
	h2, _ := g2.Hash()
	if h1 != h2 || g1.Public.Winner == "" {
		t.Fatal("audit changed the game, or no winner")
	}
}

func benchGame(b *testing.B, withAudit bool) {
	eng := engine.NewReference(engine.DefaultRules())
	r := bot.NewRunner(eng)
	seats := seats4()
	seeds := make([]string, 1024)
	for i := range seeds {
		seeds[i] = fmt.Sprint("bench-", i)
	}
	rec := audit.New()
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		var aud rng.Auditor
		if withAudit {
			rec.Reset()
			aud = rec
		}
		if _, _, err := r.Play(seeds[i%len(seeds)], seats, aud); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkGame4P plays a whole 4-player bot game, audit off.
func BenchmarkGame4P(b *testing.B) { benchGame(b, false) }

// BenchmarkGame4PAudit is the same with an audit recorder.
func BenchmarkGame4PAudit(b *testing.B) { benchGame(b, true) }

// BenchmarkRollMovement dispatches one move action (roll, move, resolve
// the tile) on a fresh copy of a game in its moveOrSleep step.
func BenchmarkRollMovement(b *testing.B) {
	eng := engine.NewReference(engine.DefaultRules())
	r := bot.NewRunner(eng)
	r.MaxActions = 1
	base := &engine.Game{}
	s, _ := rng.NewSeeded("bench-move")
	_ = r.PlayGame(base, s, "bench-move", seats4())
	for base.Public.Step != engine.StepMoveOrSleep {
		a := seats4()[0].Policy.Choose(&base.Public, eng.Rules(), base.Public.Awaiting)
		if _, err := eng.Dispatch(base, &a, s, nil); err != nil {
			b.Fatal(err)
		}
	}
	state, _ := s.State()
	// Each dispatch needs a fresh copy of the game and its stream. Copies
	// are made in untimed batches: stopping the timer for every iteration
	// (which reads the memory statistics each time) made this benchmark run
	// for minutes.
	const batch = 256
	works := make([]*engine.Game, batch)
	streams := make([]*rng.Stream, batch)
	refill := func() {
		for j := range works {
			works[j] = base.Clone()
			streams[j], _ = rng.Restore(state, "", rng.WithSeq(s.Seq()))
		}
	}
	ev := make([]engine.Event, 0, 64)
	a := engine.Action{Kind: engine.ActMove, Actor: base.Public.Awaiting}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if i%batch == 0 {
			b.StopTimer()
			refill()
			b.StartTimer()
		}
		var err error
		if ev, err = eng.Dispatch(works[i%batch], &a, streams[i%batch], ev[:0]); err != nil {
			b.Fatal(err)
		}
	}
}
