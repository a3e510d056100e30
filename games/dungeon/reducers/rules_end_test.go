package reducers_test

import (
	"slices"
	"testing"

	"github.com/fairboard/fairboard/games/dungeon/engine"
)

// wantFinished checks the finished game: winner, no turn, no one awaited.
func wantFinished(t *testing.T, g *engine.Game, winner string, at int64) {
	t.Helper()
	p := &g.Public
	if p.Phase != engine.PhaseFinished || p.Winner != winner || p.Step != "" || p.Current != "" || p.Awaiting != "" ||
		p.Duel != nil || p.FinishedAt != at {
		t.Fatalf("phase %s winner %q step %q current %q awaiting %q duel %v finishedAt %d",
			p.Phase, p.Winner, p.Step, p.Current, p.Awaiting, p.Duel, p.FinishedAt)
	}
}

// lastTurn makes it uid's turn, the last of the round, in moveOrSleep.
func lastTurn(g *engine.Game, uid string) {
	turnOf(g, uid, engine.StepMoveOrSleep)
	g.Public.Order = append(slices.DeleteFunc(g.Public.Order, func(u string) bool { return u == uid }), uid)
	g.Public.TurnIndex = len(g.Public.Order) - 1
}

// R-END-1/3/5: reaching the final tile ends the game at the end of that
// round, after every later seat's turn; the one player there wins.
func TestRuleEndAtEndOfRound(t *testing.T) {
	g := newGame(pc("amy", 0, warrior, 33, 10), pc("bob", 1, monk, 20, 10))
	wantLog(t, act(t, g, engine.ActMove, die(4)), "dice amy move.roll 4", "moved amy 33->35 move", "turn bob r1 t2")
	wantAt(t, g, engine.StepMoveOrSleep, "bob")
	o := do(t, g, engine.Action{Kind: engine.ActSleep, Actor: "bob", At: 99})
	wantLog(t, o, "slept bob +0 hp=10", "roundEnded 1", "finished winner=amy r1 finalTile", "revealed")
	wantFinished(t, g, "amy", 99)
	refuse(t, g, engine.Action{Kind: engine.ActSleep, Actor: "amy"}, engine.CodeGameOver)
}

// R-END-2/5: after the round limit (40) the game ends anyway; the player
// furthest along wins. Before it, the next round begins.
func TestRuleRoundLimit(t *testing.T) {
	g := newGame(pc("amy", 0, warrior, 29, 10), pc("bob", 1, monk, 30, 10))
	g.Public.Round = 39
	lastTurn(g, "bob")
	wantLog(t, act(t, g, engine.ActSleep), "slept bob +0 hp=10", "roundEnded 39", "turn amy r40 t2")

	g = newGame(pc("amy", 0, warrior, 29, 10), pc("bob", 1, monk, 30, 10))
	g.Public.Round = 40
	lastTurn(g, "amy")
	wantLog(t, act(t, g, engine.ActSleep), "slept amy +0 hp=10", "roundEnded 40", "finished winner=bob r40 roundLimit", "revealed")
	wantFinished(t, g, "bob", 0)

	// The limit is the ruleset's.
	r := variant(t, map[string]any{"roundLimit": 5})
	g = newGameOn(r, pc("amy", 0, warrior, 29, 10), pc("bob", 1, monk, 3, 10))
	g.Public.Round = 5
	lastTurn(g, "bob")
	wantLog(t, act(t, g, engine.ActSleep), "slept bob +0 hp=10", "roundEnded 5", "finished winner=amy r5 roundLimit", "revealed")

	// Two furthest along at the limit: they fight the bracket, here a
	// draw (every die 1 against 6: 1 - 6 < 0 both ways, three rounds),
	// which goes to the lower seat, bob.
	g = newGame(pc("amy", 2, warrior, 30, 10), pc("bob", 1, scout, 30, 10), pc("cy", 0, monk, 12, 10))
	g.Public.Round = 40
	lastTurn(g, "cy")
	o := act(t, g, engine.ActSleep, dice(1, 6, 1, 6, 1, 6, 1, 6, 1, 6, 1, 6)...)
	want := []string{"slept cy +0 hp=10", "roundEnded 40", "bracket [bob amy]", "duel d1 bob->amy"}
	for range 3 {
		want = append(want, "dice bob duel.player.attack 1", "dice bob duel.player.defense 6",
			"dice amy duel.player.attack 1", "dice amy duel.player.defense 6",
			"hit bob->amy 0 hp=10", "hit amy->bob 0 hp=10")
	}
	wantLog(t, o, append(want, "duelEnded d1 winner= draw", "finished winner=bob r40 roundLimit", "revealed")...)
}

