package reducers_test

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/fairboard/fairboard/games/dungeon/engine"
	"github.com/fairboard/fairboard/rng"
)

// lobby returns a created seeded game owned by the first uid, with the
// players joined at the seats given (uid, seat pairs as players).
func lobby(t *testing.T, ps ...engine.Player) *engine.Game {
	t.Helper()
	g := &engine.Game{}
	do(t, g, engine.Action{Kind: engine.ActCreate, Actor: ps[0].UID, GameID: "g1", Mode: "seeded", Seed: "s"})
	for _, pl := range ps {
		do(t, g, engine.Action{Kind: engine.ActJoin, Actor: pl.UID, Seat: pl.Seat, Class: pl.Class, KeepSmokeBomb: pl.KeepSmokeBomb})
	}
	return g
}

// R-SETUP-1: create fixes the owner and the rng mode; "" means crypto.
func TestRuleCreate(t *testing.T) {
	g := &engine.Game{}
	// A crypto game takes its salt key from the server's seed.
	serverSeed := strings.Repeat("5a", 32)
	o := do(t, g, engine.Action{Kind: engine.ActCreate, Actor: "amy", GameID: "g1", At: 1700, ServerSeed: serverSeed})
	wantLog(t, o, "created amy g1")
	p := &g.Public
	if p.Owner != "amy" || p.Phase != engine.PhaseLobby || p.RNG.Mode != rng.ModeCrypto || g.Secret.Seed != "" || p.CreatedAt != 1700 || p.RulesHash != rules.Hash() {
		t.Fatalf("created %+v, seed %q", p, g.Secret.Seed)
	}

	g = &engine.Game{}
	do(t, g, engine.Action{Kind: engine.ActCreate, Actor: "bob", Mode: "seeded", Seed: "s1", Audit: true})
	if g.Public.RNG != (engine.RNGInfo{Mode: rng.ModeSeeded, AuditEnabled: true}) || g.Secret.Seed != "s1" || g.Public.Owner != "bob" {
		t.Fatalf("seeded create: rng %+v seed %q", g.Public.RNG, g.Secret.Seed)
	}
	g = &engine.Game{}
	do(t, g, engine.Action{Kind: engine.ActCreate, Actor: "bob", Mode: "crypto", ServerSeed: serverSeed})
	if g.Public.RNG.Mode != rng.ModeCrypto {
		t.Fatalf("crypto create: %+v", g.Public.RNG)
	}
}

// R-SETUP-1: every refusal of create.
func TestRuleCreateRefusals(t *testing.T) {
	zero := &engine.Game{}
	for _, c := range []struct {
		a    engine.Action
		code engine.Code
	}{
		{engine.Action{Kind: engine.ActCreate, Mode: "seeded", Seed: "s"}, engine.CodeInvalidAction},             // no actor
		{engine.Action{Kind: engine.ActCreate, Actor: "a", Seed: "s"}, engine.CodeInvalidAction},                 // "" is crypto: no seed
		{engine.Action{Kind: engine.ActCreate, Actor: "a", Mode: "crypto", Seed: "s"}, engine.CodeInvalidAction}, // crypto takes no seed
		{engine.Action{Kind: engine.ActCreate, Actor: "a", Mode: "seeded"}, engine.CodeInvalidAction},            // seeded needs a seed
		{engine.Action{Kind: engine.ActCreate, Actor: "a", Mode: "Seeded", Seed: "s"}, engine.CodeInvalidAction}, // unknown mode
	} {
		refuse(t, zero, c.a, c.code)
	}
	g := lobby(t, pc("amy", 0, warrior, 0, 10))
	refuse(t, g, engine.Action{Kind: engine.ActCreate, Actor: "amy", Mode: "seeded", Seed: "s"}, engine.CodeAlreadyCreated)
}

