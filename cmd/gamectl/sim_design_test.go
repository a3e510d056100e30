package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestSimSweepWritesTheCSVAndReport(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "sweep.csv"), []byte("stale"), 0o644))
	code, out, errs := gamectl(t, "sim", "sweep", "--param", "classes.scoutMove", "--values", "0,1", "--games", "80",
		"--seed", "sw", "--workers", "2", "--out", dir)
	require.Equal(t, 0, code, errs)
	require.Contains(t, out, "sweep of classes.scoutMove")
	b, err := os.ReadFile(filepath.Join(dir, "sweep.csv"))
	require.NoError(t, err)
	require.True(t, strings.HasPrefix(string(b), "param,value,id,estimate,ci_lo,ci_hi\n"), "%.80s", b)
	require.Contains(t, string(b), "classes.scoutMove,1,win.class.scout,")
	h, err := os.ReadFile(filepath.Join(dir, "report.html"))
	require.NoError(t, err)
	require.Contains(t, string(h), "fair share")

	code, _, errs = gamectl(t, "sim", "sweep", "--param", "classes.scoutMove", "--values", "0,1", "--param2", "dice.move",
		"--values2", "3,4", "--games", "40", "--seed", "sw", "--out", dir)
	require.Equal(t, 0, code, errs)
	b, err = os.ReadFile(filepath.Join(dir, "sweep.csv"))
	require.NoError(t, err)
	require.Contains(t, string(b), "classes.scoutMove,0,win.order.1,")
	require.Contains(t, string(b), ",dice.move,3\n")
}

// Bad input exits 2 with a message naming it, before any game is played
// and before the output directory is touched.
func TestSimSweepAndSensitivityRefuseBadInput(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"sweep", "--param", "classes.scoutMov", "--values", "1"}, `no key "scoutMov" in classes`},
		{[]string{"sweep", "--param", "dice", "--values", "1"}, "names an object, not a number"},
		{[]string{"sweep", "--param", "dice.move", "--values", "4,0"}, "dice.move = 0: the ruleset refuses it"},
		{[]string{"sweep", "--param", "dice.move", "--values", "4,x"}, `--values: "x" is not a number`},
		{[]string{"sweep", "--values", "4"}, "--param is required"},
		{[]string{"sweep", "--param", "dice.move", "--values", "4", "--values2", "3"}, "--values2 without --param2"},
		{[]string{"sweep", "--param", "dice.move", "--values", "4", "--precision", "-1"}, "--precision -1"},
		{[]string{"sensitivity", "--step", "0"}, `--step "0"`},
		{[]string{"sensitivity", "--step", "150%"}, `--step "150%"`},
		{[]string{"sensitivity", "--step", "Inf"}, `--step "Inf"`},
		{[]string{"sensitivity", "--step", "abc"}, `--step "abc"`},
		{[]string{"sweep", "--param", "dice.move", "--values", "1,,2"}, "--values: value 2 is empty"},
		{[]string{"sweep", "--param", "dice.move", "--values", "4,4"}, "--values: 4 is given twice"},
		{[]string{"sweep", "--param", "dice.move", "--values", "4", "--param2", "dice.duel"}, "--values2 names no value"},
		{[]string{"sweep", "--param", "decks[#99].id", "--values", "1"}, "decks has elements #0..#6, not #99"},
		{[]string{"sweep", "--param", "dice.move", "--values", "4.5"}, "dice.move = 4.5: the ruleset refuses it"},
		{[]string{"sweep", "--param", "dice.move", "--values", "4", "--workers", "0"}, "--workers must be at least 1"},
		{[]string{"sweep", "--param", "dice.move", "--values", "4", "--bots", "foo"}, `unknown bot "foo"`},
		{[]string{"sensitivity", "--precision", "100"}, "--precision 100"},
		{[]string{"sensitivity", "--rank", "fun"}, `--rank "fun"`},
	} {
		dir := filepath.Join(t.TempDir(), "out")
		args := append(append([]string{"sim"}, c.args...), "--games", "10", "--seed", "x", "--out", dir)
		code, out, errs := gamectl(t, args...)
		require.Equalf(t, 2, code, "%v: %s", c.args, errs)
		require.Containsf(t, errs, c.want, "%v", c.args)
		require.Empty(t, out)
		_, err := os.Stat(dir)
		require.True(t, os.IsNotExist(err), "%v: the output directory was not created", c.args)
	}
	code, _, errs := gamectl(t, "sim", "sweep", "--param", "dice.move", "--values", "4", "--games", "10", "--seed", "x")
	require.Equal(t, 2, code)
	require.Contains(t, errs, "--out is required")
}

func TestSimPrecisionFlag(t *testing.T) {
	dir := t.TempDir()
	code, out, errs := gamectl(t, "sim", "--games", "9000", "--seed", "prec", "--precision", "2.5", "--workers", "2", "--out", dir)
	require.Equal(t, 0, code, errs)
	require.Contains(t, out, "precision: played until every headline win rate's 95% interval was within +-2.5 pp")
	require.Regexp(t, `^(2000|4000|6000|8000) games`, out)
	code, _, errs = gamectl(t, "sim", "--games", "10", "--seed", "x", "--precision", "2", "--shard", "0/2")
	require.Equal(t, 2, code)
	require.Contains(t, errs, "run it unsharded")
}

func TestSimDesignHelp(t *testing.T) {
	for _, c := range []struct {
		cmd  []string
		want []string
	}{
		{[]string{"sim", "sweep"}, []string{"--param PATH", "param,value,id,estimate,ci_lo,ci_hi", "decks[enemy.t1].cards[e1-goblin].hp", "[#N]", "-values2"}},
		{[]string{"sim", "sensitivity"}, []string{"--step", "spread, first, length", "sensitivity.csv", "-precision"}},
		{[]string{"sim"}, []string{"--precision P", "gamectl sim sweep", "gamectl sim sensitivity"}},
	} {
		code, out, errs := gamectl(t, append([]string{"help"}, c.cmd...)...)
		require.Equal(t, 0, code, errs)
		for _, w := range c.want {
			require.Contains(t, out, w, "%v", c.cmd)
		}
	}
}