// R-END-5: when the player who reached the final tile is no longer there
// at the end of the round, the furthest along wins ("leftFinalTile").
func TestRuleLeftFinalTile(t *testing.T) {
	g := newGame(pc("amy", 0, warrior, 35, 10), pc("bob", 1, monk, 0, 10))
	g.Public.EndTriggered = true
	lastTurn(g, "bob")
	player(t, g, "bob").Pos = 4
	stack(g, engine.DeckChance, "chance-earthquake-2")
	// bob: 4 -> 5, Earthquake. Seat order: amy 3 (35 -> 32), bob 1 (5 -> 4).
	o := act(t, g, engine.ActMove, dice(1, 3, 1)...)
	wantLog(t, o,
		"dice bob move.roll 1", "moved bob 4->5 move",
		"drew bob chance chance-earthquake-2", "chance bob chance-earthquake-2 earthquake",
		"dice amy chance.earthquake.backRoll 3", "moved amy 35->32 earthquake",
		"dice bob chance.earthquake.backRoll 1", "moved bob 5->4 earthquake",
		"roundEnded 1", "finished winner=amy r1 leftFinalTile", "revealed")
	wantFinished(t, g, "amy", 0)
}

// R-END-4: two finalists fight one full duel in seat order (the lower seat
// challenges), fought by the engine in one go; no smoke bomb or monk
// cancel in the bracket; the winner takes the loser's best item.
func TestRuleBracketTwo(t *testing.T) {
	// Seats: 0 zed (warrior) and 1 amy (monk with a Smoke bomb) on 35;
	// bob (seat 2) elsewhere ends the round.
	g := newGame(pc("bob", 2, scout, 20, 10), pc("zed", 0, warrior, 35, 10), pc("amy", 1, monk, 35, 10, "t1-smoke-1"))
	g.Public.EndTriggered = true
	lastTurn(g, "bob")
	// R1: zed 3 / 4, amy 5 / 2: zed -> amy 3 + 1 - 2 = 2, amy -> zed 5 - 4 = 1.
	// R2: zed 1 / 1, amy 6 / 6: 1 + 1 - 6 < 0, 6 - 1 = 5.
	// R3: zed 6 / 6, amy 1 / 1: 6 + 1 - 1 = 6, 1 - 6 < 0.
	// Totals zed 8, amy 6: zed wins and takes the Smoke bomb.
	o := act(t, g, engine.ActSleep, dice(3, 4, 5, 2, 1, 1, 6, 6, 6, 6, 1, 1)...)
	wantLog(t, o,
		"slept bob +0 hp=10", "roundEnded 1", "bracket [zed amy]", "duel d1 zed->amy",
		"dice zed duel.player.attack 3", "dice zed duel.player.defense 4", "dice amy duel.player.attack 5", "dice amy duel.player.defense 2",
		"hit zed->amy 2 hp=8", "hit amy->zed 1 hp=9",
		"dice zed duel.player.attack 1", "dice zed duel.player.defense 1", "dice amy duel.player.attack 6", "dice amy duel.player.defense 6",
		"hit zed->amy 0 hp=8", "hit amy->zed 5 hp=4",
		"dice zed duel.player.attack 6", "dice zed duel.player.defense 6", "dice amy duel.player.attack 1", "dice amy duel.player.defense 1",
		"hit zed->amy 6 hp=2", "hit amy->zed 0 hp=4",
		"duelEnded d1 winner=zed damage", "took zed<-amy t1-smoke-1",
		"finished winner=zed r1 finalTile", "revealed")
	wantFinished(t, g, "zed", 0)
	wantPlayer(t, g, "zed", 35, 4, "t1-smoke-1")
	wantPlayer(t, g, "amy", 35, 2)
	if pl := player(t, g, "amy"); pl.MonkCancelUsed {
		t.Fatal("a monk rolled its cancel in the bracket")
	}

	// The same with R3 zed 4 / 6: 4 + 1 - 1 = 4. Totals 6 and 6: a draw,
	// which goes to the lower seat, zed; nothing is taken.
	g = newGame(pc("bob", 2, scout, 20, 10), pc("zed", 0, warrior, 35, 10), pc("amy", 1, monk, 35, 10, "t1-smoke-1"))
	g.Public.EndTriggered = true
	lastTurn(g, "bob")
	o = act(t, g, engine.ActSleep, dice(3, 4, 5, 2, 1, 1, 6, 6, 4, 6, 1, 1)...)
	got := show(o.ev)
	if tail := got[len(got)-3:]; !slices.Equal(tail, []string{"duelEnded d1 winner= draw", "finished winner=zed r1 finalTile", "revealed"}) {
		t.Fatalf("log ends %v", tail)
	}
	wantPlayer(t, g, "amy", 35, 4, "t1-smoke-1")
}

