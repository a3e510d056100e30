package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestGamesLists(t *testing.T) {
	code, out, errs := gamectl(t, "games")
	require.Equal(t, 0, code, errs)
	for _, want := range []string{"pig\n  seats: 2 to 6 (default 2)\n  seat options: none\n  modes: seeded, crypto, fair, trustless (served by the functions; gamectl play and sim: seeded, crypto)\n",
		"    goal = 100 (whole number, 1 to 10000)", "    dieSides = 6 (whole number, 2 to 1000)",
		"    roll: ", "    hold: ", "  bots: random, mcts:N, hold:N\n",
		"dungeon\n  seats: 2 to 6 (default 4)\n  seat option class: warrior, monk, duelist, scout\n  modes: seeded, crypto, fair, trustless (served by the functions; gamectl play and sim: seeded, crypto)\n",
		"    dice.move = 4 (whole number, 1 to 100): ", "    classes.scoutMove = 1 (whole number, 0 to 100): ",
		"    useItem {item 0..63}: ", "    offerDuel {target 0..5}: ", "    resolveCombatRound: ",
		"  bots: random, mcts:N, cautious, aggressive\n    cautious: "} {
		require.Contains(t, out, want)
	}
	require.NotContains(t, out, "not yet on the game definition")
	// Every game is served seeded, crypto and fair; trustless where its state is
	// all public (Pig), its hidden cards are dealt by mental poker (Kuhn,
	// Leduc) or its own service plays it so (the dungeon); not Crazy Eights,
	// whose hands and pile are hidden and not dealt so (docs/games.md).
	require.Contains(t, out, "kuhn\n  seats: 2 to 2 (default 2)\n  seat options: none\n  modes: seeded, crypto, fair, trustless (served by the functions; gamectl play and sim: seeded, crypto)\n")
	require.Contains(t, out, "leduc\n  seats: 2 to 10 (default 2)\n  seat options: none\n  modes: seeded, crypto, fair, trustless (served by the functions; gamectl play and sim: seeded, crypto)\n")
	require.Contains(t, out, "eights\n  seats: 2 to 4 (default 2)\n  seat options: none\n  modes: seeded, crypto, fair (served by the functions; gamectl play and sim: seeded, crypto)\n  not trustless: eights has private parts")
	for _, want := range []string{"    ranks = 8 (whole number, 8 to 13)", "    maxMoves = 500 (whole number, 20 to 10000)",
		"    play {card 0..51, suit 0..3}: ", "    draw: ", "  bots: random, mcts:N, first\n"} {
		require.Contains(t, out, want)
	}
	require.Equal(t, 5, strings.Count(out, "\n  seats: "), "one entry per game")
	code, out, _ = gamectl(t, "help", "games")
	require.Equal(t, 0, code)
	require.Contains(t, out, "usage: gamectl games")
	code, _, _ = gamectl(t, "games", "extra")
	require.Equal(t, 2, code)
}

// "sim --game pig" runs Pig's simulation; its output and players.csv do
// not depend on --workers.
func TestSimGamePig(t *testing.T) {
	var outs []string
	var csvs []string
	for _, w := range []string{"1", "2"} {
		dir := t.TempDir()
		code, out, errs := gamectl(t, "sim", "--game", "pig", "--games", "300", "--seed", "cli-pig", "--workers", w,
			"--players", "3", "--bot", "random,hold:20", "--out", dir)
		require.Equal(t, 0, code, errs)
		b, err := os.ReadFile(filepath.Join(dir, "players.csv"))
		require.NoError(t, err)
		sum, err := os.ReadFile(filepath.Join(dir, "summary.txt"))
		require.NoError(t, err)
		require.True(t, strings.HasPrefix(out, string(sum)))
		outs, csvs = append(outs, string(sum)), append(csvs, string(b))
	}
	require.Equal(t, outs[0], outs[1])
	require.Equal(t, csvs[0], csvs[1])
	require.Contains(t, outs[0], `pig: 300 games, seed "cli-pig" (game i: cli-pig#i), 3 seats, ruleset {"goal":100,"dieSides":6}, bots random,hold:20`)
	require.Contains(t, outs[0], "position 3")
	lines := strings.Split(strings.TrimSpace(csvs[0]), "\n")
	require.Equal(t, "game,seed,seat,uid,bot,position,won,payoff", lines[0])
	require.Len(t, lines, 1+3*300)
	require.Regexp(t, `^0,cli-pig#0,2,p3,random,3,[01],[01]$`, lines[3])

	dir := t.TempDir()
	rules := filepath.Join(dir, "r.json")
	require.NoError(t, os.WriteFile(rules, []byte(`{"goal":10,"dieSides":4}`), 0o644))
	code, out, errs := gamectl(t, "sim", "--game=pig", "--games", "50", "--seed", "r", "--rules", rules, "--bot", "hold")
	require.Equal(t, 0, code, errs)
	require.Contains(t, out, `ruleset {"goal":10,"dieSides":4}, bots hold`)
}

