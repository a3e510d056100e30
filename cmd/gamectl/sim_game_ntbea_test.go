package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/match"
)

// ntbeaArgs tunes Pig's goal and die from goal 1 with a d6, where the
// first of two random bots wins 6/7 of the games (its first roll wins
// unless it is a 1).
func ntbeaArgs(t *testing.T, extra ...string) []string {
	t.Helper()
	rules := filepath.Join(t.TempDir(), "unfair.json")
	require.NoError(t, os.WriteFile(rules, []byte(`{"goal":1,"dieSides":6}`), 0o644))
	return append([]string{"sim", "tune", "--game", "pig", "--search", "ntbea", "--param", "goal=1:30", "--param", "dieSides=2:10",
		"--rules", rules, "--games", "300", "--seed", "cli-ntbea", "--budget", "32"}, extra...)
}

// From an unfair start, "gamectl sim tune --game pig --search ntbea"
// finds a ruleset whose confirmation, on fresh seeds, is far fairer: its
// first position's 95% interval lies below 60% (the start's exact rate is
// 6/7, 85.7%). The output is the library's report of the same run; with
// --state, the same command prints the finished run again without playing
// it, resumes a run saved part way to the output of a run never stopped,
// and refuses other flags.
func TestGameNTBEAPig(t *testing.T) {
	code, out, errs := gamectl(t, ntbeaArgs(t, "--workers", "2")...)
	require.Equal(t, 0, code, errs)
	t.Log("\n" + out)
	require.True(t, strings.HasPrefix(out, "pig: tuning goal in [1, 30] (16 values), dieSides in [2, 10] (9 values), a grid of 144 points, by NTBEA: 4 generations"), out)

	sc := match.SimConfig{Def: mustGame(t, "pig"), Games: 300, Seed: "cli-ntbea", Seats: 2, Bots: []string{"random"}, Workers: 1}
	var err error
	sc.Rules, err = game.WithNumber(sc.Def, sc.Def.DefaultRuleset(), "goal", 1)
	require.NoError(t, err)
	fresh := func() *match.NTBEARun {
		st, err := match.NewNTBEA(match.TuneConfig{Sim: sc, Params: []match.TuneParam{{Path: "goal", Lo: 1, Hi: 30}, {Path: "dieSides", Lo: 2, Hi: 10}}, Target: 0.02}, 32)
		require.NoError(t, err)
		return st
	}
	want := fresh()
	require.NoError(t, want.Run(context.Background(), 0, nil))
	var b bytes.Buffer
	want.WriteReport(&b)
	require.Equal(t, b.String(), out)
	_, hi := match.Wilson(want.Confirm.Wins[0], want.Confirm.Games)
	require.Less(t, hi, 0.6, "the confirmation's first position")
	require.NotEqual(t, []float64{1, 6}, want.Candidates[want.Chosen].Values)

	state := filepath.Join(t.TempDir(), "run.json")
	code, again, errs := gamectl(t, ntbeaArgs(t, "--state", state)...)
	require.Equal(t, 0, code, errs)
	require.Equal(t, out, again)
	code, again, errs = gamectl(t, ntbeaArgs(t, "--state", state)...)
	require.Equal(t, 0, code, errs)
	require.Equal(t, out, again, "the finished run, printed again")
	require.Empty(t, errs)

	part := fresh()
	require.NoError(t, part.Run(context.Background(), 2, nil))
	data, err := part.JSON()
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(state, data, 0o644))
	code, again, errs = gamectl(t, ntbeaArgs(t, "--state", state, "--workers", "1")...)
	require.Equal(t, 0, code, errs)
	require.Contains(t, errs, "resuming the run in "+state+" after generation 2 of 4")
	require.Equal(t, out, again, "resumed")

	code, _, errs = gamectl(t, ntbeaArgs(t, "--state", state, "--target", "3")...)
	require.Equal(t, 2, code)
	require.Contains(t, errs, "--state "+state+": another tuning run: the target 0.03, the run's is 0.02")
}

