package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// A sim with a search bot: its replay command names the game's bot seed,
// and "gamectl play" with it plays exactly that game.
func TestSimReplaysAGameOfTheSearchBot(t *testing.T) {
	dir := t.TempDir()
	code, _, errs := gamectl(t, "sim", "--games", "8", "--seed", "rs", "--bots", "mcts:3,cautious", "--workers", "2", "--out", dir)
	require.Equal(t, 0, code, errs)
	b, err := os.ReadFile(filepath.Join(dir, "results.json"))
	require.NoError(t, err)
	var res struct {
		Longest struct {
			Rounds  int64
			Command string
		}
	}
	require.NoError(t, json.Unmarshal(b, &res))
	require.Contains(t, res.Longest.Command, "--bot-seed ")
	require.Contains(t, res.Longest.Command, "mcts:3")
	args := strings.Fields(strings.ReplaceAll(res.Longest.Command, "'", ""))
	code, out, errs := gamectl(t, append(args[1:], "--json")...)
	require.Equal(t, 0, code, errs)
	var round int64
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		var e struct {
			Type  string
			Round int64
		}
		require.NoError(t, json.Unmarshal([]byte(l), &e))
		if e.Type == "GameFinished" {
			round = e.Round
		}
	}
	require.Equal(t, res.Longest.Rounds, round)
	// Another bot seed plays another game (the search bot's draws differ).
	code, _, errs = gamectl(t, "play", "--seed", "x", "--bots", "mcts:3", "--bot-seed", "")
	require.Equal(t, 2, code)
	require.Contains(t, errs, "--bot-seed")
}

// The results of a run with search bots do not depend on the workers.
func TestSimWithSearchBotsIsDeterministic(t *testing.T) {
	a, b := t.TempDir(), t.TempDir()
	for _, c := range []struct{ workers, dir string }{{"1", a}, {"3", b}} {
		code, _, errs := gamectl(t, "sim", "--games", "12", "--seed", "det", "--bots", "mcts:4,aggressive", "--workers", c.workers, "--out", c.dir)
		require.Equal(t, 0, code, errs)
	}
	for _, f := range []string{"players.csv", "measures.csv"} {
		x, err := os.ReadFile(filepath.Join(a, f))
		require.NoError(t, err)
		y, err := os.ReadFile(filepath.Join(b, f))
		require.NoError(t, err)
		require.Equal(t, string(x), string(y), f)
	}
}

func TestSimBySkill(t *testing.T) {
	dir := t.TempDir()
	code, out, errs := gamectl(t, "sim", "--by-skill", "2", "--games", "8", "--seed", "bs", "--workers", "2", "--out", dir)
	require.Equal(t, 0, code, errs)
	require.Contains(t, out, "balance by skill: 8 games per level")
	require.Contains(t, out, "level mcts:2")
	require.Regexp(t, `scout +mcts:2 .* diff .*(holds|changes|inconclusive)`, out)
	for _, f := range []string{"skill.csv", "levels.csv", "report.html"} {
		require.FileExists(t, filepath.Join(dir, f))
	}
}

// Every bad input of --by-skill and of sim tune exits 2 with a message
// naming it, before any game is played.
func TestSimSearchToolsRefuseBadInput(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "file")
	require.NoError(t, os.WriteFile(file, []byte("x"), 0o644))
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"sim", "--games", "8", "--seed", "s", "--bots", "mcts:0"}, "mcts:N must be a whole number from 1 to"},
		{[]string{"sim", "--games", "8", "--seed", "s", "--bots", "mcts:x"}, "mcts:N"},
		{[]string{"sim", "--games", "8", "--seed", "s", "--bots", "mcts:05"}, "mcts:N"},
		{[]string{"sim", "--games", "8", "--seed", "s", "--by-skill", "0"}, "N must be from 1"},
		{[]string{"sim", "--games", "8", "--seed", "s", "--by-skill", "5,x"}, `item 2 ("x")`},
		{[]string{"sim", "--games", "8", "--seed", "s", "--by-skill", "5,5"}, "given twice"},
		{[]string{"sim", "--games", "8", "--seed", "s", "--by-skill", "5", "--margin", "0"}, "--margin"},
		{[]string{"sim", "--games", "8", "--seed", "s", "--margin", "2"}, "--margin belongs to --by-skill"},
		{[]string{"sim", "--games", "8", "--seed", "s", "--by-skill", "5", "--precision", "1"}, "no --compare, --shard or --precision"},
		{[]string{"sim", "--games", "8", "--seed", "s", "--by-skill", "5", "--out", file}, "not a directory"},
		{[]string{"sim", "tune", "--seed", "s", "--games", "40000", "--out", dir}, "at least one --param"},
		{[]string{"sim", "tune", "--param", "classes.scoutMove", "--seed", "s", "--games", "40000"}, "--out is required"},
		{[]string{"sim", "tune", "--param", "classes.scoutMov", "--seed", "s", "--games", "40000", "--out", dir}, `no key "scoutMov"`},
		{[]string{"sim", "tune", "--param", "classes.scoutMove=3:1", "--seed", "s", "--games", "40000", "--out", dir}, "LO must be below HI"},
		{[]string{"sim", "tune", "--param", "classes.scoutMove=-1:2", "--seed", "s", "--games", "40000", "--out", dir}, "-1 is refused"},
		{[]string{"sim", "tune", "--param", "classes.scoutMove=0:1.5", "--seed", "s", "--games", "40000", "--out", dir}, "whole range"},
		{[]string{"sim", "tune", "--param", "name", "--seed", "s", "--games", "40000", "--out", dir}, "not a number"},
		{[]string{"sim", "tune", "--param", "dice.move", "--param", "dice.move", "--seed", "s", "--games", "40000", "--out", dir}, "given twice"},
		{[]string{"sim", "tune", "--param", "dice.move", "--seed", "s", "--games", "100", "--out", dir}, "too small for a tuning run"},
		{[]string{"sim", "tune", "--param", "dice.move", "--seed", "s", "--games", "40000", "--out", dir, "--target", "fair"}, "--target"},
		{[]string{"sim", "tune", "--param", "dice.move", "--seed", "s", "--games", "40000", "--out", dir, "--minutes", "-1"}, "--minutes"},
		{[]string{"sim", "tune", "--param", "dice.move", "--seed", "s", "--games", "40000", "--out", dir, "--bots", "nobody"}, `unknown bot "nobody"`},
		{[]string{"sim", "tune", "--param", "dice.move", "--games", "40000", "--out", dir}, "--seed is required"},
		{[]string{"sim", "tune", "--param", "dice.move", "--seed", "s", "--games", "40000", "--out", file}, "not a directory"},
		{[]string{"sim", "tune", "step"}, "--out is required"},
		{[]string{"sim", "tune", "step", "--out", dir}, "holds no tuning run"},
	} {
		code, _, errs := gamectl(t, c.args...)
		require.Equalf(t, 2, code, "%v: %s", c.args, errs)
		require.Containsf(t, errs, c.want, "%v", c.args)
	}
}

