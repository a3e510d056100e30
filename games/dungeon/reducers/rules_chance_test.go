package reducers_test

import (
	"testing"

	"github.com/fairboard/fairboard/games/dungeon/engine"
)

// onChance returns a game where amy (first in turn order) stands one tile
// before the chance tile `tile`, with the chance card on top of the deck;
// the others follow in turn order. Her move is a roll of 1.
func onChance(tile int, card string, amy engine.Player, others ...engine.Player) *engine.Game {
	amy.Pos = tile - 1
	g := newGame(append([]engine.Player{amy}, others...)...)
	stack(g, engine.DeckChance, card)
	return g
}

// R-CHANCE-1: Earthquake! Every player, in seat order, rolls a d4 and
// moves back that far, never below 0; no tile is resolved.
func TestRuleEarthquake(t *testing.T) {
	// Seats: 0 cy on 7, 1 amy (moving to 5), 2 bob on 2.
	g := onChance(5, "chance-earthquake-1", pc("amy", 1, warrior, 0, 10), pc("bob", 2, monk, 2, 10), pc("cy", 0, scout, 7, 10))
	// Back rolls in seat order: cy 4 (7 -> 3), amy 2 (5 -> 3), bob 4
	// (2 -> -2, held at 0). amy ends on tile 3, an enemy tile: no fight.
	o := act(t, g, engine.ActMove, dice(1, 4, 2, 4)...)
	wantLog(t, o,
		"dice amy move.roll 1", "moved amy 4->5 move",
		"drew amy chance chance-earthquake-1", "chance amy chance-earthquake-1 earthquake",
		"dice cy chance.earthquake.backRoll 4", "moved cy 7->3 earthquake",
		"dice amy chance.earthquake.backRoll 2", "moved amy 5->3 earthquake",
		"dice bob chance.earthquake.backRoll 4", "moved bob 2->0 earthquake",
		"turn bob r1 t2")
	wantTags(t, o, "move.roll", "chance.earthquake.backRoll", "chance.earthquake.backRoll", "chance.earthquake.backRoll")
	for i, uid := range []string{"cy", "amy", "bob"} {
		if a := o.audit[1+i].Ctx.ActorUID; a != uid {
			t.Fatalf("back roll %d ctx.actorUid %q, want %q", i, a, uid)
		}
	}
	wantDiscard(t, g, engine.DeckChance, "chance-earthquake-1")
	if g.Public.Combat != nil {
		t.Fatal("an earthquake started a fight")
	}
}

// R-CHANCE-2: Vital Energy rolls another move and resolves the new tile;
// chains are allowed, and each card is discarded once its effect is done
// (the inner card first).
func TestRuleVitalEnergyChain(t *testing.T) {
	g := onChance(5, "chance-vital-1", pc("amy", 0, warrior, 0, 10), pc("bob", 1, monk, 20, 10))
	stack(g, engine.DeckChance, "chance-vital-1", "chance-vital-2")
	stack(g, engine.DeckTreasureT2, "t2-sword-3")
	// 4 -> 5 (Vital Energy), +4 -> 9 (Vital Energy), +4 -> 13 (treasure T2).
	o := act(t, g, engine.ActMove, dice(1, 4, 4)...)
	wantLog(t, o,
		"dice amy move.roll 1", "moved amy 4->5 move",
		"drew amy chance chance-vital-1", "chance amy chance-vital-1 vitalEnergy",
		"dice amy move.roll 4", "moved amy 5->9 vitalEnergy",
		"drew amy chance chance-vital-2", "chance amy chance-vital-2 vitalEnergy",
		"dice amy move.roll 4", "moved amy 9->13 vitalEnergy",
		"drew amy treasure.t2 t2-sword-3",
		"turn bob r1 t2")
	wantDiscard(t, g, engine.DeckChance, "chance-vital-2", "chance-vital-1")
	wantPlayer(t, g, "amy", 13, 10, "t2-sword-3")
}

