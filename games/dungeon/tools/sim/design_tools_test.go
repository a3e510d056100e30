package sim

import (
	"bytes"
	"context"
	"encoding/csv"
	"math"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/games/dungeon/engine"
)

// A sweep plays every value on the run's own seeds: the point whose value
// is the base ruleset's is exactly the plain run, and every point's games
// are the same games (common random numbers). sweep.csv has the fixed
// columns and a row per point and measure; a grid adds param2, value2.
func TestSweepPlaysEveryValueOnTheSameGames(t *testing.T) {
	base := testConfig(300, 2)
	sc := &SweepConfig{Base: *base, RulesJSON: engine.DefaultRulesJSON(), Param: "classes.scoutMove", Values: []float64{0, 1, 2}}
	s, err := RunSweep(context.Background(), sc, nil)
	require.NoError(t, err)
	require.Len(t, s.Points, 3)
	plain := run(t, testConfig(300, 1))
	require.Equal(t, comparableTally(t, plain.Tally), comparableTally(t, s.At(1, 0).Results.Tally), "value 1 is the default ruleset")

	weak := testConfig(300, 1)
	weak.A = Ruleset{Rules: weakScout(t), Source: "weak"}
	require.Equal(t, comparableTally(t, run(t, weak).Tally), comparableTally(t, s.At(0, 0).Results.Tally), "value 0 is the ruleset without the perk")

	recs, err := csv.NewReader(bytes.NewReader(s.CSV())).ReadAll()
	require.NoError(t, err)
	require.Equal(t, []string{"param", "value", "id", "estimate", "ci_lo", "ci_hi"}, recs[0])
	rows := 1
	for _, p := range s.Points {
		rows += len(p.Results.Measures)
	}
	require.Equal(t, rows, len(recs), "a row per point and measure")
	for _, r := range recs[1:] {
		require.Equal(t, "classes.scoutMove", r[0])
		if r[2] == "win.class.scout" && r[1] == "1" {
			m := measureByID(plain.Measures, "win.class.scout")
			require.Equal(t, ff(m.Value), r[3])
			require.Equal(t, ff(m.CI.Lo), r[4])
		}
	}

	sc.Param2, sc.Values2 = "dice.move", []float64{3, 4}
	s, err = RunSweep(context.Background(), sc, nil)
	require.NoError(t, err)
	require.Len(t, s.Points, 6)
	require.Equal(t, comparableTally(t, plain.Tally), comparableTally(t, s.At(1, 1).Results.Tally), "(1, 4) is the default ruleset")
	recs, err = csv.NewReader(bytes.NewReader(s.CSV())).ReadAll()
	require.NoError(t, err)
	require.Equal(t, []string{"param", "value", "id", "estimate", "ci_lo", "ci_hi", "param2", "value2"}, recs[0])
	require.Contains(t, string(s.reportHTML()), "Spread of class win rates")
}

func comparableTally(t *testing.T, tl *Tally) string {
	t.Helper()
	r := &Results{Tally: tl}
	return comparable(t, r)
}

// A sweep checks every value before playing: the first value the ruleset
// refuses, an unknown path or a path to no number is an error naming it.
func TestSweepRefusesBadValuesBeforePlaying(t *testing.T) {
	base := testConfig(100, 1)
	for _, c := range []struct {
		param, param2 string
		values        []float64
		want          string
	}{
		{"dice.move", "", []float64{4, 0}, "dice.move = 0: the ruleset refuses it"},
		{"classes.scoutMov", "", []float64{1}, `no key "scoutMov"`},
		{"dice", "", []float64{1}, "names an object, not a number"},
		{"minPlayers", "", []float64{5}, "--players 4 is outside the ruleset's 5..6"},
		{"dice.move", "dice.move", []float64{4}, "is --param too"},
	} {
		sc := &SweepConfig{Base: *base, RulesJSON: engine.DefaultRulesJSON(), Param: c.param, Values: c.values, Param2: c.param2}
		if c.param2 != "" {
			sc.Values2 = []float64{3}
		}
		s, err := RunSweep(context.Background(), sc, nil)
		require.ErrorContains(t, err, c.want)
		require.Nil(t, s, "no game is played")
	}
}

