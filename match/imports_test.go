package match_test

import (
	"os/exec"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// The import graph: the definition and the machinery import no game and
// nothing of the dungeon's (engine, reducers, bot, sim); games sit above.
// internal/checks (the positive controls' switches) is a leaf.
func TestImportsNoGame(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "-f", "{{.ImportPath}}",
		"github.com/fairboard/fairboard/game", "github.com/fairboard/fairboard/match").CombinedOutput()
	require.NoError(t, err, string(out))
	for _, p := range strings.Fields(string(out)) {
		rest, ours := strings.CutPrefix(p, "github.com/fairboard/fairboard/")
		if !ours {
			continue
		}
		require.True(t, rest == "game" || rest == "match" || rest == "ntbea" || rest == "rng" || strings.HasPrefix(rest, "rng/") ||
			rest == "internal/checks",
			"the machinery imports %s", p)
	}
}
