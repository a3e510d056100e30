package reducers_test

import (
	"bytes"
	"fmt"
	"slices"
	"testing"

	"github.com/fairboard/fairboard/audit"
	"github.com/fairboard/fairboard/games/dungeon/engine"
	"github.com/fairboard/fairboard/games/dungeon/policy"
	"github.com/fairboard/fairboard/games/dungeon/reducers"
	"github.com/fairboard/fairboard/games/dungeon/server/session"
	"github.com/fairboard/fairboard/games/dungeon/tools/bot"
	"github.com/fairboard/fairboard/rng"
)

var rules = engine.DefaultRules()

func newEngine() *engine.Engine { return engine.New(rules, reducers.Table()) }

// mix returns the seats of game i: 2..6 players, every class mix over the
// seeds, both policies.
func mix(i int) []bot.Seat {
	n := 2 + i%5
	seats := make([]bot.Seat, n)
	for s := range seats {
		var p policy.Policy = policy.Cautious{}
		if (i+s)%2 == 1 {
			p = policy.Aggressive{}
		}
		seats[s] = bot.Seat{Class: engine.Classes[(i/5+s*(1+i%3))%4], Policy: p}
	}
	return seats
}

// checkInvariants: every card in exactly one place, HP in [0,max],
// positions on the board.
func checkInvariants(t *testing.T, g *engine.Game, where string) {
	t.Helper()
	seen := map[string]int{}
	for _, d := range g.Secret.Decks {
		for _, id := range d.Cards {
			seen[id]++
		}
	}
	for i, d := range g.Public.Decks {
		for _, id := range d.Discard {
			seen[id]++
		}
		if d.Size != len(g.Secret.Decks[i].Cards) {
			t.Fatalf("%s: deck %s size %d, has %d", where, d.ID, d.Size, len(g.Secret.Decks[i].Cards))
		}
	}
	for _, p := range g.Public.Players {
		for _, id := range p.Items {
			seen[id]++
		}
		if p.HP < 0 || p.HP > rules.MaxHP || p.Pos < 0 || p.Pos > rules.FinalTile() {
			t.Fatalf("%s: player %+v out of range", where, p)
		}
	}
	if c := g.Public.Combat; c != nil {
		for _, e := range c.Enemies {
			seen[e.CardID]++
		}
	}
	for _, c := range rules.Cards() {
		if seen[c.ID] != 1 {
			t.Fatalf("%s: card %s is in %d places", where, c.ID, seen[c.ID])
		}
	}
	if len(seen) != len(rules.Cards()) {
		t.Fatalf("%s: %d card ids, want %d", where, len(seen), len(rules.Cards()))
	}
}

func TestPropertiesOverSeeds(t *testing.T) {
	eng := newEngine()
	for i := range 300 {
		seed := fmt.Sprint("prop-", i)
		seats := mix(i)
		r := bot.NewRunner(eng)
		r.Record = true
		rec := audit.New(audit.KeepAll())
		g, events, err := r.Play(seed, seats, rec)
		if err != nil {
			t.Fatalf("%s: %v", seed, err)
		}
		checkInvariants(t, g, seed)
		p := &g.Public
		if p.Phase != engine.PhaseFinished || p.Winner == "" || p.Round > rules.RoundLimit {
			t.Fatalf("%s: phase %s winner %q round %d", seed, p.Phase, p.Winner, p.Round)
		}
		for j, e := range rec.All() {
			if e.Seq != uint64(j+1) {
				t.Fatalf("%s: audit %d has seq %d", seed, j, e.Seq)
			}
		}
		for j := range events {
			if events[j].Seq != uint64(j+1) {
				t.Fatalf("%s: event %d has seq %d", seed, j, events[j].Seq)
			}
		}
		if i%3 == 0 { // one process per action gives the same game, and every state passes Check
			restoreEqual(t, eng, seed, r.Actions(), g, events)
		}
	}
}

// restoreEqual replays the actions, each through JSON and a fresh stream,
// and compares the final state and log with the one-process game.
func restoreEqual(t *testing.T, eng *engine.Engine, seed string, actions []engine.Action, want *engine.Game, wantEv []engine.Event) {
	t.Helper()
	var g engine.Game
	var log []byte
	for i := range actions {
		var s *rng.Stream
		if i > 0 {
			var err error
			if s, err = session.Stream(&g); err != nil {
				t.Fatal(err)
			}
		}
		ev, err := eng.Dispatch(&g, &actions[i], s, nil)
		if err != nil {
			t.Fatalf("%s action %d: %v", seed, i, err)
		}
		for j := range ev {
			log = ev[j].AppendJSON(log)
		}
		if s != nil {
			g.SaveStream(s)
		}
		if err := g.Check(rules); err != nil {
			t.Fatalf("%s after action %d (%s): %v", seed, i, actions[i].Kind, err)
		}
		b, _ := g.CanonicalJSON()
		g = engine.Game{}
		if err := jsonUnmarshal(b, &g); err != nil {
			t.Fatal(err)
		}
	}
	var wantLog []byte
	for j := range wantEv {
		wantLog = wantEv[j].AppendJSON(wantLog)
	}
	w := want.Clone()
	// The one-process game has not saved its stream state; compare without it.
	g.Secret.RNGState, w.Secret.RNGState = "", ""
	a, _ := g.CanonicalJSON()
	b, _ := w.CanonicalJSON()
	if !bytes.Equal(a, b) || !bytes.Equal(log, wantLog) {
		t.Fatalf("%s: restore-per-action differs from one process", seed)
	}
}

func TestEveryClassMixFinishes(t *testing.T) {
	eng := newEngine()
	r := bot.NewRunner(eng)
	n := 0
	for a := range 4 {
		for b := range 4 {
			for c := range 4 {
				seats := []bot.Seat{{Class: engine.Classes[a], Policy: policy.Aggressive{}}, {Class: engine.Classes[b], Policy: policy.Cautious{}}, {Class: engine.Classes[c], Policy: policy.Aggressive{}}}
				g, _, err := r.Play(fmt.Sprint("mix-", a, b, c), seats, nil)
				if err != nil {
					t.Fatal(err)
				}
				checkInvariants(t, g, "mix")
				if !slices.ContainsFunc(g.Public.Players, func(p engine.Player) bool { return p.UID == g.Public.Winner }) {
					t.Fatalf("winner %q is not a player", g.Public.Winner)
				}
				n++
			}
		}
	}
	if n != 64 {
		t.Fatal(n)
	}
}
