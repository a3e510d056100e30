package sim

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/games/dungeon/engine"
)

// unbalanced returns the default ruleset made unbalanced on purpose: the
// scout moves 2 more (it wins about 80% of its games) and the warrior
// strikes 2 harder.
func unbalanced(t *testing.T) []byte {
	t.Helper()
	data, err := ParamsJSON(engine.DefaultRulesJSON(), Param{"classes.scoutMove", 2}, Param{"classes.warriorAttack", 2})
	require.NoError(t, err)
	return data
}

func tuneSpec(t *testing.T, rules []byte, games int64, target string, params ...TuneParamSpec) *TuneSpec {
	t.Helper()
	r, err := engine.LoadRules(rules)
	require.NoError(t, err)
	tg, err := ParseTarget(target)
	require.NoError(t, err)
	return &TuneSpec{Base: Config{Games: games, Seed: "tune-test", Players: 4, Bots: []string{"cautious", "aggressive"}, Workers: 2, Shards: 1,
		A: Ruleset{Rules: r, Source: "unbalanced.json"}}, RulesJSON: rules, Params: params, Target: tg}
}

func runTune(t *testing.T, spec *TuneSpec, dir string) *TuneState {
	t.Helper()
	st, err := PrepareTune(spec)
	require.NoError(t, err)
	require.NoError(t, st.Save(dir))
	require.NoError(t, RunTune(context.Background(), dir, st, 2, -1, nil, time.Now))
	return st
}

// On a ruleset made unbalanced on purpose, the tuner, naming four numbers
// (two that matter, a decoy that does not, and a real-valued weight),
// finds values whose confirmation meets the target.
func TestTuneMeetsTheTarget(t *testing.T) {
	dir := t.TempDir()
	spec := tuneSpec(t, unbalanced(t), 48000, "fair±3",
		TuneParamSpec{Path: "classes.scoutMove", Lo: 0, Hi: 3, Ranged: true},
		TuneParamSpec{Path: "classes.warriorAttack", Lo: 0, Hi: 3, Ranged: true},
		TuneParamSpec{Path: "roundLimit", Lo: 30, Hi: 60, Ranged: true},
		TuneParamSpec{Path: "composition[2].options[2xT1].weight", Lo: 1, Hi: 200, Ranged: true})
	st := runTune(t, spec, dir)
	require.NotNil(t, st.Result)
	t.Logf("%s; %s", st.Result.Verdict, st.describe(st.Result.Candidate))
	for _, o := range st.Result.Classes {
		t.Logf("  %s %.1f%% [%.1f, %.1f]", o.Class, 100*o.Rate, 100*o.Lo, 100*o.Hi)
	}
	for _, h := range st.History {
		t.Logf("gen %d: %d games, best %s obj %.1f pp², pairing %.2f", h.Number, h.Games, st.describe(h.Best), 1e4*h.BestObj, h.Pairing)
	}
	require.True(t, st.Result.Met, st.Result.Verdict)
	require.LessOrEqual(t, st.Used, spec.Base.Games)
	for _, f := range TuneFiles {
		require.FileExists(t, filepath.Join(dir, f))
	}
	tuned, err := os.ReadFile(filepath.Join(dir, "rules.json"))
	require.NoError(t, err)
	_, err = engine.LoadRules(tuned)
	require.NoError(t, err)
}

