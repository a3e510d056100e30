package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// pigLog checks a printed Pig log against Pig's rules (docs/games.md),
// written here from the rules, not from games/pig: the turn passes in
// seat order after a 1 or a hold; a roll of 2..sides adds to the turn
// total, a 1 loses it; a hold banks it; the game ends the moment banked
// plus turn total reaches the goal. It returns the winner and how many
// die rolls the log shows.
func pigLog(t *testing.T, lines []string) (winner, rolls int) {
	t.Helper()
	var seats, goal, sides, turn, total int
	var banked []int
	winner = -1
	for i, l := range lines {
		f := strings.Fields(l)
		require.Equal(t, "#"+strconv.Itoa(i+1), f[0], "line %d: %s", i, l)
		v := map[string]int{}
		for _, kv := range f[2:] {
			k, s, _ := strings.Cut(kv, "=")
			n, err := strconv.Atoi(s)
			require.NoError(t, err, l)
			v[k] = n
		}
		if i == 0 {
			require.Equal(t, "GameStarted", f[1])
			seats, goal, sides = v["seats"], v["goal"], v["dieSides"]
			banked = make([]int, seats)
			continue
		}
		require.Equal(t, -1, winner, "an event after the win: %s", l)
		require.Equal(t, turn, v["seat"], "not this seat's turn: %s", l)
		switch f[1] {
		case "Rolled":
			rolls++
			require.True(t, v["value"] >= 1 && v["value"] <= sides, l)
			if v["value"] == 1 {
				require.Equal(t, 0, v["turnTotal"], l)
			} else {
				total += v["value"]
				require.Equal(t, total, v["turnTotal"], l)
			}
		case "Busted":
			require.Equal(t, total, v["lost"], l)
			total, turn = 0, (turn+1)%seats
		case "Held":
			require.Positive(t, total, "a hold with nothing to bank: %s", l)
			banked[turn] += total
			require.Equal(t, banked[turn], v["banked"], l)
			total, turn = 0, (turn+1)%seats
		case "Won":
			require.GreaterOrEqual(t, banked[turn]+total, goal, l)
			require.Equal(t, banked[turn]+total, v["score"], l)
			winner = turn
		default:
			t.Fatalf("unknown event %s", l)
		}
		if f[1] == "Rolled" && v["value"] != 1 {
			require.Less(t, banked[turn]+total, goal+sides, l)
		}
	}
	require.NotEqual(t, -1, winner, "the log ends without a winner")
	return winner, rolls
}

// "play --game pig" prints a log that follows Pig's rules, its result
// line, the same game as the simulation's game i, and in JSON the same
// events; its audit file holds one entry per die roll.
func TestPlayGamePig(t *testing.T) {
	code, out, errs := gamectl(t, "play", "--game", "pig", "--seed", "cli-pig#7", "--players", "3", "--bots", "random,hold:20")
	require.Equal(t, 0, code, errs)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	result := lines[len(lines)-1]
	winner, _ := pigLog(t, lines[:len(lines)-1])
	bots := []string{"random", "hold:20", "random"}
	pay := []string{"0", "0", "0"}
	pay[winner] = "1"
	require.Equal(t, fmt.Sprintf("result: seat %d (p%d, %s) won; payoffs %s", winner, winner+1, bots[winner], strings.Join(pay, ", ")), result)

	// Game 7 of the simulation with seed cli-pig is this game.
	dir := t.TempDir()
	code, _, errs = gamectl(t, "sim", "--game", "pig", "--games", "8", "--seed", "cli-pig", "--players", "3", "--bot", "random,hold:20", "--out", dir)
	require.Equal(t, 0, code, errs)
	csv, err := os.ReadFile(filepath.Join(dir, "players.csv"))
	require.NoError(t, err)
	for _, row := range strings.Split(string(csv), "\n") {
		if strings.HasPrefix(row, "7,") {
			f := strings.Split(row, ",")
			require.Equal(t, f[2] == strconv.Itoa(winner), f[6] == "1", "the simulation's game 7: %s", row)
		}
	}

	code, js, errs := gamectl(t, "play", "--game=pig", "--seed", "cli-pig#7", "--players", "3", "--bots", "random,hold:20", "--json")
	require.Equal(t, 0, code, errs)
	jl := strings.Split(strings.TrimSpace(js), "\n")
	require.Len(t, jl, len(lines)-1, "the JSON log has the same events and no result line")
	for i, l := range jl {
		var e map[string]any
		require.NoError(t, json.Unmarshal([]byte(l), &e), l)
		require.EqualValues(t, i+1, e["seq"])
		require.Equal(t, strings.Fields(lines[i])[1], e["type"])
	}

	audit := filepath.Join(t.TempDir(), "audit.jsonl")
	code, out, errs = gamectl(t, "play", "--game", "pig", "--seed", "a", "--bots", "hold:15", "--audit-out", audit)
	require.Equal(t, 0, code, errs)
	lines = strings.Split(strings.TrimSpace(out), "\n")
	_, rolls := pigLog(t, lines[:len(lines)-1])
	f, err := os.Open(audit)
	require.NoError(t, err)
	defer f.Close()
	n := 0
	for sc := bufio.NewScanner(f); sc.Scan(); n++ {
		require.Contains(t, sc.Text(), `"pig.roll"`)
	}
	require.Equal(t, rolls, n, "one audit entry per die roll")

	// Crypto mode plays a whole game by the same rules.
	code, out, errs = gamectl(t, "play", "--game", "pig", "--mode", "crypto", "--players", "4", "--bots", "hold:10")
	require.Equal(t, 0, code, errs)
	lines = strings.Split(strings.TrimSpace(out), "\n")
	pigLog(t, lines[:len(lines)-1])

	// --game dungeon is the dungeon's own play.
	code, out, errs = gamectl(t, "play", "--game", "dungeon", "--seed", "d", "--players", "2")
	require.Equal(t, 0, code, errs)
	require.True(t, strings.HasPrefix(out, "#1 GameCreated uid=p1"), out[:min(len(out), 80)])
}

