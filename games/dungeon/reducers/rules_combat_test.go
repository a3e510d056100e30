package reducers_test

import (
	"testing"

	"github.com/fairboard/fairboard/games/dungeon/engine"
)

// R-TILE-3: an enemy tile picks its composition with the tier's weights
// (r = word % 100 against the running totals) and draws the enemies in the
// order the composition names them. E1 reads no RNG.
func TestRuleComposition(t *testing.T) {
	for _, c := range []struct {
		tile   int
		ws     []uint32 // composition words
		choice string
		spawns []string
	}{
		// E1 (tile 3): always 1xT1, no word.
		{3, nil, "1xT1", []string{"e1-rats-1 t1 hp=3"}},
		// E2 (tile 14): [0,70) 2xT1, [70,100) 1xT2.
		{14, []uint32{0}, "2xT1", []string{"e1-rats-1 t1 hp=3", "e1-goblin-2 t1 hp=2"}},
		{14, []uint32{69}, "2xT1", []string{"e1-rats-1 t1 hp=3", "e1-goblin-2 t1 hp=2"}},
		{14, []uint32{70}, "1xT2", []string{"e2-wolves-2 t2 hp=5"}},
		{14, []uint32{top100}, "1xT2", []string{"e2-wolves-2 t2 hp=5"}},
		{14, []uint32{reject100, 69}, "2xT1", []string{"e1-rats-1 t1 hp=3", "e1-goblin-2 t1 hp=2"}},
		// E3 (tile 26): [0,70) 2xT2, [70,90) 1xT2+1xT1, [90,100) 1xT3.
		{26, []uint32{69}, "2xT2", []string{"e2-wolves-2 t2 hp=5", "e2-orc-4 t2 hp=4"}},
		{26, []uint32{70}, "1xT2+1xT1", []string{"e2-wolves-2 t2 hp=5", "e1-rats-1 t1 hp=3"}},
		{26, []uint32{89}, "1xT2+1xT1", []string{"e2-wolves-2 t2 hp=5", "e1-rats-1 t1 hp=3"}},
		{26, []uint32{90}, "1xT3", []string{"e3-wraith-3 t3 hp=6"}},
		{26, []uint32{top100}, "1xT3", []string{"e3-wraith-3 t3 hp=6"}},
	} {
		g := newGame(pc("amy", 0, warrior, c.tile-1, 10), pc("bob", 1, monk, 1, 10))
		stack(g, engine.DeckEnemyT1, "e1-rats-1", "e1-goblin-2")
		stack(g, engine.DeckEnemyT2, "e2-wolves-2", "e2-orc-4")
		stack(g, engine.DeckEnemyT3, "e3-wraith-3")
		o := act(t, g, engine.ActMove, words(dice(1), c.ws)...)
		tier := rules.Tier(c.tile)
		want := []string{"dice amy move.roll 1", "moved amy " + itoa(c.tile-1) + "->" + itoa(c.tile) + " move",
			"composition tile=" + itoa(c.tile) + " t" + itoa(tier) + " " + c.choice}
		for _, s := range c.spawns {
			want = append(want, "spawned c1 "+s)
		}
		wantLog(t, o, want...)
		if c.ws == nil {
			wantTags(t, o, "move.roll")
		} else {
			wantTags(t, o, "move.roll", "enemy.composition.pick.t"+itoa(tier))
			if x := o.audit[1].Ctx; x.TileID != c.tile || x.EnemyTier != tier {
				t.Fatalf("composition ctx %+v", x)
			}
		}
		wantAt(t, g, engine.StepCombat, "amy")
		if cb := g.Public.Combat; cb.Tier != tier || cb.TileID != c.tile || cb.Cause != "tile" || len(cb.Enemies) != len(c.spawns) {
			t.Fatalf("combat %+v", cb)
		}
	}
}

