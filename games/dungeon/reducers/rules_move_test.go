package reducers_test

import (
	"testing"

	"github.com/fairboard/fairboard/games/dungeon/engine"
)

// R-MOVE-1: a move rolls one d4 (move.roll, ctx.turn and ctx.actorUid) and
// goes forward that far; an empty tile does nothing.
func TestRuleMoveRoll(t *testing.T) {
	g := newGame(pc("amy", 0, warrior, 0, 10), pc("bob", 1, monk, 0, 10))
	g.Public.Turn = 3
	// The d4 accepts every word: 0xFFFFFFFF & 3 = 3, a 4. Tile 4 is empty.
	o := act(t, g, engine.ActMove, 0xFFFFFFFF)
	wantLog(t, o, "dice amy move.roll 4", "moved amy 0->4 move", "turn bob r1 t4")
	wantTags(t, o, "move.roll")
	if c := o.audit[0].Ctx; c.Turn != 3 || c.ActorUID != "amy" {
		t.Fatalf("move.roll ctx %+v", c)
	}
	// bob, alone on tile 0 with no items, waits in moveOrSleep.
	wantAt(t, g, engine.StepMoveOrSleep, "bob")
	if g.Public.EndTriggered {
		t.Fatal("end triggered")
	}
}

// R-MOVE-2, R-CLASS-SCOUT, R-ITEM-1: Boots add their move, the scout adds
// 1, both add; no one else gets a bonus. Every case starts on tile 2.
func TestRuleMoveModifiers(t *testing.T) {
	for _, c := range []struct {
		name   string
		class  engine.Class
		items  []string
		roll   int
		line   string
		to     int
		events []string
	}{
		// A warrior without boots: 2 -> tile 4 (empty).
		{"plain", warrior, nil, 2, "dice amy move.roll 2", 4, nil},
		// A warrior with boots: 1 + 1 = 2 -> 4.
		{"boots", warrior, []string{"t1-boots-1"}, 1, "dice amy move.roll 1 [1]=2", 4, nil},
		// A scout: 1 + 1 = 2 -> 4.
		{"scout", scout, nil, 1, "dice amy move.roll 1 [1]=2", 4, nil},
		// A scout with boots: 2 + 1 (boots) + 1 (scout) = 4 -> 6, treasure
		// T1: draws t1-dagger-2 (stacked on top).
		{"scout+boots", scout, []string{"t1-boots-1"}, 2, "dice amy move.roll 2 [1 1]=4", 6,
			[]string{"drew amy treasure.t1 t1-dagger-2"}},
		// A monk and a duelist move their die.
		{"monk", monk, nil, 4, "dice amy move.roll 4", 6, []string{"drew amy treasure.t1 t1-dagger-2"}},
		{"duelist", duelist, nil, 1, "dice amy move.roll 1", 3, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			g := newGame(pc("amy", 0, c.class, 2, 10, c.items...), pc("bob", 1, monk, 9, 10))
			stack(g, engine.DeckTreasureT1, "t1-dagger-2")
			if c.name == "duelist" {
				// Tile 3 is E1: one T1 enemy, no composition roll; the fight
				// waits for amy.
				o := act(t, g, engine.ActMove, die(c.roll))
				wantLog(t, o, c.line, "moved amy 2->3 move", "composition tile=3 t1 1xT1", "spawned c1 e1-goblin-1 t1 hp=2")
				wantAt(t, g, engine.StepCombat, "amy")
				return
			}
			o := act(t, g, engine.ActMove, die(c.roll))
			want := append([]string{c.line, "moved amy 2->" + itoa(c.to) + " move"}, c.events...)
			want = append(want, "turn bob r1 t2")
			wantLog(t, o, want...)
		})
	}
}

// R-CLASS-SCOUT: the scout's bonus is the ruleset's; at 0 it adds
// nothing, not even a 0 modifier in the log.
func TestRuleScoutMoveZero(t *testing.T) {
	r := variant(t, map[string]any{"classes.scoutMove": 0})
	g := newGameOn(r, pc("amy", 0, scout, 2, 10), pc("bob", 1, monk, 9, 10))
	wantLog(t, act(t, g, engine.ActMove, die(2)), "dice amy move.roll 2", "moved amy 2->4 move", "turn bob r1 t2")
	if ev := act(t, newGameOn(r, pc("amy", 0, scout, 2, 10), pc("bob", 1, monk, 9, 10)), engine.ActMove, die(2)).ev[0]; ev.NMods != 0 || ev.Total != 2 {
		t.Fatalf("modifiers %v total %d", ev.Modifiers(), ev.Total)
	}
}

