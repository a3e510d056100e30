package match

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/game"
)

// A sweep point of a game scored by payoff shows each position's mean
// payoff with its interval and edge, worked by hand: position 1 won 2 of
// 4 games with payoffs +2, +2, -1, -1 (sum 2, squares 10), position 2 the
// opposite (sum -2, squares 10). Means +0.5 and -0.5; the fair payoff is
// (2 - 2) / 4 / 2 = 0; each sample variance (10 - 4 * 0.25) / 3 = 3, so
// each half-width is 1.96 * sqrt(3 / 4) = 1.6974. A point scored by win
// alone shows no payoff line (the control).
func TestSweepTablePayoff(t *testing.T) {
	res := &SimResult{Def: "poker", Seed: "s", Seats: 2, Bots: []string{"random"}, Requested: 4, Games: 4,
		Wins: []int64{2, 2}, Payoff: []float64{2, -2}, Payoff2: []float64{10, 10}, ByPayoff: true}
	sw := &SweepResult{Def: "poker", Param: game.Param{Path: "ante", Min: 1, Max: 3}, Base: 1,
		Points: []SweepPoint{{Value: 1, Result: res}}}
	var b bytes.Buffer
	sw.WriteTable(&b)
	require.Contains(t, b.String(), "      position 1  mean payoff +0.5000  95% [-1.1974, +2.1974]  edge +0.5000 (fair +0.0000)\n")
	require.Contains(t, b.String(), "      position 2  mean payoff -0.5000  95% [-2.1974, +1.1974]  edge -0.5000 (fair +0.0000)\n")
	require.Contains(t, b.String(), "      position 1   50.0%", "the win rates are still shown")

	won := *res
	won.ByPayoff, won.Payoff, won.Payoff2 = false, []float64{2, 2}, []float64{2, 2}
	sw.Points[0].Result = &won
	b.Reset()
	sw.WriteTable(&b)
	require.NotContains(t, b.String(), "mean payoff")
}
