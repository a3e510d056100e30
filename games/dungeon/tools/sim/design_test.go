package sim

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/games/dungeon/engine"
)

// The design's promise, counted over the games it assigns (not derived from
// its formula): in every block of C·L games each seat plays each class with
// each bot exactly once, for every player count the default ruleset allows
// and for bot lists of one, two and three entries.
func TestDesignBalancesEveryBlock(t *testing.T) {
	for _, players := range []int{2, 3, 4, 5, 6} {
		for _, bots := range [][]string{{"cautious"}, {"cautious", "aggressive"}, {"aggressive", "cautious", "cautious"}} {
			cfg := testConfig(1, 1)
			cfg.Players, cfg.Bots = players, bots
			block := cfg.Block()
			require.EqualValues(t, 4*len(bots), block)
			for start := int64(0); start < 5*block; start += block {
				count := map[string]int{}
				for i := start; i < start+block; i++ {
					seats, names := cfg.seating(i, nil, nil, nil)
					require.Len(t, seats, players)
					for j := range seats {
						// Entries of the list are the levels: a repeated
						// name is a second level of the same policy.
						count[fmt.Sprintf("%d/%s/%s", j, seats[j].Class, names[j])]++
					}
				}
				for j := 0; j < players; j++ {
					for _, cl := range engine.Classes {
						for _, b := range distinctNames(bots) {
							want := 0
							for _, x := range bots {
								if x == b {
									want++
								}
							}
							require.Equalf(t, want, count[fmt.Sprintf("%d/%s/%s", j, cl, b)],
								"%d players, bots %v, block at %d: seat %d, %s, %s", players, bots, start, j, cl, b)
						}
					}
				}
			}
		}
	}
}

func distinctNames(xs []string) []string {
	var out []string
	for _, x := range xs {
		if !strings.Contains(","+strings.Join(out, ",")+",", ","+x+",") {
			out = append(out, x)
		}
	}
	return out
}

// With 4 players and two bots, the old design dealt class (i+j)%4 and bot
// (i+j)%2 to seat j: warrior and duelist always cautious. Now, over
// C·L^(P+1) = 4·2^5 = 128 games every one of the 2^4 = 16 combinations of
// the seats' bots occurs with every class rotation (4 of them), twice: no
// class is always seated beside the same opponents' policies.
func TestDesignCrossesEveryBotCombination(t *testing.T) {
	cfg := testConfig(1, 1)
	seen := map[string]int{}
	for i := int64(0); i < 128; i++ {
		seats, names := cfg.seating(i, nil, nil, nil)
		seen[string(seats[0].Class)+":"+strings.Join(names, ",")]++
	}
	require.Len(t, seen, 4*16)
	for k, n := range seen {
		require.Equalf(t, 2, n, "%s", k)
	}
	// Within a game with mixed classes and 4 players, no class repeats.
	for i := int64(0); i < 16; i++ {
		seats, _ := cfg.seating(i, nil, nil, nil)
		got := map[engine.Class]bool{}
		for _, s := range seats {
			got[s.Class] = true
		}
		require.Len(t, got, 4, "game %d", i)
	}
}

func TestDesignWithFixedClasses(t *testing.T) {
	cfg := testConfig(100, 1)
	cfg.Classes = []engine.Class{"scout", "scout", "monk", "warrior"}
	require.EqualValues(t, 2, cfg.Block())
	for i := int64(0); i < 16; i += 2 {
		seats, names := cfg.seating(i, nil, nil, nil)
		for j, s := range seats {
			require.Equal(t, cfg.Classes[j], s.Class)
		}
		// each block of two games gives each seat both policies
		_, next := cfg.seating(i+1, nil, nil, nil)
		for j := range names {
			require.NotEqual(t, names[j], next[j], "seat %d, games %d and %d", j, i, i+1)
		}
	}
}

// The options that force two factors together are said; the defaults force
// none.
func TestAliases(t *testing.T) {
	require.Empty(t, testConfig(1000, 1).Aliases())

	fixed := testConfig(1000, 1)
	fixed.Classes = []engine.Class{"warrior", "monk", "duelist", "scout"}
	a := fixed.Aliases()
	require.Len(t, a, 1)
	require.Contains(t, a[0], "class and seat are aliased")

	same := testConfig(1000, 1)
	same.Classes = []engine.Class{"scout", "scout", "scout", "scout"}
	require.Empty(t, same.Aliases(), "one class everywhere: no class effect, nothing aliased")

	short := testConfig(5, 1)
	a = short.Aliases()
	require.Len(t, a, 1)
	require.Contains(t, a[0], "fewer than one balanced block (8 games)")

	require.Contains(t, testConfig(8, 1).DescribeDesign(), "every 8 consecutive games")
	one := testConfig(8, 1)
	one.Bots = []string{"aggressive"}
	require.Contains(t, one.DescribeDesign(), "no bot effect is measured")
}

// The run's report and results carry the design and the aliasing.
func TestResultsStateTheDesign(t *testing.T) {
	cfg := testConfig(40, 2)
	cfg.Classes = []engine.Class{"warrior", "monk", "duelist", "scout"}
	r := run(t, cfg)
	require.Equal(t, DesignName, r.Config.Design)
	require.Equal(t, cfg.DescribeDesign(), r.Config.DesignText)
	require.Equal(t, cfg.Aliases(), r.Config.Aliases)
	page := string(r.reportHTML())
	require.Contains(t, page, "<h2>Design</h2>")
	require.Contains(t, page, `<p class="warn alias">--classes fixes the class of each seat`)
}
