package main

import (
	"bytes"
	"context"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/match"
)

// "sim sweep --game pig --param2 --values2" is a grid: its sweep.csv's
// rows for goal g are, value2 by value2, the one-number sweep's of the die
// sides on the ruleset with goal g (game.WithNumber), g in front; the
// output does not depend on --workers.
func TestGameGridPig(t *testing.T) {
	var outs []string
	for _, w := range []string{"1", "2"} {
		dir := t.TempDir()
		code, out, errs := gamectl(t, "sim", "sweep", "--game", "pig", "--param", "goal", "--values", "5,12", "--param2", "dieSides", "--values2", "3,6",
			"--games", "300", "--seed", "cli-grid", "--workers", w, "--out", dir)
		require.Equal(t, 0, code, errs)
		outs = append(outs, strings.ReplaceAll(out, dir, "DIR"))
		for _, f := range []string{"sweep.csv", "players.csv", "summary.txt"} {
			b, err := os.ReadFile(filepath.Join(dir, f))
			require.NoError(t, err)
			outs = append(outs, string(b))
		}
	}
	require.Equal(t, outs[:4], outs[4:])
	require.True(t, strings.HasSuffix(outs[0], "\nwrote DIR/sweep.csv, players.csv and summary.txt\n"))
	require.Equal(t, outs[3], strings.TrimSuffix(outs[0], "\nwrote DIR/sweep.csv, players.csv and summary.txt\n"))
	require.Contains(t, outs[0], "pig: sweep of goal × dieSides (base 100 × 6")
	require.Contains(t, outs[0], "\n  goal = 5, dieSides = 6   300 games\n")

	def := mustGame(t, "pig")
	want := []string{match.GridHeader}
	for _, g := range []float64{5, 12} {
		base, err := game.WithNumber(def, def.DefaultRuleset(), "goal", g)
		require.NoError(t, err)
		s, err := match.Sweep(context.Background(), match.SweepConfig{Sim: match.SimConfig{Def: def, Rules: base, Games: 300, Seed: "cli-grid",
			Seats: 2, Bots: []string{"random"}, Workers: 1}, Param: "dieSides", Values: []float64{3, 6}})
		require.NoError(t, err)
		var b bytes.Buffer
		require.NoError(t, s.WriteCSV(&b))
		for _, row := range strings.Split(strings.TrimSpace(b.String()), "\n")[1:] {
			want = append(want, strconv.FormatFloat(g, 'g', -1, 64)+","+row)
		}
	}
	require.Equal(t, strings.Join(want, "\n")+"\n", outs[1])
	require.Equal(t, "value,value2,"+match.PlayersHeader, strings.SplitN(outs[2], "\n", 2)[0])
	require.Equal(t, 1+4*300*2, strings.Count(outs[2], "\n"))
}