// R-COMBAT-1..5: a round against several enemies. Dice: player attack,
// player defense, then each alive enemy attack and defense in queue order.
// All blows land at once: the player's on the first alive enemy, every
// enemy alive at the start of the round on the player. A dead enemy rolls
// no more; its loot comes at once, before the knock-out check.
func TestRuleCombatSeveralEnemies(t *testing.T) {
	// amy, a warrior with Dagger (atk 1) and Leather (def 1), on tile 26
	// against Wolf pack (hp 5, atk 2, def 0) then Goblin (hp 2, atk 0).
	g := newGame(pc("amy", 0, warrior, 26, 10, "t1-dagger-1", "t1-leather-1"), pc("bob", 1, monk, 9, 10))
	fight(g, 3, foe("e2-wolves-1"), foe("e1-goblin-3"))
	stack(g, engine.DeckTreasureT1, "t1-potion-2", "t1-boots-1")

	// Round 1: amy 4 (her first word is rejected) / 2, wolves 5 / 3,
	// goblin 6 / 1.
	// amy -> wolves: 4 + 1 + 1 (warrior) - (3 + 0) = 3: 5 -> 2.
	// wolves -> amy: 5 + 2 - (2 + 1) = 4: 10 -> 6.
	// goblin -> amy: 6 + 0 - (2 + 1) = 3: 6 -> 3.
	o := act(t, g, engine.ActCombatRound, words([]uint32{rejectD6}, dice(4, 2, 5, 3, 6, 1))...)
	wantLog(t, o,
		"dice amy combat.player.attack 4", "dice amy combat.player.defense 2",
		"dice e2-wolves-1 combat.enemy.attack 5", "dice e2-wolves-1 combat.enemy.defense 3",
		"dice e1-goblin-3 combat.enemy.attack 6", "dice e1-goblin-3 combat.enemy.defense 1",
		"hit amy->e2-wolves-1 3 hp=2", "hit e2-wolves-1->amy 4 hp=6", "hit e1-goblin-3->amy 3 hp=3")
	wantTags(t, o, "combat.player.attack", "combat.player.defense", "combat.enemy.attack", "combat.enemy.defense",
		"combat.enemy.attack", "combat.enemy.defense")
	if x := o.audit[0].Ctx; x.CombatID != "c1" || x.ActorUID != "amy" {
		t.Fatalf("player die ctx %+v", x)
	}
	if x := o.audit[4].Ctx; x.CombatID != "c1" || x.EnemyID != "e1-goblin-3" {
		t.Fatalf("enemy die ctx %+v", x)
	}
	wantAt(t, g, engine.StepCombat, "amy")
	if g.Public.Combat.Round != 1 {
		t.Fatalf("round %d", g.Public.Combat.Round)
	}

	// Round 2: amy 6 / 6, wolves 6 / 1, goblin 1 / 6.
	// amy -> wolves: 6 + 2 - 1 = 7: 2 -> 0, dead.
	// wolves still strikes (the blows are simultaneous): 6 + 2 - (6 + 1) = 1: 3 -> 2.
	// goblin: 1 - 7 < 0: 0.
	// Wolf loot (t2 weights 70/15/15): r = 84 is in [70, 85): T1, the top
	// t1 card, t1-potion-2.
	o = act(t, g, engine.ActCombatRound, words(dice(6, 6, 6, 1, 1, 6), []uint32{84})...)
	wantLog(t, o,
		"dice amy combat.player.attack 6", "dice amy combat.player.defense 6",
		"dice e2-wolves-1 combat.enemy.attack 6", "dice e2-wolves-1 combat.enemy.defense 1",
		"dice e1-goblin-3 combat.enemy.attack 1", "dice e1-goblin-3 combat.enemy.defense 6",
		"hit amy->e2-wolves-1 7 hp=0", "hit e2-wolves-1->amy 1 hp=2", "hit e1-goblin-3->amy 0 hp=2",
		"defeated c1 e2-wolves-1", "loot t2 T1", "drew amy treasure.t1 t1-potion-2")
	if x := o.audit[6]; x.Tag != "loot.drop.roll.t2" || x.Ctx.EnemyTier != 2 {
		t.Fatalf("loot entry %+v", x)
	}
	wantAt(t, g, engine.StepCombat, "amy")

	// Round 3: only the goblin is alive. amy 2 / 1, goblin 6 / 1.
	// amy -> goblin (the first alive): 2 + 2 - 1 = 3: 2 -> 0, dead.
	// goblin -> amy: 6 - (1 + 1) = 4: 2 -> 0.
	// Goblin loot (t1 weights 50/50): r = 49 < 50: T1, t1-boots-1, drawn
	// before amy is knocked out: to tile 24 (zone 3) with 5 HP and every
	// item. Her turn ends; the enemies go to their discard piles.
	o = act(t, g, engine.ActCombatRound, words(dice(2, 1, 6, 1), []uint32{49})...)
	wantLog(t, o,
		"dice amy combat.player.attack 2", "dice amy combat.player.defense 1",
		"dice e1-goblin-3 combat.enemy.attack 6", "dice e1-goblin-3 combat.enemy.defense 1",
		"hit amy->e1-goblin-3 3 hp=0", "hit e1-goblin-3->amy 4 hp=0",
		"defeated c1 e1-goblin-3", "loot t1 T1", "drew amy treasure.t1 t1-boots-1",
		"combatEnded c1 amy knockedOut", "knockedOut amy 26->24 hp=5",
		"turn bob r1 t2")
	wantPlayer(t, g, "amy", 24, 5, "t1-dagger-1", "t1-leather-1", "t1-potion-2", "t1-boots-1")
	if g.Public.Combat != nil {
		t.Fatal("the fight is still on")
	}
	wantDiscard(t, g, engine.DeckEnemyT1, "e1-goblin-3")
	wantDiscard(t, g, engine.DeckEnemyT2, "e2-wolves-1")
	wantAt(t, g, engine.StepMoveOrSleep, "bob")
}

