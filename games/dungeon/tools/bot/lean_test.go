package bot_test

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/fairboard/fairboard/games/dungeon/engine"
	"github.com/fairboard/fairboard/games/dungeon/tools/bot"
)

// A lean runner plays the games a full one plays: the same final state but
// for what lean mode documents it leaves out (the shuffle records and the
// salts they reveal), and, of the log, exactly the full log's events of the
// kept types, seqs included. Fights reuse one another's memory in lean
// mode, so this also checks that no fight sees an old one's values.
func TestLeanRunnerPlaysTheSameGames(t *testing.T) {
	eng := engine.NewReference(engine.DefaultRules())
	keep := engine.EventsOf(engine.EvTurnStarted, engine.EvCombatEnded, engine.EvEnemySpawned,
		engine.EvDamageDealt, engine.EvGameFinished)
	full, lean := bot.NewRunner(eng), bot.NewRunner(eng)
	lean.Lean(keep)
	shuffled := false
	for i := range 60 {
		seed, seats := fmt.Sprint("lean-", i), seatsN(2+i%5, i)
		gf, evf, err := full.Play(seed, seats, nil)
		if err != nil {
			t.Fatal(err)
		}
		var want []engine.Event
		for _, e := range evf {
			if keep.Has(e.Type) {
				want = append(want, e)
			}
			shuffled = shuffled || e.Type == engine.EvDeckShuffled
		}
		wantLog := logJSON(want)
		if len(gf.Secret.Shuffles) == 0 || gf.Public.Fairness == nil || len(gf.Public.Fairness.Salts) == 0 {
			t.Fatalf("%s: the full game recorded no shuffle", seed)
		}
		gf.Secret.Shuffles, gf.Public.Fairness.Salts = nil, nil
		hf, err := gf.Hash()
		if err != nil {
			t.Fatal(err)
		}

		gl, evl, err := lean.Play(seed, seats, nil)
		if err != nil {
			t.Fatal(err)
		}
		if len(gl.Secret.Shuffles) != 0 || len(gl.Public.Fairness.Salts) != 0 {
			t.Fatalf("%s: a lean game recorded its shuffles", seed)
		}
		hl, err := gl.Hash()
		if err != nil {
			t.Fatal(err)
		}
		if hf != hl {
			t.Fatalf("%s (%d players): the lean game's final state differs from the full game's", seed, len(seats))
		}
		if !bytes.Equal(wantLog, logJSON(evl)) {
			t.Fatalf("%s: the lean log is not the full log's kept events", seed)
		}
	}
	if !shuffled {
		t.Fatal("no game shuffled a deck")
	}
}

// An empty set keeps no event, and a set has exactly the types put in it.
func TestEventSet(t *testing.T) {
	s := engine.EventsOf(engine.EvDiceRolled, engine.EvFairnessRevealed)
	for ty := engine.EvNone; ty <= engine.EvFairnessRevealed; ty++ {
		want := ty == engine.EvDiceRolled || ty == engine.EvFairnessRevealed
		if s.Has(ty) != want || engine.EventsOf().Has(ty) {
			t.Fatalf("%v: Has = %v, want %v", ty, s.Has(ty), want)
		}
	}
}
