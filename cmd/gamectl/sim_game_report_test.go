package main

import (
	"fmt"
	"math"
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/match"
)

// `gamectl sim --game NAME --out DIR` writes report.html beside
// players.csv: its tables are the rates and mean payoffs computed here
// from players.csv itself (Wilson's interval and the normal interval of
// a mean written out in the test), for Kuhn, a game scored by payoff; a
// seed that needs escaping is text.
func TestGameSimReport(t *testing.T) {
	dir := t.TempDir()
	out := gamectlOK(t, "sim", "--game", "kuhn", "--games", "400", "--seed", hostileSeed, "--out", dir)
	require.Contains(t, out, "players.csv, summary.txt and report.html")
	header, rows := csvRows(t, dir, "players.csv")
	col := map[string]int{}
	for i, h := range header {
		col[h] = i
	}
	var wins, games [2]int64
	var sum, sum2 [2]float64
	for _, r := range rows {
		p, err := strconv.Atoi(r[col["position"]])
		require.NoError(t, err)
		x, err := strconv.ParseFloat(r[col["payoff"]], 64)
		require.NoError(t, err)
		games[p-1]++
		if r[col["won"]] == "1" {
			wins[p-1]++
		}
		sum[p-1] += x
		sum2[p-1] += x * x
	}
	require.Equal(t, games[0], games[1])
	n := float64(games[0])
	pg := readOut(t, dir, "report.html")
	require.Empty(t, offlineProblems(pg, hostileSeed))
	p := parsePage(t, pg, hostileSeed)
	require.Len(t, p.tables, 3, "the run, the rates, the payoffs")
	fair := (sum[0] + sum[1]) / n / 2
	for pos := range 2 {
		k := float64(wins[pos])
		const z = 1.959963984540054 // Wilson's, as the summary computes it
		centre := (k + z*z/2) / (n + z*z)
		half := z * math.Sqrt(k*(n-k)/n+z*z/4) / (n + z*z)
		require.Equal(t, []string{"position " + strconv.Itoa(pos+1), strconv.FormatInt(games[pos], 10), strconv.FormatInt(wins[pos], 10),
			fmt.Sprintf("%.1f%%", 100*k/n), fmt.Sprintf("[%.1f, %.1f]", 100*(centre-half), 100*(centre+half)),
			fmt.Sprintf("%+.1f", 100*(k/n-0.5))}, p.tables[1][pos+1][:6])
		mean := sum[pos] / n
		sd := math.Sqrt((sum2[pos] - n*mean*mean) / (n - 1))
		h := 1.96 * sd / math.Sqrt(n) // the documented normal approximation: mean ± 1.96 standard errors
		require.Equal(t, []string{strconv.Itoa(pos + 1), fmt.Sprintf("%.4f", mean), fmt.Sprintf("[%.4f, %.4f]", mean-h, mean+h),
			fmt.Sprintf("%+.4f", mean-fair)}, p.tables[2][pos+1])
	}
}

// The simulation's page escapes what it shows, as the other pages do.
func TestGameSimReportEscapes(t *testing.T) {
	const game, bot, rules = `<pig>`, `<i>bot</i>`, `{"x":"</td><script>y</script>"}`
	r := &match.SimResult{Def: game, Rules: rules, Requested: 4, Games: 4, Seed: hostileSeed, Seats: 2, Bots: []string{bot},
		Wins: []int64{3, 1}, Payoff: []float64{3, 1}, Payoff2: []float64{3, 1}}
	pg := simHTML(r)
	require.Empty(t, offlineProblems(pg, game, bot, rules, hostileSeed))
	p := parsePage(t, pg, hostileSeed)
	for _, want := range []string{game, bot, rules} {
		require.Contains(t, p.text, want)
	}
}