// R-CHANCE-2: the extra roll takes the movement modifiers, and a fight on
// the new tile is fought this turn.
func TestRuleVitalEnergyIntoFight(t *testing.T) {
	// A scout: 1 + 1 = 2 from tile 3 to 5, then 2 + 1 = 3 to tile 8 (E1).
	g := newGame(pc("amy", 0, scout, 3, 10), pc("bob", 1, monk, 20, 10))
	stack(g, engine.DeckChance, "chance-vital-2")
	stack(g, engine.DeckEnemyT1, "e1-bandit-3")
	o := act(t, g, engine.ActMove, dice(1, 2)...)
	wantLog(t, o,
		"dice amy move.roll 1 [1]=2", "moved amy 3->5 move",
		"drew amy chance chance-vital-2", "chance amy chance-vital-2 vitalEnergy",
		"dice amy move.roll 2 [1]=3", "moved amy 5->8 vitalEnergy",
		"composition tile=8 t1 1xT1", "spawned c1 e1-bandit-3 t1 hp=2")
	wantAt(t, g, engine.StepCombat, "amy")
	if cb := g.Public.Combat; cb.TileID != 8 || cb.Tier != 1 || cb.Cause != "tile" {
		t.Fatalf("combat %+v", cb)
	}
	// Vital Energy onto the final tile ends the game at the end of the round.
	g = onChance(32, "chance-vital-1", pc("amy", 0, warrior, 0, 10), pc("bob", 1, monk, 20, 10))
	o = act(t, g, engine.ActMove, dice(1, 4)...)
	if p := player(t, g, "amy"); p.Pos != 35 || !g.Public.EndTriggered {
		t.Fatalf("amy on %d, end %v", p.Pos, g.Public.EndTriggered)
	}
}

// R-CHANCE-3, R-NEAR-1: Mystic Wave swaps the player with the nearest
// other player; neither resolves its new tile.
func TestRuleMysticWave(t *testing.T) {
	// bob (seat 0) on 1 is 4 away, cy (seat 2) on 8 is 3 away: cy.
	g := onChance(5, "chance-mystic-2", pc("amy", 1, warrior, 0, 10), pc("bob", 0, monk, 1, 10), pc("cy", 2, scout, 8, 10))
	o := act(t, g, engine.ActMove, die(1))
	wantLog(t, o,
		"dice amy move.roll 1", "moved amy 4->5 move",
		"drew amy chance chance-mystic-2", "chance amy chance-mystic-2 mysticWave",
		"moved amy 5->8 mysticWave", "moved cy 8->5 mysticWave",
		"turn bob r1 t2")
	wantTags(t, o, "move.roll")
	if g.Public.Combat != nil {
		t.Fatal("the swap onto enemy tile 8 started a fight")
	}
	wantDiscard(t, g, engine.DeckChance, "chance-mystic-2")

	// Ahead and behind count alike: cy on 9 (4 ahead) against bob on 0
	// (5 behind).
	g = onChance(5, "chance-mystic-1", pc("amy", 1, warrior, 0, 10), pc("bob", 0, monk, 0, 10), pc("cy", 2, scout, 9, 10))
	player(t, g, "bob").Pos = 0
	act(t, g, engine.ActMove, die(1))
	wantPlayer(t, g, "cy", 5, 10)
	wantPlayer(t, g, "amy", 9, 10)

	// Swapped onto the final tile: the end is triggered.
	g = onChance(32, "chance-mystic-1", pc("amy", 0, warrior, 0, 10), pc("bob", 1, monk, 35, 10))
	o = act(t, g, engine.ActMove, die(1))
	wantLog(t, o,
		"dice amy move.roll 1", "moved amy 31->32 move",
		"drew amy chance chance-mystic-1", "chance amy chance-mystic-1 mysticWave",
		"moved amy 32->35 mysticWave", "moved bob 35->32 mysticWave",
		"turn bob r1 t2")
	if !g.Public.EndTriggered {
		t.Fatal("swapped onto the final tile without triggering the end")
	}
}

