package sim

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/games/dungeon/engine"
	"github.com/fairboard/fairboard/games/dungeon/tools/bot"
	"github.com/fairboard/fairboard/rng"
)

// The lean simulation (the default) counts from a part of the log and no
// shuffle commitments; the full one from every event. Their results, the
// measures and players.csv must be the same, byte for byte, on one ruleset
// and comparing two.
func TestLeanAndFullSimulationsAgree(t *testing.T) {
	play := func(full, compare bool) (string, []byte, []byte, []byte) {
		cfg := testConfig(1500, 2)
		cfg.Seed, cfg.Full = "lean-full", full
		if compare {
			cfg.B = &Ruleset{Rules: weakScout(t), Source: "weak.json"}
		}
		var pa, pb bytes.Buffer
		cfg.PerGame, cfg.PerGameB = &pa, &pb
		r := run(t, cfg)
		require.Zero(t, r.FailedGames)
		return comparable(t, r), r.measuresCSV(), pa.Bytes(), pb.Bytes()
	}
	for _, compare := range []bool{false, true} {
		rl, ml, pal, pbl := play(false, compare)
		rf, mf, paf, pbf := play(true, compare)
		require.Equal(t, rf, rl, "results.json (compare=%v)", compare)
		require.Equal(t, string(mf), string(ml), "measures.csv")
		require.Equal(t, string(paf), string(pal), "players.csv")
		require.Equal(t, string(pbf), string(pbl), "players_b.csv")
		require.Greater(t, len(pal), 1500*4*20, "players.csv has its rows")
	}
}

// The scan counts a fight's rounds from the player's blows; the rounds are
// also the fight's combat.player.attack dice (one per round, rolled first).
// Over real games, both counts must agree fight by fight.
func TestCombatRoundsAreTheAttackDice(t *testing.T) {
	rules := engine.DefaultRules()
	r := bot.NewRunner(engine.NewReference(rules))
	cfg := testConfig(1, 1)
	sc := newScan(rules)
	fights := 0
	for i := range int64(300) {
		seats, names := cfg.seating(i, nil, nil, nil)
		_, ev, err := r.Play(GameSeed("rounds", i), seats, nil)
		require.NoError(t, err)
		var dice []int64 // attack dice of each fight, in order
		in := false
		for _, e := range ev {
			switch {
			case e.Type == engine.EvEnemySpawned && !in:
				in = true
				dice = append(dice, 0)
			case e.Type == engine.EvDiceRolled && e.Tag == rng.TagCombatPlayerAttack:
				dice[len(dice)-1]++
			case e.Type == engine.EvCombatEnded:
				in = false
			}
		}
		var c CombatTally
		require.NoError(t, sc.scan(ev, len(names), &c))
		var n, sum int64
		for _, d := range dice {
			n, sum = n+1, sum+d
		}
		var got Moments
		for tier := 1; tier <= 3; tier++ {
			got.Merge(c.byTier[tier].Rounds)
		}
		require.Equal(t, n, got.N, "game %d: fights", i)
		require.Equal(t, sum, got.Sum, "game %d: rounds", i)
		fights += int(n)
	}
	require.Greater(t, fights, 1000)
}
