package cli_test

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/internal/cli"
)

// A reserved file appears under its path only when committed, with one
// JSON object a line; a discarded one leaves nothing; a directory or a
// path in a missing directory is refused as a usage error, before any
// work.
func TestPendingFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "a.jsonl")
	f, err := cli.ReserveFile("--audit-out", path)
	require.NoError(t, err)
	_, err = os.Stat(path)
	require.True(t, errors.Is(err, os.ErrNotExist), "nothing under the path before the commit")
	type item struct {
		N int    `json:"n"`
		S string `json:"s"`
	}
	require.NoError(t, cli.WriteJSONLines(f, []item{{1, "a"}, {2, "b"}}))
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	require.Equal(t, "{\"n\":1,\"s\":\"a\"}\n{\"n\":2,\"s\":\"b\"}\n", string(b))
	st, err := os.Stat(path)
	require.NoError(t, err)
	require.Equal(t, os.FileMode(0o644), st.Mode().Perm())

	g, err := cli.ReserveFile("--export", filepath.Join(dir, "x.json"))
	require.NoError(t, err)
	g.Discard()
	left, err := os.ReadDir(dir)
	require.NoError(t, err)
	require.Len(t, left, 1, "a discarded file leaves nothing: %v", left)

	for _, bad := range []string{dir, filepath.Join(dir, "missing", "x.json")} {
		_, err := cli.ReserveFile("--export", bad)
		var ue cli.UsageError
		require.True(t, errors.As(err, &ue), "%s: %v", bad, err)
		require.Contains(t, err.Error(), "--export "+bad)
	}
}
