package pig_test

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/games/pig"
	"github.com/fairboard/fairboard/match"
	"github.com/fairboard/fairboard/rng"
)

// Pig's simulation gives the same players.csv on one worker and on three,
// with the common columns and position 1 for seat 0 (Pig's first mover).
func TestSimulation(t *testing.T) {
	var outs []string
	for _, w := range []int{1, 3} {
		var b bytes.Buffer
		res, err := match.Simulate(context.Background(), match.SimConfig{Def: pig.Def, Games: 500, Seed: "pig-sim", Seats: 3,
			Bots: []string{"random", "hold:20", "hold:5"}, Workers: w, Players: &b})
		require.NoError(t, err)
		require.EqualValues(t, 500, res.Games)
		require.EqualValues(t, 500, res.Wins[0]+res.Wins[1]+res.Wins[2])
		outs = append(outs, b.String())
	}
	require.Equal(t, outs[0], outs[1])
	lines := strings.Split(outs[0], "\n")
	require.Equal(t, "game,seed,seat,uid,bot,position,won,payoff", lines[0])
	require.Regexp(t, `^0,pig-sim#0,0,p1,random,1,[01],[01]$`, lines[1])
	require.Regexp(t, `^0,pig-sim#0,1,p2,hold:20,2,[01],[01]$`, lines[2])
	require.Regexp(t, `^0,pig-sim#0,2,p3,hold:5,3,[01],[01]$`, lines[3])
}

// Game i of a simulation is the match of seed "SEED#i" with its bots'
// stream on "SEED#i/bots": played again by hand, it gives the same winner.
func TestSimulationGameReplays(t *testing.T) {
	var b bytes.Buffer
	_, err := match.Simulate(context.Background(), match.SimConfig{Def: pig.Def, Games: 3, Seed: "again", Seats: 2,
		Bots: []string{"random"}, Workers: 1, Players: &b})
	require.NoError(t, err)
	m, err := match.New(pig.Def, match.Config{Mode: rng.ModeSeeded, Seed: "again#2", Seats: make([]game.Seat, 2)})
	require.NoError(t, err)
	bs, _ := rng.NewSeeded("again#2/bots")
	bot := match.NewRandom(bs)
	for !m.Over() {
		seat := m.State().ToMove()
		_, err := m.Apply(bot.Choose(m.State(), seat, m.State().Legal(seat, nil)))
		require.NoError(t, err)
	}
	w := m.State().Outcome().Winners[0]
	require.Contains(t, b.String(), "2,again#2,"+string(rune('0'+w))+",p"+string(rune('1'+w))+",random,"+string(rune('1'+w))+",1,1\n")
}

func TestBotNames(t *testing.T) {
	require.Equal(t, []string{"random", "mcts:N", "hold:N"}, match.BotNames(pig.Def))
	for _, ok := range []string{"random", "hold", "hold:1", "hold:20", "hold:10000"} {
		require.NoError(t, match.CheckBot(pig.Def, ok), ok)
	}
	for bad, want := range map[string]string{
		"hold:0":   "N must be a whole number in [1, 10000]",
		"hold:x":   "N must be a whole number",
		"cautious": `unknown bot "cautious" for pig (known: random, mcts:N, hold:N)`,
	} {
		require.ErrorContains(t, match.CheckBot(pig.Def, bad), want, bad)
	}
}
