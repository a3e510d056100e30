package sim

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/games/dungeon/engine"
	"github.com/fairboard/fairboard/rng"
)

// A hand-written log of three players, each event's effect worked out by
// hand in the expectations below: who is credited with what, and what the
// bracket's match does not count as.
func TestScanCountsAHandWrittenLog(t *testing.T) {
	ev := func(e engine.Event) engine.Event { return e }
	events := []engine.Event{
		ev(engine.Event{Type: engine.EvPlayerJoined, UID: "p1", Class: "warrior"}),
		ev(engine.Event{Type: engine.EvGameStarted, Order: []string{"p2", "p1", "p3"}}),
		ev(engine.Event{Type: engine.EvTurnStarted, UID: "p2"}),
		// p2 challenges p1, who spends a smoke bomb: a cancelled challenge of p2
		ev(engine.Event{Type: engine.EvDuelOffered, DuelID: "d1", UID: "p2", Target: "p1"}),
		ev(engine.Event{Type: engine.EvItemUsed, UID: "p1", CardID: "t1-smoke-1"}),
		ev(engine.Event{Type: engine.EvDuelCancelled, DuelID: "d1", UID: "p1", Reason: "smokeBomb"}),
		ev(engine.Event{Type: engine.EvTurnStarted, UID: "p1"}),
		// p1 challenges p3 and wins: fought, decided, won by the challenger
		ev(engine.Event{Type: engine.EvDuelOffered, DuelID: "d2", UID: "p1", Target: "p3"}),
		ev(engine.Event{Type: engine.EvDuelEnded, DuelID: "d2", Winner: "p1", Outcome: "damage"}),
		// p1 fights a tier-2 composition for three rounds, wins, loots
		ev(engine.Event{Type: engine.EvEnemyCompositionChosen, Tier: 2}),
		ev(engine.Event{Type: engine.EvEnemySpawned, Tier: 1}),
		ev(engine.Event{Type: engine.EvEnemySpawned, Tier: 1}),
		// three rounds: each logs p1's blow, and the enemies' blows at p1
		ev(engine.Event{Type: engine.EvDiceRolled, Tag: rng.TagCombatPlayerAttack}),
		ev(engine.Event{Type: engine.EvDamageDealt, Who: "p1", Target: "e1-goblin-1", Amount: 1}),
		ev(engine.Event{Type: engine.EvDamageDealt, Who: "e1-goblin-2", Target: "p1", Amount: 2}),
		ev(engine.Event{Type: engine.EvDiceRolled, Tag: rng.TagCombatPlayerAttack}),
		ev(engine.Event{Type: engine.EvDamageDealt, Who: "p1", Target: "e1-goblin-1", Amount: 1}),
		ev(engine.Event{Type: engine.EvDamageDealt, Who: "e1-goblin-2", Target: "p1", Amount: 2}),
		ev(engine.Event{Type: engine.EvDiceRolled, Tag: rng.TagCombatPlayerAttack}),
		ev(engine.Event{Type: engine.EvDamageDealt, Who: "p1", Target: "e1-goblin-1", Amount: 1}),
		ev(engine.Event{Type: engine.EvDamageDealt, Who: "e1-goblin-2", Target: "p1", Amount: 2}),
		ev(engine.Event{Type: engine.EvLootRoll, EnemyTier: 1, Outcome: "T1"}),
		ev(engine.Event{Type: engine.EvCombatEnded, UID: "p1", Outcome: "won"}),
		ev(engine.Event{Type: engine.EvTurnStarted, UID: "p3"}),
		ev(engine.Event{Type: engine.EvItemUsed, UID: "p3", CardID: "t1-potion-2"}),
		ev(engine.Event{Type: engine.EvChanceResolved, UID: "p3", Effect: "earthquake"}),
		ev(engine.Event{Type: engine.EvKnockedOut, UID: "p2"}),
		// the bracket's match is offered and fought, but is no challenge
		ev(engine.Event{Type: engine.EvBracketStarted, Candidates: []string{"p1", "p3"}}),
		ev(engine.Event{Type: engine.EvDuelOffered, DuelID: "d3", UID: "p1", Target: "p3"}),
		ev(engine.Event{Type: engine.EvDuelEnded, DuelID: "d3", Winner: "p3", Outcome: "damage"}),
		ev(engine.Event{Type: engine.EvGameFinished, Winner: "p3", Round: 7, Outcome: "finalTile"}),
	}
	tally := NewTally()
	sc := newScan(engine.DefaultRules())
	gs, err := tally.AddGame(events, []engine.Class{"warrior", "monk", "scout"}, []string{"cautious", "aggressive", "cautious"}, sc)
	require.NoError(t, err)
	require.Equal(t, GameStats{Rounds: 7, Knockouts: 1, DuelsOffered: 2, Combats: 1, ItemsUsed: 2}, gs)

	get := func(seat int, col string) int64 {
		for i, h := range append(append([]string{}, playersFixed...), sc.sch.header()...) {
			if h == col {
				return sc.counts[seat][i-len(playersFixed)]
			}
		}
		t.Fatalf("no column %s", col)
		return 0
	}
	for _, c := range []struct {
		seat int
		col  string
		want int64
	}{
		{0, "challenges", 1}, {0, "challenges_fought", 1}, {0, "challenges_decided", 1}, {0, "challenges_won", 1},
		{0, "combats_t2", 1}, {0, "combats_won_t2", 1}, {0, "combat_rounds_t2", 3}, {0, "combats_t1", 0},
		{0, "loot_t1_T1", 1}, {0, "used_t1-smoke", 1}, {0, "knockouts", 0},
		{1, "challenges", 1}, {1, "challenges_cancelled_smokeBomb", 1}, {1, "challenges_fought", 0}, {1, "knockouts", 1},
		{2, "challenges", 0}, {2, "used_t1-potion", 1}, {2, "chance_earthquake", 1}, {2, "challenges_fought", 0},
	} {
		require.Equalf(t, c.want, get(c.seat, c.col), "seat %d %s", c.seat, c.col)
	}
	require.Equal(t, [3]int{1, 0, 2}, [3]int{sc.pos[0], sc.pos[1], sc.pos[2]})
	require.Equal(t, 2, sc.winner)
	require.True(t, sc.bracket)

	require.EqualValues(t, 1, tally.Order[2].Won, "p3 moved third and won")
	require.EqualValues(t, 1, tally.ClassBot["scout"]["cautious"].Won)
	require.EqualValues(t, 2, tally.DuelsOffered.Sum)
	require.EqualValues(t, 1, tally.DuelsFought)
	require.EqualValues(t, 1, tally.DuelsChallengerWon)
	require.EqualValues(t, 1, tally.DuelsCancelled["smokeBomb"])
	require.EqualValues(t, 3, tally.Combats["t2"].Rounds.Sum)
	require.EqualValues(t, 1, tally.Loot["t1"]["T1"])
	require.Equal(t, Moments{N: 1, Sum: 1, SumSq: 1}, *tally.KnockoutsByClass["monk"])
	require.Equal(t, Moments{N: 1, Sum: 0, SumSq: 0}, *tally.KnockoutsByClass["warrior"])
	require.EqualValues(t, 1, tally.Bracket)
	require.EqualValues(t, 1, tally.Ends["finalTile"])
}