// A run to a precision stops at the first batch boundary at which every
// headline win rate is precise enough (checked here against plain runs of
// 1, 2, ... batches), plays exactly the games of the plain run of that
// length, and is the same when run again or on another number of workers.
func TestPrecisionStopsAtTheFirstPreciseBatch(t *testing.T) {
	const p = 0.02
	cfg := testConfig(20*PrecisionBatch, 2)
	cfg.Precision = p
	a := run(t, cfg)
	cfg1 := testConfig(20*PrecisionBatch, 1)
	cfg1.Precision = p
	b := run(t, cfg1)
	require.Equal(t, comparable(t, a), comparable(t, b), "reproducible, whatever the workers")
	require.False(t, a.Partial)
	require.Zero(t, a.Done%PrecisionBatch)
	require.Less(t, a.Done, cfg.Games, "stopped before the ceiling")
	require.Equal(t, a.Done, a.Config.Games)
	require.EqualValues(t, 100*p, a.Config.Precision)
	require.Equal(t, cfg.Games, a.Config.MaxGames)
	for k := int64(1); k*PrecisionBatch <= a.Done; k++ {
		plain := run(t, testConfig(k*PrecisionBatch, 2))
		precise := true
		for _, m := range plain.Measures {
			if Headline(m) && (m.CI.Hi-m.CI.Lo)/2 > p {
				precise = false
			}
		}
		require.Equal(t, k*PrecisionBatch == a.Done, precise, "after %d batches", k)
		if k*PrecisionBatch == a.Done {
			require.Equal(t, comparableTally(t, plain.Tally), comparableTally(t, a.Tally))
		}
	}
	// A ceiling below the precision plays the ceiling.
	short := testConfig(PrecisionBatch+500, 2)
	short.Precision = p
	r := run(t, short)
	require.EqualValues(t, PrecisionBatch+500, r.Done)
	require.EqualValues(t, PrecisionBatch+500, r.Config.Games)
}

// Each nudge's effects are the nudged run minus the base run: for the
// length and the first-position edge the paired means equal the
// differences of the two runs' tallies (another path through the code), for
// the spread the difference of the spreads; each interval holds its
// estimate. A value outside the ruleset's bounds is refused, not played.
func TestSensitivityEffectsAreTheRunsDifferences(t *testing.T) {
	const games = 300
	sc := &SensitivityConfig{Base: *testConfig(games, 2), RulesJSON: engine.DefaultRulesJSON(), Step: 1}
	s, err := RunSensitivity(context.Background(), sc, nil)
	require.NoError(t, err)
	require.EqualValues(t, games, s.Games)
	baseRun := run(t, testConfig(games, 2))
	bb := BalanceOf(baseRun.Tally, 4)
	require.InDelta(t, bb.Spread, s.Base.Spread, 1e-12)
	checked := 0
	for _, n := range s.Nudges {
		switch {
		case n.Param == "classes.duelistRerolls" && n.Value == 2:
			require.Contains(t, n.Refused, "duelistRerolls", "0 or 1 only")
			continue
		case n.Param == "minPlayers" && n.Value == 1:
			require.NotEmpty(t, n.Refused)
			continue
		case n.Param == "startHp" && n.Value == 11:
			require.Contains(t, n.Refused, "startHp 11 exceeds maxHp 10", "the ruleset's own bound")
			continue
		case n.Param != "classes.scoutMove" && n.Param != "dice.move" && n.Param != "startHp":
			continue
		}
		require.Empty(t, n.Refused, n.Param)
		r, err := WithParams(engine.DefaultRulesJSON(), Param{n.Param, n.Value})
		require.NoError(t, err)
		cfg := testConfig(games, 2)
		cfg.A = Ruleset{Rules: r, Source: "nudged"}
		vb := BalanceOf(run(t, cfg).Tally, 4)
		want := [numObjectives]float64{vb.Spread - bb.Spread, vb.FirstEdge - bb.FirstEdge, vb.Length - bb.Length}
		for o, e := range n.Effects {
			require.InDelta(t, want[o], e.Estimate, 1e-9, "%s = %v, %s", n.Param, n.Value, ObjectiveIDs[o])
			require.True(t, e.Lo <= e.Estimate && e.Estimate <= e.Hi && e.Hi-e.Lo > 0, "%s: interval %+v", ObjectiveIDs[o], e)
		}
		checked++
	}
	require.Equal(t, 5, checked)
	top := s.Ranked(ObjSpread)[0]
	require.Equal(t, "classes.scoutMove", top.Param, "the scout's perk is what moves the spread most")
	recs, err := csv.NewReader(bytes.NewReader(s.CSV())).ReadAll()
	require.NoError(t, err)
	require.Equal(t, []string{"param", "base", "value", "objective", "effect", "ci_lo", "ci_hi", "unit", "games", "refused"}, recs[0])
	played, refused := s.Played()
	require.Len(t, recs, 1+3*played+refused)
}

