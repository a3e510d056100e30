package main

import (
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// "play --game leduc" prints a hand's public log, which never holds a
// private Dealt event, and its result with zero-sum payoffs; "sim --game
// leduc" plays it with the random bot, the styles and the search bot.
func TestPlayAndSimLeduc(t *testing.T) {
	for _, seed := range []string{"a", "b", "c", "d"} {
		code, out, errs := gamectl(t, "play", "--game", "leduc", "--seed", "leduc-"+seed, "--bots", "random,raiser")
		require.Equal(t, 0, code, errs)
		require.NotContains(t, out, "Dealt")
		m := regexp.MustCompile(`payoffs (-?\d+), (-?\d+)\n`).FindStringSubmatch(out)
		require.NotNil(t, m, out)
		p0, _ := strconv.Atoi(m[1])
		p1, _ := strconv.Atoi(m[2])
		require.Equal(t, 0, p0+p1, out)
		require.LessOrEqual(t, p0*p0, 13*13, out)
		if strings.Contains(out, "Showdown") {
			require.Contains(t, out, "PublicCard")
		}
	}
	code, out, errs := gamectl(t, "sim", "--game", "leduc", "--games", "200", "--seed", "s", "--bot", "mcts:20,caller")
	require.Equal(t, 0, code, errs)
	require.Contains(t, out, `leduc: 200 games, seed "s" (game i: s#i), 2 seats, ruleset {}, bots mcts:20,caller`)
}
