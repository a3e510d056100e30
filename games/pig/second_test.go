package pig_test

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// A second implementation: testdata/second.mjs plays the golden game's
// moves under Pig's rules written again in JavaScript, on the spec's
// seeded stream (cyrb128 and sfc32 as published), and must make the
// golden's log and audit entries one for one. Each changed golden is
// caught (the positive controls): another seed, a die face, a turn
// count, a move by the wrong seat, a move dropped at the end. Without
// Node it is skipped, but under CI (CI=true), where Node is installed,
// it fails.
func TestSecondImplementationInNode(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("node is not installed; CI needs it for Pig's second implementation")
		}
		t.Skip("node is not installed")
	}
	run := func(file string) (string, error) {
		out, err := exec.Command(node, "testdata/second.mjs", file).CombinedOutput()
		return string(out), err
	}
	out, err := run(goldenPath)
	require.NoError(t, err, out)
	require.Equal(t, "ok\n", out)

	raw, err := os.ReadFile(goldenPath)
	require.NoError(t, err)
	for _, c := range []struct {
		name   string
		change func(g map[string]any)
		want   string
	}{
		{"another seed", func(g map[string]any) { g["seed"] = "pig-golden-02" }, "is to move"}, // other dice: a move falls out of turn
		{"a die face", func(g map[string]any) { entry(g, "log", 2)["value"] = 3.0 }, "log 3: "},
		{"a turn count", func(g map[string]any) { entry(g, "audit", 4)["ctx"] = map[string]any{"turn": 1.0} }, "audit 5: "},
		{"the wrong seat", func(g map[string]any) { moves(g)[0] = `{"seat":1,"kind":"roll"}` }, "move 1: seat 1 moves, seat 0 is to move"},
		{"a move dropped", func(g map[string]any) { g["moves"] = moves(g)[:len(moves(g))-1] }, "the moves end before the game does"},
	} {
		var g map[string]any
		require.NoError(t, json.Unmarshal(raw, &g))
		c.change(g)
		b, err := json.Marshal(g)
		require.NoError(t, err)
		f := filepath.Join(t.TempDir(), "changed.json")
		require.NoError(t, os.WriteFile(f, b, 0o600))
		out, err := run(f)
		require.Error(t, err, "%s: %s", c.name, out)
		require.Contains(t, out, c.want, c.name)
	}
}

func entry(g map[string]any, list string, i int) map[string]any {
	return g[list].([]any)[i].(map[string]any)
}

func moves(g map[string]any) []any { return g["moves"].([]any) }