// R-COMBAT-2/3: an enemy's atk and def and the player's weapon and armor
// all count.
func TestRuleCombatStats(t *testing.T) {
	// amy, a warrior with Sword (atk 2) and Chain mail (def 2), against a
	// Cultist (hp 4, atk 2, def 1). Dice: amy 3 / 2, cultist 5 / 2.
	// amy -> cultist: 3 + 2 + 1 - (2 + 1) = 3: 4 -> 1.
	// cultist -> amy: 5 + 2 - (2 + 2) = 3: 10 -> 7.
	g := newGame(pc("amy", 0, warrior, 17, 10, "t2-sword-1", "t2-chain-1"), pc("bob", 1, monk, 9, 10))
	fight(g, 2, foe("e2-cultist-1"))
	wantLog(t, act(t, g, engine.ActCombatRound, dice(3, 2, 5, 2)...),
		"dice amy combat.player.attack 3", "dice amy combat.player.defense 2",
		"dice e2-cultist-1 combat.enemy.attack 5", "dice e2-cultist-1 combat.enemy.defense 2",
		"hit amy->e2-cultist-1 3 hp=1", "hit e2-cultist-1->amy 3 hp=7")

	// A scout gets no attack bonus: 3 + 2 - (2 + 1) = 2: 4 -> 2. A
	// Relic is both weapon and armor (2/2): cultist -> scout: 5 + 2 -
	// (2 + 2) = 3.
	g = newGame(pc("amy", 0, scout, 17, 10, "t3-relic-1"), pc("bob", 1, monk, 9, 10))
	fight(g, 2, foe("e2-cultist-1"))
	wantLog(t, act(t, g, engine.ActCombatRound, dice(3, 2, 5, 2)...),
		"dice amy combat.player.attack 3", "dice amy combat.player.defense 2",
		"dice e2-cultist-1 combat.enemy.attack 5", "dice e2-cultist-1 combat.enemy.defense 2",
		"hit amy->e2-cultist-1 2 hp=2", "hit e2-cultist-1->amy 3 hp=7")

	// The warrior's bonus is the ruleset's: with warriorAttack 3,
	// 3 + 2 + 3 - 3 = 5, the cultist (4 HP) dies. Loot t2 r = 99: none.
	r := variant(t, map[string]any{"classes.warriorAttack": 3})
	g = newGameOn(r, pc("amy", 0, warrior, 17, 10, "t2-sword-1", "t2-chain-1"), pc("bob", 1, monk, 9, 10))
	fight(g, 2, foe("e2-cultist-1"))
	wantLog(t, act(t, g, engine.ActCombatRound, words(dice(3, 2, 5, 2), []uint32{99})...),
		"dice amy combat.player.attack 3", "dice amy combat.player.defense 2",
		"dice e2-cultist-1 combat.enemy.attack 5", "dice e2-cultist-1 combat.enemy.defense 2",
		"hit amy->e2-cultist-1 5 hp=0", "hit e2-cultist-1->amy 3 hp=7",
		"defeated c1 e2-cultist-1", "loot t2 none", "combatEnded c1 amy won", "turn bob r1 t2")
}

// R-COMBAT-5: a won fight ends in postCombat; loot that puts the player
// over capacity makes it discard (R-TURN-5).
func TestRuleCombatWonOverCapacity(t *testing.T) {
	// A scout with 4 items (Dagger atk 1, Leather def 1) against a Goblin.
	// Dice amy 3 / 1, goblin 1 / 1: amy -> goblin 3 + 1 - 1 = 3 (dead);
	// goblin -> amy 1 - (1 + 1) < 0: 0. Loot t1, r = 0: T1, t1-dagger-2.
	g := newGame(pc("amy", 0, scout, 3, 10, "t1-dagger-1", "t1-leather-1", "t1-potion-1", "t1-smoke-1"), pc("bob", 1, monk, 9, 10))
	fight(g, 1, foe("e1-goblin-1"))
	stack(g, engine.DeckTreasureT1, "t1-dagger-2")
	wantLog(t, act(t, g, engine.ActCombatRound, words(dice(3, 1, 1, 1), []uint32{0})...),
		"dice amy combat.player.attack 3", "dice amy combat.player.defense 1",
		"dice e1-goblin-1 combat.enemy.attack 1", "dice e1-goblin-1 combat.enemy.defense 1",
		"hit amy->e1-goblin-1 3 hp=0", "hit e1-goblin-1->amy 0 hp=10",
		"defeated c1 e1-goblin-1", "loot t1 T1", "drew amy treasure.t1 t1-dagger-2",
		"combatEnded c1 amy won")
	wantAt(t, g, engine.StepCapacity, "amy")
	wantDiscard(t, g, engine.DeckEnemyT1, "e1-goblin-1")
	if g.Public.Combat != nil {
		t.Fatal("combat left after the fight")
	}
}

