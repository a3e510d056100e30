package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/match"
)

// "sim sweep --game pig" prints the library's sweep and writes its
// sweep.csv, players.csv and summary.txt; the output does not depend on
// --workers.
func TestGameSweepPig(t *testing.T) {
	var outs []string
	for _, w := range []string{"1", "2"} {
		dir := t.TempDir()
		code, out, errs := gamectl(t, "sim", "sweep", "--game", "pig", "--param", "goal", "--values", "1,5", "--games", "500",
			"--seed", "cli-sweep", "--workers", w, "--out", dir)
		require.Equal(t, 0, code, errs)
		outs = append(outs, strings.ReplaceAll(out, dir, "DIR"))
		for _, f := range []string{"sweep.csv", "players.csv", "summary.txt"} {
			b, err := os.ReadFile(filepath.Join(dir, f))
			require.NoError(t, err)
			outs = append(outs, string(b))
		}
	}
	require.Equal(t, outs[:4], outs[4:])
	want, err := match.Sweep(context.Background(), match.SweepConfig{Sim: match.SimConfig{Def: mustGame(t, "pig"), Games: 500, Seed: "cli-sweep",
		Seats: 2, Bots: []string{"random"}, Workers: 1}, Param: "goal", Values: []float64{1, 5}})
	require.NoError(t, err)
	var table, csv bytes.Buffer
	want.WriteTable(&table)
	require.NoError(t, want.WriteCSV(&csv))
	require.Equal(t, table.String()+"\nwrote DIR/sweep.csv, players.csv, summary.txt and report.html\n", outs[0])
	require.Equal(t, csv.String(), outs[1])
	require.Equal(t, table.String(), outs[3])
	// The header lines.
	lines := strings.Split(outs[0], "\n")
	require.Equal(t, `pig: sweep of goal (base 100, range [1, 10000]), seed "cli-sweep" (game i: cli-sweep#i under every value), 2 seats, bots random`, lines[0])
	require.Equal(t, "win rate by position (1 = first to act; fair share 50.0%): rate, 95% interval, edge in percentage points", lines[1])
	require.Equal(t, "value,game,seed,seat,uid,bot,position,won,payoff", strings.SplitN(outs[2], "\n", 2)[0])
	require.Equal(t, match.SweepHeader, strings.SplitN(outs[1], "\n", 2)[0])
}

func TestGameSensitivityPig(t *testing.T) {
	dir := t.TempDir()
	rules := filepath.Join(dir, "r.json")
	require.NoError(t, os.WriteFile(rules, []byte(`{"goal":20,"dieSides":6}`), 0o644))
	code, out, errs := gamectl(t, "sim", "sensitivity", "--game", "pig", "--rules", rules, "--step", "0.001", "--games", "400", "--seed", "cli-sens")
	require.Equal(t, 0, code, errs)
	base, err := mustGame(t, "pig").DecodeRuleset([]byte(`{"goal":20,"dieSides":6}`))
	require.NoError(t, err)
	want, err := match.Sensitivity(context.Background(), match.SensitivityConfig{Sim: match.SimConfig{Def: mustGame(t, "pig"), Rules: base,
		Games: 400, Seed: "cli-sens", Seats: 2, Bots: []string{"random"}, Workers: 1}, Step: 0.001})
	require.NoError(t, err)
	var b bytes.Buffer
	want.WriteRanking(&b)
	require.Equal(t, b.String(), out)
	require.True(t, strings.HasPrefix(out, `pig: sensitivity, step 0.001 of each range, 400 games a ruleset, seed "cli-sens"`), out)
	require.Contains(t, out, " 1. ")
	require.Contains(t, out, " 2. ")

	code, out, errs = gamectl(t, "sim", "sensitivity", "--game", "pig", "--rules", rules, "--params", "dieSides", "--games", "50", "--seed", "x")
	require.Equal(t, 0, code, errs)
	require.Contains(t, out, " 1. dieSides (base 6, range [2, 1000])")
	require.NotContains(t, out, "goal (base")
}

func TestGameBySkillPig(t *testing.T) {
	dir := t.TempDir()
	rules := filepath.Join(dir, "r.json")
	require.NoError(t, os.WriteFile(rules, []byte(`{"goal":10,"dieSides":6}`), 0o644))
	code, out, errs := gamectl(t, "sim", "--game", "pig", "--rules", rules, "--by-skill", "5,20", "--games", "100", "--seed", "cli-skill")
	require.Equal(t, 0, code, errs)
	base, err := mustGame(t, "pig").DecodeRuleset([]byte(`{"goal":10,"dieSides":6}`))
	require.NoError(t, err)
	want, err := match.BySkill(context.Background(), match.SimConfig{Def: mustGame(t, "pig"), Rules: base, Games: 100, Seed: "cli-skill",
		Seats: 2, Bots: []string{"random"}, Workers: 1}, []int{5, 20})
	require.NoError(t, err)
	var b bytes.Buffer
	want.WriteTable(&b)
	require.Equal(t, b.String(), out)
	require.Equal(t, 3, strings.Count(out, " | 1: "), "a row per level")
	require.Contains(t, out, "  position 1: ")
}