// Every refusal of a grid or a precision exits 2 naming the flag or the
// value, before any game: the --out directory stays empty.
func TestGameGridRefusals(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--param2", "goal", "--values2", "6"}, "--param2 goal is --param too"},
		{[]string{"--param2", "speed", "--values2", "6"}, `--param2: bad_ruleset: pig has no ruleset number "speed" (known: goal, dieSides)`},
		{[]string{"--values2", "6"}, "--values2 without --param2"},
		{[]string{"--param2", "dieSides"}, "--values2 needs at least one value"},
		{[]string{"--param2", "dieSides", "--values2", "6,1001"}, "--values2: bad_ruleset: dieSides must be a whole number in [2, 1000], not 1001"},
		{[]string{"--param2", "dieSides", "--values2", "6.5"}, "--values2: bad_ruleset: dieSides must be a whole number in [2, 1000], not 6.5"},
		{[]string{"--param2", "dieSides", "--values2", "six"}, `--values2: "six" is not a number`},
		{[]string{"--param2", "dieSides", "--values2", "6", "--values", "0"}, "--values: bad_ruleset: goal must be a whole number in [1, 10000], not 0"},
		{[]string{"--param2", "dieSides", "--values2", "6", "--precision", "-1"}, "--precision -1: want a half-width in percentage points, above 0 and below 100"},
		{[]string{"--precision", "100"}, "--precision 100: want a half-width"},
		{[]string{"--precision", "NaN"}, "--precision NaN: want a half-width"},
	} {
		dir := t.TempDir()
		args := append([]string{"sim", "sweep", "--game", "pig", "--param", "goal", "--values", "5", "--games", "10", "--seed", "x", "--out", dir}, c.args...)
		code, out, errs := gamectl(t, args...)
		require.Equalf(t, 2, code, "%v", c.args)
		require.Containsf(t, errs, c.want, "%v", c.args)
		require.Empty(t, out)
		left, err := os.ReadDir(dir)
		require.NoError(t, err)
		require.Emptyf(t, left, "%v: nothing written", c.args)
	}
	// The control: the same command with a grid it accepts writes there.
	dir := t.TempDir()
	code, _, errs := gamectl(t, "sim", "sweep", "--game", "pig", "--param", "goal", "--values", "5", "--games", "10", "--seed", "x", "--out", dir,
		"--param2", "dieSides", "--values2", "6", "--precision", "50")
	require.Equal(t, 0, code, errs)
	left, err := os.ReadDir(dir)
	require.NoError(t, err)
	require.Len(t, left, 3)
	for _, args := range [][]string{
		{"--precision", "-0.5"}, {"--precision", "100"}, {"--by-skill", "5", "--precision", "1"},
	} {
		code, _, errs := gamectl(t, append([]string{"sim", "--game", "pig", "--games", "10", "--seed", "x"}, args...)...)
		require.Equalf(t, 2, code, "%v", args)
		require.Contains(t, errs, "--precision")
	}
}

// wilsonHalf is the half-width of the Wilson score 95% interval of k
// successes in n trials, from its formula: z sqrt(p(1-p)/n + z^2/(4n^2)) /
// (1 + z^2/n), z = 1.959964.
func wilsonHalf(k, n int64) float64 {
	const z = 1.959963984540054
	p, nf := float64(k)/float64(n), float64(n)
	return z * math.Sqrt(p*(1-p)/nf+z*z/(4*nf*nf)) / (1 + z*z/nf)
}

var winsRE = regexp.MustCompile(`\((\d+)/(\d+)\)`)

// widestPrinted is the largest Wilson half-width over the positions a
// game summary prints (their "(wins/games)"), and the games.
func widestPrinted(t *testing.T, out string) (float64, int64) {
	w, games := 0.0, int64(0)
	m := winsRE.FindAllStringSubmatch(out, -1)
	require.Len(t, m, 2, out)
	for _, x := range m {
		k, _ := strconv.ParseInt(x[1], 10, 64)
		n, _ := strconv.ParseInt(x[2], 10, 64)
		w, games = math.Max(w, wilsonHalf(k, n)), n
	}
	return w, games
}