func TestGameNTBEARefusals(t *testing.T) {
	dir := t.TempDir()
	garbage := filepath.Join(dir, "garbage.json")
	require.NoError(t, os.WriteFile(garbage, []byte("not json"), 0o644))
	base := []string{"sim", "tune", "--game", "pig", "--games", "10", "--seed", "s", "--param", "goal=10:40"}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--search", "anneal"}, `--search "anneal": want grid or ntbea`},
		{[]string{"--budget", "40"}, "--budget is NTBEA's: add --search ntbea"},
		{[]string{"--state", garbage}, "--state " + garbage + ": invalid character"}, // the grid's state (sim_game_step_test.go)
		{[]string{"--minutes", "1"}, "--minutes stops a run part way: name the --state FILE it goes on from"},
		{[]string{"--search", "ntbea", "--minutes", "1"}, "--minutes stops a run part way: name the --state FILE it goes on from"},
		{[]string{"--search", "ntbea", "--state", filepath.Join(dir, "m.json"), "--minutes", "-1"}, "--minutes -1: want a number of minutes, 0 or more"},
		{[]string{"--search", "ntbea", "--state", filepath.Join(dir, "m.json"), "--minutes", "NaN"}, "--minutes NaN: want a number of minutes, 0 or more"},
		{[]string{"--search", "ntbea", "--state", filepath.Join(dir, "m.json"), "--minutes", "+Inf"}, "want a number of minutes, 0 or more"},
		{[]string{"--search", "ntbea", "--levels", "3"}, "--levels is the grid search's"},
		{[]string{"--search", "ntbea", "--budget", "0"}, "--budget must be at least 1, not 0"},
		{[]string{"--search", "ntbea", "--budget", "15"}, "a budget of 15 evaluations is too small: NTBEA needs at least 16 (two generations of 8 candidates)"},
		{[]string{"--search", "ntbea", "--param", "dieSides=4:4"}, "dieSides: the range 4:4 holds one value: nothing to tune"},
		{[]string{"--search", "ntbea", "--param", "goal"}, "goal is listed twice"},
		{[]string{"--search", "ntbea", "--target", "100"}, "--target 100: want percentage points above 0 and below 100"},
		{[]string{"--search", "ntbea", "--state", garbage}, "--state " + garbage + ": invalid character"},
		{[]string{"--search", "ntbea", "--state", dir}, "--state " + dir + ": read " + dir},
		{[]string{"--search", "ntbea", "--state", filepath.Join(dir, "no", "such", "dir", "run.json")}, "cannot write there"},
	} {
		code, _, errs := gamectl(t, append(append([]string{}, base...), c.args...)...)
		require.Equal(t, 2, code, "%v: %s", c.args, errs)
		require.Contains(t, errs, c.want, "%v", c.args)
	}
	code, out, _ := gamectl(t, "sim", "tune", "--game", "pig", "-h")
	require.Equal(t, 0, code)
	for _, w := range []string{"--search grid (the default)", "--search ntbea", "--budget", "--state FILE", "resumes", "--minutes M"} {
		require.Contains(t, out, w)
	}
}

// --minutes stops a run at a generation's end once M minutes have passed
// (on a clock the test moves one minute a reading): 0 sets the run up,
// saves it and stops; 1.5 plays one generation more each time; the same
// command goes on from the file, and the run ends with the report of a
// run never stopped.
func TestGameNTBEAMinutes(t *testing.T) {
	code, whole, errs := gamectl(t, ntbeaArgs(t)...)
	require.Equal(t, 0, code, errs)
	clock := time.Date(2026, 11, 28, 6, 0, 0, 0, time.UTC)
	defer func(old func() time.Time) { ntbeaNow = old }(ntbeaNow)
	ntbeaNow = func() time.Time { clock = clock.Add(time.Minute); return clock }
	state := filepath.Join(t.TempDir(), "run.json")

	code, out, errs := gamectl(t, ntbeaArgs(t, "--state", state, "--minutes", "0")...)
	require.Equal(t, 0, code, errs)
	require.Equal(t, "pig: stopped after generation 0 of 4 (--minutes 0); the same command goes on from "+state+"\n", out)
	_, err := os.Stat(state)
	require.NoError(t, err, "set up: the run is saved before any game")
	for g := 1; g <= 4; g++ {
		// Readings: the start, then one before each generation: with 1.5
		// minutes, the first generation is played (1 minute), the second
		// is not (2 minutes).
		code, out, errs = gamectl(t, ntbeaArgs(t, "--state", state, "--minutes", "1.5")...)
		require.Equal(t, 0, code, errs)
		require.Equal(t, fmt.Sprintf("pig: stopped after generation %d of 4 (--minutes 1.5); the same command goes on from %s\n", g, state), out)
	}
	code, out, errs = gamectl(t, ntbeaArgs(t, "--state", state, "--minutes", "1.5")...)
	require.Equal(t, 0, code, errs)
	require.Equal(t, whole, out, "after the confirmation, the report of the run never stopped")
}