// On poker the levels may be bots (here random), and the table reads
// mean payoffs (chips) by position, as match.BySkillBots writes it.
func TestGameBySkillPoker(t *testing.T) {
	code, out, errs := gamectl(t, "sim", "--game", "kuhn", "--by-skill", "random,5", "--games", "200", "--seed", "cli-poker")
	require.Equal(t, 0, code, errs)
	want, err := match.BySkillBots(context.Background(), match.SimConfig{Def: mustGame(t, "kuhn"), Rules: mustGame(t, "kuhn").DefaultRuleset(),
		Games: 200, Seed: "cli-poker", Seats: 2, Bots: []string{"random"}, Workers: 1}, []string{"random", "mcts:5"})
	require.NoError(t, err)
	var b bytes.Buffer
	want.WriteTable(&b)
	require.Equal(t, b.String(), out)
	require.Contains(t, out, "mean payoff by position")
	require.Equal(t, 3, strings.Count(out, " | 1: "), "a row per level")
}

func TestGameDesignRefusals(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"sweep", "--game", "pig", "--games", "1", "--seed", "s", "--values", "1"}, "--param is required: one of goal [1, 10000], dieSides [2, 1000]"},
		{[]string{"sweep", "--game", "pig", "--games", "1", "--seed", "s", "--param", "speed", "--values", "1"}, `pig has no ruleset number "speed" (known: goal, dieSides)`},
		{[]string{"sweep", "--game", "pig", "--games", "1", "--seed", "s", "--param", "goal"}, "--values needs at least one value"},
		{[]string{"sweep", "--game", "pig", "--games", "1", "--seed", "s", "--param", "goal", "--values", "1,x"}, `--values: "x" is not a number`},
		{[]string{"sweep", "--game", "pig", "--games", "1", "--seed", "s", "--param", "goal", "--values", "1,0"}, "goal must be a whole number in [1, 10000], not 0"},
		{[]string{"sweep", "--game", "pig", "--games", "1", "--seed", "s", "--param", "dieSides", "--values", "2.5"}, "dieSides must be a whole number in [2, 1000], not 2.5"},
		{[]string{"sweep", "--game", "pig", "--games", "0", "--seed", "s", "--param", "goal", "--values", "1"}, "--games must be at least 1"},
		{[]string{"sweep", "--game", "pig", "--games", "1", "--param", "goal", "--values", "1"}, "--seed is required"},
		{[]string{"sweep", "--game", "chess", "--games", "1", "--seed", "s"}, `unknown game "chess"`},
		{[]string{"sweep", "--game", "pig", "--games", "1", "--seed", "s", "--param", "goal", "--values", "1", "--bot", "cautious"}, `unknown bot "cautious" for pig`},
		{[]string{"sweep", "--game", "pig", "--games", "1", "--seed", "s", "--param", "goal", "--values", "1", "--classes", "mixed"}, "flag provided but not defined: -classes"},
		{[]string{"sensitivity", "--game", "pig", "--games", "1", "--seed", "s", "--step", "0"}, "--step must be a fraction of each range above 0 and at most 1, not 0"},
		{[]string{"sensitivity", "--game", "pig", "--games", "1", "--seed", "s", "--step", "1.5"}, "not 1.5"},
		{[]string{"sensitivity", "--game", "pig", "--games", "1", "--seed", "s", "--params", "goal,speed"}, `--params: bad_ruleset: pig has no ruleset number "speed" (known: goal, dieSides)`},
		{[]string{"sensitivity", "--game", "pig", "--games", "1", "--seed", "s", "--params", "goal,goal"}, "--params: goal is listed twice"},
		{[]string{"sensitivity", "--game", "pig", "--games", "1", "--seed", "s", "--params", ","}, "--params needs at least one path: of goal [1, 10000], dieSides [2, 1000]"},
		{[]string{"sensitivity", "--game", "pig", "--seed", "s"}, "--games must be at least 1, not 0"},
		{[]string{"--game", "pig", "--games", "1", "--seed", "s", "--by-skill", "10,0"}, `--by-skill: 0 is not a level: a number N is the search bot mcts:N, N 1 to 1000000`},
		{[]string{"--game", "pig", "--games", "1", "--seed", "s", "--by-skill", "ten"}, `--by-skill: "ten" is not a level: want N (mcts:N) or a bot of pig`},
		{[]string{"--game", "kuhn", "--games", "1", "--seed", "s", "--by-skill", "cfr:/no/such/dir"}, `--by-skill: "cfr:/no/such/dir" is not a level`},
		{[]string{"--game", "pig", "--games", "1", "--seed", "s", "--by-skill", ""}, `--by-skill: "" is not a level`},
	} {
		code, _, errs := gamectl(t, append([]string{"sim"}, c.args...)...)
		require.Equal(t, 2, code, "%v: %s", c.args, errs)
		require.Contains(t, errs, c.want, "%v", c.args)
	}
	for _, sub := range []string{"sweep", "sensitivity"} {
		code, out, _ := gamectl(t, "sim", sub, "--game", "pig", "-h")
		require.Equal(t, 0, code)
		require.Contains(t, out, "usage: gamectl sim "+sub+" --game NAME")
	}
	// Without --game, or with --game dungeon, the dungeon's own commands.
	code, out, _ := gamectl(t, "sim", "sweep", "-h")
	require.Equal(t, 0, code)
	require.Contains(t, out, "usage: gamectl sim sweep --param PATH --values V1,V2,... [--param2 PATH")
	code, _, errs := gamectl(t, "sim", "sweep", "--game", "dungeon", "--param", "startHp", "--values", "4", "--games", "2", "--seed", "s")
	require.Equal(t, 2, code)
	require.Contains(t, errs, "--out is required", "the dungeon's sweep, which requires --out")
	code, _, errs = gamectl(t, "sim", "sensitivity", "--game", "dungeon", "--games", "2", "--seed", "s")
	require.Equal(t, 2, code)
	require.Contains(t, errs, "--out is required")
}

