package reducers_test

import (
	"testing"

	"github.com/fairboard/fairboard/games/dungeon/engine"
)

// R-CLASS-DUELIST: after a round's dice each duelist with its re-roll
// unused decides, challenger first; the new defense die replaces the old;
// the damage is dealt once both have decided. Once per duel.
func TestRuleDuelistReroll(t *testing.T) {
	g := duelling(pc("amy", 0, duelist, 0, 10), pc("bob", 1, duelist, 0, 10))
	// Round 1: amy 3 / 1, bob 4 / 2. Nothing is dealt yet; amy decides.
	wantLog(t, act(t, g, engine.ActDuelRound, dice(3, 1, 4, 2)...),
		"dice amy duel.player.attack 3", "dice amy duel.player.defense 1",
		"dice bob duel.player.attack 4", "dice bob duel.player.defense 2")
	wantAt(t, g, engine.StepDuel, "amy")
	refuse(t, g, engine.Action{Kind: engine.ActDuelRound, Actor: "amy"}, engine.CodeInvalidAction)
	refuse(t, g, engine.Action{Kind: engine.ActReroll, Actor: "bob"}, engine.CodeNotYourTurn)
	refuse(t, g, engine.Action{Kind: engine.ActDeclineReroll, Actor: "ghost"}, engine.CodeUnknownPlayer)
	// amy re-rolls her defense: 5 replaces 1. Now bob decides.
	o := act(t, g, engine.ActReroll, die(5))
	wantLog(t, o, "dice amy duel.defense.reroll 5")
	wantTags(t, o, "duel.defense.reroll")
	if x := o.audit[0].Ctx; x.ActorUID != "amy" || x.DuelID != "d1" {
		t.Fatalf("reroll ctx %+v", x)
	}
	wantAt(t, g, engine.StepDuel, "bob")
	refuse(t, g, engine.Action{Kind: engine.ActReroll, Actor: "amy"}, engine.CodeNotYourTurn)
	refuse(t, g, engine.Action{Kind: engine.ActDuelRound, Actor: "bob"}, engine.CodeInvalidAction)
	// bob keeps his 2: amy -> bob 3 - 2 = 1; bob -> amy 4 - 5 < 0.
	wantLog(t, act(t, g, engine.ActDeclineReroll), "declined d1 bob", "hit amy->bob 1 hp=9", "hit bob->amy 0 hp=10")
	wantAt(t, g, engine.StepDuel, "amy")

	// Round 2: amy 2 / 2, bob 6 / 1. amy has used hers: bob decides, and
	// re-rolls 1 into 6. amy -> bob 2 - 6 < 0; bob -> amy 6 - 2 = 4.
	wantLog(t, act(t, g, engine.ActDuelRound, dice(2, 2, 6, 1)...),
		"dice amy duel.player.attack 2", "dice amy duel.player.defense 2",
		"dice bob duel.player.attack 6", "dice bob duel.player.defense 1")
	wantAt(t, g, engine.StepDuel, "bob")
	wantLog(t, act(t, g, engine.ActReroll, die(6)), "dice bob duel.defense.reroll 6", "hit amy->bob 0 hp=9", "hit bob->amy 4 hp=6")

	// Round 3: both used: no decision. amy 5 / 5, bob 1 / 1: 5 - 1 = 4,
	// 1 - 5 < 0. Totals 1 + 0 + 4 = 5 against 0 + 4 + 0 = 4: amy wins;
	// bob holds nothing to take.
	wantLog(t, act(t, g, engine.ActDuelRound, dice(5, 5, 1, 1)...),
		"dice amy duel.player.attack 5", "dice amy duel.player.defense 5",
		"dice bob duel.player.attack 1", "dice bob duel.player.defense 1",
		"hit amy->bob 4 hp=5", "hit bob->amy 0 hp=6",
		"duelEnded d1 winner=amy damage", "turn bob r1 t2")
	// bob's turn: he shares the tile with amy, so he waits in preDuel.
	wantAt(t, g, engine.StepPreDuel, "bob")
}

