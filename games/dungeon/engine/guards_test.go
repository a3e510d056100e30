package engine_test

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/fairboard/fairboard/games/dungeon/engine"
	"github.com/fairboard/fairboard/games/dungeon/policy"
	"github.com/fairboard/fairboard/rng"
)

// TestGuardsOnARealGame plays a whole seeded four-player game with the
// reference game's handlers. Before each legal action it sends the same
// action broken, once per check of Dispatch (a version ahead and behind,
// the last action's id, an unknown kind, a serverSeed off create, entropy
// off join, no stream, a stream one draw ahead, a crypto stream, an engine
// under another ruleset), and requires
// the check's code, the game byte for byte as it was (canonical JSON), the
// stream not moved and the caller's events untouched. Then it applies the
// legal action. Once the game is over every kind, by every player, is
// refused with game_over.
func TestGuardsOnARealGame(t *testing.T) {
	rules := engine.DefaultRules()
	eng := engine.NewReference(rules)
	other, err := engine.LoadRules(bytes.Replace(engine.DefaultRulesJSON(), []byte(`"maxHp": 10`), []byte(`"maxHp": 11`), 1))
	if err != nil {
		t.Fatal(err)
	}
	otherEng := engine.NewReference(other)

	g := &engine.Game{}
	s, err := rng.NewSeeded("guards")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	apply := func(a engine.Action) {
		t.Helper()
		n++
		a.ID, a.Version = fmt.Sprintf("a%d", n), g.Public.Version
		checkGuards(t, eng, otherEng, g, s, a)
		if _, err := eng.Dispatch(g, &a, s, nil); err != nil {
			t.Fatalf("action %d (%s by %s): %v", n, a.Kind, a.Actor, err)
		}
	}

	apply(engine.Action{Kind: engine.ActCreate, Actor: "p1", GameID: "guards", Mode: "seeded", Seed: "guards"})
	for i, c := range policy.DefaultClasses(4) {
		apply(engine.Action{Kind: engine.ActJoin, Actor: policy.UID(i), Seat: i, Class: c})
	}
	apply(engine.Action{Kind: engine.ActStart, Actor: "p1"})
	pol := policy.Aggressive{}
	for g.Public.Phase == engine.PhasePlaying {
		if n > 5000 {
			t.Fatal("the game did not finish in 5000 actions")
		}
		apply(pol.Choose(&g.Public, rules, g.Public.Awaiting))
	}
	if g.Public.Phase != engine.PhaseFinished {
		t.Fatalf("the game ended in phase %q", g.Public.Phase)
	}

	before, _ := g.CanonicalJSON()
	for _, k := range engine.ActionKinds {
		for i := range 4 {
			a := engine.Action{Kind: k, Actor: policy.UID(i), ID: "late", Version: g.Public.Version}
			if _, err := eng.Dispatch(g, &a, s, nil); !errors.Is(err, engine.CodeGameOver) {
				t.Errorf("%s by %s after the end: err = %v, want game_over", k, a.Actor, err)
			}
		}
	}
	if after, _ := g.CanonicalJSON(); !bytes.Equal(before, after) {
		t.Error("an action refused after the end changed the game")
	}
}

// TestGuardsNotCreated: every kind but create, on a game never created, is
// refused with not_created and leaves the zero game as it was.
func TestGuardsNotCreated(t *testing.T) {
	eng := engine.NewReference(engine.DefaultRules())
	s, _ := rng.NewSeeded("x")
	zero, _ := (&engine.Game{}).CanonicalJSON()
	for _, k := range engine.ActionKinds[1:] {
		g := &engine.Game{}
		if _, err := eng.Dispatch(g, &engine.Action{Kind: k, Actor: "p1"}, s, nil); !errors.Is(err, engine.CodeNotCreated) {
			t.Errorf("%s on a zero game: err = %v, want not_created", k, err)
		}
		if got, _ := g.CanonicalJSON(); !bytes.Equal(got, zero) {
			t.Errorf("%s on a zero game changed it: %s", k, got)
		}
	}
	if s.Seq() != 0 {
		t.Errorf("the stream moved to seq %d", s.Seq())
	}
}

