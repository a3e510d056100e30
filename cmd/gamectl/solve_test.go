package main

import (
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/game"
)

// lastLine is solve's last line of stdout, exactly "value V
// exploitability E" with 9 decimals each.
var lastLine = regexp.MustCompile(`\Avalue (-?[0-9]+\.[0-9]{9}) exploitability ([0-9]+\.[0-9]{9})\z`)

// parseLast returns V and E from out's last line, failing the test if it
// is not exactly in the format.
func parseLast(t *testing.T, out string) (v, e float64) {
	t.Helper()
	require.True(t, strings.HasSuffix(out, "\n"), out)
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	m := lastLine.FindStringSubmatch(lines[len(lines)-1])
	require.NotNil(t, m, "last line %q", lines[len(lines)-1])
	v, err := strconv.ParseFloat(m[1], 64)
	require.NoError(t, err)
	e, err = strconv.ParseFloat(m[2], 64)
	require.NoError(t, err)
	return v, e
}

// "solve --game kuhn" finds Kuhn poker's value for seat 0, -1/18 (Kuhn
// 1950), within twice the exploitability it reports, which is below
// 0.001 after 200 iterations; the twelve information sets; progress on
// stderr.
func TestSolveKuhn(t *testing.T) {
	code, out, errs := gamectl(t, "solve", "--game", "kuhn", "--iterations", "200")
	require.Equal(t, 0, code, errs)
	v, e := parseLast(t, out)
	require.LessOrEqual(t, math.Abs(v+1.0/18), 2*e, out)
	require.Less(t, e, 0.001)
	require.Contains(t, out, "kuhn: 2 seats, 6 deals, 55 nodes, 12 information sets, 200 iterations of CFR+")
	require.Regexp(t, `seat 1 "Kb" +pass 0\.000  bet 1\.000`, out)
	require.Regexp(t, `seat 1 "Jb" +pass 1\.000  bet 0\.000`, out)
	require.Len(t, regexp.MustCompile(`(?m)^  seat [01] "`).FindAllString(out, -1), 12)
	require.Contains(t, errs, "iteration 20/200: value")
	require.Contains(t, errs, "iteration 200/200: value")
}

// --out writes a strategy that the bot cfr:DIR plays in sim and play,
// and that --against evaluates to the solver's own last line.
func TestSolveOutPlaysAsCFRBot(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "kuhn")
	code, out, errs := gamectl(t, "solve", "--game", "kuhn", "--iterations", "300", "--out", dir)
	require.Equal(t, 0, code, errs)
	require.Contains(t, out, "wrote "+filepath.Join(dir, "strategy.json"))
	solved := out[strings.LastIndex(strings.TrimSuffix(out, "\n"), "\n")+1:]
	bot := "cfr:" + dir

	code, against, errs := gamectl(t, "solve", "--game", "kuhn", "--against", bot)
	require.Equal(t, 0, code, errs)
	parseLast(t, against)
	require.True(t, strings.HasSuffix(against, solved), "%s\n%s", solved, against)

	code, out, errs = gamectl(t, "sim", "--game", "kuhn", "--games", "300", "--seed", "s", "--bot", bot+",random")
	require.Equal(t, 0, code, errs)
	require.Contains(t, out, "300 games")
	code, out, errs = gamectl(t, "play", "--game", "kuhn", "--seed", "s", "--bots", "random,"+bot)
	require.Equal(t, 0, code, errs)
	require.Contains(t, out, bot)

	// A strategy for another ruleset is refused by sim, play and solve.
	b, err := os.ReadFile(filepath.Join(dir, "strategy.json"))
	require.NoError(t, err)
	other := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(other, "strategy.json"),
		regexp.MustCompile(`"rulesHash": "[0-9a-f]+"`).ReplaceAll(b, []byte(`"rulesHash": "0123"`)), 0o644))
	for _, args := range [][]string{
		{"sim", "--game", "kuhn", "--games", "10", "--seed", "s", "--bot", "cfr:" + other},
		{"play", "--game", "kuhn", "--seed", "s", "--bots", "cfr:" + other},
		{"solve", "--game", "kuhn", "--against", "cfr:" + other},
	} {
		code, _, errs := gamectl(t, args...)
		require.NotEqual(t, 0, code, args)
		require.Contains(t, errs, "was solved under the ruleset 0123, not this game's", args)
	}
}

