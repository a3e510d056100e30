package match

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"
)

// PruneSteps removes the part files of every step directory but the one
// kept, and such a directory once empty; nothing else.
func TestPruneSteps(t *testing.T) {
	dir := t.TempDir()
	files := []string{
		"state.json", "notes.txt", // the run's and the user's files beside the steps
		"gen-1/part-0-of-2.json", "gen-1/part-1-of-2.json", "gen-1/.part-1-of-2.json.123456.tmp",
		"gen-2/part-0-of-1.json",
		"gen-3/part-0-of-2.json",
		"batch-1/part-0-of-3.json", "batch-1/my-notes.txt", // the user's: kept, and so its directory
		"confirm/part-2-of-3.json",
		"gen-x/part-0-of-1.json",   // not a step's directory
		"gen-1b/part-0-of-1.json",  // nor this
		"results/part-0-of-1.json", // nor this
	}
	for _, f := range files {
		require.NoError(t, os.MkdirAll(filepath.Join(dir, filepath.Dir(f)), 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(dir, f), []byte("x"), 0o644))
	}
	require.NoError(t, os.Mkdir(filepath.Join(dir, "gen-4"), 0o755)) // empty: removed
	require.NoError(t, os.WriteFile(filepath.Join(dir, "gen-5"), []byte("a file named like a step"), 0o644))

	require.NoError(t, PruneSteps(dir, "gen-3"))
	require.Equal(t, []string{
		"batch-1/my-notes.txt", "gen-1b/part-0-of-1.json", "gen-3/part-0-of-2.json", "gen-5",
		"gen-x/part-0-of-1.json", "notes.txt", "results/part-0-of-1.json", "state.json",
	}, listFiles(t, dir))
	require.NoDirExists(t, filepath.Join(dir, "gen-1"))
	require.NoDirExists(t, filepath.Join(dir, "gen-4"))

	require.NoError(t, PruneSteps(dir, ""))
	require.NotContains(t, listFiles(t, dir), "gen-3/part-0-of-2.json", "keep \"\" keeps no step")
	require.NoDirExists(t, filepath.Join(dir, "gen-3"))
	require.NoError(t, PruneSteps(dir, ""), "pruning again finds nothing")

	require.Error(t, PruneSteps(filepath.Join(dir, "nosuch"), ""), "a missing run directory is an error")
}

// A removal that fails is the error PruneSteps returns, the first of
// them, after every step was tried; a file already gone (another task
// pruned it) is no error.
func TestPruneStepsErrors(t *testing.T) {
	dir := t.TempDir()
	for _, f := range []string{"gen-1/part-0-of-1.json", "gen-2/part-0-of-1.json", "gen-3/part-0-of-1.json", "gen-4/part-0-of-1.json"} {
		require.NoError(t, os.MkdirAll(filepath.Join(dir, filepath.Dir(f)), 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(dir, f), []byte("x"), 0o644))
	}
	t.Cleanup(func() { remove = os.Remove })
	failed := errors.New("device busy")
	remove = func(path string) error {
		switch filepath.Base(filepath.Dir(path)) + "/" + filepath.Base(path) {
		case "gen-1/part-0-of-1.json":
			os.Remove(path)
			return &fs.PathError{Op: "remove", Path: path, Err: fs.ErrNotExist} // gone already: no error
		case "gen-2/part-0-of-1.json", "gen-3/part-0-of-1.json":
			return &fs.PathError{Op: "remove", Path: path, Err: failed}
		}
		return os.Remove(path)
	}
	err := PruneSteps(dir, "")
	require.ErrorIs(t, err, failed)
	require.Contains(t, err.Error(), filepath.Join("gen-2", "part-0-of-1.json"), "the first failure")
	require.Equal(t, []string{"gen-2/part-0-of-1.json", "gen-3/part-0-of-1.json"}, listFiles(t, dir), "gen-1 and gen-4 pruned all the same")
	require.NoDirExists(t, filepath.Join(dir, "gen-4"))
}

// listFiles lists the regular files under dir, relative, sorted.
func listFiles(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	require.NoError(t, filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			rel, _ := filepath.Rel(dir, path)
			out = append(out, filepath.ToSlash(rel))
		}
		return err
	}))
	slices.Sort(out)
	return out
}
