package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// Ctrl-C stops a long run cleanly: it still writes what was finished,
// marked as partial, and exits with status 130.
func TestSimInterruptWritesPartialResults(t *testing.T) {
	dir := t.TempDir()
	cmd := exec.Command(os.Args[0], "--", "sim", "--games", "100000000", "--seed", "sig", "--workers", "2", "--out", dir)
	cmd.Env = append(os.Environ(), "GAMECTL_TEST_MAIN=1")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	require.NoError(t, cmd.Start())
	// Wait until it has played some games: its players.csv, written as
	// games end, holds the header and at least one game's four rows.
	require.Eventually(t, func() bool {
		tmp, _ := filepath.Glob(filepath.Join(dir, ".players.csv.*.tmp"))
		for _, f := range tmp {
			if b, err := os.ReadFile(f); err == nil && bytes.Count(b, []byte("\n")) >= 5 {
				return true
			}
		}
		return false
	}, 60*time.Second, 10*time.Millisecond, "gamectl sim wrote no game within a minute")
	require.NoError(t, cmd.Process.Signal(syscall.SIGINT))
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		var ee *exec.ExitError
		require.True(t, errors.As(err, &ee), "want a non-zero exit, got %v", err)
		require.Equal(t, 130, ee.ExitCode(), stderr.String())
	case <-time.After(60 * time.Second):
		cmd.Process.Kill()
		t.Fatal("gamectl sim did not stop within a minute of SIGINT")
	}
	require.Contains(t, stderr.String(), "interrupted after")

	b, err := os.ReadFile(filepath.Join(dir, "results.json"))
	require.NoError(t, err, "the partial results are written")
	var res struct {
		Partial bool
		Done    int64
		Range   [2]int64
	}
	require.NoError(t, json.Unmarshal(b, &res))
	require.True(t, res.Partial)
	require.Greater(t, res.Done, int64(0))
	require.Less(t, res.Done, res.Range[1])
	html, err := os.ReadFile(filepath.Join(dir, "report.html"))
	require.NoError(t, err)
	require.True(t, strings.Contains(string(html), "Partial results"), "the report says it is partial")
	players, err := os.ReadFile(filepath.Join(dir, "players.csv"))
	require.NoError(t, err, "players.csv of the games played is written")
	require.Equal(t, int(4*res.Done+1), strings.Count(string(players), "\n"), "a header and exactly the games played")
	leftovers, _ := filepath.Glob(filepath.Join(dir, "*.tmp"))
	hidden, _ := filepath.Glob(filepath.Join(dir, ".*.tmp"))
	require.Empty(t, append(leftovers, hidden...), "no half-written files")
}
