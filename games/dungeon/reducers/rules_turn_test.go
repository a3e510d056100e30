package reducers_test

import (
	"testing"

	"github.com/fairboard/fairboard/games/dungeon/engine"
)

// R-TURN-7: every action of the current player's turn is refused, with the
// game unchanged, in the lobby (not_started), from a stranger
// (unknown_player), from a seated player the game does not wait for
// (not_your_turn) and in another step (wrong_step).
func TestRuleTurnGuards(t *testing.T) {
	// The step each kind belongs to, and a step it does not.
	kinds := []struct {
		kind        engine.ActionKind
		step, other engine.Step
	}{
		{engine.ActUseItem, engine.StepManage, engine.StepMoveOrSleep},
		{engine.ActDropItem, engine.StepManage, engine.StepCapacity},
		{engine.ActEndManage, engine.StepManage, engine.StepPreDuel},
		{engine.ActOfferDuel, engine.StepPreDuel, engine.StepManage},
		{engine.ActSkipDuel, engine.StepPreDuel, engine.StepMoveOrSleep},
		{engine.ActMove, engine.StepMoveOrSleep, engine.StepPreDuel},
		{engine.ActSleep, engine.StepMoveOrSleep, engine.StepManage},
		{engine.ActCombatRound, engine.StepCombat, engine.StepMoveOrSleep},
		{engine.ActDuelRound, engine.StepDuel, engine.StepMoveOrSleep},
		{engine.ActDiscard, engine.StepCapacity, engine.StepManage},
	}
	lob := lobby(t, pc("amy", 0, warrior, 0, 10), pc("bob", 1, monk, 0, 10))
	for _, k := range kinds {
		a := engine.Action{Kind: k.kind, Actor: "amy", Target: "bob", CardID: "t1-potion-1"}
		refuse(t, lob, a, engine.CodeNotStarted)

		// amy (holding a potion, sharing tile 3 with bob) is awaited in
		// the step the kind needs.
		g := newGame(pc("amy", 0, warrior, 3, 6, "t1-potion-1", "t1-dagger-1", "t1-dagger-2", "t1-dagger-3", "t1-leather-1"),
			pc("bob", 1, monk, 3, 10))
		turnOf(g, "amy", k.step)
		if k.step == engine.StepCombat {
			fight(g, 1, foe("e1-goblin-1"))
		}
		if k.step == engine.StepDuel {
			duel(g, "bob")
		}
		a.Actor = "ghost"
		refuse(t, g, a, engine.CodeUnknownPlayer)
		a.Actor = "bob"
		refuse(t, g, a, engine.CodeNotYourTurn)

		g = newGame(pc("amy", 0, warrior, 3, 6, "t1-potion-1", "t1-dagger-1", "t1-dagger-2", "t1-dagger-3", "t1-leather-1"),
			pc("bob", 1, monk, 3, 10))
		turnOf(g, "amy", k.other)
		a.Actor = "amy"
		refuse(t, g, a, engine.CodeWrongStep)
	}
}

// R-TURN-2, R-ITEM-2: potions heal in manage, never above 10; an Elixir
// heals to the maximum; a used potion goes to its own tier's discard pile.
func TestRuleUsePotions(t *testing.T) {
	g := newGame(pc("amy", 0, warrior, 4, 1, "t3-elixir-1", "t1-potion-2", "t2-gpotion-1", "t1-dagger-1"), pc("bob", 1, monk, 9, 10))
	turnOf(g, "amy", engine.StepManage)
	use := func(id string) outcome {
		return do(t, g, engine.Action{Kind: engine.ActUseItem, Actor: "amy", CardID: id})
	}
	// Elixir: HP 1 -> 10, +9.
	wantLog(t, use("t3-elixir-1"), "used amy t3-elixir-1 +9 hp=10")
	player(t, g, "amy").HP = 2
	// Potion heal 3: 2 -> 5.
	wantLog(t, use("t1-potion-2"), "used amy t1-potion-2 +3 hp=5")
	// Greater potion heal 6: 5 -> 11, capped at 10: +5.
	wantLog(t, use("t2-gpotion-1"), "used amy t2-gpotion-1 +5 hp=10")
	wantPlayer(t, g, "amy", 4, 10, "t1-dagger-1")
	wantDiscard(t, g, engine.DeckTreasureT1, "t1-potion-2")
	wantDiscard(t, g, engine.DeckTreasureT2, "t2-gpotion-1")
	wantDiscard(t, g, engine.DeckTreasureT3, "t3-elixir-1")
	// amy still holds an item: the game waits in manage.
	wantAt(t, g, engine.StepManage, "amy")
}

