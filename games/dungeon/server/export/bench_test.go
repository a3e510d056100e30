package export_test

import (
	"testing"

	"github.com/fairboard/fairboard/games/dungeon/engine"
	"github.com/fairboard/fairboard/games/dungeon/server/export"
	"github.com/fairboard/fairboard/games/dungeon/server/session"
	"github.com/fairboard/fairboard/rng"
)

// BenchmarkVerify4PFair verifies a whole 4-player fair game from its
// export's bytes: decoding, the seed checks, the replay with every event
// compared, the shuffles opened and the draws followed (target: < 5 ms).
func BenchmarkVerify4PFair(b *testing.B) {
	data := encode(b, game(b, rng.ModeFair, 4))
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := export.Verify(data); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkVerify4PSeeded is the same for a seeded game.
func BenchmarkVerify4PSeeded(b *testing.B) {
	data := encode(b, game(b, rng.ModeSeeded, 4))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := export.Verify(data); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkReplay4PFair is the baseline of BenchmarkVerify4PFair: the same
// game's actions replayed through the engine as a server applies them (a
// stream rebuilt from the game before each), with no decoding and no check.
func BenchmarkReplay4PFair(b *testing.B) {
	x := game(b, rng.ModeFair, 4)
	eng := engine.NewReference(engine.DefaultRules())
	acts := make([]engine.Action, len(x.Actions))
	for i, a := range x.Actions {
		acts[i] = engine.Action{Kind: a.Kind, Actor: a.Actor, Mode: a.Mode, Seat: a.Seat, Class: a.Class,
			Entropy: a.Entropy, Target: a.Target, CardID: a.CardID, GameID: a.GameID}
	}
	acts[0].ServerSeed = x.Fairness.ServerSeedHex
	disp := eng.NewDispatcher()
	var buf []engine.Event
	b.ReportAllocs()
	for b.Loop() {
		g := &engine.Game{}
		for i := range acts {
			var s *rng.Stream
			if i > 0 {
				var err error
				if s, err = session.Stream(g); err != nil {
					b.Fatal(err)
				}
			}
			ev, err := disp.Dispatch(g, &acts[i], s, buf[:0])
			if err != nil {
				b.Fatal(err)
			}
			buf = ev
			if s != nil {
				_ = g.SaveStream(s)
			}
		}
		if g.Public.Phase != engine.PhaseFinished {
			b.Fatal("the replay did not finish")
		}
	}
}
