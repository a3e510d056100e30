package reducers_test

import (
	"testing"

	"github.com/fairboard/fairboard/games/dungeon/engine"
)

// offer sends amy's challenge to bob.
func offer(t *testing.T, g *engine.Game, ws ...uint32) outcome {
	t.Helper()
	return do(t, g, engine.Action{Kind: engine.ActOfferDuel, Actor: "amy", Target: "bob"}, ws...)
}

// preDuel returns a game where amy, on tile 14 with bob, is in preDuel.
func preDuel(amy, bob engine.Player, others ...engine.Player) *engine.Game {
	amy.Pos, bob.Pos = 14, 14
	g := newGame(append([]engine.Player{amy, bob}, others...)...)
	turnOf(g, "amy", engine.StepPreDuel)
	return g
}

// R-DUEL-1: a challenge names another seated player on the same tile.
func TestRuleOfferDuelRefusals(t *testing.T) {
	g := preDuel(pc("amy", 0, warrior, 0, 10), pc("bob", 1, warrior, 0, 10), pc("cy", 2, warrior, 15, 10))
	dare := func(target string) engine.Action {
		return engine.Action{Kind: engine.ActOfferDuel, Actor: "amy", Target: target}
	}
	refuse(t, g, dare("ghost"), engine.CodeUnknownPlayer)
	refuse(t, g, dare(""), engine.CodeUnknownPlayer)
	refuse(t, g, dare("amy"), engine.CodeInvalidAction)
	refuse(t, g, dare("cy"), engine.CodeInvalidAction) // one tile away
	wantLog(t, do(t, g, dare("bob")), "duel d1 amy->bob")
	// The duel's id counts on from the game's counter, past the table of
	// ready-made ids.
	for _, c := range []struct {
		next int
		id   string
	}{{510, "d511"}, {511, "d512"}, {2000, "d2001"}} {
		g := preDuel(pc("amy", 0, warrior, 0, 10), pc("bob", 1, warrior, 0, 10))
		g.Public.NextID = c.next
		wantLog(t, do(t, g, dare("bob")), "duel "+c.id+" amy->bob")
	}
	g = preDuel(pc("amy", 0, warrior, 0, 10), pc("bob", 1, warrior, 0, 10))
	do(t, g, dare("bob"))
	wantAt(t, g, engine.StepDuel, "amy")
	if d := g.Public.Duel; d.ID != "d1" || d.Challenger != "amy" || d.Target != "bob" || d.Bracket {
		t.Fatalf("duel %+v", d)
	}
}

// R-DUEL-2, R-ITEM-3: a held Smoke bomb (the lowest tier, then the lowest
// id) is spent and cancels the duel, before a monk's roll; the challenger
// goes on to moveOrSleep.
func TestRuleSmokeBomb(t *testing.T) {
	for _, c := range []struct {
		items []string
		spent string
		left  []string
	}{
		{[]string{"t2-smoke-1", "t1-smoke-2", "t1-dagger-1", "t1-smoke-1"}, "t1-smoke-1", []string{"t2-smoke-1", "t1-smoke-2", "t1-dagger-1"}},
		{[]string{"t1-smoke-1", "t1-smoke-2"}, "t1-smoke-1", []string{"t1-smoke-2"}},
		{[]string{"t1-smoke-2", "t1-smoke-1"}, "t1-smoke-1", []string{"t1-smoke-2"}},
		{[]string{"t3-smoke-1", "t2-smoke-2"}, "t2-smoke-2", []string{"t3-smoke-1"}},
	} {
		// bob is a monk with his cancel unused: the bomb comes first.
		g := preDuel(pc("amy", 0, warrior, 0, 10), pc("bob", 1, monk, 0, 7, c.items...))
		wantLog(t, offer(t, g),
			"duel d1 amy->bob", "used bob "+c.spent+" +0 hp=7", "cancelled d1 bob smokeBomb")
		wantAt(t, g, engine.StepMoveOrSleep, "amy")
		wantPlayer(t, g, "bob", 14, 7, c.left...)
		if pl := player(t, g, "bob"); pl.MonkCancelUsed {
			t.Fatal("the monk's cancel was spent with the bomb")
		}
		if g.Public.Duel != nil {
			t.Fatal("a cancelled duel is on")
		}
		wantDiscard(t, g, rules.Card(c.spent).Deck, c.spent)
	}

	// keepSmokeBomb: the bomb is kept and the duel stands.
	bob := pc("bob", 1, warrior, 0, 10, "t1-smoke-1")
	bob.KeepSmokeBomb = true
	g := preDuel(pc("amy", 0, warrior, 0, 10), bob)
	wantLog(t, offer(t, g), "duel d1 amy->bob")
	wantAt(t, g, engine.StepDuel, "amy")
	wantPlayer(t, g, "bob", 14, 10, "t1-smoke-1")

	// A monk that keeps its bombs rolls instead: 5 cancels.
	bob = pc("bob", 1, monk, 0, 10, "t1-smoke-1")
	bob.KeepSmokeBomb = true
	g = preDuel(pc("amy", 0, warrior, 0, 10), bob)
	wantLog(t, offer(t, g, die(5)), "duel d1 amy->bob", "dice bob monk.cancel.roll 5", "cancelled d1 bob monk")
}