// R-CLASS-DUELIST: only duelists decide; a duelist target of a
// non-duelist decides alone; a re-roll may make things worse.
func TestRuleDuelistRerollTargetOnly(t *testing.T) {
	g := duelling(pc("amy", 0, warrior, 0, 10), pc("bob", 1, duelist, 0, 10))
	// amy 2 / 3, bob 5 / 4: bob decides; re-rolls 4 into 1.
	// amy -> bob 2 + 1 - 1 = 2; bob -> amy 5 - 3 = 2.
	act(t, g, engine.ActDuelRound, dice(2, 3, 5, 4)...)
	wantAt(t, g, engine.StepDuel, "bob")
	refuse(t, g, engine.Action{Kind: engine.ActDeclineReroll, Actor: "amy"}, engine.CodeNotYourTurn)
	wantLog(t, act(t, g, engine.ActReroll, die(1)), "dice bob duel.defense.reroll 1", "hit amy->bob 2 hp=8", "hit bob->amy 2 hp=8")

	// A duelist challenger of a non-duelist: decides alone, declines.
	// amy 2 / 3, bob 5 / 4: amy -> bob 2 - 4 < 0; bob -> amy 5 + 1 - 3 = 3.
	g = duelling(pc("amy", 0, duelist, 0, 10), pc("bob", 1, warrior, 0, 10))
	act(t, g, engine.ActDuelRound, dice(2, 3, 5, 4)...)
	wantAt(t, g, engine.StepDuel, "amy")
	wantLog(t, act(t, g, engine.ActDeclineReroll), "declined d1 amy", "hit amy->bob 0 hp=10", "hit bob->amy 3 hp=7")
	wantAt(t, g, engine.StepDuel, "amy")
	// Declining keeps the re-roll for a later round.
	act(t, g, engine.ActDuelRound, dice(2, 3, 5, 4)...)
	wantAt(t, g, engine.StepDuel, "amy")

	// With duelistRerolls 0 nobody decides: the damage comes at once.
	r := variant(t, map[string]any{"classes.duelistRerolls": 0})
	g = newGameOn(r, pc("amy", 0, duelist, 14, 10), pc("bob", 1, duelist, 14, 10))
	duel(g, "bob")
	wantLog(t, act(t, g, engine.ActDuelRound, dice(2, 3, 5, 4)...),
		"dice amy duel.player.attack 2", "dice amy duel.player.defense 3",
		"dice bob duel.player.attack 5", "dice bob duel.player.defense 4",
		"hit amy->bob 0 hp=10", "hit bob->amy 2 hp=8")
}

// R-CLASS-DUELIST: the refusals of reroll and declineReroll.
func TestRuleRerollRefusals(t *testing.T) {
	lob := lobby(t, pc("amy", 0, duelist, 0, 10), pc("bob", 1, duelist, 0, 10))
	for _, kind := range []engine.ActionKind{engine.ActReroll, engine.ActDeclineReroll} {
		refuse(t, lob, engine.Action{Kind: kind, Actor: "amy"}, engine.CodeNotStarted)
		// No duel at all.
		g := newGame(pc("amy", 0, duelist, 14, 10), pc("bob", 1, duelist, 14, 10))
		refuse(t, g, engine.Action{Kind: kind, Actor: "amy"}, engine.CodeWrongStep)
		refuse(t, g, engine.Action{Kind: kind, Actor: "ghost"}, engine.CodeUnknownPlayer)
		// A duel whose dice are not rolled yet.
		g = duelling(pc("amy", 0, duelist, 0, 10), pc("bob", 1, duelist, 0, 10))
		refuse(t, g, engine.Action{Kind: kind, Actor: "amy"}, engine.CodeWrongStep)
		// Rolled, but the step is not the duel's (a state no action
		// leads to, guarded all the same).
		act(t, g, engine.ActDuelRound, dice(1, 1, 1, 1)...)
		g.Public.Step = engine.StepPostCombat
		refuse(t, g, engine.Action{Kind: kind, Actor: "amy"}, engine.CodeWrongStep)
	}
}
