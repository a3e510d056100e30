package bot

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/games/dungeon/engine"
	"github.com/fairboard/fairboard/games/dungeon/policy"
)

// styled is a heuristic policy of any style (tests): what the search bot
// plays when its simulations show nothing beyond their noise.
type styled struct{ s policy.Style }

func (p styled) Name() string { return "styled" }

func (p styled) Choose(v *engine.Public, r *engine.Ruleset, uid string) engine.Action {
	var a engine.Action
	if me, _ := v.Player(uid); me != nil {
		p.s.Choose(&a, v, r, me)
	}
	return a
}

// TestPriorIsTheBestLevelOfEachDraw: the prior takes, for each of the fit
// styles' three draws, the level whose seats won the largest share of their
// games (counts written by hand), ties to the lowest level, a level never
// played never chosen; and builds the style as fitStyle does (sleep at
// level·10% of the maximum HP, a potion at (3 + level)·10%).
func TestPriorIsTheBestLevelOfEachDraw(t *testing.T) {
	r := engine.DefaultRules() // maxHp 10
	var tl styleTally
	tl.sleep = [5][2]int{{100, 30}, {100, 29}, {100, 31}, {0, 0}, {10, 9}}    // level 4: 90%
	tl.potion = [5][2]int{{100, 25}, {200, 50}, {100, 24}, {100, 25}, {0, 0}} // 0, 1 and 3 tie at 25%: level 0
	tl.duel = [2][2]int{{100, 20}, {100, 21}}
	require.Equal(t, policy.Style{SleepAt: 4, PotionAt: 3, Duel: true}, tl.style(r))

	tl.sleep = [5][2]int{{0, 0}, {0, 0}, {50, 10}, {50, 11}, {0, 0}}
	tl.potion[4] = [2]int{10, 3}
	tl.duel = [2][2]int{{100, 22}, {100, 21}}
	require.Equal(t, policy.Style{SleepAt: 3, PotionAt: 7, Duel: false}, tl.style(r))
}

// TestPriorOfTheDefaultRuleset: on the default ruleset, the fit's games
// say what the measurements of docs/sim.md found by other means (32,000
// games of hand-written styles against the heuristic pair, on other
// seeds): never sleeping wins more than any threshold of sleep, and every
// rule of challenging loses.
func TestPriorOfTheDefaultRuleset(t *testing.T) {
	p := valueFor(engine.DefaultRules(), 4).prior
	require.Equal(t, 0, p.SleepAt, "never sleeps")
	require.False(t, p.Duel, "does not challenge")
}