// R-CLASS-MONK-1: a challenged monk, once per game, rolls a d6
// (monk.cancel.roll, ctx.duelId): 5 or 6 cancels, 4 does not.
func TestRuleMonkCancel(t *testing.T) {
	for _, c := range []struct {
		roll   int
		cancel bool
	}{{1, false}, {4, false}, {5, true}, {6, true}} {
		g := preDuel(pc("amy", 0, warrior, 0, 10), pc("bob", 1, monk, 0, 10))
		g.Public.NextID = 4
		o := offer(t, g, die(c.roll))
		want := []string{"duel d5 amy->bob", "dice bob monk.cancel.roll " + itoa(c.roll)}
		if c.cancel {
			want = append(want, "cancelled d5 bob monk")
			wantAt(t, g, engine.StepMoveOrSleep, "amy")
		} else {
			wantAt(t, g, engine.StepDuel, "amy")
		}
		wantLog(t, o, want...)
		wantTags(t, o, "monk.cancel.roll")
		if x := o.audit[0].Ctx; x.DuelID != "d5" || x.ActorUID != "bob" {
			t.Fatalf("monk roll ctx %+v", x)
		}
		if !player(t, g, "bob").MonkCancelUsed {
			t.Fatal("the cancel is not marked used")
		}
	}
	// The d6 rejects 4294967292 and up: the next word decides.
	g := preDuel(pc("amy", 0, warrior, 0, 10), pc("bob", 1, monk, 0, 10))
	wantLog(t, offer(t, g, rejectD6, topD6), "duel d1 amy->bob", "dice bob monk.cancel.roll 6", "cancelled d1 bob monk")

	// Once used, the next challenge stands without a roll.
	bob := pc("bob", 1, monk, 0, 10)
	bob.MonkCancelUsed = true
	g = preDuel(pc("amy", 0, warrior, 0, 10), bob)
	wantLog(t, offer(t, g), "duel d1 amy->bob")
	wantAt(t, g, engine.StepDuel, "amy")

	// No one else rolls.
	for _, class := range []engine.Class{warrior, duelist, scout} {
		g = preDuel(pc("amy", 0, monk, 0, 10), pc("bob", 1, class, 0, 10))
		wantLog(t, offer(t, g), "duel d1 amy->bob")
	}

	// The threshold is the ruleset's: monkCancelMin 4 cancels on a 4.
	r := variant(t, map[string]any{"classes.monkCancelMin": 4})
	g = newGameOn(r, pc("amy", 0, warrior, 14, 10), pc("bob", 1, monk, 14, 10))
	turnOf(g, "amy", engine.StepPreDuel)
	wantLog(t, offer(t, g, die(4)), "duel d1 amy->bob", "dice bob monk.cancel.roll 4", "cancelled d1 bob monk")
}

// duelling returns amy (challenger) and bob in duel d1 on tile 14.
func duelling(amy, bob engine.Player) *engine.Game {
	amy.Pos, bob.Pos = 14, 14
	g := newGame(amy, bob)
	duel(g, "bob")
	return g
}