func TestGameTunePig(t *testing.T) {
	code, out, errs := gamectl(t, "sim", "tune", "--game", "pig", "--param", "goal=10:40", "--levels", "4", "--games", "300", "--seed", "cli-tune", "--target", "10")
	require.Equal(t, 0, code, errs)
	want, err := match.Tune(context.Background(), match.TuneConfig{Sim: match.SimConfig{Def: mustGame(t, "pig"), Games: 300, Seed: "cli-tune",
		Seats: 2, Bots: []string{"random"}, Workers: 1}, Params: []match.TuneParam{{Path: "goal", Lo: 10, Hi: 40}}, Levels: 4, Target: 0.1})
	require.NoError(t, err)
	var b bytes.Buffer
	want.WriteReport(&b)
	require.Equal(t, b.String(), out)
	require.True(t, strings.HasPrefix(out, `pig: tuning goal in [10, 40], a grid of 4 candidates, 300 games each on seed "cli-tune/search"`), out)

	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--games", "1", "--seed", "s"}, "name at least one --param PATH[=LO:HI]: of goal [1, 10000], dieSides [2, 1000]"},
		{[]string{"--games", "1", "--seed", "s", "--param", "speed"}, `--param speed: bad_ruleset: pig has no ruleset number "speed"`},
		{[]string{"--games", "1", "--seed", "s", "--param", "goal=5"}, "--param goal=5: want PATH=LO:HI, two numbers"},
		{[]string{"--games", "1", "--seed", "s", "--param", "goal=0:5"}, "goal: the range 0:5 must lie within [1, 10000], low to high"},
		{[]string{"--games", "1", "--seed", "s", "--param", "goal", "--levels", "0"}, "--levels must be at least 1, not 0"},
		{[]string{"--games", "1", "--seed", "s", "--param", "goal", "--target", "0"}, "--target 0: want percentage points above 0 and below 100"},
		{[]string{"--games", "1", "--seed", "s", "--param", "goal", "--param", "dieSides", "--levels", "20"}, "more than 200 candidates"},
	} {
		code, _, errs := gamectl(t, append([]string{"sim", "tune", "--game", "pig"}, c.args...)...)
		require.Equal(t, 2, code, "%v: %s", c.args, errs)
		require.Contains(t, errs, c.want, "%v", c.args)
	}
	code, out, _ = gamectl(t, "sim", "tune", "--game", "pig", "-h")
	require.Equal(t, 0, code)
	require.Contains(t, out, "usage: gamectl sim tune --game NAME")
	code, _, errs = gamectl(t, "sim", "tune", "--game", "dungeon", "--param", "startHp", "--games", "10", "--seed", "s")
	require.Equal(t, 2, code)
	require.Contains(t, errs, "--out is required", "the dungeon's own tuner")
}