// checkGuards sends a broken once per check of Dispatch and requires each
// to be refused with its code and to change nothing.
func checkGuards(t *testing.T, eng, otherEng *engine.Engine, g *engine.Game, s *rng.Stream, a engine.Action) {
	t.Helper()
	p := &g.Public
	type variant struct {
		name string
		code engine.Code
		eng  *engine.Engine
		a    engine.Action
		s    *rng.Stream
	}
	with := func(f func(*engine.Action)) engine.Action { b := a; f(&b); return b }
	vs := []variant{
		{"version ahead", engine.CodeStaleVersion, eng, with(func(b *engine.Action) { b.Version = p.Version + 1 }), s},
	}
	if a.Kind == engine.ActCreate {
		// Before create, any other kind is not_created, unknown ones too.
		vs = append(vs, variant{"unknown kind before create", engine.CodeNotCreated, eng, with(func(b *engine.Action) { b.Kind = "teleport" }), s})
	} else {
		vs = append(vs, variant{"unknown kind", engine.CodeInvalidAction, eng, with(func(b *engine.Action) { b.Kind = "teleport" }), s})
	}
	if p.Version > 1 {
		vs = append(vs, variant{"version behind", engine.CodeStaleVersion, eng, with(func(b *engine.Action) { b.Version = p.Version - 1 }), s})
	}
	if p.LastActionID != "" {
		vs = append(vs, variant{"the last action's id", engine.CodeDuplicateAction, eng, with(func(b *engine.Action) { b.ID = p.LastActionID }), s})
	}
	if a.Kind != engine.ActCreate {
		vs = append(vs, variant{"a serverSeed off create", engine.CodeInvalidAction, eng, with(func(b *engine.Action) { b.ServerSeed = strings.Repeat("ab", 32) }), s})
	}
	if a.Kind != engine.ActJoin && a.Kind != engine.ActCreate {
		vs = append(vs, variant{"entropy off join", engine.CodeInvalidAction, eng, with(func(b *engine.Action) { b.Entropy = "ab" }), s})
	}
	if a.Kind != engine.ActCreate {
		ahead, _ := rng.NewSeeded("guards", rng.WithSeq(p.RNG.Seq+1))
		vs = append(vs,
			variant{"no stream", engine.CodeBadStream, eng, a, nil},
			variant{"a stream one draw ahead", engine.CodeBadStream, eng, a, ahead},
			variant{"a crypto stream", engine.CodeBadStream, eng, a, rng.NewCrypto(rng.WithSeq(p.RNG.Seq))},
			variant{"another ruleset", engine.CodeRulesMismatch, otherEng, a, s},
		)
	}
	before, err := g.CanonicalJSON()
	if err != nil {
		t.Fatal(err)
	}
	state, _ := s.State()
	seq := s.Seq()
	for _, v := range vs {
		out := []engine.Event{{Seq: 99, Type: engine.EvRoundEnded, Round: 7}}
		ev, err := v.eng.Dispatch(g, &v.a, v.s, out)
		if !errors.Is(err, v.code) {
			t.Fatalf("version %d, %s by %s, %s: err = %v, want %s", p.Version, a.Kind, a.Actor, v.name, err, v.code)
		}
		if len(ev) != 1 || ev[0].Round != 7 {
			t.Fatalf("version %d, %s: the events changed: %+v", p.Version, v.name, ev)
		}
		if after, _ := g.CanonicalJSON(); !bytes.Equal(before, after) {
			t.Fatalf("version %d, %s by %s, %s: the game changed:\n before %s\n after  %s", p.Version, a.Kind, a.Actor, v.name, before, after)
		}
		if st, _ := s.State(); st != state || s.Seq() != seq {
			t.Fatalf("version %d, %s: the stream moved", p.Version, v.name)
		}
	}
}
