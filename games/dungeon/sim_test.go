package dungeon_test

import (
	"context"
	"encoding/csv"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/games/dungeon"
	"github.com/fairboard/fairboard/match"
)

// The dungeon simulated through the machinery deals its classes over the
// seats (match.DealOptions), writes players.csv with a class column, and
// tallies wins by class exactly as players.csv, read back here, gives.
func TestSimulateDealsClasses(t *testing.T) {
	var out strings.Builder
	const games, seats = 16, 4
	res, err := match.Simulate(context.Background(), match.SimConfig{Def: dungeon.Def, Games: games, Seed: "classes", Seats: seats,
		Bots: []string{"cautious", "aggressive"}, Workers: 2, Players: &out})
	require.NoError(t, err)
	require.Zero(t, res.Failed, res.Failures)
	recs, err := csv.NewReader(strings.NewReader(out.String())).ReadAll()
	require.NoError(t, err)
	require.Equal(t, strings.Split("game,seed,seat,uid,class,bot,position,won,payoff", ","), recs[0])
	require.Len(t, recs, 1+games*seats)

	classes := dungeon.Def.Seats().Options[0].Values
	require.Len(t, res.Options, 1)
	require.Equal(t, "class", res.Options[0].Name)
	atSeat := map[string]map[string]int{} // seat -> class -> games
	wins, played := map[string]int64{}, map[string]int64{}
	for _, r := range recs[1:] {
		seat, class, won := r[2], r[4], r[7]
		if atSeat[seat] == nil {
			atSeat[seat] = map[string]int{}
		}
		atSeat[seat][class]++
		played[class]++
		if won == "1" {
			wins[class]++
		}
		require.Equal(t, won, r[8], "the dungeon's payoff is won")
	}
	for seat, byClass := range atSeat {
		require.Len(t, byClass, len(classes), "seat %s", seat)
		for c, n := range byClass {
			require.Equal(t, games/len(classes), n, "seat %s class %s", seat, c)
		}
	}
	for v, c := range classes {
		require.Equal(t, played[c], res.Options[0].Games[v], c)
		require.Equal(t, wins[c], res.Options[0].Wins[v], c)
	}
	var sum strings.Builder
	res.WriteSummary(&sum)
	require.Contains(t, sum.String(), "win rate by class (over the seats that played it; fair share 25.0%")
	for _, c := range classes {
		require.Regexp(t, "\n  "+c+" +[0-9. ]+% +95% \\[[0-9.]+, [0-9.]+\\]  \\("+strconv.FormatInt(wins[c], 10)+"/"+strconv.FormatInt(played[c], 10)+"\\)", sum.String())
	}
}
