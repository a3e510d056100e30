package match_test

import (
	"bytes"
	"context"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/games/pig"
	"github.com/fairboard/fairboard/match"
)

// A grid of Pig's goal and die sides: every pair's result is the one-number
// sweep of the die sides run on the base ruleset with the goal set first
// (game.WithNumber), a path that shares nothing with the grid but Simulate;
// the grid's players.csv is those sweeps' with the goal in front; the
// grid does not depend on the workers.
func TestSweepGridIsSweepsAtEachPair(t *testing.T) {
	goals, sides := []float64{5, 12}, []float64{3, 6, 9}
	var grids []*match.GridResult
	var players, tables, csvs []string
	for _, w := range []int{1, 2} {
		var pl, tb, cb bytes.Buffer
		g, err := match.SweepGrid(context.Background(), match.GridConfig{Sim: pigSim(300, "grid", w), Param: "goal", Values: goals,
			Param2: "dieSides", Values2: sides, Players: &pl})
		require.NoError(t, err)
		g.WriteTable(&tb)
		require.NoError(t, g.WriteCSV(&cb))
		grids, players, tables, csvs = append(grids, g), append(players, pl.String()), append(tables, tb.String()), append(csvs, cb.String())
	}
	require.Equal(t, grids[0], grids[1])
	require.Equal(t, players[0], players[1])
	require.Equal(t, tables[0], tables[1])
	require.Equal(t, csvs[0], csvs[1])
	g := grids[0]
	require.Len(t, g.Points, len(goals)*len(sides))
	require.EqualValues(t, 100, g.Base)
	require.EqualValues(t, 6, g.Base2)

	var want strings.Builder
	want.WriteString("value,value2," + match.PlayersHeader + "\n")
	for i, goal := range goals {
		base, err := game.WithNumber(pig.Definition{}, pig.DefaultRules(), "goal", goal)
		require.NoError(t, err)
		cfg := pigSim(300, "grid", 1)
		cfg.Rules = base
		var pl bytes.Buffer
		s, err := match.Sweep(context.Background(), match.SweepConfig{Sim: cfg, Param: "dieSides", Values: sides, Players: &pl})
		require.NoError(t, err)
		for j := range sides {
			pt := g.At(i, j)
			require.Equal(t, goal, pt.Value)
			require.Equal(t, sides[j], pt.Value2)
			require.Equal(t, s.Points[j].Result, pt.Result, "goal %g, dieSides %g", goal, sides[j])
			require.Equal(t, string(s.Points[j].Rules.CanonicalJSON()), string(pt.Rules.CanonicalJSON()))
		}
		lines := strings.Split(strings.TrimSuffix(pl.String(), "\n"), "\n")
		require.Equal(t, "value,"+match.PlayersHeader, lines[0])
		for _, l := range lines[1:] {
			want.WriteString(strconv.FormatFloat(goal, 'g', -1, 64) + "," + l + "\n")
		}
	}
	require.Equal(t, want.String(), players[0])
	require.Nil(t, g.At(2, 0))
	require.Nil(t, g.At(0, 3))

	// sweep.csv: a row per pair and position, value2 beside value.
	rows := strings.Split(strings.TrimSpace(csvs[0]), "\n")
	require.Equal(t, "value,value2,position,games,wins,rate,lo,hi,edge,mean_payoff", rows[0])
	require.Len(t, rows, 1+len(goals)*len(sides)*2)
	require.True(t, strings.HasPrefix(rows[1], "5,3,1,300,"), rows[1])
	require.True(t, strings.HasPrefix(rows[4], "5,6,2,300,"), rows[4])
	require.True(t, strings.HasPrefix(rows[12], "12,9,2,300,"), rows[12])
	require.Contains(t, tables[0], `pig: sweep of goal × dieSides (base 100 × 6, ranges [1, 10000] and [2, 1000]), seed "grid"`)
	require.Contains(t, tables[0], "\n  goal = 12, dieSides = 3   300 games\n      position 1  ")
}

// Every refusal comes before any game: nothing reaches players.csv.
func TestSweepGridRefusals(t *testing.T) {
	for _, c := range []struct {
		param, param2   string
		values, values2 []float64
		want            string
	}{
		{"goal", "goal", []float64{5}, []float64{6}, "a grid needs two different numbers: goal is given twice"},
		{"goal", "speed", []float64{5}, []float64{6}, `pig has no ruleset number "speed" (known: goal, dieSides)`},
		{"speed", "goal", []float64{5}, []float64{6}, `pig has no ruleset number "speed"`},
		{"goal", "dieSides", []float64{5}, nil, "a sweep of dieSides needs at least one value (range [2, 1000])"},
		{"goal", "dieSides", nil, []float64{6}, "a sweep of goal needs at least one value"},
		{"goal", "dieSides", []float64{5}, []float64{6, 1001}, "dieSides must be a whole number in [2, 1000], not 1001"},
		{"goal", "dieSides", []float64{5}, []float64{6.5}, "dieSides must be a whole number in [2, 1000], not 6.5"},
		{"goal", "dieSides", []float64{0, 5}, []float64{6}, "goal must be a whole number in [1, 10000], not 0"},
	} {
		var pl bytes.Buffer
		res, err := match.SweepGrid(context.Background(), match.GridConfig{Sim: pigSim(10, "s", 1), Param: c.param, Values: c.values,
			Param2: c.param2, Values2: c.values2, Players: &pl})
		require.ErrorContains(t, err, c.want)
		require.Nil(t, res)
		require.Zero(t, pl.Len(), "nothing played")
	}
	cfg := pigSim(10, "s", 1)
	cfg.Players = &bytes.Buffer{}
	_, err := match.SweepGrid(context.Background(), match.GridConfig{Sim: cfg, Param: "goal", Values: []float64{1}, Param2: "dieSides", Values2: []float64{6}})
	require.ErrorContains(t, err, "GridConfig.Players")
}