// R-END-4: three finalists: the first two, then the winner against the
// third. HP carries over from match to match; a finalist knocked out in
// the bracket gets 5 HP back and stays where it is.
func TestRuleBracketThree(t *testing.T) {
	// Seats 0 zed (scout, Leather), 1 amy (warrior), 2 bob (scout) on 35;
	// cy (seat 3) on 30 is no finalist and ends the round.
	g := newGame(pc("cy", 3, monk, 30, 10), pc("zed", 0, scout, 35, 10, "t1-leather-1"), pc("amy", 1, warrior, 35, 10),
		pc("bob", 2, scout, 35, 10))
	g.Public.EndTriggered = true
	lastTurn(g, "cy")
	// Match d1, zed against amy.
	//   R1: zed 3 / 1, amy 6 / 1: zed -> amy 3 - 1 = 2 (10 -> 8);
	//       amy -> zed 6 + 1 - (1 + 1) = 5 (10 -> 5).
	//   R2: zed 5 / 1, amy 6 / 1: 5 - 1 = 4 (8 -> 4); 5 again (5 -> 0).
	//   zed is knocked out: amy wins, takes the Leather, zed gets 5 HP.
	// Match d2, amy (4 HP, now def 1) against bob.
	//   R1: amy 1 / 1, bob 6 / 6: 1 + 1 - 6 < 0; 6 - (1 + 1) = 4 (4 -> 0).
	//   amy is knocked out (she would stand at 10 HP): bob wins, takes
	//   the Leather.
	o := act(t, g, engine.ActSleep, dice(3, 1, 6, 1, 5, 1, 6, 1, 1, 1, 6, 6)...)
	wantLog(t, o,
		"slept cy +0 hp=10", "roundEnded 1", "bracket [zed amy bob]", "duel d1 zed->amy",
		"dice zed duel.player.attack 3", "dice zed duel.player.defense 1", "dice amy duel.player.attack 6", "dice amy duel.player.defense 1",
		"hit zed->amy 2 hp=8", "hit amy->zed 5 hp=5",
		"dice zed duel.player.attack 5", "dice zed duel.player.defense 1", "dice amy duel.player.attack 6", "dice amy duel.player.defense 1",
		"hit zed->amy 4 hp=4", "hit amy->zed 5 hp=0",
		"duelEnded d1 winner=amy knockout", "took amy<-zed t1-leather-1", "knockedOut zed 35->35 hp=5",
		"duel d2 amy->bob",
		"dice amy duel.player.attack 1", "dice amy duel.player.defense 1", "dice bob duel.player.attack 6", "dice bob duel.player.defense 6",
		"hit amy->bob 0 hp=10", "hit bob->amy 4 hp=0",
		"duelEnded d2 winner=bob knockout", "took bob<-amy t1-leather-1", "knockedOut amy 35->35 hp=5",
		"finished winner=bob r1 finalTile", "revealed")
	wantFinished(t, g, "bob", 0)
	wantPlayer(t, g, "zed", 35, 5)
	wantPlayer(t, g, "amy", 35, 5)
	wantPlayer(t, g, "bob", 35, 10, "t1-leather-1")
	if b := g.Public.Bracket; b == nil || b.Champion != "bob" || b.Next != 3 || !slices.Equal(b.Finalists, []string{"zed", "amy", "bob"}) {
		t.Fatalf("bracket %+v", b)
	}

	// A drawn second match goes to the lower seat: amy (1) over bob (2).
	// Match d1 as above; d2: three rounds of 1 / 6 against 1 / 6:
	// 1 + 1 - (6 + 1) < 0 and 1 - (6 + 1) < 0.
	g = newGame(pc("cy", 3, monk, 30, 10), pc("zed", 0, scout, 35, 10, "t1-leather-1"), pc("amy", 1, warrior, 35, 10),
		pc("bob", 2, scout, 35, 10))
	g.Public.EndTriggered = true
	lastTurn(g, "cy")
	o = act(t, g, engine.ActSleep, dice(3, 1, 6, 1, 5, 1, 6, 1, 1, 6, 1, 6, 1, 6, 1, 6, 1, 6, 1, 6)...)
	got := show(o.ev)
	if tail := got[len(got)-3:]; !slices.Equal(tail, []string{"duelEnded d2 winner= draw", "finished winner=amy r1 finalTile", "revealed"}) {
		t.Fatalf("log ends %v", tail)
	}
	wantPlayer(t, g, "amy", 35, 4, "t1-leather-1")
}