// An event the ruleset's schema does not know fails the game, by name,
// and leaves the tally as it was.
func TestScanRefusesUnknownKeys(t *testing.T) {
	end := engine.Event{Type: engine.EvGameFinished, Winner: "p1", Round: 3, Outcome: "finalTile"}
	for name, e := range map[string]engine.Event{
		"reason": {Type: engine.EvDuelCancelled, DuelID: "d1", Reason: "rain"},
		"loot":   {Type: engine.EvLootRoll, EnemyTier: 1, Outcome: "T9"},
		"item":   {Type: engine.EvItemUsed, UID: "p1", CardID: "t1-dagger-1"},
		"chance": {Type: engine.EvChanceResolved, UID: "p1", Effect: "meteor"},
	} {
		tally := NewTally()
		_, err := tally.AddGame([]engine.Event{e, end}, []engine.Class{"warrior", "monk"}, []string{"cautious", "cautious"}, newScan(engine.DefaultRules()))
		require.Errorf(t, err, "%s", name)
		require.Zero(t, tally.Games, name)
	}
	_, err := NewTally().AddGame(nil, []engine.Class{"warrior"}, []string{"cautious"}, newScan(engine.DefaultRules()))
	require.ErrorContains(t, err, "no GameFinished")
}

func TestSeatOf(t *testing.T) {
	for uid, want := range map[string]int{"p1": 0, "p2": 1, "p16": 15, "p17": -1, "p0": -1, "": -1, "x1": -1, "p": -1, "p1a": -1} {
		require.Equalf(t, want, seatOf(uid), "%q", uid)
	}
}
