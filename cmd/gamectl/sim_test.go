package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/games/dungeon/engine"
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
	require.True(t, strings.HasPrefix(string(csv), "ruleset,id,group,label,kind,value,k,n,ci_lo,ci_hi,unit,fair_share\n"))
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

// An output directory that cannot be written is refused before any game
// is played: with a hundred million games, a check made afterwards would
// never return.
func TestSimChecksOutputBeforeRunning(t *testing.T) {
	file := filepath.Join(t.TempDir(), "a-file")
	require.NoError(t, os.WriteFile(file, []byte("x"), 0o644))
	for _, out := range []string{file, filepath.Join(file, "below")} {
		code, stdout, errs := gamectl(t, "sim", "--games", "100000000", "--seed", "s", "--out", out)
		require.Equalf(t, 2, code, "%s: %s", out, errs)
		require.Empty(t, stdout)
		require.Contains(t, errs, "--out "+out)
	}
	dir := t.TempDir()
	code, _, errs := gamectl(t, "sim", "merge", "--out", file, dir)
	require.Equal(t, 2, code, errs)
}

// A reused --out keeps no file of the previous run: comparison.csv and
// players_b.csv of a --compare run are gone after a plain run; other
// files are left alone.
func TestSimRemovesStaleOutputs(t *testing.T) {
	rules := filepath.Join(t.TempDir(), "rules.json")
	require.NoError(t, os.WriteFile(rules, engine.DefaultRulesJSON(), 0o644))
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("mine"), 0o644))
	code, _, errs := gamectl(t, "sim", "--games", "30", "--seed", "s", "--compare", rules, "--out", dir)
	require.Equal(t, 0, code, errs)
	for _, f := range []string{"comparison.csv", "players_b.csv", "players.csv"} {
		require.FileExists(t, filepath.Join(dir, f))
	}
	code, _, errs = gamectl(t, "sim", "--games", "30", "--seed", "s", "--out", dir)
	require.Equal(t, 0, code, errs)
	require.NoFileExists(t, filepath.Join(dir, "comparison.csv"))
	require.NoFileExists(t, filepath.Join(dir, "players_b.csv"))
	require.FileExists(t, filepath.Join(dir, "players.csv"))
	require.FileExists(t, filepath.Join(dir, "notes.txt"))
	left, _ := filepath.Glob(filepath.Join(dir, ".*tmp"))
	require.Empty(t, left, "no temporary file left")
}

// A split that leaves a shard without games is refused, from the flag or
// from Cloud Run's variables.
func TestSimRefusesEmptyShards(t *testing.T) {
	code, _, errs := gamectl(t, "sim", "--games", "3", "--seed", "s", "--shard", "2/5")
	require.Equal(t, 2, code)
	require.Contains(t, errs, "3 games cannot be split into 5 shards")
	t.Setenv("CLOUD_RUN_TASK_INDEX", "0")
	t.Setenv("CLOUD_RUN_TASK_COUNT", "4")
	code, _, errs = gamectl(t, "sim", "--games", "3", "--seed", "s")
	require.Equal(t, 2, code)
	require.Contains(t, errs, "cannot be split")
	code, _, errs = gamectl(t, "sim", "--games", "4", "--seed", "s")
	require.Equal(t, 0, code, errs)
}

// Options that force two factors together are said on the terminal (and
// in the report, see package sim); the defaults say nothing of the kind.
func TestSimWarnsOfAliasing(t *testing.T) {
	code, out, errs := gamectl(t, "sim", "--games", "16", "--seed", "s", "--classes", "warrior,monk,duelist,scout")
	require.Equal(t, 0, code, errs)
	require.Contains(t, out, "warning: --classes fixes the class of each seat, so class and seat are aliased")
	require.Contains(t, errs, "warning: --classes fixes")
	code, out, errs = gamectl(t, "sim", "--games", "16", "--seed", "s")
	require.Equal(t, 0, code, errs)
	require.NotContains(t, out, "warning")
	require.Contains(t, out, "design: Classes rotate over the seats")
	require.Contains(t, out, "Win rate by class and bot policy")
}

// The sim's replay command of a game, run through "gamectl play", plays
// exactly that game: the design's classes and bots reach play unchanged.
func TestSimReplayCommandReplaysTheGame(t *testing.T) {
	dir := t.TempDir()
	code, _, errs := gamectl(t, "sim", "--games", "40", "--seed", "rp", "--out", dir)
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
	args := strings.Fields(strings.ReplaceAll(res.Longest.Command, "'", ""))
	require.Equal(t, "gamectl", args[0])
	code, out, errs := gamectl(t, append(args[1:], "--json")...)
	require.Equal(t, 0, code, errs)
	type event struct {
		Type  string
		Round int64
	}
	var finished event
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		var e event
		require.NoError(t, json.Unmarshal([]byte(l), &e))
		if e.Type == "GameFinished" {
			finished = e
		}
	}
	require.Equal(t, "GameFinished", finished.Type, "the game ends")
	require.Equal(t, res.Longest.Rounds, finished.Round)
}

// Shards merged give the unsharded run's players.csv, byte for byte.
func TestSimMergeJoinsPlayersCSV(t *testing.T) {
	whole, s0, s1, merged := t.TempDir(), t.TempDir(), t.TempDir(), t.TempDir()
	for _, c := range [][]string{{"--out", whole}, {"--shard", "0/2", "--out", s0}, {"--shard", "1/2", "--out", s1}} {
		code, _, errs := gamectl(t, append([]string{"sim", "--games", "50", "--seed", "mp"}, c...)...)
		require.Equal(t, 0, code, errs)
	}
	code, _, errs := gamectl(t, "sim", "merge", "--out", merged, s1, s0)
	require.Equal(t, 0, code, errs)
	a, err := os.ReadFile(filepath.Join(whole, "players.csv"))
	require.NoError(t, err)
	b, err := os.ReadFile(filepath.Join(merged, "players.csv"))
	require.NoError(t, err)
	require.Equal(t, string(a), string(b))
	code, _, errs = gamectl(t, "sim", "merge", "--out", s0, s0, s1)
	require.Equal(t, 2, code)
	require.Contains(t, errs, "also a shard")
}

// A ruleset with a key in the wrong case is refused with its line and
// column, exit 2.
func TestSimRulesAreStrict(t *testing.T) {
	bad := filepath.Join(t.TempDir(), "bad.json")
	require.NoError(t, os.WriteFile(bad, []byte(strings.Replace(string(engine.DefaultRulesJSON()), `"maxHp"`, `"MaxHP"`, 1)), 0o644))
	code, _, errs := gamectl(t, "sim", "--games", "10", "--seed", "s", "--rules", bad)
	require.Equal(t, 2, code)
	require.Contains(t, errs, `line 6, column 3: unknown key "MaxHP" (did you mean "maxHp"?`)
}

// A seed no JavaScript client could type is bad input for both commands,
// refused before any game.
func TestInvalidSeedIsExit2(t *testing.T) {
	for _, args := range [][]string{{"sim", "--games", "5", "--seed", "\xff"}, {"play", "--seed", "\xff"}} {
		code, out, errs := gamectl(t, args...)
		require.Equalf(t, 2, code, "%q: %s", args, errs)
		require.Empty(t, out)
		require.Contains(t, errs, "--seed: rng: seed")
	}
}