// R-END-4, R-CLASS-DUELIST: in the bracket the engine waits for a
// duelist's re-roll decision, then fights on by itself.
func TestRuleBracketDuelist(t *testing.T) {
	g := newGame(pc("bob", 2, scout, 20, 10), pc("zed", 0, duelist, 35, 10), pc("amy", 1, warrior, 35, 10))
	g.Public.EndTriggered = true
	lastTurn(g, "bob")
	// R1: zed 2 / 2, amy 2 / 2, then zed decides.
	o := act(t, g, engine.ActSleep, dice(2, 2, 2, 2)...)
	wantLog(t, o, "slept bob +0 hp=10", "roundEnded 1", "bracket [zed amy]", "duel d1 zed->amy",
		"dice zed duel.player.attack 2", "dice zed duel.player.defense 2", "dice amy duel.player.attack 2", "dice amy duel.player.defense 2")
	wantAt(t, g, engine.StepBracket, "zed")
	if g.Public.Current != "" {
		t.Fatalf("current %q in the bracket", g.Public.Current)
	}
	refuse(t, g, engine.Action{Kind: engine.ActDuelRound, Actor: "zed"}, engine.CodeWrongStep)
	refuse(t, g, engine.Action{Kind: engine.ActReroll, Actor: "amy"}, engine.CodeNotYourTurn)
	// zed declines: zed -> amy 2 - 2 = 0, amy -> zed 2 + 1 - 2 = 1. R2
	// rolls at once: zed 1 / 1, amy 1 / 1; zed decides again.
	wantLog(t, act(t, g, engine.ActDeclineReroll, dice(1, 1, 1, 1)...),
		"declined d1 zed", "hit zed->amy 0 hp=10", "hit amy->zed 1 hp=9",
		"dice zed duel.player.attack 1", "dice zed duel.player.defense 1", "dice amy duel.player.attack 1", "dice amy duel.player.defense 1")
	wantAt(t, g, engine.StepBracket, "zed")
	// zed re-rolls 1 into 6: 1 - 1 = 0, 1 + 1 - 6 < 0. R3, no decision
	// left: zed 6 / 6, amy 1 / 1: 6 - 1 = 5, 1 + 1 - 6 < 0. Totals zed
	// 5, amy 1: zed wins.
	wantLog(t, act(t, g, engine.ActReroll, words(dice(6), dice(6, 6, 1, 1))...),
		"dice zed duel.defense.reroll 6", "hit zed->amy 0 hp=10", "hit amy->zed 0 hp=9",
		"dice zed duel.player.attack 6", "dice zed duel.player.defense 6", "dice amy duel.player.attack 1", "dice amy duel.player.defense 1",
		"hit zed->amy 5 hp=5", "hit amy->zed 0 hp=9",
		"duelEnded d1 winner=zed damage", "finished winner=zed r1 finalTile", "revealed")
	wantFinished(t, g, "zed", 0)
}