// The delta-method interval of the spread's effect is about as wide as
// the effects of independent replications spread: over disjoint blocks of
// games, the estimates fall inside one another's 95% intervals about as
// often as they should (a loose check of the width, not of the centre).
func TestSpreadIntervalHasAboutTheRightWidth(t *testing.T) {
	rules, err := WithParams(engine.DefaultRulesJSON(), Param{"dice.move", 3})
	require.NoError(t, err)
	const block, blocks = 400, 12
	var ests, halfs []float64
	for k := range blocks {
		base := make([]GameRecord, (k+1)*block)
		nud := make([]GameRecord, (k+1)*block)
		for i, rec := range [][]GameRecord{base, nud} {
			cfg := testConfig(int64((k+1)*block), 2)
			cfg.From, cfg.Records = int64(k*block), rec
			if i == 1 {
				cfg.A = Ruleset{Rules: rules, Source: "nudged"}
			}
			_, err := Run(context.Background(), cfg, nil)
			require.NoError(t, err)
		}
		e := effects(base[k*block:], nud[k*block:], 4)[ObjSpread]
		ests, halfs = append(ests, e.Estimate), append(halfs, (e.Hi-e.Lo)/2)
	}
	var mean, sd, h float64
	for i := range ests {
		mean += ests[i] / blocks
		h += halfs[i] / blocks
	}
	for _, e := range ests {
		sd += (e - mean) * (e - mean) / (blocks - 1)
	}
	sd = math.Sqrt(sd)
	// The half-width should be about 1.96 standard deviations of the
	// estimates; with 12 blocks the sample sd is itself rough (±25%).
	require.InDelta(t, 1.96*sd, h, 0.6*h, "half-width %.4f against 1.96·sd %.4f", h, 1.96*sd)
}

// Line names crowded at a chart's right end are moved apart, as little as
// they can be, within the chart (values worked out by hand: the gap is 15).
func TestSpreadLabels(t *testing.T) {
	ys := func(ls []lineLabel) []float64 {
		var out []float64
		for _, l := range ls {
			out = append(out, l.y)
		}
		return out
	}
	for _, c := range []struct {
		in, want []float64
	}{
		{[]float64{200, 100, 105}, []float64{100, 115, 200}},           // sorted; the second pushed down
		{[]float64{270, 275, 278}, []float64{250, 265, 280}},           // at the bottom: pushed up from 280
		{[]float64{0, 2}, []float64{10, 25}},                           // at the top: from 10
		{[]float64{50, 150, 250}, []float64{50, 150, 250}},             // apart already
		{[]float64{100, 100, 100, 100}, []float64{100, 115, 130, 145}}, // equal
	} {
		ls := make([]lineLabel, len(c.in))
		for i, y := range c.in {
			ls[i].y = y
		}
		spreadLabels(ls, 10, 280)
		require.Equal(t, c.want, ys(ls), "%v", c.in)
	}
}

