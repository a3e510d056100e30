package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// The search bot plays Pig through sim and play: game 3 of the simulation
// is "play --seed 'S#3'" with the same bots, and a bad N is refused.
func TestGameMCTS(t *testing.T) {
	dir := t.TempDir()
	code, out, errs := gamectl(t, "sim", "--game", "pig", "--games", "4", "--seed", "cli-mcts", "--workers", "2",
		"--bot", "mcts:20,random", "--out", dir)
	require.Equal(t, 0, code, errs)
	require.Contains(t, out, "bots mcts:20,random")
	code, log, errs := gamectl(t, "play", "--game", "pig", "--seed", "cli-mcts#3", "--bots", "mcts:20,random")
	require.Equal(t, 0, code, errs)
	require.Contains(t, log, "result: seat ")
	code, again, _ := gamectl(t, "play", "--game", "pig", "--seed", "cli-mcts#3", "--bots", "mcts:20,random")
	require.Equal(t, 0, code)
	require.Equal(t, log, again)
	b, err := os.ReadFile(filepath.Join(dir, "players.csv"))
	require.NoError(t, err)
	csv := string(b)
	winner := "seat 0 (p1, mcts:20) won"
	if strings.Contains(csv, "3,cli-mcts#3,1,p2,random,2,1,") {
		winner = "seat 1 (p2, random) won"
	}
	require.Contains(t, log, winner)
	for _, bad := range []string{"mcts:0", "mcts:x", "mcts:1000001", "mcts"} {
		code, _, errs = gamectl(t, "sim", "--game", "pig", "--games", "1", "--seed", "s", "--bot", bad)
		require.Equal(t, 2, code)
		require.Contains(t, errs, "the search bot is mcts:N, N its simulations per move, a whole number in [1, 1000000]")
		code, _, errs = gamectl(t, "play", "--game", "pig", "--seed", "s", "--bots", bad)
		require.Equal(t, 2, code)
		require.Contains(t, errs, "the search bot is mcts:N")
	}
}