// R-TURN-2: only potions are used; an item not held is refused.
func TestRuleUseItemRefusals(t *testing.T) {
	g := newGame(pc("amy", 0, warrior, 4, 5, "t1-dagger-1", "t1-smoke-1", "t1-boots-1", "t3-relic-1", "t1-leather-1"), pc("bob", 1, monk, 9, 10))
	turnOf(g, "amy", engine.StepManage)
	for _, id := range []string{"t1-dagger-1", "t1-smoke-1", "t1-boots-1", "t3-relic-1", "t1-leather-1"} {
		refuse(t, g, engine.Action{Kind: engine.ActUseItem, Actor: "amy", CardID: id}, engine.CodeInvalidAction)
	}
	refuse(t, g, engine.Action{Kind: engine.ActUseItem, Actor: "amy", CardID: "t1-potion-1"}, engine.CodeItemNotHeld)
	refuse(t, g, engine.Action{Kind: engine.ActUseItem, Actor: "amy", CardID: "no-such-card"}, engine.CodeItemNotHeld)
	refuse(t, g, engine.Action{Kind: engine.ActDropItem, Actor: "amy", CardID: "t1-potion-1"}, engine.CodeItemNotHeld)
}

// R-TURN-2, R-ITEM-1: any item may be dropped in manage, to its discard
// pile, and the bonuses follow the inventory; once the last item is gone
// the turn moves on by itself (R-TURN-1: preDuel waits only when another
// player shares the tile).
func TestRuleDropAndEndManage(t *testing.T) {
	// amy: Great axe (atk 3), Dagger (1), Plate (def 3), Relic (2/2),
	// Boots (move 1): atk 3, def 3, move 1.
	g := newGame(pc("amy", 0, warrior, 4, 5, "t1-dagger-1", "t3-axe-1", "t3-plate-1", "t3-relic-1", "t1-boots-1"),
		pc("bob", 1, monk, 9, 10))
	turnOf(g, "amy", engine.StepManage)
	drop := func(id string) outcome {
		return do(t, g, engine.Action{Kind: engine.ActDropItem, Actor: "amy", CardID: id})
	}
	bonus := func(atk, def, mv int) {
		t.Helper()
		pl := player(t, g, "amy")
		if pl.AtkBonus != atk || pl.DefBonus != def || pl.MoveBonus != mv {
			t.Fatalf("bonuses %d/%d/%d, want %d/%d/%d", pl.AtkBonus, pl.DefBonus, pl.MoveBonus, atk, def, mv)
		}
	}
	bonus(3, 3, 1)
	wantLog(t, drop("t3-axe-1"), "dropped amy t3-axe-1")
	bonus(2, 3, 1) // best weapon now the Relic (2)
	drop("t3-plate-1")
	bonus(2, 2, 1) // best armor now the Relic (2)
	drop("t3-relic-1")
	bonus(1, 0, 1) // Dagger only
	drop("t1-boots-1")
	bonus(1, 0, 0)
	wantAt(t, g, engine.StepManage, "amy")
	// The last item: manage ends by itself; bob is on another tile, so
	// preDuel passes too.
	drop("t1-dagger-1")
	bonus(0, 0, 0)
	wantAt(t, g, engine.StepMoveOrSleep, "amy")
	wantDiscard(t, g, engine.DeckTreasureT1, "t1-boots-1", "t1-dagger-1")
	wantDiscard(t, g, engine.DeckTreasureT3, "t3-axe-1", "t3-plate-1", "t3-relic-1")

	// endManage with items kept: bob shares the tile, so preDuel waits.
	g = newGame(pc("amy", 0, warrior, 9, 5, "t1-dagger-1"), pc("bob", 1, monk, 9, 10))
	turnOf(g, "amy", engine.StepManage)
	wantLog(t, act(t, g, engine.ActEndManage))
	wantAt(t, g, engine.StepPreDuel, "amy")
	wantLog(t, act(t, g, engine.ActSkipDuel))
	wantAt(t, g, engine.StepMoveOrSleep, "amy")
}

