package sim

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestNormalQuantile(t *testing.T) {
	// Published values (Abramowitz & Stegun, table 26.5).
	for p, want := range map[float64]float64{0.975: 1.959963985, 0.99: 2.326347874, 0.95: 1.644853627, 0.5: 0, 0.05: -1.644853627,
		1 - 0.05/8: 2.497705474, 0.001: -3.090232306} {
		require.InDelta(t, want, normalQuantile(p), 1e-8, "p = %v", p)
	}
	require.True(t, math.IsInf(normalQuantile(0), -1))
	require.True(t, math.IsInf(normalQuantile(1), 1))
}

// Holm's adjustment, by hand: p-values 0.01, 0.04, 0.03, 0.5 over four
// classes become 0.04, 0.09, 0.09, 0.5 (the running maximum of
// (m − j + 1)·p), and the intervals take the step-down levels: the most
// significant 1 − 0.05/4 (z 2.498), then 1 − 0.05/3, 1 − 0.05/2, 0.95.
func TestHolmIntervals(t *testing.T) {
	ds := []SkillDiff{{Diff: 0.1, P: 0.01}, {Diff: 0.2, P: 0.04}, {Diff: 0.3, P: 0.03}, {Diff: 0.4, P: 0.5}}
	holmIntervals(ds, []float64{0.01, 0.01, 0.01, 0.01})
	for i, want := range []float64{0.04, 0.09, 0.09, 0.5} {
		require.InDelta(t, want, ds[i].PHolm, 1e-12, "class %d", i)
	}
	for i, z := range []float64{2.497705474, 2.241402728, 2.393980, 1.959963985} {
		require.InDelta(t, z, ds[i].Z, 1e-5, "class %d", i)
		require.InDelta(t, ds[i].Diff-z*0.01, ds[i].Lo, 1e-5)
		require.InDelta(t, ds[i].Diff+z*0.01, ds[i].Hi, 1e-5)
	}
}

// The verdicts against a ±3 pp margin, and the games that would settle an
// inconclusive one, by hand.
func TestSkillVerdicts(t *testing.T) {
	judge := func(diff, se float64) SkillDiff {
		d := SkillDiff{Diff: diff, Z: 2, Lo: diff - 2*se, Hi: diff + 2*se}
		d.judge(0.03, se, 1000)
		return d
	}
	require.Equal(t, Holds, judge(0.01, 0.005).Verdict)   // [0, +2] inside ±3
	require.Equal(t, Changes, judge(-0.08, 0.01).Verdict) // [-10, -6] beyond -3
	d := judge(0.01, 0.02)                                // [-3, +5]: half-width 4, room 2
	require.Equal(t, Inconclusive, d.Verdict)
	require.EqualValues(t, 4000, d.Settle) // 1000 games × (4/2)²
	d = judge(0.05, 0.02)                  // [+1, +9]: room 2 to show it changed
	require.EqualValues(t, 4000, d.Settle)
	require.Zero(t, judge(0.03, 0.02).Settle, "on the margin: no number of games settles it")
}

// A by-skill run: each class's edge at each level, each level's difference
// from the first, the same whatever the workers; the files it writes.
func TestRunSkill(t *testing.T) {
	run := func(workers int) *Skill {
		cfg := testConfig(16, workers)
		s, err := RunSkill(context.Background(), &SkillConfig{Base: *cfg, Levels: []int{2, 4}, Margin: DefaultMargin}, nil)
		require.NoError(t, err)
		return s
	}
	s := run(1)
	require.Len(t, s.Levels, 3)
	require.Equal(t, "cautious,aggressive", s.Levels[0].Name)
	require.Equal(t, "mcts:4", s.Levels[2].Name)
	require.Len(t, s.Edges, 12)
	require.Len(t, s.Diffs, 8)
	for _, d := range s.Diffs {
		require.Contains(t, []string{Holds, Changes, Inconclusive}, d.Verdict)
		require.LessOrEqual(t, d.Lo, d.Diff)
		require.GreaterOrEqual(t, d.Hi, d.Diff)
		require.GreaterOrEqual(t, d.PHolm, d.P)
	}
	// Each level's edge is its class win rate less its fair share.
	for _, e := range s.Edges {
		require.InDelta(t, e.Rate-e.Fair, e.Edge, 1e-12)
	}
	other := run(3)
	require.Equal(t, string(s.CSV()), string(other.CSV()), "the workers do not change the run")

	dir := t.TempDir()
	require.NoError(t, s.Write(dir))
	csv, err := os.ReadFile(filepath.Join(dir, "skill.csv"))
	require.NoError(t, err)
	require.True(t, strings.HasPrefix(string(csv), "class,level,games,rate,fair_share,edge,edge_lo,edge_hi,diff,diff_lo,diff_hi,p,p_holm,verdict,settle_games\n"))
	require.Equal(t, 13, strings.Count(string(csv), "\n"))
	levels, err := os.ReadFile(filepath.Join(dir, "levels.csv"))
	require.NoError(t, err)
	require.Contains(t, string(levels), "mcts:2,win.class.scout,")
	page, err := os.ReadFile(filepath.Join(dir, "report.html"))
	require.NoError(t, err)
	require.Contains(t, string(page), "Holm")
}

func TestSkillRefusesBadRuns(t *testing.T) {
	cfg := *testConfig(16, 1)
	for _, c := range []struct {
		sc   SkillConfig
		want string
	}{
		{SkillConfig{Base: cfg, Margin: 0.03}, "names no level"},
		{SkillConfig{Base: cfg, Levels: []int{0}, Margin: 0.03}, "from 1 to"},
		{SkillConfig{Base: cfg, Levels: []int{5, 5}, Margin: 0.03}, "given twice"},
		{SkillConfig{Base: cfg, Levels: []int{5}, Margin: 0}, "--margin"},
		{SkillConfig{Base: cfg, Levels: []int{5}, Margin: 0.6}, "--margin"},
	} {
		require.ErrorContains(t, c.sc.Prepare(), c.want)
	}
	sharded := cfg
	sharded.Shards, sharded.Games = 2, 16
	require.ErrorContains(t, (&SkillConfig{Base: sharded, Levels: []int{5}, Margin: 0.03}).Prepare(), "no --compare, --shard or --precision")
}
