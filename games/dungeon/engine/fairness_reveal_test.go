package engine_test

import (
	"encoding/hex"
	"fmt"
	"strings"
	"testing"

	"github.com/fairboard/fairboard/games/dungeon/engine"
	"github.com/fairboard/fairboard/rng"
)

// fairGame returns a fair-mode game in its lobby with the server seed and
// the players' contributions of rng/fair/testdata/vectors.json's fairStart
// (computed independently by gen.mjs): game seed 39bf7d93...
func fairGame() *engine.Game {
	g := &engine.Game{}
	g.Public.Phase, g.Public.RulesHash = engine.PhaseLobby, engine.DefaultRules().Hash()
	g.Public.RNG.Mode = rng.ModeFair
	g.Public.Fairness = &engine.Fairness{CommitmentHex: "d93d494f1e89ad415a5548a823cd7e7919a074b83741c0082fc71e5d07813452"}
	for i, c := range []engine.Class{engine.ClassWarrior, engine.ClassMonk, engine.ClassScout} {
		g.Public.Players = append(g.Public.Players, engine.Player{UID: fmt.Sprint("p", i+1), Seat: i, Class: c, HP: 10})
	}
	g.Secret.ServerSeed = "915d1dd2e112ca816581981851b2ca5b62616fb743490d519ebd8c454bc4fe3b"
	g.Secret.Entropy = []string{"a1b2c3d4", "", "0123456789abcdef"}
	return g
}

func TestFairGameSeed(t *testing.T) {
	g := fairGame()
	seed, err := g.FairGameSeed()
	if err != nil || hex.EncodeToString(seed[:]) != "39bf7d9323c6ed7c899c2fe17d5ed29cd843862acb1688a2d6b407d9680ba66c" {
		t.Fatalf("FairGameSeed = %x, %v; want gen.mjs's 39bf7d93...", seed, err)
	}
	for name, spoil := range map[string]func(g *engine.Game){
		"a seeded game":          func(g *engine.Game) { g.Public.RNG.Mode = rng.ModeSeeded },
		"a crypto game":          func(g *engine.Game) { g.Public.RNG.Mode = rng.ModeCrypto },
		"a short server seed":    func(g *engine.Game) { g.Secret.ServerSeed = g.Secret.ServerSeed[:62] },
		"no server seed":         func(g *engine.Game) { g.Secret.ServerSeed = "" },
		"a contribution short":   func(g *engine.Game) { g.Secret.Entropy = g.Secret.Entropy[:2] },
		"a contribution extra":   func(g *engine.Game) { g.Secret.Entropy = append(g.Secret.Entropy, "") },
		"a contribution not hex": func(g *engine.Game) { g.Secret.Entropy[1] = "zz" },
	} {
		g := fairGame()
		spoil(g)
		if seed, err := g.FairGameSeed(); err == nil {
			t.Errorf("%s: FairGameSeed = %x, want an error", name, seed)
		}
	}
}

func TestCheckFairMode(t *testing.T) {
	r := engine.DefaultRules()
	if err := fairGame().Check(r); err != nil {
		t.Fatalf("a fair game in its lobby: %v", err)
	}
	for _, c := range []struct {
		name  string
		spoil func(g *engine.Game)
		want  string
	}{
		{"a server seed that is not 64 hex digits", func(g *engine.Game) { g.Secret.ServerSeed = "abc" }, "fair mode: "},
		{"one contribution too few", func(g *engine.Game) { g.Secret.Entropy = g.Secret.Entropy[:2] }, "fair mode: 2 contributions for 3 players"},
		{"one contribution too many", func(g *engine.Game) { g.Secret.Entropy = append(g.Secret.Entropy, "") }, "fair mode: 4 contributions for 3 players"},
		{"no fairness record", func(g *engine.Game) { g.Public.Fairness = nil }, "fair mode: no commitment to the server seed"},
		{"no commitment", func(g *engine.Game) { g.Public.Fairness.CommitmentHex = "" }, "fair mode: no commitment to the server seed"},
		{"shuffle records out of order", func(g *engine.Game) {
			g.Secret.Shuffles = []engine.ShuffleRecord{{K: 0}, {K: 2}}
		}, "shuffle record 1 has k 2"},
	} {
		g := fairGame()
		c.spoil(g)
		err := g.Check(r)
		se, ok := err.(*engine.StateError)
		if !ok || len(se.Problems) != 1 || !strings.Contains(se.Problems[0], c.want) {
			t.Errorf("%s: Check = %v, want the one problem %q", c.name, err, c.want)
		}
	}
	g := fairGame()
	g.Secret.Shuffles = []engine.ShuffleRecord{{K: 0}, {K: 1}}
	if err := g.Check(r); err != nil {
		t.Errorf("shuffle records 0, 1: %v", err)
	}
}