// R-COMBAT-6: postCombat discards the queue in order, the dead with the
// left-over; an enemy dead in an earlier round rolls no dice.
func TestRuleCombatDiscardOrder(t *testing.T) {
	// Goblin 4 died earlier; Rat swarm 2 has 1 HP. Dice amy 5 / 6, rats
	// 2 / 6: amy -> rats 5 + 1 (warrior) - 6 = 0, the rats live; rats ->
	// amy 2 - 6 < 0. Next round amy 6 / 6, rats 1 / 1: 6 + 1 - 1 = 6, dead.
	// Loot t1 r = 50: none.
	g := newGame(pc("amy", 0, warrior, 14, 10), pc("bob", 1, monk, 9, 10))
	fight(g, 2, hurt(foe("e1-goblin-4"), 0), hurt(foe("e1-rats-2"), 1))
	wantLog(t, act(t, g, engine.ActCombatRound, dice(5, 6, 2, 6)...),
		"dice amy combat.player.attack 5", "dice amy combat.player.defense 6",
		"dice e1-rats-2 combat.enemy.attack 2", "dice e1-rats-2 combat.enemy.defense 6",
		"hit amy->e1-rats-2 0 hp=1", "hit e1-rats-2->amy 0 hp=10")
	wantLog(t, act(t, g, engine.ActCombatRound, words(dice(6, 6, 1, 1), []uint32{50})...),
		"dice amy combat.player.attack 6", "dice amy combat.player.defense 6",
		"dice e1-rats-2 combat.enemy.attack 1", "dice e1-rats-2 combat.enemy.defense 1",
		"hit amy->e1-rats-2 6 hp=0", "hit e1-rats-2->amy 0 hp=10",
		"defeated c1 e1-rats-2", "loot t1 none", "combatEnded c1 amy won", "turn bob r1 t2")
	wantDiscard(t, g, engine.DeckEnemyT1, "e1-goblin-4", "e1-rats-2")
}

// R-COMBAT-5: after the 30th round with an enemy alive the player
// retreats one tile, never below 0, and the enemies are discarded.
func TestRuleCombatRoundCap(t *testing.T) {
	// Dice amy 1 / 6, rats 1 / 6: amy -> rats 1 + 1 - 6 < 0, rats -> amy
	// 1 - 6 < 0: nobody is hurt.
	zero := dice(1, 6, 1, 6)
	g := newGame(pc("amy", 0, warrior, 8, 10), pc("bob", 1, monk, 9, 10))
	fight(g, 1, foe("e1-rats-1"))
	g.Public.Combat.Round = 28
	act(t, g, engine.ActCombatRound, zero...) // round 29 of 30: on
	wantAt(t, g, engine.StepCombat, "amy")
	o := act(t, g, engine.ActCombatRound, zero...) // round 30: retreat
	wantLog(t, o,
		"dice amy combat.player.attack 1", "dice amy combat.player.defense 6",
		"dice e1-rats-1 combat.enemy.attack 1", "dice e1-rats-1 combat.enemy.defense 6",
		"hit amy->e1-rats-1 0 hp=3", "hit e1-rats-1->amy 0 hp=10",
		"combatEnded c1 amy retreated", "moved amy 8->7 retreat", "turn bob r1 t2")
	wantDiscard(t, g, engine.DeckEnemyT1, "e1-rats-1")

	// The numbers are the ruleset's: a cap of 1 round and a retreat of 10
	// tiles from tile 8 stops at 0.
	r := variant(t, map[string]any{"combatRoundCap": 1, "retreatTiles": 10})
	g = newGameOn(r, pc("amy", 0, warrior, 8, 10), pc("bob", 1, monk, 9, 10))
	fight(g, 1, foe("e1-rats-1"))
	o = act(t, g, engine.ActCombatRound, zero...)
	wantLog(t, o,
		"dice amy combat.player.attack 1", "dice amy combat.player.defense 6",
		"dice e1-rats-1 combat.enemy.attack 1", "dice e1-rats-1 combat.enemy.defense 6",
		"hit amy->e1-rats-1 0 hp=3", "hit e1-rats-1->amy 0 hp=10",
		"combatEnded c1 amy retreated", "moved amy 8->0 retreat", "turn bob r1 t2")
}

