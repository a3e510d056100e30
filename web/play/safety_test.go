package play_test

import (
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/web/play/bundle"
)

// The page's safe defaults, run by Node: the order of the actions, which
// ask first, the status lines that clear, the title
// (test/safety_test.ts).
func TestSafeDefaultsInNode(t *testing.T) {
	out := filepath.Join(t.TempDir(), "safety_test.mjs")
	nodeTools(t, bundle.Esbuild("test/safety_test.ts", "--bundle", "--platform=node", "--format=esm", "--outfile="+out))
	b, err := exec.Command("node", out).CombinedOutput()
	require.NoError(t, err, "%s", b)
	require.Equal(t, "ok\n", string(b))
}