// R-MOVE-3, R-END-1: a move stops on the final tile 35 and the excess is
// lost; arriving there marks the end of the game for the end of the round.
func TestRuleMoveFinalTile(t *testing.T) {
	for _, c := range []struct {
		from, roll, to int
		end            bool
	}{
		{30, 4, 34, false}, // one short
		{31, 4, 35, true},  // exactly
		{33, 4, 35, true},  // 37, stops on 35
		{34, 3, 35, true},  // 37
	} {
		g := newGame(pc("amy", 0, warrior, c.from, 10), pc("bob", 1, monk, 9, 10))
		o := act(t, g, engine.ActMove, die(c.roll))
		wantLog(t, o, "dice amy move.roll "+itoa(c.roll), "moved amy "+itoa(c.from)+"->"+itoa(c.to)+" move", "turn bob r1 t2")
		if g.Public.EndTriggered != c.end {
			t.Fatalf("from %d roll %d: end triggered %v", c.from, c.roll, g.Public.EndTriggered)
		}
	}
	// A scout with boots on 32 rolls 4: 4 + 1 + 1 = 6 -> 38, stops on 35.
	g := newGame(pc("amy", 0, scout, 32, 10, "t1-boots-1"), pc("bob", 1, monk, 9, 10))
	o := act(t, g, engine.ActMove, die(4))
	wantLog(t, o, "dice amy move.roll 4 [1 1]=6", "moved amy 32->35 move", "turn bob r1 t2")
}

// R-TILE-1: a treasure tile draws the top card of its tier into the
// inventory: tier 1 on tile 2, 2 on tile 13, 3 on tile 25.
func TestRuleTreasureTiles(t *testing.T) {
	for _, c := range []struct {
		from, roll int
		deck       int
		card       string
		atk, def   int
	}{
		{0, 2, engine.DeckTreasureT1, "t1-leather-3", 0, 1},
		{11, 2, engine.DeckTreasureT2, "t2-sword-2", 2, 0},
		{22, 3, engine.DeckTreasureT3, "t3-relic-1", 2, 2},
	} {
		g := newGame(pc("amy", 0, monk, c.from, 10), pc("bob", 1, monk, 9, 10))
		stack(g, c.deck, c.card)
		to := c.from + c.roll
		wantLog(t, act(t, g, engine.ActMove, die(c.roll)),
			"dice amy move.roll "+itoa(c.roll), "moved amy "+itoa(c.from)+"->"+itoa(to)+" move",
			"drew amy "+engine.DeckIDs[c.deck]+" "+c.card, "turn bob r1 t2")
		wantPlayer(t, g, "amy", to, 10, c.card)
		if pl := player(t, g, "amy"); pl.AtkBonus != c.atk || pl.DefBonus != c.def {
			t.Fatalf("%s: bonuses %d/%d", c.card, pl.AtkBonus, pl.DefBonus)
		}
		if g.Public.Decks[c.deck].Size != len(rules.InitialDeck(c.deck))-1 {
			t.Fatalf("deck size %d", g.Public.Decks[c.deck].Size)
		}
	}
}

// R-DECK-3: a treasure tile whose deck and discard pile are both empty
// gives nothing (every t3 card is held).
func TestRuleTreasureNothingLeft(t *testing.T) {
	g := newGame(pc("amy", 0, monk, 22, 10), pc("bob", 1, monk, 9, 10, "t3-axe-1", "t3-axe-2", "t3-plate-1", "t3-plate-2"),
		pc("cy", 2, monk, 9, 10, "t3-elixir-1", "t3-elixir-2", "t3-smoke-1", "t3-relic-1"))
	wantLog(t, act(t, g, engine.ActMove, die(3)), "dice amy move.roll 3", "moved amy 22->25 move", "turn bob r1 t2")
	wantPlayer(t, g, "amy", 25, 10)
}