// TestReveal: what each mode makes public at the end.
func TestReveal(t *testing.T) {
	shuffles := []engine.ShuffleRecord{
		{K: 0, Seq: 1, DeckID: "treasure.t1", Salt: engine.Hash32{1}},
		{K: 1, Seq: 9, DeckID: "chance", Salt: engine.Hash32{2}},
	}
	salts := []engine.SaltReveal{{K: 0, DeckID: "treasure.t1", Seq: 1, SaltHex: engine.Hash32{1}}, {K: 1, DeckID: "chance", Seq: 9, SaltHex: engine.Hash32{2}}}

	g := fairGame()
	g.Secret.GameSeed = "39bf7d9323c6ed7c899c2fe17d5ed29cd843862acb1688a2d6b407d9680ba66c"
	g.Secret.Shuffles = shuffles
	f := g.Reveal()
	switch {
	case f != g.Public.Fairness || !f.Revealed:
		t.Error("fair: Reveal does not fill the game's own record")
	case f.CommitmentHex != "d93d494f1e89ad415a5548a823cd7e7919a074b83741c0082fc71e5d07813452":
		t.Error("fair: the commitment was lost")
	case f.ServerSeedHex != g.Secret.ServerSeed || f.GameSeedHex != g.Secret.GameSeed || f.Seed != "":
		t.Errorf("fair: %+v", f)
	case strings.Join(f.ContributionsHex, ",") != "a1b2c3d4,,0123456789abcdef":
		t.Errorf("fair: contributions %q", f.ContributionsHex)
	case fmt.Sprint(f.Salts) != fmt.Sprint(salts):
		t.Errorf("fair: salts %v, want %v", f.Salts, salts)
	}
	// The revealed contributions are a copy, and a second Reveal does not
	// repeat the salts.
	g.Secret.Entropy[0] = "ff"
	if f.ContributionsHex[0] != "a1b2c3d4" {
		t.Error("the revealed contributions share the secret's memory")
	}
	if f2 := g.Reveal(); len(f2.Salts) != 2 {
		t.Errorf("a second Reveal has %d salts", len(f2.Salts))
	}

	s := &engine.Game{}
	s.Public.RNG.Mode = rng.ModeSeeded
	s.Secret.Seed = "seed-start-01"
	s.Secret.Shuffles = shuffles
	if f := s.Reveal(); !f.Revealed || f.Seed != "seed-start-01" || f.ServerSeedHex != "" || len(f.Salts) != 2 || f.CommitmentHex != "" {
		t.Errorf("seeded: %+v", f)
	}

	c := &engine.Game{}
	c.Public.RNG.Mode = rng.ModeCrypto
	c.Secret.ServerSeed = strings.Repeat("ab", 32)
	if f := c.Reveal(); !f.Revealed || f.Seed != "" || f.ServerSeedHex != "" || len(f.Salts) != 0 {
		t.Errorf("crypto with no shuffle: %+v", f)
	}

	// A reset game lends its record to the next game's NewFairness, empty.
	s.Reset()
	if nf := s.NewFairness(); nf.Revealed || nf.Seed != "" || len(nf.Salts) != 0 {
		t.Errorf("NewFairness after Reset: %+v", nf)
	}
	if nf := s.NewFairness(); nf == nil || nf.Revealed {
		t.Errorf("a second NewFairness: %+v", nf)
	}
}