// R-DUEL-4/6/7, R-CLASS-WARRIOR: three rounds, dice challenger attack and
// defense then target attack and defense; damage as in combat, both at
// once; after the third round equal totals are a draw: no winner, nothing
// taken. The duel took the place of amy's move: her turn ends.
func TestRuleDuelDraw(t *testing.T) {
	// amy: warrior with Dagger (atk 1 + 1); bob: monk with Leather (def 1).
	g := duelling(pc("amy", 0, warrior, 0, 10, "t1-dagger-1"), pc("bob", 1, monk, 0, 10, "t1-leather-1"))
	// Round 1: amy 4 / 2, bob 5 / 1. amy -> bob 4 + 2 - (1 + 1) = 4;
	// bob -> amy 5 - 2 = 3.
	o := act(t, g, engine.ActDuelRound, dice(4, 2, 5, 1)...)
	wantLog(t, o,
		"dice amy duel.player.attack 4", "dice amy duel.player.defense 2",
		"dice bob duel.player.attack 5", "dice bob duel.player.defense 1",
		"hit amy->bob 4 hp=6", "hit bob->amy 3 hp=7")
	wantTags(t, o, "duel.player.attack", "duel.player.defense", "duel.player.attack", "duel.player.defense")
	for i, uid := range []string{"amy", "amy", "bob", "bob"} {
		if x := o.audit[i].Ctx; x.ActorUID != uid || x.DuelID != "d1" {
			t.Fatalf("die %d ctx %+v", i, x)
		}
	}
	wantAt(t, g, engine.StepDuel, "amy")
	if d := g.Public.Duel; d.Round != 1 || d.DealtC != 4 || d.DealtT != 3 {
		t.Fatalf("duel %+v", d)
	}
	// Round 2: amy 1 / 6, bob 2 / 6: 1 + 2 - 7 < 0 and 2 - 6 < 0.
	wantLog(t, act(t, g, engine.ActDuelRound, dice(1, 6, 2, 6)...),
		"dice amy duel.player.attack 1", "dice amy duel.player.defense 6",
		"dice bob duel.player.attack 2", "dice bob duel.player.defense 6",
		"hit amy->bob 0 hp=6", "hit bob->amy 0 hp=7")
	// Round 3: amy 6 / 1, bob 6 / 3: 6 + 2 - (3 + 1) = 4 and 6 - 1 = 5.
	// Totals 4 + 0 + 4 = 8 and 3 + 0 + 5 = 8: a draw.
	wantLog(t, act(t, g, engine.ActDuelRound, dice(6, 1, 6, 3)...),
		"dice amy duel.player.attack 6", "dice amy duel.player.defense 1",
		"dice bob duel.player.attack 6", "dice bob duel.player.defense 3",
		"hit amy->bob 4 hp=2", "hit bob->amy 5 hp=2",
		"duelEnded d1 winner= draw", "turn bob r1 t2")
	wantPlayer(t, g, "amy", 14, 2, "t1-dagger-1")
	wantPlayer(t, g, "bob", 14, 2, "t1-leather-1")
	if g.Public.Duel != nil {
		t.Fatal("the duel is still on")
	}
}

// R-DUEL-7/8: more total damage wins and takes the loser's best item.
func TestRuleDuelWinByDamage(t *testing.T) {
	for _, c := range []struct {
		name         string
		last         []int
		lines        []string
		amyHP, bobHP int
		amy, bob     []string
	}{
		// Round 3 amy 6 / 1, bob 6 / 4: 6 + 2 - (4 + 1) = 3, 6 - 1 = 5.
		// Totals 7 against 8: bob wins and takes the Dagger.
		{"target", []int{6, 1, 6, 4}, []string{"hit amy->bob 3 hp=3", "hit bob->amy 5 hp=2",
			"duelEnded d1 winner=bob damage", "took bob<-amy t1-dagger-1"}, 2, 3, nil, []string{"t1-leather-1", "t1-dagger-1"}},
		// Round 3 amy 6 / 2, bob 6 / 3: 4 and 6 - 2 = 4. Totals 8 against
		// 7: amy wins and takes the Leather armor.
		{"challenger", []int{6, 2, 6, 3}, []string{"hit amy->bob 4 hp=2", "hit bob->amy 4 hp=3",
			"duelEnded d1 winner=amy damage", "took amy<-bob t1-leather-1"}, 3, 2, []string{"t1-dagger-1", "t1-leather-1"}, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			g := duelling(pc("amy", 0, warrior, 0, 10, "t1-dagger-1"), pc("bob", 1, monk, 0, 10, "t1-leather-1"))
			act(t, g, engine.ActDuelRound, dice(4, 2, 5, 1)...) // 4 and 3, as in TestRuleDuelDraw
			act(t, g, engine.ActDuelRound, dice(1, 6, 2, 6)...) // 0 and 0
			o := act(t, g, engine.ActDuelRound, dice(c.last...)...)
			want := append([]string{
				"dice amy duel.player.attack " + itoa(c.last[0]), "dice amy duel.player.defense " + itoa(c.last[1]),
				"dice bob duel.player.attack " + itoa(c.last[2]), "dice bob duel.player.defense " + itoa(c.last[3]),
			}, c.lines...)
			wantLog(t, o, append(want, "turn bob r1 t2")...)
			wantPlayer(t, g, "amy", 14, c.amyHP, c.amy...)
			wantPlayer(t, g, "bob", 14, c.bobHP, c.bob...)
			// The winner holds Dagger and Leather: attack 1, defense 1.
			winner := player(t, g, map[string]string{"target": "bob", "challenger": "amy"}[c.name])
			if winner.AtkBonus != 1 || winner.DefBonus != 1 {
				t.Fatalf("winner's bonuses %d/%d", winner.AtkBonus, winner.DefBonus)
			}
		})
	}
}