// --against: the random bot exactly (Kuhn's uniform policy: value 1/8,
// exploitability 11/24, OpenSpiel's figure); the search bot sampled,
// with standard errors, the same for the same seed.
func TestSolveAgainst(t *testing.T) {
	code, out, errs := gamectl(t, "solve", "--game", "kuhn", "--against", "random")
	require.Equal(t, 0, code, errs)
	v, e := parseLast(t, out)
	require.InDelta(t, 1.0/8, v, 1e-9)
	require.InDelta(t, 11.0/24, e, 1e-9)
	require.Contains(t, out, "evaluated exactly")

	args := []string{"solve", "--game", "kuhn", "--against", "mcts:10", "--samples", "20", "--seed", "a"}
	code, out, errs = gamectl(t, args...)
	require.Equal(t, 0, code, errs)
	_, e = parseLast(t, out)
	require.Greater(t, e, 0.0)
	require.Regexp(t, `(?m)^standard error: value [0-9.]+ exploitability [0-9.]+ \(30 bootstrap resamples of the answers\)$`, out)
	require.Contains(t, out, "asked 20 times at each of 12 information sets")
	_, again, _ := gamectl(t, args...)
	require.Equal(t, out, again)
}

// threeSeats is Pig that takes 3 to 6 seats.
type threeSeats struct{ game.Definition }

func (threeSeats) Seats() game.Seats { return game.Seats{Min: 3, Max: 6, Default: 3} }

func TestSolveRefusals(t *testing.T) {
	file := filepath.Join(t.TempDir(), "file")
	require.NoError(t, os.WriteFile(file, nil, 0o644))
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--game", "dungeon"}, "cannot solve exactly: dungeon's setup has more than 1000000 outcomes"},
		{[]string{"--game", "pig", "--iterations", "10"}, "cannot solve exactly: pig has a line of more than 1000 moves"},
		{[]string{"--game", "pig", "--against", "random"}, "cannot solve exactly: pig has a line of more than 1000 moves"},
		{[]string{"--game", "kuhn", "--iterations", "0"}, "--iterations must be 1 to 10000000, not 0"},
		{[]string{"--game", "kuhn", "--iterations", "x"}, `invalid value "x" for flag -iterations`},
		{[]string{"--game", "chess"}, `unknown game "chess"`},
		{[]string{"--game", "kuhn", "--samples", "5"}, "--samples is for --against"},
		{[]string{"--game", "kuhn", "--against", "mcts:5", "--samples", "0"}, "--samples must be 1 to 100000, not 0"},
		{[]string{"--game", "kuhn", "--against", "random", "--iterations", "5"}, "--against evaluates a bot: it runs no iterations"},
		{[]string{"--game", "kuhn", "--against", "random", "--out", t.TempDir()}, "--against evaluates a bot: it writes no strategy"},
		{[]string{"--game", "kuhn", "--against", ""}, "--against needs a bot"},
		{[]string{"--game", "kuhn", "--against", "hold:20"}, `--against: unknown bot "hold:20" for kuhn`},
		{[]string{"--game", "kuhn", "--against", "cfr:" + filepath.Join(t.TempDir(), "none")}, "--against: bot cfr:"},
		{[]string{"--game", "kuhn", "--seed", ""}, "--seed must be a non-empty UTF-8 string"},
		{[]string{"--game", "kuhn", "--out", ""}, "--out needs a directory"},
		{[]string{"--game", "kuhn", "--out", file}, "--out " + file + ":"},
	} {
		code, out, errs := gamectl(t, append([]string{"solve"}, c.args...)...)
		require.Equalf(t, 2, code, "%v", c.args)
		require.Empty(t, out, c.args)
		require.Contains(t, errs, c.want, c.args)
	}
	for _, n := range []string{"3", "10", "1"} {
		code, out, errs := gamectl(t, "solve", "--game", "leduc", "--players", n)
		require.Equal(t, 2, code, n)
		require.Empty(t, out, n)
		require.Contains(t, errs, "--players "+n+": solve takes two-player games only (leduc takes 2 to 10 players elsewhere: sim, play)")
	}
	pig := mustGame(t, "pig")
	old := lookupGame
	defer func() { lookupGame = old }()
	lookupGame = func(string) (game.Definition, error) { return threeSeats{pig}, nil }
	code, _, errs := gamectl(t, "solve", "--game", "pig3")
	require.Equal(t, 2, code)
	require.Contains(t, errs, "solve takes two-player games: pig takes 3 to 6 seats")
	code, out, _ := gamectl(t, "help", "solve")
	require.Equal(t, 0, code)
	require.Contains(t, out, "usage: gamectl solve --game NAME")
}
