package engine_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/fairboard/fairboard/games/dungeon/engine"
	"github.com/fairboard/fairboard/games/dungeon/policy"
	"github.com/fairboard/fairboard/rng"
)

// snapshots plays seeded bot games until it has seen a game in each kind of
// state Check distinguishes, and returns a copy of the first of each:
// "lobby", "manage" (in play, no fight), "combat", "duel", "bracket" and
// "finished". Every state of every game played must pass Check.
func snapshots(t *testing.T) map[string]*engine.Game {
	t.Helper()
	rules := engine.DefaultRules()
	eng := engine.NewReference(rules)
	snap := map[string]*engine.Game{}
	want := []string{"lobby", "manage", "combat", "duel", "bracket", "finished"}
	for seed := 0; seed < 200 && len(snap) < len(want); seed++ {
		g := &engine.Game{}
		s, _ := rng.NewSeeded(fmt.Sprint("check-", seed))
		do := func(a engine.Action) {
			t.Helper()
			if _, err := eng.Dispatch(g, &a, s, nil); err != nil {
				t.Fatalf("seed %d: %s: %v", seed, a.Kind, err)
			}
			if err := g.Check(rules); err != nil {
				t.Fatalf("seed %d, after %s: a state the engine made fails Check: %v", seed, a.Kind, err)
			}
			p := &g.Public
			kind := ""
			switch {
			case p.Phase == engine.PhaseLobby && len(p.Players) == 4:
				kind = "lobby"
			case p.Phase == engine.PhaseFinished:
				kind = "finished"
			case p.Step == engine.StepManage:
				kind = "manage"
			case p.Step == engine.StepCombat:
				kind = "combat"
			case p.Step == engine.StepDuel:
				kind = "duel"
			case p.Step == engine.StepBracket:
				kind = "bracket"
			}
			if _, ok := snap[kind]; kind != "" && !ok {
				snap[kind] = g.Clone()
			}
		}
		do(engine.Action{Kind: engine.ActCreate, Actor: "p1", GameID: "check", Mode: "seeded", Seed: fmt.Sprint("check-", seed)})
		for i, c := range policy.DefaultClasses(4) {
			do(engine.Action{Kind: engine.ActJoin, Actor: policy.UID(i), Seat: i, Class: c})
		}
		do(engine.Action{Kind: engine.ActStart, Actor: "p1"})
		pol := policy.Aggressive{}
		for n := 0; g.Public.Phase == engine.PhasePlaying; n++ {
			if n > 5000 {
				t.Fatalf("seed %d did not finish", seed)
			}
			do(pol.Choose(&g.Public, rules, g.Public.Awaiting))
		}
	}
	for _, k := range want {
		if snap[k] == nil {
			t.Fatalf("no game of 200 reached a %s state", k)
		}
	}
	return snap
}

// checkCase breaks one invariant of a base state. want is a piece of the
// one problem Check must name ("" for a change Check must accept, at the
// edge of what is allowed).
type checkCase struct {
	base   string
	name   string
	change func(g *engine.Game, r *engine.Ruleset)
	want   string
}

// twoProblems are the changes that cannot break one invariant alone: the
// second problem Check must also name.
var twoProblems = map[string]string{
	"too many players":                 "seat 6 out of range", // seats are 0..5
	"current not seated":               "is not the turn order's",
	"a combat outside the combat step": "0 enemies",
	"a card the ruleset does not have": "71 card ids in play, the ruleset has 70",
}