// --values takes finite numbers, each once; anything else names the flag
// and the item.
func TestParseValues(t *testing.T) {
	got, err := ParseValues("--values", " 3, 0.5 ,-2,1e2")
	require.NoError(t, err)
	require.Equal(t, []float64{3, 0.5, -2, 100}, got)
	for in, want := range map[string]string{
		"":        "--values names no value",
		"  ":      "--values names no value",
		"1,,2":    "--values: value 2 is empty",
		"1,":      "--values: value 2 is empty",
		"x":       `--values: "x" is not a number`,
		"NaN":     `--values: "NaN" is not a number`,
		"1,+Inf":  `--values: "+Inf" is not a number`,
		"1e400":   `--values: "1e400" is not a number`,
		"4,2,4.0": "--values: 4.0 is given twice",
	} {
		_, err := ParseValues("--values", in)
		require.EqualError(t, err, want, "%q", in)
	}
}

// A sweep to a precision runs each point as "gamectl sim --precision"
// would run its ruleset alone: the same games, stopped at the same batch,
// whatever the number of workers.
func TestSweepToAPrecisionIsReproducible(t *testing.T) {
	const p = 0.03
	sweep := func(workers int) *Sweep {
		base := testConfig(6*PrecisionBatch, workers)
		base.Precision = p
		s, err := RunSweep(context.Background(), &SweepConfig{Base: *base, RulesJSON: engine.DefaultRulesJSON(),
			Param: "classes.scoutMove", Values: []float64{0, 2}}, nil)
		require.NoError(t, err)
		return s
	}
	a, b := sweep(2), sweep(1)
	for i, v := range []float64{0, 2} {
		r, err := WithParams(engine.DefaultRulesJSON(), Param{Path: "classes.scoutMove", Value: v})
		require.NoError(t, err)
		alone := testConfig(6*PrecisionBatch, 2)
		alone.Precision, alone.A = p, Ruleset{Rules: r, Source: alone.A.Source}
		want := run(t, alone)
		require.Less(t, want.Done, int64(6*PrecisionBatch), "the run stops before its ceiling")
		require.Equal(t, comparable(t, want), comparable(t, a.Points[i].Results), "value %v", v)
		require.Equal(t, comparable(t, want), comparable(t, b.Points[i].Results), "value %v on one worker", v)
	}
}

// A sensitivity analysis to a precision stops at the first batch at which
// every played nudge's effects on the spread and on the first-position
// edge are within the precision: not at the batch before (an analysis
// whose ceiling is that batch is not precise), and the same games whatever
// the workers. (Batches of 30 games, not PrecisionBatch, keep the 245
// rulesets of the default ruleset's nudges quick to play.)
func TestSensitivityToAPrecisionStopsAtTheFirstPreciseBatch(t *testing.T) {
	defer func(b int64) { sensitivityBatch = b }(sensitivityBatch)
	sensitivityBatch = 30
	const p = 0.25
	analyse := func(ceiling int64, workers int) *Sensitivity {
		cfg := testConfig(ceiling, workers)
		cfg.Precision = p
		s, err := RunSensitivity(context.Background(), &SensitivityConfig{Base: *cfg, RulesJSON: engine.DefaultRulesJSON(), Step: 1}, nil)
		require.NoError(t, err)
		return s
	}
	a := analyse(20*sensitivityBatch, 2)
	require.Zero(t, a.Games%sensitivityBatch)
	require.Greater(t, a.Games, sensitivityBatch, "the first batch is not precise enough")
	require.Less(t, a.Games, 20*sensitivityBatch, "stopped before the ceiling")
	require.True(t, a.precise(p))
	for _, n := range a.Nudges {
		if n.Refused == "" {
			for _, o := range []int{ObjSpread, ObjFirst} {
				require.LessOrEqual(t, (n.Effects[o].Hi-n.Effects[o].Lo)/2, p, "%s = %v", n.Param, n.Value)
			}
		}
	}
	before := analyse(a.Games-sensitivityBatch, 2)
	require.Equal(t, a.Games-sensitivityBatch, before.Games, "a lower ceiling is played to its end")
	require.False(t, before.precise(p), "not precise one batch earlier")
	b := analyse(20*sensitivityBatch, 1)
	require.Equal(t, a.Games, b.Games)
	require.Equal(t, a.Nudges, b.Nudges, "the same effects on one worker")
	require.Equal(t, a.Base, b.Base)
}
