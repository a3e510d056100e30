package match_test

import (
	"bytes"
	"context"
	"math"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/games/dungeon"
	"github.com/fairboard/fairboard/match"
)

// optionRate is an option value's win rate from a simulation's tallies.
func optionRate(r *match.SimResult, cell int) float64 {
	for _, t := range r.Options {
		if cell < len(t.Values) {
			return float64(t.Wins[cell]) / float64(t.Games[cell])
		}
		cell -= len(t.Values)
	}
	panic("no such cell")
}

// On a game with a seat option (the dungeon's class), a sweep writes each
// value's option rows, and sensitivity reports both objectives, its option
// effect the change of the tracked class's edge size as the simulations'
// own tallies give it (the per-game records agree with the totals).
func TestDesignWithOptions(t *testing.T) {
	cfg := match.SimConfig{Def: dungeon.Def, Games: 24, Seed: "opts", Seats: 4, Bots: []string{"random"}, Workers: 2}
	sw, err := match.Sweep(context.Background(), match.SweepConfig{Sim: cfg, Param: "startHp", Values: []float64{4, 10}})
	require.NoError(t, err)
	var b bytes.Buffer
	require.NoError(t, sw.WriteCSV(&b))
	rows := strings.Split(strings.TrimSpace(b.String()), "\n")
	require.Len(t, rows, 1+2*4+2*4)
	require.True(t, strings.HasPrefix(rows[9], "4,class=warrior,24,"), rows[9])
	require.True(t, strings.HasPrefix(rows[16], "10,class=scout,24,"), rows[16])
	var tb bytes.Buffer
	sw.WriteTable(&tb)
	require.Contains(t, tb.String(), "class=monk")

	res, err := match.Sensitivity(context.Background(), match.SensitivityConfig{Sim: cfg, Params: []string{"startHp"}, Step: 0.5})
	require.NoError(t, err)
	require.True(t, res.HasOption)
	require.Equal(t, []string{"position 1", "position 2", "position 3", "position 4", "class=warrior", "class=monk", "class=duelist", "class=scout"}, res.Cells)
	require.Len(t, res.Params, 1)
	require.Equal(t, []float64{6}, valuesOf(res.Params[0]), "startHp 10 is its maximum: nudged down only, 10 - 0.5*9 = 5.5, rounded half away from zero")
	n := res.Params[0].Nudges[0]
	oc := n.Option.Cell - 4
	require.GreaterOrEqual(t, oc, 0)
	want := math.Abs(optionRate(n.Result, oc)-0.25) - math.Abs(optionRate(res.Base, oc)-0.25)
	require.InDelta(t, want, n.Option.Delta, 1e-12)
	require.LessOrEqual(t, n.Option.Lo, n.Option.Delta)
	require.GreaterOrEqual(t, n.Option.Hi, n.Option.Delta)
	pc := n.Position.Cell
	wantPos := math.Abs(float64(n.Result.Wins[pc])/24-0.25) - math.Abs(float64(res.Base.Wins[pc])/24-0.25)
	require.InDelta(t, wantPos, n.Position.Delta, 1e-12)
	require.Equal(t, res.Params[0].Size, math.Abs(n.Option.Delta), "ranked by the option edge")
	var rb bytes.Buffer
	res.WriteRanking(&rb)
	require.Contains(t, rb.String(), "largest option edge")
	require.Contains(t, rb.String(), "ranked by the effect on the largest option-value edge")
}

func valuesOf(pe match.ParamEffect) []float64 {
	var out []float64
	for _, n := range pe.Nudges {
		out = append(out, n.Value)
	}
	return out
}
