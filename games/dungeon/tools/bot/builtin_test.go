package bot

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/games/dungeon/engine"
	"github.com/fairboard/fairboard/games/dungeon/policy"
	"github.com/fairboard/fairboard/rng"
)

// Pick is Choose without the copies: over whole games of both built-in
// policies (by value and by pointer), at every decision, the action it
// names is the one Choose returns, field for field.
func TestBuiltInPickIsChoose(t *testing.T) {
	eng := engine.NewReference(engine.DefaultRules())
	rules := eng.Rules()
	pols := []policy.Policy{policy.Cautious{}, &policy.Aggressive{}, policy.Aggressive{}, &policy.Cautious{}}
	checked := map[engine.ActionKind]int{}
	for game := range 24 {
		g := &engine.Game{}
		s, err := rng.NewSeeded(fmt.Sprint("pick-", game))
		require.NoError(t, err)
		r := NewRunner(eng)
		r.MaxActions = 1
		seats := make([]Seat, 2+game%4)
		for i := range seats {
			seats[i] = Seat{Class: engine.Classes[(game+i)%4], Policy: pols[(game+i)%len(pols)]}
		}
		_ = r.PlayGame(g, s, "pick", seats) // stops after one action: the game is set up
		for g.Public.Phase == engine.PhasePlaying {
			me, seat := g.Public.Player(g.Public.Awaiting)
			pol := seats[seat].Policy
			b, ok := policy.BuiltInOf(pol, rules)
			require.True(t, ok, "%T", pol)
			want := pol.Choose(&g.Public, rules, me.UID)
			k, card, target := b.Pick(&g.Public, rules, me)
			require.Equal(t, want, engine.Action{Kind: k, Actor: me.UID, CardID: card, Target: target}, "%s", g.Public.Step)
			checked[k]++
			_, err := eng.Dispatch(g, &want, s, nil)
			require.NoError(t, err)
		}
	}
	for _, k := range []engine.ActionKind{engine.ActUseItem, engine.ActOfferDuel, engine.ActDiscard, engine.ActMove} {
		require.Positive(t, checked[k], "no %s picked: the test misses the choices with a parameter", k)
	}
	_, ok := policy.BuiltInOf(NewMCTS(1), rules)
	require.False(t, ok, "a policy that is not built in has no rule")
}