// R-NEAR-1: a tie for nearest is broken by chooseOne over the tied uids
// sorted ascending (tiebreak.nearest.pick, ctx.reason), not seat order.
func TestRuleNearestTieBreak(t *testing.T) {
	// Seats: 0 zoe on 8, 1 amy (to 5), 2 bob on 2, 3 dan on 11. zoe and
	// bob are both 3 away; sorted [bob zoe]; the word 1 picks index
	// 1 % 2 = 1: zoe (seat order [zoe bob] would give bob).
	g := onChance(5, "chance-mystic-1", pc("amy", 1, warrior, 0, 10), pc("bob", 2, monk, 2, 10), pc("dan", 3, monk, 11, 10), pc("zoe", 0, scout, 8, 10))
	o := act(t, g, engine.ActMove, die(1), 1)
	wantLog(t, o,
		"dice amy move.roll 1", "moved amy 4->5 move",
		"drew amy chance chance-mystic-1", "chance amy chance-mystic-1 mysticWave",
		"tiebreak mysticWave [bob zoe]->zoe",
		"moved amy 5->8 mysticWave", "moved zoe 8->5 mysticWave",
		"turn bob r1 t2")
	wantTags(t, o, "move.roll", "tiebreak.nearest.pick")
	if r := o.audit[1].Ctx.Reason; r != "mysticWave" {
		t.Fatalf("ctx.reason %q", r)
	}

	// Three tied at 2: mia and eve on 7, kai on 3. Sorted [eve kai mia].
	// chooseOne of 3 rejects 4294967295; 4294967294 % 3 = 2: mia. Spirit
	// takes 2 HP from her.
	g = onChance(5, "chance-spirit-2", pc("amy", 1, warrior, 0, 10), pc("kai", 2, monk, 3, 10), pc("eve", 3, monk, 7, 10), pc("mia", 0, scout, 7, 10))
	o = act(t, g, engine.ActMove, die(1), reject3, 4294967294)
	wantLog(t, o,
		"dice amy move.roll 1", "moved amy 4->5 move",
		"drew amy chance chance-spirit-2", "chance amy chance-spirit-2 nefariousSpirit",
		"tiebreak nefariousSpirit [eve kai mia]->mia",
		"hit nefariousSpirit->mia 2 hp=8",
		"turn kai r1 t2")
	if r := o.audit[1].Ctx.Reason; r != "nefariousSpirit" {
		t.Fatalf("ctx.reason %q", r)
	}

	// A player on amy's own tile is nearest (distance 0), before one a
	// tile away that comes later in seat order: no tie, no word.
	g = onChance(5, "chance-spirit-2", pc("amy", 1, warrior, 0, 10), pc("kai", 0, monk, 5, 10), pc("mia", 2, scout, 6, 10))
	wantLog(t, act(t, g, engine.ActMove, die(1)),
		"dice amy move.roll 1", "moved amy 4->5 move",
		"drew amy chance chance-spirit-2", "chance amy chance-spirit-2 nefariousSpirit",
		"hit nefariousSpirit->kai 2 hp=8",
		"turn kai r1 t2")
}

// R-CHANCE-4, R-KO-1: Nefarious Spirit takes 2 HP from the nearest other
// player; at 0 HP it is knocked out to the first tile of its zone with 5
// HP and its items.
func TestRuleNefariousSpirit(t *testing.T) {
	// HP 3 -> 1: no knock-out.
	g := onChance(5, "chance-spirit-1", pc("amy", 0, warrior, 0, 10), pc("bob", 1, monk, 17, 3))
	wantLog(t, act(t, g, engine.ActMove, die(1)),
		"dice amy move.roll 1", "moved amy 4->5 move",
		"drew amy chance chance-spirit-1", "chance amy chance-spirit-1 nefariousSpirit",
		"hit nefariousSpirit->bob 2 hp=1", "turn bob r1 t2")
	wantDiscard(t, g, engine.DeckChance, "chance-spirit-1")

	// The zones: 1-11 (start tile 0), 12-23 (12), 24-34 (24); tile 0 is
	// its own start; the final tile 35 is in no zone and goes back to the
	// zone below it (24).
	for _, c := range []struct{ from, to, hp int }{
		{0, 0, 2}, {1, 0, 2}, {11, 0, 1}, {12, 12, 2}, {17, 12, 2}, {23, 12, 2},
		{24, 24, 2}, {29, 24, 2}, {34, 24, 2}, {35, 24, 2},
	} {
		g := onChance(5, "chance-spirit-1", pc("amy", 0, warrior, 0, 10), pc("bob", 1, monk, c.from, c.hp, "t1-dagger-2"))
		wantLog(t, act(t, g, engine.ActMove, die(1)),
			"dice amy move.roll 1", "moved amy 4->5 move",
			"drew amy chance chance-spirit-1", "chance amy chance-spirit-1 nefariousSpirit",
			"hit nefariousSpirit->bob 2 hp=0",
			"knockedOut bob "+itoa(c.from)+"->"+itoa(c.to)+" hp=5",
			"turn bob r1 t2")
		wantPlayer(t, g, "bob", c.to, 5, "t1-dagger-2")
	}
}