// R-KO-1: a knock-out in a fight sends the player to its zone's first
// tile: zone 1 to 0, zone 2 to 12.
func TestRuleCombatKnockOutZones(t *testing.T) {
	for _, c := range []struct{ tile, to, tier int }{{8, 0, 1}, {11, 0, 1}, {22, 12, 2}, {14, 12, 2}} {
		// amy (HP 1) against a Bandit (atk 1): dice amy 1 / 1, bandit 6 / 6:
		// amy -> bandit 1 + 1 - 6 < 0; bandit -> amy 6 + 1 - 1 = 6: 1 -> 0.
		g := newGame(pc("amy", 0, warrior, c.tile, 1), pc("bob", 1, monk, 9, 10))
		fight(g, c.tier, foe("e1-bandit-1"))
		wantLog(t, act(t, g, engine.ActCombatRound, dice(1, 1, 6, 6)...),
			"dice amy combat.player.attack 1", "dice amy combat.player.defense 1",
			"dice e1-bandit-1 combat.enemy.attack 6", "dice e1-bandit-1 combat.enemy.defense 6",
			"hit amy->e1-bandit-1 0 hp=2", "hit e1-bandit-1->amy 6 hp=0",
			"combatEnded c1 amy knockedOut", "knockedOut amy "+itoa(c.tile)+"->"+itoa(c.to)+" hp=5",
			"turn bob r1 t2")
		wantDiscard(t, g, engine.DeckEnemyT1, "e1-bandit-1")
	}
}

// The fight's id counts on from the game's counter, past the table of
// ready-made ids.
func TestRuleCombatIDs(t *testing.T) {
	for _, c := range []struct {
		next int
		id   string
	}{{0, "c1"}, {510, "c511"}, {511, "c512"}, {1000, "c1001"}} {
		g := newGame(pc("amy", 0, warrior, 2, 10), pc("bob", 1, monk, 9, 10))
		g.Public.NextID = c.next
		act(t, g, engine.ActMove, die(1)) // tile 3: E1
		if id := g.Public.Combat.ID; id != c.id || g.Public.NextID != c.next+1 {
			t.Fatalf("counter %d: combat %q, counter now %d", c.next, id, g.Public.NextID)
		}
	}
}

// R-KO-1, R-TURN-5: a knock-out ends the turn at once, so the capacity
// step is skipped even when the loot of the same round put the player
// over capacity (as implemented: it discards at its next capacity step).
func TestRuleKnockOutSkipsCapacity(t *testing.T) {
	// amy (warrior, HP 1, Dagger and Leather among 4 items) against a
	// Goblin at 1 HP. Dice amy 6 / 1, goblin 6 / 1: amy -> goblin 6 + 1 +
	// 1 - 1 = 7, dead; goblin -> amy 6 - (1 + 1) = 4: 1 -> 0. Loot t1,
	// r = 0: T1, t1-boots-1, a fifth item.
	g := newGame(pc("amy", 0, warrior, 8, 1, "t1-dagger-1", "t1-leather-1", "t1-potion-1", "t1-smoke-1"), pc("bob", 1, monk, 9, 10))
	fight(g, 1, hurt(foe("e1-goblin-1"), 1))
	stack(g, engine.DeckTreasureT1, "t1-boots-1")
	wantLog(t, act(t, g, engine.ActCombatRound, words(dice(6, 1, 6, 1), []uint32{0})...),
		"dice amy combat.player.attack 6", "dice amy combat.player.defense 1",
		"dice e1-goblin-1 combat.enemy.attack 6", "dice e1-goblin-1 combat.enemy.defense 1",
		"hit amy->e1-goblin-1 7 hp=0", "hit e1-goblin-1->amy 4 hp=0",
		"defeated c1 e1-goblin-1", "loot t1 T1", "drew amy treasure.t1 t1-boots-1",
		"combatEnded c1 amy knockedOut", "knockedOut amy 8->0 hp=5", "turn bob r1 t2")
	wantPlayer(t, g, "amy", 0, 5, "t1-dagger-1", "t1-leather-1", "t1-potion-1", "t1-smoke-1", "t1-boots-1")
	wantAt(t, g, engine.StepMoveOrSleep, "bob")
}