func TestSimGameRefusals(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.json")
	require.NoError(t, os.WriteFile(bad, []byte(`{"goal":10,"dieSides":4,"speed":2}`), 0o644))
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--game", "chess", "--games", "1", "--seed", "s"}, `unknown game "chess" (known: pig, dungeon, kuhn, leduc, eights)`},
		{[]string{"--game", "pig", "--games", "0", "--seed", "s"}, "--games must be at least 1"},
		{[]string{"--game", "pig", "--games", "1"}, "--seed is required"},
		{[]string{"--game", "pig", "--games", "1", "--seed", "s", "--players", "7"}, "--players 7: pig takes 2 to 6"},
		{[]string{"--game", "pig", "--games", "1", "--seed", "s", "--bot", "cautious"}, `unknown bot "cautious" for pig`},
		{[]string{"--game", "pig", "--games", "1", "--seed", "s", "--bot", "hold:0"}, "N must be a whole number in [1, 10000]"},
		{[]string{"--game", "pig", "--games", "1", "--seed", "s", "--rules", bad}, `unknown field "speed"`},
		{[]string{"--game", "pig", "--games", "1", "--seed", "s", "--classes", "mixed"}, "flag provided but not defined: -classes"},
		{[]string{"--game"}, "flag needs an argument"},
	} {
		code, _, errs := gamectl(t, append([]string{"sim"}, c.args...)...)
		require.Equal(t, 2, code, "%v", c.args)
		require.Contains(t, errs, c.want, "%v", c.args)
	}
	code, out, _ := gamectl(t, "sim", "--game", "pig", "-h")
	require.Equal(t, 0, code)
	require.Contains(t, out, "usage: gamectl sim --game NAME")
	require.Contains(t, out, "-bot")
}

// "--game dungeon" is today's "gamectl sim", byte for byte.
func TestSimGameDungeonIsToday(t *testing.T) {
	code, today, errs := gamectl(t, "sim", "--games", "6", "--seed", "same", "--workers", "1")
	require.Equal(t, 0, code, errs)
	code, named, errs := gamectl(t, "sim", "--game", "dungeon", "--games", "6", "--seed", "same", "--workers", "1")
	require.Equal(t, 0, code, errs)
	require.Equal(t, today, named)
}

func TestGameFlag(t *testing.T) {
	for _, c := range []struct {
		args []string
		name string
		ok   bool
		rest []string
	}{
		{[]string{"--games", "3"}, "", false, []string{"--games", "3"}},
		{[]string{"--game", "pig", "--games", "3"}, "pig", true, []string{"--games", "3"}},
		{[]string{"-games", "3", "-game=pig"}, "pig", true, []string{"-games", "3"}},
		{[]string{"--", "--game", "pig"}, "", false, nil},
		{[]string{"--game"}, "", true, nil},
	} {
		name, ok := gameFlag(c.args)
		require.Equal(t, c.name, name, "%v", c.args)
		require.Equal(t, c.ok, ok, "%v", c.args)
		if c.rest != nil {
			require.Equal(t, c.rest, withoutGame(c.args))
		}
	}
}