// R-CHANCE-5: Healing Spring heals 4, never above 10.
func TestRuleHealingSpring(t *testing.T) {
	for _, c := range []struct{ hp, gained int }{{5, 4}, {6, 4}, {7, 3}, {10, 0}} {
		g := onChance(9, "chance-spring-2", pc("amy", 0, warrior, 0, c.hp), pc("bob", 1, monk, 20, 10))
		wantLog(t, act(t, g, engine.ActMove, die(1)),
			"dice amy move.roll 1", "moved amy 8->9 move",
			"drew amy chance chance-spring-2", "chance amy chance-spring-2 healingSpring",
			"healed amy +"+itoa(c.gained)+" hp="+itoa(c.hp+c.gained), "turn bob r1 t2")
	}
}

// R-CHANCE-6: Windfall draws a treasure of the zone's tier.
func TestRuleWindfall(t *testing.T) {
	for _, c := range []struct {
		tile, deck int
		card       string
	}{
		{5, engine.DeckTreasureT1, "t1-potion-3"},
		{16, engine.DeckTreasureT2, "t2-chain-3"},
		{28, engine.DeckTreasureT3, "t3-plate-2"},
	} {
		g := onChance(c.tile, "chance-windfall-1", pc("amy", 0, warrior, 0, 10), pc("bob", 1, monk, 1, 10))
		stack(g, c.deck, c.card)
		wantLog(t, act(t, g, engine.ActMove, die(1)),
			"dice amy move.roll 1", "moved amy "+itoa(c.tile-1)+"->"+itoa(c.tile)+" move",
			"drew amy chance chance-windfall-1", "chance amy chance-windfall-1 windfall",
			"drew amy "+engine.DeckIDs[c.deck]+" "+c.card, "turn bob r1 t2")
		wantPlayer(t, g, "amy", c.tile, 10, c.card)
	}
}

// R-CHANCE-7: Ambush is one enemy from the zone's tier deck, no
// composition roll, fought at once.
func TestRuleAmbush(t *testing.T) {
	for _, c := range []struct {
		tile, tier int
		enemy      string
		hp         int
	}{
		{5, 1, "e1-rats-2", 3},
		{20, 2, "e2-cultist-2", 4},
		{32, 3, "e3-drake-1", 8},
	} {
		g := onChance(c.tile, "chance-ambush-1", pc("amy", 0, warrior, 0, 10), pc("bob", 1, monk, 1, 10))
		stack(g, engine.EnemyDeck(c.tier), c.enemy)
		o := act(t, g, engine.ActMove, die(1))
		wantLog(t, o,
			"dice amy move.roll 1", "moved amy "+itoa(c.tile-1)+"->"+itoa(c.tile)+" move",
			"drew amy chance chance-ambush-1", "chance amy chance-ambush-1 ambush",
			"spawned c1 "+c.enemy+" t"+itoa(c.tier)+" hp="+itoa(c.hp))
		wantTags(t, o, "move.roll")
		wantAt(t, g, engine.StepCombat, "amy")
		cb := g.Public.Combat
		if cb.Cause != "ambush" || cb.TileID != c.tile || cb.Tier != c.tier || len(cb.Enemies) != 1 || cb.UID != "amy" {
			t.Fatalf("combat %+v", cb)
		}
		wantDiscard(t, g, engine.DeckChance, "chance-ambush-1")
	}
}

// R-DECK-2: drawing the last chance card shuffles the discard pile in at
// once, before the card's effect; the card itself is discarded after.
func TestRuleChanceReshuffle(t *testing.T) {
	g := onChance(9, "chance-spring-1", pc("amy", 0, warrior, 0, 5), pc("bob", 1, monk, 20, 10))
	piles(g, engine.DeckChance, []string{"chance-spring-1"}, []string{"chance-mystic-1", "chance-earthquake-2"})
	// The shuffle of 2 reads one j for i = 1: the word 0 gives j = 0, a
	// swap: [earthquake-2 mystic-1].
	o := act(t, g, engine.ActMove, die(1), 0)
	wantLog(t, o,
		"dice amy move.roll 1", "moved amy 8->9 move",
		"shuffled chance 2",
		"drew amy chance chance-spring-1", "chance amy chance-spring-1 healingSpring",
		"healed amy +4 hp=9", "turn bob r1 t2")
	wantTags(t, o, "move.roll", "deck.reshuffle.chance")
	wantPile(t, g, engine.DeckChance, "chance-earthquake-2", "chance-mystic-1")
	wantDiscard(t, g, engine.DeckChance, "chance-spring-1")
}
