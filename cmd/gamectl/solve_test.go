package main

import (
	"math"
	"regexp"
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/game"
)

// "solve --game kuhn" prints Kuhn poker's value for seat 0 near -1/18
// (Kuhn 1950), a small exploitability and the twelve information sets.
func TestSolveKuhn(t *testing.T) {
	code, out, errs := gamectl(t, "solve", "--game", "kuhn", "--iterations", "20000")
	require.Equal(t, 0, code, errs)
	require.Empty(t, errs)
	m := regexp.MustCompile(`value seat 0: ([-+.0-9]+)`).FindStringSubmatch(out)
	require.NotNil(t, m, out)
	v, err := strconv.ParseFloat(m[1], 64)
	require.NoError(t, err)
	require.Less(t, math.Abs(v+1.0/18), 0.005, out)
	m = regexp.MustCompile(`exploitability: ([.0-9]+)`).FindStringSubmatch(out)
	require.NotNil(t, m, out)
	e, err := strconv.ParseFloat(m[1], 64)
	require.NoError(t, err)
	require.Less(t, e, 0.01)
	require.Contains(t, out, "kuhn: 2 seats, 6 deals")
	require.Regexp(t, `seat 1 "Kb" +pass 0\.000  bet 1\.000`, out)
	require.Regexp(t, `seat 1 "Jb" +pass 1\.000  bet 0\.000`, out)
	require.Len(t, regexp.MustCompile(`(?m)^  seat [01] "`).FindAllString(out, -1), 12)
}

// threeSeats is Pig that takes 3 to 6 seats.
type threeSeats struct{ game.Definition }

func (threeSeats) Seats() game.Seats { return game.Seats{Min: 3, Max: 6, Default: 3} }

func TestSolveRefusals(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--game", "dungeon"}, "cannot solve exactly: dungeon's setup has more than 1000000 outcomes"},
		{[]string{"--game", "pig", "--iterations", "10"}, "cannot solve exactly: pig has a line of more than 1000 moves"},
		{[]string{"--game", "kuhn", "--iterations", "0"}, "--iterations must be 1 to"},
		{[]string{"--game", "chess"}, `unknown game "chess"`},
	} {
		code, out, errs := gamectl(t, append([]string{"solve"}, c.args...)...)
		require.Equalf(t, 2, code, "%v", c.args)
		require.Empty(t, out)
		require.Contains(t, errs, c.want)
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