// R-SETUP-2: players join the lobby at a seat with a class; they start
// with 10 HP on tile 0 with no items, listed in seat order.
func TestRuleJoin(t *testing.T) {
	g := &engine.Game{}
	do(t, g, engine.Action{Kind: engine.ActCreate, Actor: "zed", Mode: "seeded", Seed: "s"})
	o := do(t, g, engine.Action{Kind: engine.ActJoin, Actor: "zed", Seat: 5, Class: monk, KeepSmokeBomb: true})
	wantLog(t, o, "joined zed seat=5 monk")
	do(t, g, engine.Action{Kind: engine.ActJoin, Actor: "amy", Seat: 0, Class: scout})
	do(t, g, engine.Action{Kind: engine.ActJoin, Actor: "bob", Seat: 2, Class: duelist})
	want := []engine.Player{
		{UID: "amy", Seat: 0, Class: scout, HP: 10},
		{UID: "bob", Seat: 2, Class: duelist, HP: 10},
		{UID: "zed", Seat: 5, Class: monk, HP: 10, KeepSmokeBomb: true},
	}
	if len(g.Public.Players) != len(want) {
		t.Fatalf("%d players", len(g.Public.Players))
	}
	for i, pl := range g.Public.Players {
		if len(pl.Items) != 0 {
			t.Fatalf("%s starts with items %v", pl.UID, pl.Items)
		}
		if !reflect.DeepEqual(pl, want[i]) {
			t.Fatalf("player %d: %+v, want %+v", i, pl, want[i])
		}
	}
}

// R-SETUP-2: every refusal of join. Seats are 0..maxPlayers-1 (5).
func TestRuleJoinRefusals(t *testing.T) {
	g := lobby(t, pc("amy", 1, warrior, 0, 10))
	join := func(uid string, seat int, class engine.Class) engine.Action {
		return engine.Action{Kind: engine.ActJoin, Actor: uid, Seat: seat, Class: class}
	}
	refuse(t, g, join("", 2, monk), engine.CodeInvalidAction)
	refuse(t, g, join("bob", 2, "mage"), engine.CodeInvalidAction)
	refuse(t, g, join("bob", 2, ""), engine.CodeInvalidAction)
	refuse(t, g, join("amy", 2, monk), engine.CodeAlreadyJoined)
	refuse(t, g, join("bob", 1, monk), engine.CodeSeatTaken) // amy's
	refuse(t, g, join("bob", -1, monk), engine.CodeSeatTaken)
	refuse(t, g, join("bob", 6, monk), engine.CodeSeatTaken) // maxPlayers 6: seats 0..5
	do(t, g, join("bob", 5, monk))                           // the last seat exists
	do(t, g, join("cy", 0, monk))                            // and the first
	for i, uid := range []string{"d1", "d2", "d3"} {
		do(t, g, join(uid, 2+i, scout))
	}
	if n := len(g.Public.Players); n != 6 {
		t.Fatalf("%d players", n)
	}
	refuse(t, g, join("eve", 3, monk), engine.CodeGameFull) // full, whatever the seat
	if got := []int{g.Public.Players[0].Seat, g.Public.Players[5].Seat}; got[0] != 0 || got[1] != 5 {
		t.Fatalf("players not in seat order: %v", got)
	}

	started := newGame(pc("amy", 0, warrior, 0, 10), pc("bob", 1, monk, 0, 10))
	refuse(t, started, join("cy", 2, monk), engine.CodeAlreadyStarted)
}

// R-SETUP-3: only the owner starts, with at least minPlayers (2), once.
func TestRuleStartRefusals(t *testing.T) {
	g := lobby(t, pc("amy", 0, warrior, 0, 10))
	start := engine.Action{Kind: engine.ActStart, Actor: "amy"}
	refuse(t, g, start, engine.CodeTooFewPlayers)
	do(t, g, engine.Action{Kind: engine.ActJoin, Actor: "bob", Seat: 1, Class: monk})
	refuse(t, g, engine.Action{Kind: engine.ActStart, Actor: "bob"}, engine.CodeNotOwner)
	// Two players are enough: the shuffles leave each deck as it was
	// (identity), then amy and bob roll 2 and 1.
	do(t, g, start, startWords(dice(2, 1))...)
	refuse(t, g, start, engine.CodeAlreadyStarted)
}

