package table_test

import (
	"os/exec"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// The import graph: the table imports the definition, the machinery, rng,
// the audit ring (audit, which imports rng alone) and its own deal
// (table/trustdeal, which imports no game), never a game nor the
// dungeon's pipeline (engine, service, store); internal/checks (the
// positive controls' switches, which the machinery reads) is a leaf.
func TestImportsNoGame(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "-f", "{{.ImportPath}}",
		"github.com/fairboard/fairboard/table").CombinedOutput()
	require.NoError(t, err, string(out))
	for _, p := range strings.Fields(string(out)) {
		rest, ours := strings.CutPrefix(p, "github.com/fairboard/fairboard/")
		if !ours {
			continue
		}
		require.True(t, rest == "table" || rest == "table/trustdeal" || rest == "game" || rest == "match" || rest == "ntbea" || rest == "rng" || strings.HasPrefix(rest, "rng/") ||
			rest == "internal/checks" || rest == "audit",
			"the table imports %s", p)
	}
}
