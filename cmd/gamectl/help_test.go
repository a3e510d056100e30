package main

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// "gamectl help CMD" and "gamectl CMD -h" print the command's help on
// stdout, nothing on stderr, exit 0, and list the values the flags take.
func TestHelpGoesToStdoutAndListsValues(t *testing.T) {
	for _, c := range []struct {
		cmd  []string
		want []string
	}{
		{[]string{"sim"}, []string{"--games", "warrior, monk, duelist, scout", "cautious, aggressive", "players.csv", "balanced design", "-workers", "--by-skill", "mcts:N"}},
		{[]string{"sim", "merge"}, []string{"gamectl sim merge", "exactly what the unsharded run gives"}},
		{[]string{"sim", "tune"}, []string{"--param PATH[=LO:HI]", "NTBEA", "fair±2", "cautious, aggressive, mcts:N", "tune step", "-minutes"}},
		{[]string{"sim", "tune", "--game", "pig"}, []string{"--search grid (the default)", "--search ntbea", "NTBEA", "--budget", "--state FILE", "-levels", "Cloud Run"}},
		{[]string{"sim", "tune", "step", "--game", "pig"}, []string{"CLOUD_RUN_TASK_INDEX", "part-<index>-of-<count>.json", "--minutes 0", "byte for byte"}},
		{[]string{"play"}, []string{"--seed", "cautious, aggressive", "warrior, monk, duelist, scout", "dealt over the seats in turn", "-audit-out", "seeded", "crypto", "fair"}},
		{[]string{"replay"}, []string{"gamectl replay FILE", "exits 1", "exits 2"}},
		{[]string{"rng"}, []string{"--algo hashchain", "draw:N:K"}},
		{[]string{"tenhou"}, []string{"--seed BASE64"}},
		{[]string{"serve"}, []string{"-addr"}},
		{[]string{"verify"}, []string{"usage: gamectl verify FILE"}},
	} {
		for _, args := range [][]string{append([]string{"help"}, c.cmd...), append(append([]string{}, c.cmd...), "-h"), append(append([]string{}, c.cmd...), "--help")} {
			code, out, errs := gamectl(t, args...)
			require.Equalf(t, 0, code, "%v: %s", args, errs)
			require.Emptyf(t, errs, "%v: nothing on stderr", args)
			for _, w := range c.want {
				require.Containsf(t, out, w, "%v", args)
			}
		}
	}
	// a -h after other flags is help too
	code, out, _ := gamectl(t, "sim", "--games", "10", "-h")
	require.Equal(t, 0, code)
	require.Contains(t, out, "usage: gamectl sim")
}

func TestTopLevelUsage(t *testing.T) {
	for _, args := range [][]string{{"help"}, {"-h"}, {"--help"}} {
		code, out, errs := gamectl(t, args...)
		require.Equal(t, 0, code)
		require.Empty(t, errs)
		require.Contains(t, out, "gamectl help COMMAND")
		for _, c := range []string{"sim", "play", "replay", "rng", "tenhou", "serve", "verify", "solve"} {
			require.Contains(t, out, "\n  "+c+" ")
		}
	}
	code, out, errs := gamectl(t)
	require.Equal(t, 2, code, "no command is a usage error")
	require.Empty(t, out)
	require.Contains(t, errs, "usage: gamectl COMMAND")
	for _, args := range [][]string{{"nonsense"}, {"help", "nonsense"}} {
		code, _, errs := gamectl(t, args...)
		require.Equalf(t, 2, code, "%v", args)
		require.Contains(t, errs, `unknown command "nonsense"`)
	}
}

// A flag error says what is wrong and where the help is, without the
// whole usage; stdout stays empty.
func TestFlagErrorPointsToHelp(t *testing.T) {
	code, out, errs := gamectl(t, "sim", "--gmaes", "10")
	require.Equal(t, 2, code)
	require.Empty(t, out)
	require.Contains(t, errs, "flag provided but not defined: -gmaes")
	require.Contains(t, errs, `run "gamectl help sim"`)
	require.Less(t, strings.Count(errs, "\n"), 4, "the error, not the whole usage: %q", errs)
}