// startWords returns the words of a StartGame whose seven shuffles leave
// every deck in its initial order, followed by the turn-order words.
func startWords(order []uint32) []uint32 {
	// Deck sizes, from GAME_RULES' card counts: treasure.t1 3+3+3+2+1 = 12,
	// t2 3+3+2+2 = 10, t3 2+2+2+1+1 = 8, chance 2+2+2+2+2+1+1 = 12,
	// enemy.t1 4+3+3 = 10, t2 4+3+3 = 10, t3 3+3+2 = 8.
	return words(identity(12), identity(10), identity(8), identity(12), identity(10), identity(10), identity(8), order)
}

// R-SETUP-4: StartGame shuffles the seven decks in the spec's order, one
// shuffle each, then rolls the turn order; R-ORDER-1/2: tied groups
// re-roll, highest group first, each in seat order, until no tie is left;
// R-TURN-1: the first player's turn begins and runs to its first decision.
func TestRuleStartGameTurnOrder(t *testing.T) {
	// Seats 0..3 are dan, ann, cy, bo: seat order is neither uid order
	// nor the resulting turn order.
	g := lobby(t, pc("dan", 0, warrior, 0, 10), pc("ann", 1, monk, 0, 10), pc("cy", 2, duelist, 0, 10), pc("bo", 3, scout, 0, 10))
	// treasure.t3 and chance are shuffled with every j = 0, which rotates a
	// deck left by one (i = n-1: swap a0 and a(n-1); ...; i = 1: swap
	// positions 1 and 0: [a1 a2 ... a(n-1) a0]).
	zeros := func(n int) []uint32 { return make([]uint32, n-1) }
	shuffles := words(identity(12), identity(10), zeros(8), zeros(12), identity(10), identity(10), identity(8))
	// Rolls in seat order: dan 4, ann 6, cy 4, bo 6 (dan's first word is
	// rejected). Groups: 6 = {ann, bo}, 4 = {dan, cy}. The 6 group
	// re-rolls first, in seat order: ann 2, bo 2, still tied, again: ann 3,
	// bo 5, so bo then ann. Then the 4 group: dan 1, cy 6, so cy then dan.
	// Order: bo, ann, cy, dan.
	order := words([]uint32{rejectD6}, dice(4, 6, 4, 6), dice(2, 2), dice(3, 5), dice(1, 6))
	o := do(t, g, engine.Action{Kind: engine.ActStart, Actor: "dan", At: 5}, words(shuffles, order)...)
	var got []string
	for _, line := range show(o.ev) {
		if line[:5] != "shuff" {
			got = append(got, line)
		}
	}
	want := []string{
		"order dan 4", "order ann 6", "order cy 4", "order bo 6",
		"reroll ann 2", "reroll bo 2", "reroll ann 3", "reroll bo 5", "reroll dan 1", "reroll cy 6",
		"started [bo ann cy dan]", "turn bo r1 t1",
	}
	if !slices.Equal(got, want) {
		t.Fatalf("log %v\nwant %v", got, want)
	}
	wantTags(t, o, "deck.initShuffle.treasure.t1", "deck.initShuffle.treasure.t2", "deck.initShuffle.treasure.t3",
		"deck.initShuffle.chance", "deck.initShuffle.enemy.t1", "deck.initShuffle.enemy.t2", "deck.initShuffle.enemy.t3",
		"turnOrder.roll", "turnOrder.roll", "turnOrder.roll", "turnOrder.roll",
		"turnOrder.tieBreak.reroll", "turnOrder.tieBreak.reroll", "turnOrder.tieBreak.reroll",
		"turnOrder.tieBreak.reroll", "turnOrder.tieBreak.reroll", "turnOrder.tieBreak.reroll")
	for i, e := range o.audit[:7] {
		if e.Ctx.DeckID != engine.DeckIDs[i] {
			t.Fatalf("shuffle %d ctx.deckId %q", i, e.Ctx.DeckID)
		}
	}
	for i, uid := range []string{"dan", "ann", "cy", "bo", "ann", "bo", "ann", "bo", "dan", "cy"} {
		if a := o.audit[7+i].Ctx.ActorUID; a != uid {
			t.Fatalf("die %d ctx.actorUid %q, want %q", i, a, uid)
		}
	}
	p := &g.Public
	if !slices.Equal(p.Order, []string{"bo", "ann", "cy", "dan"}) || p.Round != 1 || p.Turn != 1 || p.Current != "bo" || p.StartedAt != 5 {
		t.Fatalf("order %v round %d turn %d current %q", p.Order, p.Round, p.Turn, p.Current)
	}
	// Everyone stands on tile 0, so bo's turn passes manage (no items) and
	// waits in preDuel.
	wantAt(t, g, engine.StepPreDuel, "bo")
	wantPile(t, g, engine.DeckTreasureT1, "t1-dagger-1", "t1-dagger-2", "t1-dagger-3", "t1-leather-1", "t1-leather-2",
		"t1-leather-3", "t1-potion-1", "t1-potion-2", "t1-potion-3", "t1-smoke-1", "t1-smoke-2", "t1-boots-1")
	wantPile(t, g, engine.DeckTreasureT3, "t3-axe-2", "t3-plate-1", "t3-plate-2", "t3-elixir-1", "t3-elixir-2",
		"t3-smoke-1", "t3-relic-1", "t3-axe-1")
	wantPile(t, g, engine.DeckChance, "chance-earthquake-2", "chance-mystic-1", "chance-mystic-2", "chance-spirit-1",
		"chance-spirit-2", "chance-vital-1", "chance-vital-2", "chance-spring-1", "chance-spring-2", "chance-windfall-1",
		"chance-ambush-1", "chance-earthquake-1")
	wantPile(t, g, engine.DeckEnemyT3, "e3-troll-1", "e3-troll-2", "e3-troll-3", "e3-wraith-1", "e3-wraith-2",
		"e3-wraith-3", "e3-drake-1", "e3-drake-2")
	for d := range engine.NumDecks {
		if len(p.Decks[d].Discard) != 0 {
			t.Fatalf("%s starts with a discard pile", engine.DeckIDs[d])
		}
	}
}

