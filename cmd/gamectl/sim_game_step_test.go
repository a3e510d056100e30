package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// gridArgs tunes Pig's goal and die on a grid of 16 candidates (two
// batches of 8), 150 games each.
func gridArgs(extra ...string) []string {
	return append([]string{"sim", "tune", "--game", "pig", "--param", "goal=10:40", "--param", "dieSides=4:8", "--levels", "4",
		"--games", "150", "--seed", "cli-grid-step", "--workers", "2"}, extra...)
}

// playSteps plays the run set up in dir as the executions of a job of k
// tasks, each execution's tasks in a different order (the last to finish
// folds), until the run has its verdict; it returns the last output.
func playSteps(t *testing.T, dir string, k int) string {
	t.Helper()
	t.Setenv("CLOUD_RUN_TASK_COUNT", strconv.Itoa(k))
	for n := 0; ; n++ {
		require.Less(t, n, 20, "the run never ends")
		var out string
		for j := range k {
			task := (j + n) % k // execution n starts with task n mod k
			t.Setenv("CLOUD_RUN_TASK_INDEX", strconv.Itoa(task))
			code, o, errs := gamectl(t, "sim", "tune", "step", "--game", "pig", "--out", dir, "--workers", "1")
			require.Equal(t, 0, code, errs)
			if j < k-1 {
				require.Contains(t, o, fmt.Sprintf("task %d of %d: played its part of ", task, k))
			}
			out = o
		}
		if strings.Contains(out, "wrote "+dir+"/report.txt") {
			require.Equal(t, []string{"confirm"}, stepDirs(t, dir), "the verdict's fold leaves its own step's parts only")
			return out
		}
		m := foldedStep.FindStringSubmatch(out)
		require.NotNil(t, m, out)
		require.Equal(t, []string{m[1]}, stepDirs(t, dir), "after %s's fold, the parts of the steps before it are removed", m[1])
	}
}

// foldedStep finds the step a task's output says it folded.
var foldedStep = regexp.MustCompile(`task [0-9]+ of [0-9]+: (\S+) folded; the next step plays`)

// stepDirs lists the directories in dir (a run's step directories: the
// run keeps no other), sorted.
func stepDirs(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	out := []string{}
	for _, e := range entries {
		if e.IsDir() {
			out = append(out, e.Name())
		}
	}
	return out
}

// The main property: a game's tuning run (NTBEA, and the grid) played as
// the steps of a Cloud Run job of k = 1, 2, 3 tasks ends byte for byte as
// the same run played in one go on one machine: the same state file, the
// same report (the grid's also the report of the grid played without a
// state, match.Tune), and rules.json the ruleset the local run confirmed
// (read from its state). A step after the verdict prints the report again.
func TestGameTuneStepsAreTheLocalRun(t *testing.T) {
	for _, search := range []string{"ntbea", "grid"} {
		args := func(extra ...string) []string { return gridArgs(extra...) }
		if search == "ntbea" {
			args = func(extra ...string) []string { return ntbeaArgs(t, extra...) }
		}
		local := filepath.Join(t.TempDir(), "local.json")
		code, report, errs := gamectl(t, args("--state", local)...)
		require.Equal(t, 0, code, errs)
		want, err := os.ReadFile(local)
		require.NoError(t, err)
		var saved struct{ Confirm struct{ Rules string } }
		require.NoError(t, json.Unmarshal(want, &saved))
		require.NotEmpty(t, saved.Confirm.Rules)
		outDir := t.TempDir() // the local run's --out files, which a job's last step writes too
		code, _, errs = gamectl(t, args("--state", filepath.Join(t.TempDir(), "local.json"), "--out", outDir)...)
		require.Equal(t, 0, code, errs)
		if search == "grid" {
			code, plain, errs := gamectl(t, args()...)
			require.Equal(t, 0, code, errs)
			require.Equal(t, plain, report, "the grid saved batch by batch reports as the grid played in one go")
		}
		for k := 1; k <= 3; k++ {
			dir := t.TempDir()
			code, out, errs := gamectl(t, args("--state", filepath.Join(dir, "state.json"), "--minutes", "0")...)
			require.Equal(t, 0, code, errs)
			require.Contains(t, out, "stopped after")
			out = playSteps(t, dir, k)
			require.True(t, strings.HasPrefix(out, report), "%s, %d tasks: the report\n%s", search, k, out)
			got, err := os.ReadFile(filepath.Join(dir, "state.json"))
			require.NoError(t, err)
			require.Equal(t, string(want), string(got), "%s, %d tasks: the state", search, k)
			got, err = os.ReadFile(filepath.Join(dir, "report.txt"))
			require.NoError(t, err)
			require.Equal(t, report, string(got))
			got, err = os.ReadFile(filepath.Join(dir, "rules.json"))
			require.NoError(t, err)
			require.Equal(t, saved.Confirm.Rules+"\n", string(got))
			for _, name := range []string{"tune.csv", "report.html"} {
				want, err := os.ReadFile(filepath.Join(outDir, name))
				require.NoError(t, err)
				got, err := os.ReadFile(filepath.Join(dir, name))
				require.NoError(t, err, "%s, %d tasks: the job writes %s", search, k, name)
				require.Equal(t, string(want), string(got), "%s, %d tasks: %s", search, k, name)
			}
			if k == 3 {
				code, again, errs := gamectl(t, "sim", "tune", "step", "--game", "pig", "--out", dir)
				require.Equal(t, 0, code, errs)
				require.Equal(t, out, again, "a step after the verdict")
				require.Empty(t, stepDirs(t, dir), "a step after the verdict removes the last step's parts")
				code, _, errs = gamectl(t, "sim", "--game", "pig", "--games", "5", "--seed", "x", "--rules", filepath.Join(dir, "rules.json"))
				require.Equal(t, 0, code, "sim --game takes rules.json: %s", errs)
			}
		}
	}
}

