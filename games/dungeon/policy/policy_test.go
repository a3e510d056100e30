package policy_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/games/dungeon/engine"
	"github.com/fairboard/fairboard/games/dungeon/policy"
)

// The styles of the default ruleset (maxHp 10), from the words of
// docs/sim.md's table of bots: cautious uses a potion at half HP or below
// and sleeps at 40% or below, never challenging; aggressive uses one at
// 30% and sleeps at 20%, and challenges.
func TestStylesByHand(t *testing.T) {
	r := engine.DefaultRules()
	require.Equal(t, 10, r.MaxHP, "the hand values below are for maxHp 10")
	require.Equal(t, policy.Style{PotionAt: 5, SleepAt: 4, Duel: false}, policy.CautiousStyle(r))
	require.Equal(t, policy.Style{PotionAt: 3, SleepAt: 2, Duel: true}, policy.AggressiveStyle(r))
	for _, c := range []struct {
		pol  policy.Policy
		want policy.Style
		ok   bool
	}{
		{policy.Cautious{}, policy.CautiousStyle(r), true},
		{&policy.Cautious{}, policy.CautiousStyle(r), true},
		{policy.Aggressive{}, policy.AggressiveStyle(r), true},
		{&policy.Aggressive{}, policy.AggressiveStyle(r), true},
		{other{}, policy.Style{}, false},
	} {
		s, ok := policy.StyleOf(c.pol, r)
		require.Equal(t, c.ok, ok, "%T", c.pol)
		require.Equal(t, c.want, s, "%T", c.pol)
		_, ok = policy.BuiltInOf(c.pol, r)
		require.Equal(t, c.ok, ok, "%T", c.pol)
	}
}

// other is a policy that is not built in.
type other struct{}

func (other) Name() string { return "other" }
func (other) Choose(*engine.Public, *engine.Ruleset, string) engine.Action {
	return engine.Action{}
}

// Each decision of both policies on states written by hand, the expected
// choice worked out from the rules of docs/sim.md's table: item values
// are tier*100 + attack + defense (a dagger 101, leather 101, a sword
// 202, the relic 304).
func TestChoicesByHand(t *testing.T) {
	r := engine.DefaultRules()
	state := func(step engine.Step, hp int, items ...string) *engine.Public {
		return &engine.Public{Phase: engine.PhasePlaying, Owner: "p1", Awaiting: "p2", Current: "p2", Step: step,
			Players: []engine.Player{
				{UID: "p1", Seat: 0, Pos: 4, HP: 10, Items: []string{"t1-dagger-1"}},
				{UID: "p2", Seat: 1, Pos: 4, HP: hp, Items: items},
				{UID: "p3", Seat: 2, Pos: 4, HP: 10, Items: []string{"t1-leather-2", "t2-sword-1"}},
				{UID: "p4", Seat: 3, Pos: 5, HP: 10, Items: []string{"t3-relic-1"}},
			}}
	}
	act := func(k engine.ActionKind, card, target string) engine.Action {
		return engine.Action{Kind: k, Actor: "p2", CardID: card, Target: target}
	}
	for _, c := range []struct {
		name                 string
		p                    *engine.Public
		cautious, aggressive engine.Action
	}{
		{"manage at 5 HP: the first potion held, or none", state(engine.StepManage, 5, "t1-dagger-2", "t2-gpotion-2", "t1-potion-3"),
			act(engine.ActUseItem, "t2-gpotion-2", ""), act(engine.ActEndManage, "", "")},
		{"manage at 3 HP", state(engine.StepManage, 3, "t1-potion-3", "t2-gpotion-2"),
			act(engine.ActUseItem, "t1-potion-3", ""), act(engine.ActUseItem, "t1-potion-3", "")},
		{"manage at 1 HP with no potion", state(engine.StepManage, 1, "t1-dagger-2"),
			act(engine.ActEndManage, "", ""), act(engine.ActEndManage, "", "")},
		{"move or sleep at 4 HP", state(engine.StepMoveOrSleep, 4),
			act(engine.ActSleep, "", ""), act(engine.ActMove, "", "")},
		{"move or sleep at 2 HP", state(engine.StepMoveOrSleep, 2),
			act(engine.ActSleep, "", ""), act(engine.ActSleep, "", "")},
		{"move or sleep at 5 HP", state(engine.StepMoveOrSleep, 5),
			act(engine.ActMove, "", ""), act(engine.ActMove, "", "")},
		{"pre-duel at 6 HP: the richest on the tile (p3's sword), not p4's relic a tile on", state(engine.StepPreDuel, 6),
			act(engine.ActSkipDuel, "", ""), act(engine.ActOfferDuel, "", "p3")},
		{"pre-duel at 5 HP: not above half", state(engine.StepPreDuel, 5),
			act(engine.ActSkipDuel, "", ""), act(engine.ActSkipDuel, "", "")},
		{"capacity: the least valuable, the highest id on ties", state(engine.StepCapacity, 10, "t2-sword-2", "t1-dagger-2", "t1-leather-1"),
			act(engine.ActDiscard, "t1-leather-1", ""), act(engine.ActDiscard, "t1-leather-1", "")},
		{"combat", state(engine.StepCombat, 10),
			act(engine.ActCombatRound, "", ""), act(engine.ActCombatRound, "", "")},
	} {
		require.Equal(t, c.cautious, policy.Cautious{}.Choose(c.p, r, "p2"), "cautious: %s", c.name)
		require.Equal(t, c.aggressive, policy.Aggressive{}.Choose(c.p, r, "p2"), "aggressive: %s", c.name)
	}
	require.Equal(t, engine.Action{}, policy.Cautious{}.Choose(state(engine.StepManage, 5), r, "p9"), "a uid with no seat: no action")
}

// View blanks what could name the seed or the generator's position and
// keeps the rest; UID and DefaultClasses as documented.
func TestViewUIDAndClasses(t *testing.T) {
	p := &engine.Public{GameID: "bot-seed", LastActionID: "a7", Phase: engine.PhasePlaying, Awaiting: "p1",
		RNG: engine.RNGInfo{Mode: "seeded", Seq: 42, AuditEnabled: true}, Fairness: &engine.Fairness{}}
	var v engine.Public
	policy.View(&v, p)
	require.Equal(t, engine.Public{Phase: engine.PhasePlaying, Awaiting: "p1", RNG: engine.RNGInfo{Mode: "seeded"}}, v)
	require.Equal(t, "bot-seed", p.GameID, "the game itself is not changed")
	require.Equal(t, []string{"p1", "p2", "p10"}, []string{policy.UID(0), policy.UID(1), policy.UID(9)})
	require.Equal(t, []engine.Class{engine.ClassWarrior, engine.ClassMonk, engine.ClassDuelist, engine.ClassScout, engine.ClassWarrior},
		policy.DefaultClasses(5))
}