// A target that no allowed values can meet is reported as not met, with
// the closest candidate and its intervals. Here the only numbers tuned
// barely matter (a round limit games never reach, the tiles of a rare
// retreat), so the scout of the unbalanced ruleset stays far above the
// band: the grid is small, so the tuner plays it whole and says the target
// is infeasible; on a grid too large to play whole it says only "not met
// within budget".
func TestTuneReportsATargetItCannotMeet(t *testing.T) {
	spec := tuneSpec(t, unbalanced(t), 12000, "fair±2",
		TuneParamSpec{Path: "roundLimit", Lo: 30, Hi: 33, Ranged: true},
		TuneParamSpec{Path: "retreatTiles", Lo: 0, Hi: 1, Ranged: true})
	st := runTune(t, spec, t.TempDir())
	require.True(t, st.Plan.Exhaustive)
	require.NotNil(t, st.Result)
	require.False(t, st.Result.Met)
	require.True(t, st.Result.Infeasible, st.Result.Verdict)
	require.Contains(t, st.Result.Verdict, "infeasible")
	require.Len(t, st.Result.Classes, 4, "the closest candidate's intervals")
	for i := range st.Candidates {
		require.Positive(t, st.Candidates[i].Moments.N, "every point of the grid was played")
	}

	spec = tuneSpec(t, unbalanced(t), 12000, "fair±2",
		TuneParamSpec{Path: "roundLimit", Lo: 30, Hi: 60, Ranged: true},
		TuneParamSpec{Path: "retreatTiles", Lo: 0, Hi: 9, Ranged: true})
	st = runTune(t, spec, t.TempDir())
	require.False(t, st.Plan.Exhaustive)
	require.False(t, st.Result.Met)
	require.False(t, st.Result.Infeasible)
	require.Contains(t, st.Result.Verdict, "not met within budget")
	scout := st.Result.Classes[3]
	require.Equal(t, "scout", scout.Class)
	require.True(t, scout.Outside, "the scout's interval lies wholly above the band: %+v", scout)
}

// A run stopped at generation boundaries (by --minutes, on a clock that
// moves a minute a look) and resumed from its directory ends exactly as a
// run never stopped; and so does a run played as the tasks of a job, each
// generation split into three parts.
func TestTuneResumesAndSplitsToTheSameResult(t *testing.T) {
	spec := func() *TuneSpec {
		return tuneSpec(t, unbalanced(t), 9600, "fair±3",
			TuneParamSpec{Path: "classes.scoutMove", Lo: 0, Hi: 3, Ranged: true},
			TuneParamSpec{Path: "dice.move", Lo: 2, Hi: 8, Ranged: true},
			TuneParamSpec{Path: "loot[1].outcomes[none].weight", Lo: 1, Hi: 100, Ranged: true})
	}
	whole := t.TempDir()
	want := runTune(t, spec(), whole)
	wantCSV, err := os.ReadFile(filepath.Join(whole, "tune.csv"))
	require.NoError(t, err)

	// Stopped and resumed.
	dir := t.TempDir()
	st, err := PrepareTune(spec())
	require.NoError(t, err)
	require.NoError(t, st.Save(dir))
	clock := time.Unix(0, 0)
	tick := func() time.Time { clock = clock.Add(time.Minute); return clock }
	stops := 0
	for !st.Done() {
		require.NoError(t, RunTune(context.Background(), dir, st, 1, 2.5, nil, tick))
		if !st.Done() {
			stops++
			require.Contains(t, st.Stopped, "--minutes 2.5: stopped after generation")
			st, err = LoadTune(dir)
			require.NoError(t, err)
		}
	}
	require.Greater(t, stops, 2)
	got, err := os.ReadFile(filepath.Join(dir, "tune.csv"))
	require.NoError(t, err)
	require.Equal(t, string(wantCSV), string(got))
	require.Equal(t, want.Result, st.Result)

	// Three tasks per generation, in any order of finishing.
	dir = t.TempDir()
	st, err = PrepareTune(spec())
	require.NoError(t, err)
	require.NoError(t, st.Save(dir))
	for steps := 0; !st.Done(); steps++ {
		require.Less(t, steps, 1000)
		for _, task := range []int{2, 0, 1} {
			st, err = TuneStep(context.Background(), dir, task, 3, 2)
			require.NoError(t, err)
		}
	}
	got, err = os.ReadFile(filepath.Join(dir, "tune.csv"))
	require.NoError(t, err)
	require.Equal(t, string(wantCSV), string(got))
	require.Equal(t, want.Result, st.Result)
}