func TestCheckNamesEachProblem(t *testing.T) {
	r := engine.DefaultRules()
	snap := snapshots(t)
	pl := func(g *engine.Game, i int) *engine.Player { return &g.Public.Players[i] }
	// moveCard moves the first card of draw pile from to the top of to.
	moveCard := func(g *engine.Game, from, to int) {
		sd := g.Secret.Decks
		id := sd[from].Cards[0]
		sd[from].Cards = sd[from].Cards[1:]
		sd[to].Cards = append([]string{id}, sd[to].Cards...)
		g.Public.Decks[from].Size--
		g.Public.Decks[to].Size++
	}
	cases := []checkCase{
		// The phases and the header.
		{"lobby", "unknown phase", func(g *engine.Game, r *engine.Ruleset) { g.Public.Phase = "paused" }, `unknown phase "paused"`},
		{"lobby", "another ruleset", func(g *engine.Game, r *engine.Ruleset) { g.Public.RulesHash = "abc" }, `made under ruleset "abc"`},
		{"lobby", "seed not UTF-8", func(g *engine.Game, r *engine.Ruleset) { g.Secret.Seed = "\xff" }, "the seed is not valid UTF-8"},
		{"lobby", "a crypto game", func(g *engine.Game, r *engine.Ruleset) { g.Public.RNG.Mode = rng.ModeCrypto; g.Secret.Seed = "" }, ""},
		{"lobby", "unknown rng mode", func(g *engine.Game, r *engine.Ruleset) { g.Public.RNG.Mode = "dice" }, `unknown rng mode "dice"`},
		{"lobby", "decks in the lobby", func(g *engine.Game, r *engine.Ruleset) { g.Public.Decks = snap["manage"].Clone().Public.Decks }, "a game in its lobby has decks or a turn order"},
		{"lobby", "secret decks in the lobby", func(g *engine.Game, r *engine.Ruleset) { g.Secret.Decks = snap["manage"].Clone().Secret.Decks }, "a game in its lobby has decks"},
		{"lobby", "a turn order in the lobby", func(g *engine.Game, r *engine.Ruleset) { g.Public.Order = []string{"p1"} }, "a game in its lobby has decks or a turn order"},

		// Players.
		{"lobby", "empty uid", func(g *engine.Game, r *engine.Ruleset) { pl(g, 1).UID = "" }, `player 1: empty or repeated uid ""`},
		{"lobby", "repeated uid", func(g *engine.Game, r *engine.Ruleset) { pl(g, 1).UID = "p1" }, `player 1: empty or repeated uid "p1"`},
		{"lobby", "negative seat", func(g *engine.Game, r *engine.Ruleset) { pl(g, 0).Seat = -1 }, "player p1: seat -1 out of range"},
		{"lobby", "seat past the ruleset", func(g *engine.Game, r *engine.Ruleset) { pl(g, 3).Seat = r.MaxPlayers }, "player p4: seat 6 out of range"},
		{"lobby", "the last seat", func(g *engine.Game, r *engine.Ruleset) { pl(g, 3).Seat = r.MaxPlayers - 1 }, ""},
		{"lobby", "a seat taken twice", func(g *engine.Game, r *engine.Ruleset) { pl(g, 2).Seat = 1 }, "player p3: seat 1 out of range or taken twice"},
		{"lobby", "unknown class", func(g *engine.Game, r *engine.Ruleset) { pl(g, 0).Class = "bard" }, `player p1: unknown class "bard"`},
		{"lobby", "HP below 0", func(g *engine.Game, r *engine.Ruleset) { pl(g, 0).HP = -1 }, "player p1: HP -1 outside 0..10"},
		{"lobby", "HP 0", func(g *engine.Game, r *engine.Ruleset) { pl(g, 0).HP = 0 }, ""},
		{"lobby", "HP at the maximum", func(g *engine.Game, r *engine.Ruleset) { pl(g, 0).HP = r.MaxHP }, ""},
		{"lobby", "HP past the maximum", func(g *engine.Game, r *engine.Ruleset) { pl(g, 0).HP = r.MaxHP + 1 }, "player p1: HP 11 outside 0..10"},
		{"lobby", "position below 0", func(g *engine.Game, r *engine.Ruleset) { pl(g, 1).Pos = -1 }, "player p2: position -1 off the board"},
		{"lobby", "the final tile", func(g *engine.Game, r *engine.Ruleset) { pl(g, 1).Pos = r.FinalTile() }, ""},
		{"lobby", "past the final tile", func(g *engine.Game, r *engine.Ruleset) { pl(g, 1).Pos = r.FinalTile() + 1 }, "player p2: position 36 off the board"},
		{"lobby", "too many players", func(g *engine.Game, r *engine.Ruleset) {
			for i := 4; i <= r.MaxPlayers; i++ {
				g.Public.Players = append(g.Public.Players, engine.Player{UID: fmt.Sprint("q", i), Seat: i, Class: engine.ClassMonk, HP: 5})
			}
		}, "7 players, the ruleset allows 6"},
		{"lobby", "as many players as the ruleset allows", func(g *engine.Game, r *engine.Ruleset) {
			for i := 4; i < r.MaxPlayers; i++ { // seats 4 and 5: six players
				g.Public.Players = append(g.Public.Players, engine.Player{UID: fmt.Sprint("q", i), Seat: i, Class: engine.ClassMonk, HP: 5})
			}
		}, ""},
		{"manage", "a held chance card", func(g *engine.Game, r *engine.Ruleset) {
			id := g.Secret.Decks[engine.DeckChance].Cards[0]
			pl(g, 0).Items = append(pl(g, 0).Items, id)
			g.Secret.Decks[engine.DeckChance].Cards = g.Secret.Decks[engine.DeckChance].Cards[1:]
			g.Public.Decks[engine.DeckChance].Size--
		}, "which is not a treasure card"},
		{"manage", "a held enemy card", func(g *engine.Game, r *engine.Ruleset) {
			d := engine.EnemyDeck(1)
			id := g.Secret.Decks[d].Cards[0]
			pl(g, 0).Items = append(pl(g, 0).Items, id)
			g.Secret.Decks[d].Cards = g.Secret.Decks[d].Cards[1:]
			g.Public.Decks[d].Size--
		}, "which is not a treasure card"},
		{"manage", "a held treasure card", func(g *engine.Game, r *engine.Ruleset) {
			d := engine.TreasureDeck(3)
			id := g.Secret.Decks[d].Cards[0]
			pl(g, 0).Items = append(pl(g, 0).Items, id)
			g.Secret.Decks[d].Cards = g.Secret.Decks[d].Cards[1:]
			g.Public.Decks[d].Size--
		}, ""},

		// Cards and decks.
		{"manage", "a deck missing", func(g *engine.Game, r *engine.Ruleset) { g.Public.Decks = g.Public.Decks[:6] }, "6 public and 7 secret decks, want 7"},
		{"manage", "a secret deck missing", func(g *engine.Game, r *engine.Ruleset) { g.Secret.Decks = g.Secret.Decks[:6] }, "7 public and 6 secret decks, want 7"},
		{"manage", "decks out of order", func(g *engine.Game, r *engine.Ruleset) { g.Public.Decks[0].ID = "treasure.t2" }, `deck 0 is "treasure.t2"/"treasure.t1", want "treasure.t1"`},
		{"manage", "secret deck misnamed", func(g *engine.Game, r *engine.Ruleset) { g.Secret.Decks[3].ID = "luck" }, `deck 3 is "chance"/"luck", want "chance"`},
		{"manage", "size off by one", func(g *engine.Game, r *engine.Ruleset) { g.Public.Decks[3].Size++ }, "deck chance: size"},
		{"manage", "a card in another deck", func(g *engine.Game, r *engine.Ruleset) { moveCard(g, engine.DeckTreasureT1, engine.DeckTreasureT2) }, "the draw pile of treasure.t2 holds"},
		{"manage", "a card in another discard pile", func(g *engine.Game, r *engine.Ruleset) {
			sd := g.Secret.Decks[engine.DeckChance]
			g.Public.Decks[engine.DeckEnemyT1].Discard = append(g.Public.Decks[engine.DeckEnemyT1].Discard, sd.Cards[0])
			g.Secret.Decks[engine.DeckChance].Cards = sd.Cards[1:]
			g.Public.Decks[engine.DeckChance].Size--
		}, "the discard pile of enemy.t1 holds"},
		{"manage", "a card in two places", func(g *engine.Game, r *engine.Ruleset) {
			sd := &g.Secret.Decks[engine.DeckChance]
			g.Public.Decks[engine.DeckChance].Discard = append(g.Public.Decks[engine.DeckChance].Discard, sd.Cards[0])
		}, "is in 2 places, want exactly 1"},
		{"manage", "a card lost", func(g *engine.Game, r *engine.Ruleset) {
			sd := &g.Secret.Decks[engine.DeckChance]
			sd.Cards = sd.Cards[1:]
			g.Public.Decks[engine.DeckChance].Size--
		}, "is in 0 places, want exactly 1"},
		{"manage", "a card the ruleset does not have", func(g *engine.Game, r *engine.Ruleset) {
			g.Public.Decks[engine.DeckChance].Discard = append(g.Public.Decks[engine.DeckChance].Discard, "chance-meteor-1")
		}, `the discard pile of chance holds "chance-meteor-1", which is not one of its cards`},

		// The turn.
		{"manage", "order names a stranger", func(g *engine.Game, r *engine.Ruleset) { g.Public.Order[3] = "zz" }, `turn order names "zz" twice or not seated`},
		{"manage", "order names a player twice", func(g *engine.Game, r *engine.Ruleset) {
			o := g.Public.Order
			o[len(o)-1] = o[0]
			if g.Public.Current == "" || g.Public.TurnIndex == len(o)-1 {
				t.Skip("the snapshot's current player is the last in the order")
			}
		}, "twice or not seated"},
		{"manage", "order too short", func(g *engine.Game, r *engine.Ruleset) {
			p := &g.Public
			// Drop the last player of the order who is not current.
			for i := len(p.Order) - 1; i >= 0; i-- {
				if i != p.TurnIndex {
					p.Order = append(p.Order[:i:i], p.Order[i+1:]...)
					if i < p.TurnIndex {
						p.TurnIndex--
					}
					return
				}
			}
		}, "turn order of 3 for 4 players"},
		{"manage", "turn index below 0", func(g *engine.Game, r *engine.Ruleset) { g.Public.TurnIndex = -1 }, "turn index -1 outside the order of 4"},
		{"manage", "turn index past the order", func(g *engine.Game, r *engine.Ruleset) { g.Public.TurnIndex = 5 }, "turn index 5 outside the order of 4"},
		{"manage", "turn index at the end with a current player", func(g *engine.Game, r *engine.Ruleset) { g.Public.TurnIndex = 4 }, "turn index past the order but"},
		{"manage", "current not the order's", func(g *engine.Game, r *engine.Ruleset) {
			p := &g.Public
			p.TurnIndex = (p.TurnIndex + 1) % len(p.Order)
		}, "is not the turn order's"},
		{"manage", "current not seated", func(g *engine.Game, r *engine.Ruleset) { g.Public.Current = "zz" }, `"zz" is named but not seated`},
		{"manage", "awaiting not seated", func(g *engine.Game, r *engine.Ruleset) { g.Public.Awaiting = "zz" }, `"zz" is named but not seated`},
		{"manage", "winner not seated", func(g *engine.Game, r *engine.Ruleset) { g.Public.Winner = "zz" }, `"zz" is named but not seated`},
		{"manage", "round 0", func(g *engine.Game, r *engine.Ruleset) { g.Public.Round = 0 }, "round 0 outside 1..40"},
		{"manage", "the last round", func(g *engine.Game, r *engine.Ruleset) { g.Public.Round = r.RoundLimit }, ""},
		{"manage", "round past the limit", func(g *engine.Game, r *engine.Ruleset) { g.Public.Round = r.RoundLimit + 1 }, "round 41 outside 1..40"},
		{"manage", "unknown step", func(g *engine.Game, r *engine.Ruleset) { g.Public.Step = "nap" }, `unknown step "nap"`},
		{"manage", "awaiting no one", func(g *engine.Game, r *engine.Ruleset) { g.Public.Awaiting = "" }, "a game in play awaits no one"},
		{"finished", "a finished game awaits no one", func(g *engine.Game, r *engine.Ruleset) { g.Public.Awaiting = "" }, ""},

		// Fights.
		{"manage", "a combat outside the combat step", func(g *engine.Game, r *engine.Ruleset) {
			g.Public.Combat = &engine.Combat{ID: "c9", UID: "p1", Tier: 1, Enemies: []engine.Enemy{}}
		}, "combat in progress true in step"},
		{"combat", "the combat step without a combat", func(g *engine.Game, r *engine.Ruleset) {
			for _, e := range g.Public.Combat.Enemies { // back to the top of their decks
				k := r.Card(e.CardID)
				g.Secret.Decks[k.Deck].Cards = append(g.Secret.Decks[k.Deck].Cards, e.CardID)
				g.Public.Decks[k.Deck].Size++
			}
			g.Public.Combat = nil
		}, `combat in progress false in step "combat"`},
		{"combat", "combat by a stranger", func(g *engine.Game, r *engine.Ruleset) { g.Public.Combat.UID = "zz" }, `player "zz"`},
		{"combat", "combat tier 0", func(g *engine.Game, r *engine.Ruleset) { g.Public.Combat.Tier = 0 }, "tier 0"},
		{"combat", "combat tier 4", func(g *engine.Game, r *engine.Ruleset) { g.Public.Combat.Tier = 4 }, "tier 4"},
		{"combat", "combat tier 3", func(g *engine.Game, r *engine.Ruleset) { g.Public.Combat.Tier = 3 }, ""},
		{"combat", "combat tier 1", func(g *engine.Game, r *engine.Ruleset) { g.Public.Combat.Tier = 1 }, ""},
		{"combat", "a negative round", func(g *engine.Game, r *engine.Ruleset) { g.Public.Combat.Round = -1 }, "round -1"},
		{"combat", "round 0", func(g *engine.Game, r *engine.Ruleset) { g.Public.Combat.Round = 0 }, ""},
		{"combat", "too many enemies", func(g *engine.Game, r *engine.Ruleset) {
			cb := g.Public.Combat
			for len(cb.Enemies) <= engine.MaxEnemies {
				d := engine.EnemyDeck(1)
				cb.Enemies = append(cb.Enemies, engine.Enemy{CardID: g.Secret.Decks[d].Cards[0], Tier: 1, HP: 1})
				g.Secret.Decks[d].Cards = g.Secret.Decks[d].Cards[1:]
				g.Public.Decks[d].Size--
			}
		}, "9 enemies"},
		{"combat", "as many enemies as a composition may spawn", func(g *engine.Game, r *engine.Ruleset) {
			cb := g.Public.Combat
			for len(cb.Enemies) < engine.MaxEnemies { // 8
				d := engine.EnemyDeck(1)
				cb.Enemies = append(cb.Enemies, engine.Enemy{CardID: g.Secret.Decks[d].Cards[0], Tier: 1, HP: 1})
				g.Secret.Decks[d].Cards = g.Secret.Decks[d].Cards[1:]
				g.Public.Decks[d].Size--
			}
		}, ""},
		{"combat", "an enemy that is a treasure", func(g *engine.Game, r *engine.Ruleset) {
			cb := g.Public.Combat
			d := engine.TreasureDeck(1)
			cb.Enemies = append(cb.Enemies, engine.Enemy{CardID: g.Secret.Decks[d].Cards[0], Tier: 1, HP: 1})
			g.Secret.Decks[d].Cards = g.Secret.Decks[d].Cards[1:]
			g.Public.Decks[d].Size--
		}, "is not a live enemy card"},
		{"combat", "an enemy with negative HP", func(g *engine.Game, r *engine.Ruleset) { g.Public.Combat.Enemies[0].HP = -1 }, "(HP -1) is not a live enemy card"},
		{"combat", "a dead enemy", func(g *engine.Game, r *engine.Ruleset) { g.Public.Combat.Enemies[0].HP = 0 }, ""},
		{"manage", "a duel outside the duel step", func(g *engine.Game, r *engine.Ruleset) {
			g.Public.Duel = &engine.Duel{ID: "d9", Challenger: "p1", Target: "p2"}
		}, "duel in progress true in step"},
		{"duel", "the duel step without a duel", func(g *engine.Game, r *engine.Ruleset) { g.Public.Duel = nil }, `duel in progress false in step "duel"`},
		{"duel", "a duel with oneself", func(g *engine.Game, r *engine.Ruleset) { d := g.Public.Duel; d.Target = d.Challenger }, "duel d"},
		{"duel", "a challenger not seated", func(g *engine.Game, r *engine.Ruleset) { g.Public.Duel.Challenger = "zz" }, `"zz" against`},
		{"duel", "a target not seated", func(g *engine.Game, r *engine.Ruleset) { g.Public.Duel.Target = "zz" }, `against "zz"`},
		{"duel", "a negative round", func(g *engine.Game, r *engine.Ruleset) { g.Public.Duel.Round = -1 }, "round -1"},
		{"duel", "the last round", func(g *engine.Game, r *engine.Ruleset) { g.Public.Duel.Round = r.DuelRounds }, ""},
		{"duel", "a round past the last", func(g *engine.Game, r *engine.Ruleset) { g.Public.Duel.Round = r.DuelRounds + 1 }, "round 4"},
		{"manage", "a bracket before the end", func(g *engine.Game, r *engine.Ruleset) {
			g.Public.Bracket = &engine.Bracket{Finalists: []string{"p1", "p2"}, Champion: "p1", Next: 1}
		}, "bracket in progress true in step"},
		{"bracket", "the bracket step without a bracket", func(g *engine.Game, r *engine.Ruleset) { g.Public.Bracket = nil }, `bracket in progress false in step "bracket"`},
		{"bracket", "one finalist", func(g *engine.Game, r *engine.Ruleset) {
			b := g.Public.Bracket
			b.Finalists, b.Champion, b.Next = b.Finalists[:1], b.Finalists[0], 1
		}, "bracket: finalists"},
		{"bracket", "next 0", func(g *engine.Game, r *engine.Ruleset) { g.Public.Bracket.Next = 0 }, "next 0"},
		{"bracket", "next past the finalists", func(g *engine.Game, r *engine.Ruleset) {
			b := g.Public.Bracket
			b.Next = len(b.Finalists) + 1
		}, "bracket: finalists"},
		{"bracket", "next at the end", func(g *engine.Game, r *engine.Ruleset) {
			b := g.Public.Bracket
			b.Next = len(b.Finalists)
		}, ""},
		{"bracket", "a finalist not seated", func(g *engine.Game, r *engine.Ruleset) {
			b := g.Public.Bracket
			b.Finalists = append(b.Finalists, "zz")
		}, "bracket: finalists"},
		{"bracket", "a champion who is not a finalist", func(g *engine.Game, r *engine.Ruleset) { g.Public.Bracket.Champion = "zz" }, `champion "zz"`},
	}
	for _, c := range cases {
		t.Run(c.base+"/"+c.name, func(t *testing.T) {
			g := snap[c.base].Clone()
			c.change(g, r)
			err := g.Check(r)
			if c.want == "" {
				if err != nil {
					t.Fatalf("Check refused a state at the edge of the allowed: %v", err)
				}
				return
			}
			se, ok := err.(*engine.StateError)
			if !ok {
				t.Fatalf("Check = %v, want a *StateError naming %q", err, c.want)
			}
			want := []string{c.want}
			if also, ok := twoProblems[c.name]; ok {
				want = append(want, also)
			}
			if len(se.Problems) != len(want) {
				t.Fatalf("problems %q, want %d naming %q", se.Problems, len(want), want)
			}
			for _, w := range want {
				if !strings.Contains(err.Error(), w) {
					t.Fatalf("problems %q do not name %q", se.Problems, w)
				}
			}
			if !strings.Contains(err.Error(), "engine: inconsistent game state:\n  "+se.Problems[0]) {
				t.Fatalf("Error() = %q", err.Error())
			}
		})
	}
}

// TestCheckGamesNotCreated: the zero game passes; a game not created that
// holds players or decks does not.
func TestCheckGamesNotCreated(t *testing.T) {
	r := engine.DefaultRules()
	if err := (&engine.Game{}).Check(r); err != nil {
		t.Fatalf("the zero game: %v", err)
	}
	for name, g := range map[string]*engine.Game{
		"players":      {Public: engine.Public{Players: []engine.Player{{UID: "p1"}}}},
		"decks":        {Public: engine.Public{Decks: []engine.DeckInfo{{ID: "chance"}}}},
		"secret decks": {Secret: engine.Secret{Decks: []engine.SecretDeck{{ID: "chance"}}}},
	} {
		if err := g.Check(r); err == nil || !strings.Contains(err.Error(), "a game not created has players or decks") {
			t.Errorf("a game not created with %s: %v", name, err)
		}
	}
}
