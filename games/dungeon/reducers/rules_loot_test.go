package reducers_test

import (
	"testing"

	"github.com/fairboard/fairboard/games/dungeon/engine"
)

// R-LOOT-1: a dead enemy's loot roll (loot.drop.roll.t<tier>, ctx.enemyTier)
// uses its tier's weights: t1 50/50 (T1, none), t2 70/15/15 (T2, T1,
// none), t3 80/20 (T3, T2). r = word % 100 falls in the running totals.
func TestRuleLootTiers(t *testing.T) {
	t1, t2, t3 := "drew amy treasure.t1 t1-smoke-1", "drew amy treasure.t2 t2-chain-1", "drew amy treasure.t3 t3-axe-2"
	for _, c := range []struct {
		enemy   string
		ws      []uint32
		outcome string
		drew    string
	}{
		{"e1-goblin-2", []uint32{0}, "T1", t1},
		{"e1-goblin-2", []uint32{49}, "T1", t1},
		{"e1-goblin-2", []uint32{50}, "none", ""},
		{"e1-goblin-2", []uint32{top100}, "none", ""},
		{"e1-goblin-2", []uint32{reject100, 49}, "T1", t1},
		{"e2-orc-2", []uint32{0}, "T2", t2},
		{"e2-orc-2", []uint32{69}, "T2", t2},
		{"e2-orc-2", []uint32{70}, "T1", t1},
		{"e2-orc-2", []uint32{84}, "T1", t1},
		{"e2-orc-2", []uint32{85}, "none", ""},
		{"e2-orc-2", []uint32{99}, "none", ""},
		{"e3-troll-2", []uint32{0}, "T3", t3},
		{"e3-troll-2", []uint32{79}, "T3", t3},
		{"e3-troll-2", []uint32{80}, "T2", t2},
		{"e3-troll-2", []uint32{top100}, "T2", t2},
	} {
		// A scout with no items against the enemy at 1 HP. Dice amy 6 / 6,
		// enemy 1 / 1: amy's blow 6 - (1 + def) >= 6 - 3 = 3 kills it; the
		// enemy's 1 + atk - 6 <= 1 + 2 - 6 < 0 does nothing.
		k := rules.Card(c.enemy)
		g := newGame(pc("amy", 0, scout, 14, 10), pc("bob", 1, monk, 9, 10))
		fight(g, k.Tier, hurt(foe(c.enemy), 1))
		stack(g, engine.DeckTreasureT1, "t1-smoke-1")
		stack(g, engine.DeckTreasureT2, "t2-chain-1")
		stack(g, engine.DeckTreasureT3, "t3-axe-2")
		o := act(t, g, engine.ActCombatRound, words(dice(6, 6, 1, 1), c.ws)...)
		blow := 6 - (1 + k.Def)
		want := []string{
			"dice amy combat.player.attack 6", "dice amy combat.player.defense 6",
			"dice " + c.enemy + " combat.enemy.attack 1", "dice " + c.enemy + " combat.enemy.defense 1",
			"hit amy->" + c.enemy + " " + itoa(blow) + " hp=0", "hit " + c.enemy + "->amy 0 hp=10",
			"defeated c1 " + c.enemy, "loot t" + itoa(k.Tier) + " " + c.outcome,
		}
		if c.drew != "" {
			want = append(want, c.drew)
		}
		want = append(want, "combatEnded c1 amy won", "turn bob r1 t2")
		wantLog(t, o, want...)
		if e := o.audit[4]; string(e.Tag) != "loot.drop.roll.t"+itoa(k.Tier) || e.Ctx.EnemyTier != k.Tier {
			t.Fatalf("%s: loot entry %+v", c.enemy, e)
		}
	}
}

// R-LOOT-1, R-DECK-3: loot whose treasure deck and discard pile are both
// empty draws nothing.
func TestRuleLootNothingLeft(t *testing.T) {
	g := newGame(pc("amy", 0, scout, 26, 10), pc("bob", 1, monk, 9, 10, "t3-axe-1", "t3-axe-2", "t3-plate-1", "t3-plate-2"),
		pc("cy", 2, monk, 9, 10, "t3-elixir-1", "t3-elixir-2", "t3-smoke-1", "t3-relic-1"))
	fight(g, 3, hurt(foe("e3-drake-1"), 1))
	// amy 6 - (1 + 2) = 3 kills the drake; it hits 1 + 3 - 6 < 0. r = 0: T3.
	wantLog(t, act(t, g, engine.ActCombatRound, words(dice(6, 6, 1, 1), []uint32{0})...),
		"dice amy combat.player.attack 6", "dice amy combat.player.defense 6",
		"dice e3-drake-1 combat.enemy.attack 1", "dice e3-drake-1 combat.enemy.defense 1",
		"hit amy->e3-drake-1 3 hp=0", "hit e3-drake-1->amy 0 hp=10",
		"defeated c1 e3-drake-1", "loot t3 T3", "combatEnded c1 amy won", "turn bob r1 t2")
	wantPlayer(t, g, "amy", 26, 10)
}