// Two tasks that both find every part written both fold, and write the
// same state: here the second reads the state from before the first's
// fold (as a task that started before it did), its own part already
// written. And the tuner's own command finishes a run a job started (other
// flags refused).
func TestGameTuneStepTwoFolds(t *testing.T) {
	dir := t.TempDir()
	state := filepath.Join(dir, "state.json")
	code, _, errs := gamectl(t, gridArgs("--state", state, "--minutes", "0")...)
	require.Equal(t, 0, code, errs)
	before, err := os.ReadFile(state)
	require.NoError(t, err)
	t.Setenv("CLOUD_RUN_TASK_COUNT", "2")
	t.Setenv("CLOUD_RUN_TASK_INDEX", "0")
	code, out, errs := gamectl(t, "sim", "tune", "step", "--game", "pig", "--out", dir)
	require.Equal(t, 0, code, errs)
	require.Contains(t, out, "task 0 of 2: played its part of batch-1")
	t.Setenv("CLOUD_RUN_TASK_INDEX", "1")
	code, out, errs = gamectl(t, "sim", "tune", "step", "--game", "pig", "--out", dir)
	require.Equal(t, 0, code, errs)
	require.Contains(t, out, "task 1 of 2: batch-1 folded; the next step plays batch-2")
	first, err := os.ReadFile(state)
	require.NoError(t, err)
	require.NotEqual(t, string(before), string(first))

	require.NoError(t, os.WriteFile(state, before, 0o644))
	t.Setenv("CLOUD_RUN_TASK_INDEX", "0")
	code, out, errs = gamectl(t, "sim", "tune", "step", "--game", "pig", "--out", dir)
	require.Equal(t, 0, code, errs)
	require.Contains(t, out, "task 0 of 2: batch-1 folded")
	second, err := os.ReadFile(state)
	require.NoError(t, err)
	require.Equal(t, string(first), string(second))

	// The rest on this machine: the tuner's own command goes on from the
	// state the job left, to the report of the run played in one go.
	t.Setenv("CLOUD_RUN_TASK_COUNT", "")
	t.Setenv("CLOUD_RUN_TASK_INDEX", "")
	code, whole, errs := gamectl(t, gridArgs()...)
	require.Equal(t, 0, code, errs)
	code, _, errs = gamectl(t, gridArgs("--state", state, "--target", "3")...)
	require.Equal(t, 2, code)
	require.Contains(t, errs, "--state "+state+": another tuning run: the target 0.03, the run's is 0.02")
	code, out, errs = gamectl(t, gridArgs("--state", state)...)
	require.Equal(t, 0, code, errs)
	require.Contains(t, errs, "resuming the run in "+state+" after 8 of 16 candidates")
	require.Equal(t, whole, out)
}