// sim tune: a run set up with --minutes 0 and stopped, resumed by the same
// command (and refused with other flags), played to its verdict; then a
// run of two generations played as the steps of a job.
func TestSimTune(t *testing.T) {
	dir := t.TempDir()
	args := []string{"sim", "tune", "--param", "classes.scoutMove=0:2", "--param", "classes.warriorAttack=0:1",
		"--param", "composition[2].options[2xT1].weight=1:100", "--seed", "t", "--games", "3200", "--out", dir, "--workers", "2", "--target", "fair±6"}
	code, out, errs := gamectl(t, append(args, "--minutes", "0")...)
	require.Equal(t, 0, code, errs)
	require.Contains(t, out, "stopped after generation 0")
	code, _, errs = gamectl(t, append(append([]string{}, args[:len(args)-2]...), "--target", "fair±5")...)
	require.Equal(t, 2, code)
	require.Contains(t, errs, "holds another tuning run")
	code, out, errs = gamectl(t, args...)
	require.Contains(t, errs, "resuming the run")
	require.Contains(t, out, "confirmation on 640 games of its own")
	require.Contains(t, []int{0, 1}, code, errs)
	if code == 0 {
		require.Contains(t, out, "met:")
	} else {
		require.Contains(t, errs, "target not met")
	}
	for _, f := range []string{"rules.json", "tune.csv", "report.html", "state.json"} {
		require.FileExists(t, filepath.Join(dir, f))
	}
	code, _, errs = gamectl(t, "sim", "--games", "8", "--seed", "x", "--rules", filepath.Join(dir, "rules.json"))
	require.Equal(t, 0, code, "gamectl sim takes the tuned ruleset: %s", errs)

	// The same run as steps of a job of two tasks.
	steps := t.TempDir()
	stepArgs := append(append([]string{}, args...), "--minutes", "0")
	for i, a := range stepArgs {
		if a == dir {
			stepArgs[i] = steps
		}
	}
	code, _, errs = gamectl(t, stepArgs...)
	require.Equal(t, 0, code, errs)
	t.Setenv("CLOUD_RUN_TASK_COUNT", "2")
	for n := 0; ; n++ {
		require.Less(t, n, 100)
		t.Setenv("CLOUD_RUN_TASK_INDEX", "1")
		code, out, errs = gamectl(t, "sim", "tune", "step", "--out", steps, "--workers", "1")
		require.Equal(t, 0, code, errs)
		t.Setenv("CLOUD_RUN_TASK_INDEX", "0")
		code, out, errs = gamectl(t, "sim", "tune", "step", "--out", steps, "--workers", "1")
		require.Equal(t, 0, code, errs)
		if strings.Contains(out, "confirmation on") {
			break
		}
		require.Contains(t, out, "folded")
	}
	a, err := os.ReadFile(filepath.Join(dir, "tune.csv"))
	require.NoError(t, err)
	b, err := os.ReadFile(filepath.Join(steps, "tune.csv"))
	require.NoError(t, err)
	require.Equal(t, string(a), string(b), "the job's steps make the run the local command makes")
}