func TestPlayGameRefusals(t *testing.T) {
	bad := filepath.Join(t.TempDir(), "bad.json")
	require.NoError(t, os.WriteFile(bad, []byte(`{"goal":0,"dieSides":6}`), 0o644))
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--game", "chess", "--seed", "s"}, `unknown game "chess"`},
		{[]string{"--game", "pig"}, "--seed is required in seeded mode"},
		{[]string{"--game", "pig", "--seed", "\xff"}, "--seed: "},
		{[]string{"--game", "pig", "--mode", "crypto", "--seed", "s"}, "--seed is for seeded mode"},
		{[]string{"--game", "pig", "--mode", "fair", "--seed", "s"}, `--mode "fair": pig plays seeded or crypto`},
		{[]string{"--game", "pig", "--seed", "s", "--players", "1"}, "--players 1: pig takes 2 to 6"},
		{[]string{"--game", "pig", "--seed", "s", "--bots", ""}, "--bots needs at least one bot (random, mcts:N, hold:N)"},
		{[]string{"--game", "pig", "--seed", "s", "--bots", "random,random,random"}, "--bots names 3 bots for 2 players"},
		{[]string{"--game", "pig", "--seed", "s", "--bots", "cautious"}, `unknown bot "cautious" for pig`},
		{[]string{"--game", "pig", "--seed", "s", "--bot-seed", "\xff"}, "--bot-seed: "},
		{[]string{"--game", "pig", "--seed", "s", "--rules", bad}, "--rules " + bad},
		{[]string{"--game", "pig", "--seed", "s", "--classes", "warrior"}, "flag provided but not defined: -classes"},
	} {
		code, out, errs := gamectl(t, append([]string{"play"}, c.args...)...)
		require.Equal(t, 2, code, "%v: %s", c.args, errs)
		require.Empty(t, out, "%v", c.args)
		require.Contains(t, errs, c.want, "%v", c.args)
	}
}

// "play --game pig --record FILE" writes a record that "replay FILE" and
// "verify FILE" check (seeded and crypto); a changed record diverges
// (exit 1) and a broken one is bad input (exit 2).
func TestPlayGameRecordReplays(t *testing.T) {
	dir := t.TempDir()
	for _, args := range [][]string{{"--seed", "rec"}, {"--mode", "crypto"}} {
		path := filepath.Join(dir, "game.json")
		code, _, errs := gamectl(t, append([]string{"play", "--game", "pig", "--players", "3", "--bots", "random,hold:20", "--record", path}, args...)...)
		require.Equal(t, 0, code, errs)
		good, err := os.ReadFile(path)
		require.NoError(t, err)
		for _, cmd := range []string{"replay", "verify"} {
			require.NoError(t, os.WriteFile(path, good, 0o644))
			code, out, errs := gamectl(t, cmd, path)
			require.Equal(t, 0, code, errs)
			require.Regexp(t, `^OK pig: \d+ moves, \d+ events, \d+ audit entries, final state [0-9a-f]{16}\n$`, out)

			var v map[string]any
			require.NoError(t, json.Unmarshal(good, &v))
			v["log"].([]any)[1].(map[string]any)["turnTotal"] = 99
			changed, _ := json.Marshal(v)
			require.NoError(t, os.WriteFile(path, changed, 0o644))
			code, _, errs = gamectl(t, cmd, path)
			require.Equal(t, 1, code, errs)
			require.Contains(t, errs, "diverges at log entry 2")

			v["moves"] = []string{`{"seat":1,"kind":"roll"}`}
			bad, _ := json.Marshal(v)
			require.NoError(t, os.WriteFile(path, bad, 0o644))
			code, _, errs = gamectl(t, cmd, path)
			require.Equal(t, 2, code, errs)
			require.Contains(t, errs, "is not a replayable record: move 1 (roll by seat 1)")
		}
	}
	path := filepath.Join(dir, "chess.json")
	require.NoError(t, os.WriteFile(path, []byte(`{"format":"fairboard-game/v1","game":"chess","mode":"seeded","seed":"s","seats":2,"rules":{},"moves":[],"log":[],"audit":[],"stateSha256":"`+strings.Repeat("0", 64)+`"}`), 0o644))
	code, _, errs := gamectl(t, "replay", path)
	require.Equal(t, 2, code)
	require.Contains(t, errs, `unknown game "chess"`)
	code, _, errs = gamectl(t, "play", "--game", "pig", "--seed", "s", "--record", filepath.Join(dir, "no", "such", "dir", "r.json"))
	require.Equal(t, 2, code)
	require.Contains(t, errs, "--record")
}