// The task's environment is read strictly: whole numbers of decimal
// digits, 0 <= index < count, count >= 1, both or neither (exit 2, before
// anything is read); the control, the same command with a good pair,
// plays its part.
func TestGameTuneStepTaskEnv(t *testing.T) {
	dir := t.TempDir()
	code, _, errs := gamectl(t, gridArgs("--state", filepath.Join(dir, "state.json"), "--minutes", "0")...)
	require.Equal(t, 0, code, errs)
	for _, c := range []struct{ index, count, want string }{
		{"2", "2", `CLOUD_RUN_TASK_INDEX="2": want a whole number from 0 to 1`},
		{"-1", "2", `CLOUD_RUN_TASK_INDEX="-1": want a whole number`},
		{"+1", "2", `CLOUD_RUN_TASK_INDEX="+1": want a whole number`},
		{"1.0", "2", `CLOUD_RUN_TASK_INDEX="1.0"`},
		{" 1", "2", `CLOUD_RUN_TASK_INDEX=" 1"`},
		{"0x1", "2", `CLOUD_RUN_TASK_INDEX="0x1"`},
		{"0", "0", `CLOUD_RUN_TASK_COUNT="0": want a whole number of tasks, 1 or more`},
		{"0", "two", `CLOUD_RUN_TASK_COUNT="two"`},
		{"0", "1e3", `CLOUD_RUN_TASK_COUNT="1e3"`},
		{"0", "99999999999", `CLOUD_RUN_TASK_COUNT="99999999999"`},
		{"0", "", `CLOUD_RUN_TASK_INDEX="0" is set without CLOUD_RUN_TASK_COUNT`},
		{"", "2", `CLOUD_RUN_TASK_COUNT="2" is set without CLOUD_RUN_TASK_INDEX`},
	} {
		t.Setenv("CLOUD_RUN_TASK_INDEX", c.index)
		t.Setenv("CLOUD_RUN_TASK_COUNT", c.count)
		code, _, errs := gamectl(t, "sim", "tune", "step", "--game", "pig", "--out", dir)
		require.Equal(t, 2, code, "%q/%q: %s", c.index, c.count, errs)
		require.Contains(t, errs, c.want)
	}
	_, err := os.Stat(filepath.Join(dir, "batch-1"))
	require.ErrorIs(t, err, os.ErrNotExist, "no part played")
	t.Setenv("CLOUD_RUN_TASK_INDEX", "1")
	t.Setenv("CLOUD_RUN_TASK_COUNT", "2")
	code, out, errs := gamectl(t, "sim", "tune", "step", "--game", "pig", "--out", dir)
	require.Equal(t, 0, code, errs)
	require.Contains(t, out, "task 1 of 2: played its part of batch-1")
	require.FileExists(t, filepath.Join(dir, "batch-1", "part-1-of-2.json"))
}