// "sim --game pig --precision P" stops at the first batch of 2,000 games
// whose printed win rates have a Wilson half-width of at most P (the plain
// run of one batch fewer does not), the same whatever --workers, and
// --games is its ceiling.
func TestGamePrecisionPig(t *testing.T) {
	var outs []string
	for _, w := range []string{"1", "2"} {
		dir := t.TempDir()
		code, out, errs := gamectl(t, "sim", "--game", "pig", "--games", "40000", "--seed", "cli-prec", "--precision", "1.6", "--workers", w, "--out", dir)
		require.Equal(t, 0, code, errs)
		outs = append(outs, strings.ReplaceAll(out, dir, "DIR"))
		for _, f := range []string{"players.csv", "summary.txt"} {
			b, err := os.ReadFile(filepath.Join(dir, f))
			require.NoError(t, err)
			outs = append(outs, string(b))
		}
	}
	require.Equal(t, outs[:3], outs[3:])
	half, n := widestPrinted(t, outs[0])
	require.LessOrEqual(t, half, 0.016)
	require.Zero(t, n%2000)
	require.GreaterOrEqual(t, n, int64(4000))
	require.Less(t, n, int64(40000))
	require.Contains(t, outs[0], "precision: played until every seat position's win rate's 95% interval was within +-1.6 pp, in batches of 2000 games (ceiling 40000 games): precise after "+strconv.FormatInt(n, 10)+" games\n")
	require.Equal(t, 1+2*n, int64(strings.Count(outs[1], "\n")), "players.csv has the games played")

	code, before, errs := gamectl(t, "sim", "--game", "pig", "--games", strconv.FormatInt(n-2000, 10), "--seed", "cli-prec")
	require.Equal(t, 0, code, errs)
	h, _ := widestPrinted(t, before)
	require.Greater(t, h, 0.016, "one batch fewer was not precise")
	code, plain, errs := gamectl(t, "sim", "--game", "pig", "--games", strconv.FormatInt(n, 10), "--seed", "cli-prec")
	require.Equal(t, 0, code, errs)
	require.Equal(t, winsRE.FindAllString(plain, -1), winsRE.FindAllString(outs[0], -1), "the plain run of those games")

	// The ceiling, not a multiple of the batch.
	code, out, errs := gamectl(t, "sim", "--game", "pig", "--games", "2500", "--seed", "cli-prec", "--precision", "0.5")
	require.Equal(t, 0, code, errs)
	require.True(t, strings.HasPrefix(out, `pig: 2500 games, seed "cli-prec"`), out)
	require.Contains(t, out, "(ceiling 2500 games): not precise at the ceiling, 2500 games\n")

	// The sweep and the grid to a precision print the library's.
	def := mustGame(t, "pig")
	sim := match.SimConfig{Def: def, Games: 20000, Seed: "cli-prec", Seats: 2, Bots: []string{"random"}, Workers: 1}
	s, err := match.SweepPrecise(context.Background(), match.SweepConfig{Sim: sim, Param: "goal", Values: []float64{1, 100}}, 0.02)
	require.NoError(t, err)
	var b bytes.Buffer
	s.WriteTable(&b)
	code, out, errs = gamectl(t, "sim", "sweep", "--game", "pig", "--param", "goal", "--values", "1,100", "--games", "20000", "--seed", "cli-prec", "--precision", "2")
	require.Equal(t, 0, code, errs)
	require.Equal(t, b.String(), out)
	g, err := match.SweepGridPrecise(context.Background(), match.GridConfig{Sim: sim, Param: "goal", Values: []float64{1, 100}, Param2: "dieSides", Values2: []float64{6}}, 0.02)
	require.NoError(t, err)
	b.Reset()
	g.WriteTable(&b)
	code, out, errs = gamectl(t, "sim", "sweep", "--game", "pig", "--param", "goal", "--values", "1,100", "--param2", "dieSides", "--values2", "6",
		"--games", "20000", "--seed", "cli-prec", "--precision", "2")
	require.Equal(t, 0, code, errs)
	require.Equal(t, b.String(), out)
	require.Contains(t, out, "precision: each value played until")
}

// The help of the game sweep and of the game simulation names the grid
// and the precision, with the batch the library plays.
func TestGameGridPrecisionHelp(t *testing.T) {
	batch := "batches of " + strconv.Itoa(match.PrecisionBatch) + " games"
	for _, c := range []struct {
		args []string
		want []string
	}{
		{[]string{"sim", "sweep", "--game", "pig", "-h"}, []string{"[--param2 PATH --values2 ...]", "--precision P", batch, "a grid adds value2 after value", "-values2"}},
		{[]string{"sim", "--game", "pig", "-h"}, []string{"[--precision P]", batch, "+-P/100 of the payoff", "--games is the ceiling"}},
	} {
		code, out, errs := gamectl(t, c.args...)
		require.Equalf(t, 0, code, "%v: %s", c.args, errs)
		for _, w := range c.want {
			require.Containsf(t, out, w, "%v", c.args)
		}
	}
}