func TestParseTarget(t *testing.T) {
	for spec, want := range map[string]TuneTarget{
		"fair±2":  {Fair: true, Half: 0.02},
		"±2.5":    {Fair: true, Half: 0.025},
		"fair+-2": {Fair: true, Half: 0.02},
		"25±2":    {Center: 0.25, Half: 0.02},
		"23:27":   {Center: 0.25, Half: 0.02},
		"20%:30%": {Center: 0.25, Half: 0.05},
	} {
		got, err := ParseTarget(spec)
		require.NoError(t, err, spec)
		want.Spec = spec
		require.InDelta(t, want.Center, got.Center, 1e-12, spec)
		require.InDelta(t, want.Half, got.Half, 1e-12, spec)
		require.Equal(t, want.Fair, got.Fair, spec)
	}
	for _, bad := range []string{"", "2", "fair±0", "fair±-1", "fair±x", "27:23", "0:101", "x:y", "120±2", "fair±60"} {
		_, err := ParseTarget(bad)
		require.Error(t, err, bad)
		require.Contains(t, err.Error(), "--target")
	}
	lo, hi := TuneTarget{Fair: true, Half: 0.02}.Band(0.2)
	require.InDelta(t, 0.18, lo, 1e-12)
	require.InDelta(t, 0.22, hi, 1e-12)
}

func TestParseTuneParam(t *testing.T) {
	p, lo, hi, ranged, err := ParseTuneParam("classes.scoutMove=0:3")
	require.NoError(t, err)
	require.Equal(t, "classes.scoutMove", p)
	require.Equal(t, [3]any{0.0, 3.0, true}, [3]any{lo, hi, ranged})
	p, _, _, ranged, err = ParseTuneParam("dice.move")
	require.NoError(t, err)
	require.Equal(t, "dice.move", p)
	require.False(t, ranged)
	for _, bad := range []string{"", "=1:2", "x=1", "x=a:2", "x=3:1", "x=1:1", "x=1:inf", "x=NaN:2"} {
		_, _, _, _, err := ParseTuneParam(bad)
		require.Error(t, err, bad)
	}
}

// Without a range, a number gets the range its validation allows: a die
// from 1 side up (no upper bound: up to twice its value or +10), a monk's
// cancel threshold from 1 to the die's sides + 1; a whole range must be
// whole; a value the ruleset refuses is named.
func TestTuneRanges(t *testing.T) {
	cfg := tuneSpec(t, engine.DefaultRulesJSON(), 1000, "fair±2").Base
	data := engine.DefaultRulesJSON()
	p, err := prepareParam(data, TuneParamSpec{Path: "dice.move"}, &cfg)
	require.NoError(t, err)
	require.Equal(t, [2]float64{1, 14}, [2]float64{p.Lo, p.Hi})
	require.Len(t, p.Values, 14)
	p, err = prepareParam(data, TuneParamSpec{Path: "classes.monkCancelMin"}, &cfg)
	require.NoError(t, err)
	require.Equal(t, [2]float64{1, 7}, [2]float64{p.Lo, p.Hi})
	p, err = prepareParam(data, TuneParamSpec{Path: "composition[2].options[2xT1].weight", Lo: 1, Hi: 1000, Ranged: true}, &cfg)
	require.NoError(t, err)
	require.True(t, p.Real)
	require.Contains(t, p.Values, 70.0, "the base value is on the grid")
	require.LessOrEqual(t, len(p.Values), tuneGridPoints)
	require.Equal(t, 1.0, p.Values[0])
	require.Equal(t, 1000.0, p.Values[len(p.Values)-1])
	_, err = prepareParam(data, TuneParamSpec{Path: "dice.move", Lo: 0, Hi: 6, Ranged: true}, &cfg)
	require.ErrorContains(t, err, "0 is refused")
	_, err = prepareParam(data, TuneParamSpec{Path: "dice.move", Lo: 1.5, Hi: 6, Ranged: true}, &cfg)
	require.ErrorContains(t, err, "whole")
	_, err = prepareParam(data, TuneParamSpec{Path: "dice.mov"}, &cfg)
	require.ErrorContains(t, err, `no key "mov"`)
	_, err = planTune(100, 8, 50)
	require.ErrorContains(t, err, "too small")
}