// R-DUEL-7/8/9, R-KO-1: a knock-out ends the duel at once and wins it; the
// winner takes the loser's best item (highest tier, then attack + defense,
// then lowest id); the knocked-out target goes to its zone's first tile
// and the challenger's turn goes on to its end.
func TestRuleDuelKnockOutTarget(t *testing.T) {
	for _, c := range []struct {
		items []string
		blow  int
		taken string
	}{
		// bob's defense bonus lowers amy's blow: 6 + 1 - (1 + def).
		{[]string{"t1-dagger-1", "t2-smoke-1"}, 6, "t2-smoke-1"},                   // tier 2 beats attack 1
		{[]string{"t3-axe-1", "t3-relic-1", "t3-plate-2"}, 3, "t3-relic-1"},        // 2 + 2 beats 3
		{[]string{"t2-sword-2", "t2-chain-1", "t2-sword-1"}, 4, "t2-chain-1"},      // all 2: lowest id
		{[]string{"t1-boots-1", "t1-potion-1", "t1-leather-2"}, 5, "t1-leather-2"}, // def 1 beats 0
		{[]string{"t2-chain-2", "t2-chain-1"}, 4, "t2-chain-1"},                    // the same card: lowest id
		{[]string{"t2-smoke-1", "t1-dagger-1"}, 6, "t2-smoke-1"},                   // the first item stays best
		{nil, 6, ""},
	} {
		// bob, a scout at 2 HP. Dice amy 6 / 6, bob 1 / 1: bob's blow
		// 1 + atk - 6 < 0 (his best weapon is at most 3).
		g := duelling(pc("amy", 0, warrior, 0, 10), pc("bob", 1, scout, 0, 2, c.items...))
		player(t, g, "amy").Pos, player(t, g, "bob").Pos = 17, 17
		want := []string{
			"dice amy duel.player.attack 6", "dice amy duel.player.defense 6",
			"dice bob duel.player.attack 1", "dice bob duel.player.defense 1",
			"hit amy->bob " + itoa(c.blow) + " hp=0", "hit bob->amy 0 hp=10",
			"duelEnded d1 winner=amy knockout",
		}
		var left []string
		for _, id := range c.items {
			if id != c.taken {
				left = append(left, id)
			}
		}
		var amyItems []string
		if c.taken != "" {
			want = append(want, "took amy<-bob "+c.taken)
			amyItems = []string{c.taken}
		}
		want = append(want, "knockedOut bob 17->12 hp=5", "turn bob r1 t2")
		wantLog(t, act(t, g, engine.ActDuelRound, dice(6, 6, 1, 1)...), want...)
		wantPlayer(t, g, "bob", 12, 5, left...)
		wantPlayer(t, g, "amy", 17, 10, amyItems...)
	}
}

// R-DUEL-9: a knocked-out challenger loses, is sent back, and its turn
// ends at once; when both fall, the totals decide.
func TestRuleDuelKnockOutChallenger(t *testing.T) {
	// amy (HP 1, Leather def 1) against bob, a warrior. Dice amy 1 / 1,
	// bob 6 / 6: amy's blow 1 + 1 - 6 < 0; bob's 6 + 1 - (1 + 1) = 5.
	g := duelling(pc("amy", 0, warrior, 0, 1, "t1-leather-2"), pc("bob", 1, warrior, 0, 10))
	wantLog(t, act(t, g, engine.ActDuelRound, dice(1, 1, 6, 6)...),
		"dice amy duel.player.attack 1", "dice amy duel.player.defense 1",
		"dice bob duel.player.attack 6", "dice bob duel.player.defense 6",
		"hit amy->bob 0 hp=10", "hit bob->amy 5 hp=0",
		"duelEnded d1 winner=bob knockout", "took bob<-amy t1-leather-2",
		"knockedOut amy 14->12 hp=5", "turn bob r1 t2")
	wantPlayer(t, g, "amy", 12, 5)

	// Both at 1 HP in round 2, amy having dealt 3 in round 1. Dice amy
	// 6 / 1, bob 3 / 6: amy's blow 6 + 1 - 6 = 1, bob's 3 + 1 - 1 = 3.
	// Both fall; totals 3 + 1 = 4 against 3: amy wins on damage.
	g = duelling(pc("amy", 0, warrior, 0, 1), pc("bob", 1, warrior, 0, 1, "t2-gpotion-2"))
	g.Public.Duel.Round, g.Public.Duel.DealtC = 1, 3
	wantLog(t, act(t, g, engine.ActDuelRound, dice(6, 1, 3, 6)...),
		"dice amy duel.player.attack 6", "dice amy duel.player.defense 1",
		"dice bob duel.player.attack 3", "dice bob duel.player.defense 6",
		"hit amy->bob 1 hp=0", "hit bob->amy 3 hp=0",
		"duelEnded d1 winner=amy damage", "took amy<-bob t2-gpotion-2",
		"knockedOut amy 14->12 hp=5", "knockedOut bob 14->12 hp=5", "turn bob r1 t2")
}
