package tablestore_test

import (
	"os/exec"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// The import graph: the stores of tables import the table, the
// definition, the machinery, rng and the audit ring, never a game nor the dungeon's
// pipeline (engine, service, store): games come in by a Lookup.
func TestImportsNoGame(t *testing.T) {
	for _, pkg := range []string{"tablestore", "tablestore/fstables", "tablestore/storetest"} {
		out, err := exec.Command("go", "list", "-deps", "-f", "{{.ImportPath}}",
			"github.com/fairboard/fairboard/"+pkg).CombinedOutput()
		require.NoError(t, err, string(out))
		for _, p := range strings.Fields(string(out)) {
			rest, ours := strings.CutPrefix(p, "github.com/fairboard/fairboard/")
			if !ours {
				continue
			}
			ok := rest == "game" || rest == "match" || rest == "ntbea" || rest == "rng" || strings.HasPrefix(rest, "rng/") ||
				rest == "table" || rest == "table/trustdeal" || strings.HasPrefix(rest, "tablestore") || rest == "internal/checks" || rest == "audit"
			require.True(t, ok, "%s imports %s", pkg, p)
		}
	}
}