// A step refuses (exit 2, saying what is wrong) a missing or corrupt
// state, a state of another game, and a part of another run, of another
// step, of another state of a run with the same game and seed, a corrupt
// part, a part under another task's name and a part whose games do not
// fit the seats; each time, the control: the run's own part in its place
// folds.
func TestGameTuneStepRefusals(t *testing.T) {
	step := func(dir string, task int) (int, string, string) {
		t.Setenv("CLOUD_RUN_TASK_INDEX", strconv.Itoa(task))
		t.Setenv("CLOUD_RUN_TASK_COUNT", "2")
		return gamectl(t, "sim", "tune", "step", "--game", "pig", "--out", dir)
	}
	setup := func(args []string) string {
		dir := t.TempDir()
		code, _, errs := gamectl(t, append(args, "--state", filepath.Join(dir, "state.json"), "--minutes", "0")...)
		require.Equal(t, 0, code, errs)
		return dir
	}
	refused := func(dir string, task int, want string) {
		t.Helper()
		code, _, errs := step(dir, task)
		require.Equal(t, 2, code, errs)
		require.Contains(t, errs, want)
	}

	// The state.
	empty := t.TempDir()
	refused(empty, 0, "--out "+empty+" holds no tuning run (no state.json): set one up with \"gamectl sim tune --game pig ... --state "+filepath.Join(empty, "state.json")+" --minutes 0\"")
	run := setup(gridArgs())
	state := filepath.Join(run, "state.json")
	good, err := os.ReadFile(state)
	require.NoError(t, err)
	for _, c := range []struct{ data, want string }{
		{"not json", "state.json: not a saved tuning run (corrupt?)"},
		{string(good[:len(good)/2]), "state.json: not a saved tuning run (corrupt?)"},
		{`{"format":"fairboard-game-tune/9"}`, `format "fairboard-game-tune/9": not a saved tuning run of a game`},
		{strings.Replace(string(good), `"played": 0`, `"played": 3`, 1), "the run's state does not hold together"},
		{strings.Replace(string(good), `"levels": 4`, `"levels": 5`, 1), "another tuning run: goal: the grid's values [10 18 25 33 40], the run's are [10 20 30 40]"},
		{strings.Replace(string(good), `"bots": [`, `"bots": ["hold:0",`, 1), "the run's settings"},
	} {
		require.NotEqual(t, string(good), c.data)
		require.NoError(t, os.WriteFile(state, []byte(c.data), 0o644))
		refused(run, 0, c.want)
	}
	require.NoError(t, os.WriteFile(state, good, 0o644))
	code, _, errs := gamectl(t, "sim", "tune", "step", "--game", "kuhn", "--out", run)
	require.Equal(t, 2, code)
	require.Contains(t, errs, "a run of pig, not of kuhn")

	// The parts: another run's (another seed), another state's (the same
	// seed and game, other levels), another step's.
	other := setup(gridArgs("--seed", "another"))
	stale := setup(append(gridArgs(), "--levels", "3"))
	for _, d := range []string{run, other, stale} {
		code, _, errs := step(d, 0)
		require.Equal(t, 0, code, errs)
	}
	part := func(d, step string, task int) string {
		return filepath.Join(d, step, fmt.Sprintf("part-%d-of-2.json", task))
	}
	own, err := os.ReadFile(part(run, "batch-1", 0))
	require.NoError(t, err)
	var forged map[string]any
	require.NoError(t, json.Unmarshal(own, &forged))
	forged["games"].([]any)[0].(map[string]any)["pos"] = []int{0, 2}
	badPos, err := json.Marshal(forged)
	require.NoError(t, err)
	copyOf := func(path string) string {
		b, err := os.ReadFile(path)
		require.NoError(t, err)
		return string(b)
	}
	for _, c := range []struct{ data, want string }{
		{copyOf(part(other, "batch-1", 0)), `is a part of another run (pig, seed "another"; this run is pig, seed "cli-grid-step"): remove it`},
		{copyOf(part(stale, "batch-1", 0)), "was played from another state than the run's state.json"},
		{strings.Replace(string(own), `"step":"batch-1"`, `"step":"batch-2"`, 1), "is a part of batch-2, not of batch-1, the step pending"},
		{"{", "not a part of a tuning run (corrupt?)"},
		{strings.Replace(string(own), `"task":0`, `"task":1`, 1), "task 1 of 2 does not match its file's name"},
		{strings.Replace(string(own), `"units":[0,600]`, `"units":[0,599]`, 1), "does not fit batch-1"},
		{string(badPos), "batch-1, game cli-grid-step/search#0: the part's record of it does not fit the game's seats"},
	} {
		require.NotEqual(t, string(own), c.data)
		require.NoError(t, os.WriteFile(part(run, "batch-1", 0), []byte(c.data), 0o644))
		refused(run, 1, c.want)
		require.Equal(t, string(good), copyOf(state), "nothing folded")
	}
	require.NoError(t, os.WriteFile(part(run, "batch-1", 0), own, 0o644))
	code, out, errs := step(run, 1)
	require.Equal(t, 0, code, errs)
	require.Contains(t, out, "batch-1 folded", "the control: the run's own part folds")

	// A part of the last step left in the next's place.
	require.NoError(t, os.MkdirAll(filepath.Join(run, "batch-2"), 0o755))
	require.NoError(t, os.WriteFile(part(run, "batch-2", 0), own, 0o644))
	refused(run, 1, "is a part of batch-1, not of batch-2, the step pending")
}
