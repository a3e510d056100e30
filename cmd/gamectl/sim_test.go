package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/engine"
)

func gamectl(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = run(args, &out, &errb)
	return code, out.String(), errb.String()
}

func TestSimWritesResults(t *testing.T) {
	dir := t.TempDir()
	code, out, errs := gamectl(t, "sim", "--games", "120", "--seed", "cli", "--workers", "2", "--out", dir)
	require.Equal(t, 0, code, errs)
	require.Contains(t, out, "120 games")
	require.Contains(t, out, "Win rate by turn-order position")
	for _, f := range []string{"results.json", "measures.csv", "rounds.csv", "report.html"} {
		st, err := os.Stat(filepath.Join(dir, f))
		require.NoError(t, err)
		require.Greater(t, st.Size(), int64(50), f)
	}
	b, err := os.ReadFile(filepath.Join(dir, "results.json"))
	require.NoError(t, err)
	var res struct {
		Command []string
		Rules   struct{ Hash string }
		Done    int64
	}
	require.NoError(t, json.Unmarshal(b, &res))
	require.Equal(t, []string{"gamectl", "sim", "--games", "120", "--seed", "cli", "--workers", "2", "--out", dir}, res.Command)
	require.Equal(t, engine.DefaultRules().Hash(), res.Rules.Hash)
	require.EqualValues(t, 120, res.Done)
	csv, err := os.ReadFile(filepath.Join(dir, "measures.csv"))
	require.NoError(t, err)
	require.True(t, strings.HasPrefix(string(csv), "ruleset,id,group,label,kind,value,k,n,ci_lo,ci_hi\n"))
}

func TestSimShardsMerge(t *testing.T) {
	whole, shards := t.TempDir(), []string{t.TempDir(), t.TempDir()}
	code, _, errs := gamectl(t, "sim", "--games", "90", "--seed", "m", "--out", whole)
	require.Equal(t, 0, code, errs)
	code, _, errs = gamectl(t, "sim", "--games", "90", "--seed", "m", "--shard", "0/2", "--out", shards[0])
	require.Equal(t, 0, code, errs)
	t.Setenv("CLOUD_RUN_TASK_INDEX", "1")
	t.Setenv("CLOUD_RUN_TASK_COUNT", "2")
	code, _, errs = gamectl(t, "sim", "--games", "90", "--seed", "m", "--out", filepath.Join(shards[1], "shard-{shard}"))
	require.Equal(t, 0, code, errs)
	shards[1] = filepath.Join(shards[1], "shard-1")
	merged := t.TempDir()
	code, _, errs = gamectl(t, "sim", "merge", "--out", merged, shards[1], shards[0])
	require.Equal(t, 0, code, errs)
	for _, f := range []string{"measures.csv", "rounds.csv"} {
		a, err := os.ReadFile(filepath.Join(whole, f))
		require.NoError(t, err)
		b, err := os.ReadFile(filepath.Join(merged, f))
		require.NoError(t, err)
		require.Equal(t, string(a), string(b), f)
	}
}

func TestSimCompare(t *testing.T) {
	rules := filepath.Join(t.TempDir(), "rules.json")
	require.NoError(t, os.WriteFile(rules, engine.DefaultRulesJSON(), 0o644))
	dir := t.TempDir()
	code, out, errs := gamectl(t, "sim", "--games", "60", "--seed", "c", "--compare", rules, "--out", dir)
	require.Equal(t, 0, code, errs)
	require.Contains(t, out, "none at the 5% level")
	_, err := os.Stat(filepath.Join(dir, "comparison.csv"))
	require.NoError(t, err)
}

func TestSimBadInput(t *testing.T) {
	bad := filepath.Join(t.TempDir(), "bad.json")
	require.NoError(t, os.WriteFile(bad, []byte(`{"minPlayers": 0}`), 0o644))
	for _, tc := range []struct {
		args []string
		msg  string
	}{
		{[]string{"--games", "0", "--seed", "s"}, "--games"},
		{[]string{"--games", "-5", "--seed", "s"}, "--games"},
		{[]string{"--games", "10"}, "--seed"},
		{[]string{"--games", "x", "--seed", "s"}, "invalid value"},
		{[]string{"--games", "10", "--seed", "s", "--classes", "warrior,monk,duelist,wizard"}, "wizard"},
		{[]string{"--games", "10", "--seed", "s", "--classes", "warrior"}, "classes"},
		{[]string{"--games", "10", "--seed", "s", "--bots", "reckless"}, "reckless"},
		{[]string{"--games", "10", "--seed", "s", "--players", "9"}, "--players"},
		{[]string{"--games", "10", "--seed", "s", "--rules", "/nonexistent.json"}, "cannot read ruleset"},
		{[]string{"--games", "10", "--seed", "s", "--rules", bad}, "invalid ruleset"},
		{[]string{"--games", "10", "--seed", "s", "--compare", bad}, "invalid ruleset"},
		{[]string{"--games", "10", "--seed", "s", "--shard", "2/2"}, "shard"},
		{[]string{"--games", "10", "--seed", "s", "--shard", "a/b"}, "shard"},
		{[]string{"--games", "10", "--seed", "s", "--workers", "0"}, "--workers"},
		{[]string{"--games", "10", "--seed", "s", "extra"}, "unexpected argument"},
		{[]string{"merge"}, "result directories"},
		{[]string{"merge", t.TempDir()}, "results.json"},
	} {
		code, _, errs := gamectl(t, append([]string{"sim"}, tc.args...)...)
		require.Equalf(t, 2, code, "%v: %s", tc.args, errs)
		require.Containsf(t, errs, tc.msg, "%v", tc.args)
	}
	t.Setenv("CLOUD_RUN_TASK_INDEX", "3")
	t.Setenv("CLOUD_RUN_TASK_COUNT", "2")
	code, _, errs := gamectl(t, "sim", "--games", "10", "--seed", "s")
	require.Equal(t, 2, code)
	require.Contains(t, errs, "CLOUD_RUN_TASK_INDEX")
}