// R-DECK-2: a draw that empties a deck shuffles its discard pile in at
// once (deck.reshuffle.<deckId>), so the next draw of the same spawn
// takes from the reshuffled pile.
func TestRuleReshuffleMidDraw(t *testing.T) {
	g := newGame(pc("amy", 0, warrior, 13, 10), pc("bob", 1, monk, 9, 10))
	piles(g, engine.DeckEnemyT1, []string{"e1-goblin-4"}, []string{"e1-rats-1", "e1-bandit-2", "e1-goblin-1"})
	// Move 1 to tile 14 (E2); r = 0: 2xT1. The first draw takes goblin 4
	// and empties the pile: the discard pile [rats-1 bandit-2 goblin-1] is
	// shuffled: i = 2, word 0: j = 0, swap: [goblin-1 bandit-2 rats-1];
	// i = 1, word 1: j = 1 % 2 = 1, no swap. The second draw takes
	// goblin 1.
	o := act(t, g, engine.ActMove, die(1), 0, 0, 1)
	wantLog(t, o,
		"dice amy move.roll 1", "moved amy 13->14 move",
		"composition tile=14 t2 2xT1",
		"shuffled enemy.t1 3",
		"spawned c1 e1-goblin-4 t1 hp=2", "spawned c1 e1-goblin-1 t1 hp=2")
	wantTags(t, o, "move.roll", "enemy.composition.pick.t2", "deck.reshuffle.enemy.t1")
	if x := o.audit[2].Ctx; x.DeckID != "enemy.t1" {
		t.Fatalf("reshuffle ctx %+v", x)
	}
	wantPile(t, g, engine.DeckEnemyT1, "e1-bandit-2", "e1-rats-1")
	wantDiscard(t, g, engine.DeckEnemyT1)
}

// R-DECK-3: a draw that finds the pile empty shuffles the discard pile in
// first (a shuffle of one card still counts one consumption); with both
// empty nothing is drawn, and a spawn with nothing drawn is no fight.
func TestRuleDrawFromEmptyPile(t *testing.T) {
	// r = 70: 1xT2. enemy.t2 has no pile and one discarded Orc.
	g := newGame(pc("amy", 0, warrior, 13, 10), pc("bob", 1, monk, 9, 10))
	piles(g, engine.DeckEnemyT2, nil, []string{"e2-orc-3"})
	o := act(t, g, engine.ActMove, die(1), 70)
	wantLog(t, o,
		"dice amy move.roll 1", "moved amy 13->14 move",
		"composition tile=14 t2 1xT2",
		"shuffled enemy.t2 1",
		"spawned c1 e2-orc-3 t2 hp=4")
	wantTags(t, o, "move.roll", "enemy.composition.pick.t2", "deck.reshuffle.enemy.t2")
	wantPile(t, g, engine.DeckEnemyT2)
	wantDiscard(t, g, engine.DeckEnemyT2)

	// Nothing at all in enemy.t2: no enemy, no fight, the turn ends.
	g = newGame(pc("amy", 0, warrior, 13, 10), pc("bob", 1, monk, 9, 10))
	piles(g, engine.DeckEnemyT2, nil, nil)
	wantLog(t, act(t, g, engine.ActMove, die(1), 70),
		"dice amy move.roll 1", "moved amy 13->14 move",
		"composition tile=14 t2 1xT2", "turn bob r1 t2")
	if g.Public.Combat != nil {
		t.Fatal("a fight with no enemy")
	}

	// 2xT1 with a single t1 enemy left: one enemy is fought.
	g = newGame(pc("amy", 0, warrior, 13, 10), pc("bob", 1, monk, 9, 10))
	piles(g, engine.DeckEnemyT1, []string{"e1-rats-3"}, nil)
	wantLog(t, act(t, g, engine.ActMove, die(1), 0),
		"dice amy move.roll 1", "moved amy 13->14 move",
		"composition tile=14 t2 2xT1", "spawned c1 e1-rats-3 t1 hp=3")
	if cb := g.Public.Combat; len(cb.Enemies) != 1 {
		t.Fatalf("enemies %+v", cb.Enemies)
	}

	// The treasure deck too: t1 pile empty, discard [smoke-2 potion-1]:
	// the shuffle of 2 with word 1 keeps the order (j = 1), the draw takes
	// smoke-2.
	g = newGame(pc("amy", 0, warrior, 1, 10), pc("bob", 1, monk, 9, 10))
	piles(g, engine.DeckTreasureT1, nil, []string{"t1-smoke-2", "t1-potion-1"})
	wantLog(t, act(t, g, engine.ActMove, die(1), 1),
		"dice amy move.roll 1", "moved amy 1->2 move",
		"shuffled treasure.t1 2", "drew amy treasure.t1 t1-smoke-2", "turn bob r1 t2")
	wantPile(t, g, engine.DeckTreasureT1, "t1-potion-1")
}