// R-ORDER-2: a re-roll that splits a tie only partly settles the part
// still tied before anything below it.
func TestRuleTurnOrderPartialTie(t *testing.T) {
	g := lobby(t, pc("cat", 0, warrior, 0, 10), pc("al", 1, monk, 0, 10), pc("bea", 2, scout, 0, 10))
	// Rolls cat 3, al 3, bea 3: one group, re-rolled in seat order: cat 5,
	// al 2, bea 5. Now {cat, bea} at 5 above al: cat 1, bea 4, so bea then
	// cat, then al.
	o := do(t, g, engine.Action{Kind: engine.ActStart, Actor: "cat"}, startWords(dice(3, 3, 3, 5, 2, 5, 1, 4))...)
	if !slices.Equal(g.Public.Order, []string{"bea", "cat", "al"}) {
		t.Fatalf("order %v", g.Public.Order)
	}
	var rerolls []string
	for _, l := range show(o.ev) {
		if l[:6] == "reroll" {
			rerolls = append(rerolls, l)
		}
	}
	if !slices.Equal(rerolls, []string{"reroll cat 5", "reroll al 2", "reroll bea 5", "reroll cat 1", "reroll bea 4"}) {
		t.Fatalf("rerolls %v", rerolls)
	}
}

// R-ORDER-1: with no tie the order is by roll, highest first, and no die
// is re-rolled.
func TestRuleTurnOrderNoTie(t *testing.T) {
	g := lobby(t, pc("a", 0, warrior, 0, 10), pc("b", 1, monk, 0, 10), pc("c", 2, scout, 0, 10))
	do(t, g, engine.Action{Kind: engine.ActStart, Actor: "a"}, startWords(dice(1, 6, 2))...)
	if !slices.Equal(g.Public.Order, []string{"b", "c", "a"}) {
		t.Fatalf("order %v", g.Public.Order)
	}
}
