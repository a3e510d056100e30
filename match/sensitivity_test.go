package match_test

import (
	"bytes"
	"context"
	"math"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/games/pig"
	"github.com/fairboard/fairboard/match"
)

// Sensitivity on Pig to 20 (d6) with random bots, nudged by a step of
// 10/9999 of each range (goal to 10 and 30, dieSides by 0.998, rounded to
// 1, to 5 and 7): both numbers are
// ranked, each effect's paired interval holds the exact change of the
// first seat's win rate (randomPigFirst, from the rules alone), the
// smaller goal raises the first seat's edge (and the larger lowers it),
// and the run is the same for a seed.
func TestSensitivityPig(t *testing.T) {
	base, err := pig.Definition{}.DecodeRuleset([]byte(`{"goal":20,"dieSides":6}`))
	require.NoError(t, err)
	run := func(workers int) (*match.SensitivityResult, string) {
		cfg := pigSim(4000, "sens", workers)
		cfg.Rules = base
		res, err := match.Sensitivity(context.Background(), match.SensitivityConfig{Sim: cfg, Step: 10.0 / 9999})
		require.NoError(t, err)
		var b bytes.Buffer
		res.WriteRanking(&b)
		return res, b.String()
	}
	res, text := run(2)
	t.Log("\n" + text)
	_, again := run(1)
	require.Equal(t, text, again)

	exact0 := randomPigFirst(20, 6)
	require.Greater(t, exact0, 0.5)
	require.Equal(t, 0, res.Objective.PositionCell, "two seats: position 1 has the largest edge (ties to the first)")
	require.False(t, res.HasOption)
	require.Len(t, res.Params, 2)
	seen := map[string]bool{}
	for _, pe := range res.Params {
		seen[pe.Param.Path] = true
		require.Len(t, pe.Nudges, 2, pe.Param.Path)
		for _, n := range pe.Nudges {
			goal, sides := 20, 6
			if pe.Param.Path == "goal" {
				goal = int(n.Value)
			} else {
				sides = int(n.Value)
			}
			// The effect is the change of position 1's edge's size (in
			// two-player Pig both positions' edges have the same size;
			// ties go to the first).
			require.Equal(t, 0, n.Position.Cell)
			want := math.Abs(randomPigFirst(goal, sides)-0.5) - math.Abs(exact0-0.5)
			require.True(t, n.Position.Lo <= want && want <= n.Position.Hi,
				"%s = %g: exact change %.4f outside [%.4f, %.4f] (delta %.4f)", pe.Param.Path, n.Value, want, n.Position.Lo, n.Position.Hi, n.Position.Delta)
			if pe.Param.Path == "goal" {
				// By hand: a shorter race favours the first mover.
				if n.Value < 20 {
					require.Greater(t, want, 0.0)
					require.Greater(t, n.Position.Delta, 0.0)
				} else {
					require.Less(t, want, 0.0)
					require.Less(t, n.Position.Delta, 0.0)
				}
			}
		}
	}
	require.True(t, seen["goal"] && seen["dieSides"])
	require.GreaterOrEqual(t, res.Params[0].Size, res.Params[1].Size)
	require.Contains(t, text, "ranked by the effect on the largest position edge")
	require.Contains(t, text, " 1. ")
}

func TestNudgeValues(t *testing.T) {
	goal, _ := pig.Definition{}.Params()[0], 0
	require.Equal(t, []float64{1, 1100}, match.NudgeValues(goal, 100, 0.1))
	require.Equal(t, []float64{9000}, match.NudgeValues(goal, 10000, 0.1), "at the top: down only")
	require.Equal(t, []float64{2}, match.NudgeValues(goal, 1, 0.00001), "at the bottom: up only, at least 1")
	require.Equal(t, []float64{99, 101}, match.NudgeValues(goal, 100, 0.00001))
}

func TestSensitivityRefusals(t *testing.T) {
	for _, c := range []struct {
		cfg  match.SensitivityConfig
		want string
	}{
		{match.SensitivityConfig{Sim: pigSim(10, "s", 1), Params: []string{"speed"}}, `known: goal, dieSides`},
		{match.SensitivityConfig{Sim: pigSim(10, "s", 1), Params: []string{"goal", "goal"}}, "goal is listed twice"},
		{match.SensitivityConfig{Sim: pigSim(10, "s", 1), Step: 1.5}, "in (0, 1], not 1.5"},
		{match.SensitivityConfig{Sim: pigSim(10, "s", 1), Step: -0.1}, "in (0, 1], not -0.1"},
	} {
		_, err := match.Sensitivity(context.Background(), c.cfg)
		require.ErrorContains(t, err, c.want)
	}
}

// By skill on Pig to 10: a row per level, the baseline first, and a
// verdict per position.
func TestBySkillPig(t *testing.T) {
	base, err := pig.Definition{}.DecodeRuleset([]byte(`{"goal":10,"dieSides":6}`))
	require.NoError(t, err)
	cfg := pigSim(200, "skill", 2)
	cfg.Rules = base
	res, err := match.BySkill(context.Background(), cfg, []int{10, 40})
	require.NoError(t, err)
	require.Len(t, res.Levels, 3)
	require.Equal(t, []string{"random"}, res.Levels[0].Bots)
	require.Equal(t, []string{"mcts:40"}, res.Levels[2].Bots)
	var b bytes.Buffer
	res.WriteTable(&b)
	out := b.String()
	t.Log("\n" + out)
	require.Contains(t, out, "\n  random        | 1: ")
	require.Contains(t, out, "\n  mcts:10       | 1: ")
	require.Contains(t, out, "\n  position 1: ")
	require.Contains(t, out, "\n  position 2: ")
	// The baseline is the plain simulation.
	alone, err := match.Simulate(context.Background(), cfg)
	require.NoError(t, err)
	require.Equal(t, alone, res.Levels[0].Result)
	_, err = match.BySkill(context.Background(), cfg, []int{0})
	require.ErrorContains(t, err, "skill level 0: N must be 1 to 1000000")
	_, err = match.BySkill(context.Background(), cfg, nil)
	require.ErrorContains(t, err, "at least one level")
}