// R-TURN-5: a player over capacity (4) after its tile discards until it
// fits; at exactly 4 the turn just ends.
func TestRuleCapacity(t *testing.T) {
	// amy on tile 1 with 4 items rolls 1: tile 2, treasure T1, top card
	// t1-smoke-2. Five items: the game waits in capacity.
	g := newGame(pc("amy", 0, scout, 0, 10, "t1-dagger-1", "t1-leather-1", "t1-potion-1", "t2-sword-1"), pc("bob", 1, monk, 9, 10))
	stack(g, engine.DeckTreasureT1, "t1-smoke-2")
	player(t, g, "amy").Pos = 0
	// A scout moves die + 1: 1 + 1 = 2.
	wantLog(t, act(t, g, engine.ActMove, die(1)),
		"dice amy move.roll 1 [1]=2", "moved amy 0->2 move", "drew amy treasure.t1 t1-smoke-2")
	wantAt(t, g, engine.StepCapacity, "amy")
	refuse(t, g, engine.Action{Kind: engine.ActDropItem, Actor: "amy", CardID: "t2-sword-1"}, engine.CodeWrongStep)
	refuse(t, g, engine.Action{Kind: engine.ActDiscard, Actor: "amy", CardID: "t1-potion-2"}, engine.CodeItemNotHeld)
	refuse(t, g, engine.Action{Kind: engine.ActDiscard, Actor: "bob", CardID: "t2-sword-1"}, engine.CodeNotYourTurn)
	o := do(t, g, engine.Action{Kind: engine.ActDiscard, Actor: "amy", CardID: "t2-sword-1"})
	// Four items now: the turn ends, bob's begins (on tile 9 alone, no
	// items: manage and preDuel pass).
	wantLog(t, o, "discarded amy t2-sword-1", "turn bob r1 t2")
	wantPlayer(t, g, "amy", 2, 10, "t1-dagger-1", "t1-leather-1", "t1-potion-1", "t1-smoke-2")
	wantDiscard(t, g, engine.DeckTreasureT2, "t2-sword-1")
	wantAt(t, g, engine.StepMoveOrSleep, "bob")

	// Three items plus one drawn is exactly the capacity: no wait.
	g = newGame(pc("amy", 0, warrior, 1, 10, "t1-dagger-1", "t1-leather-1", "t1-potion-1"), pc("bob", 1, monk, 9, 10))
	stack(g, engine.DeckTreasureT1, "t1-smoke-2")
	wantLog(t, act(t, g, engine.ActMove, die(1)),
		"dice amy move.roll 1", "moved amy 1->2 move", "drew amy treasure.t1 t1-smoke-2", "turn bob r1 t2")

	// Capacity is the ruleset's: with capacity 3 the fourth item must go.
	r3 := variant(t, map[string]any{"capacity": 3})
	g = newGameOn(r3, pc("amy", 0, warrior, 1, 10, "t1-dagger-1", "t1-leather-1", "t1-potion-1"), pc("bob", 1, monk, 9, 10))
	stack(g, engine.DeckTreasureT1, "t1-smoke-2")
	act(t, g, engine.ActMove, die(1))
	wantAt(t, g, engine.StepCapacity, "amy")
}

// R-TURN-6: after the last player in turn order the round ends and the
// next begins with the first; the turn counter counts every turn.
func TestRuleRoundAdvance(t *testing.T) {
	// Turn order bob, amy (not seat order). amy is last; she sleeps.
	g := newGame(pc("bob", 1, monk, 7, 10), pc("amy", 0, warrior, 4, 10))
	g.Public.Turn = 6
	turnOf(g, "amy", engine.StepMoveOrSleep)
	o := act(t, g, engine.ActSleep)
	wantLog(t, o, "slept amy +0 hp=10", "roundEnded 1", "turn bob r2 t7")
	if p := &g.Public; p.Round != 2 || p.TurnIndex != 0 || p.Current != "bob" {
		t.Fatalf("round %d index %d current %q", p.Round, p.TurnIndex, p.Current)
	}
	// bob is first: after him comes amy, same round.
	wantLog(t, act(t, g, engine.ActSleep), "slept bob +0 hp=10", "turn amy r2 t8")
	if g.Public.TurnIndex != 1 {
		t.Fatalf("index %d", g.Public.TurnIndex)
	}
}

// R-TURN-4, R-CLASS-MONK-2: sleeping heals 3 (a monk 4), never above 10,
// reads no RNG, and ends the turn.
func TestRuleSleep(t *testing.T) {
	for _, c := range []struct {
		class      engine.Class
		hp, gained int
	}{
		{warrior, 6, 3}, {warrior, 8, 2}, {warrior, 10, 0},
		{scout, 1, 3}, {duelist, 7, 3},
		{monk, 5, 4}, {monk, 6, 4}, {monk, 7, 3}, {monk, 10, 0},
	} {
		g := newGame(pc("amy", 0, c.class, 4, c.hp), pc("bob", 1, warrior, 9, 10))
		o := act(t, g, engine.ActSleep)
		hp := c.hp + c.gained
		wantLog(t, o, "slept amy +"+itoa(c.gained)+" hp="+itoa(hp), "turn bob r1 t2")
		wantPlayer(t, g, "amy", 4, hp)
	}
}

func itoa(n int) string {
	if n < 0 {
		return "-" + itoa(-n)
	}
	if n < 10 {
		return string(rune('0' + n))
	}
	return itoa(n/10) + string(rune('0'+n%10))
}
