package match_test

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/match"
	"github.com/fairboard/fairboard/rng"
)

// Play plays a whole game; a seeded one with seed "S#i" is game i of the
// simulation with seed S (its bots draw from "S#i/bots"), and its moves
// replay to the same state.
func TestPlayIsTheSimulationsGame(t *testing.T) {
	var csv strings.Builder
	res, err := match.Simulate(context.Background(), match.SimConfig{Def: peek{}, Games: 6, Seed: "p", Seats: 2, Bots: []string{"random"}, Workers: 1, Players: &csv})
	require.NoError(t, err)
	require.Zero(t, res.Failed)
	rows := strings.Split(strings.TrimSpace(csv.String()), "\n")[1:]
	for i := range 6 {
		cfg := match.PlayConfig{Config: match.Config{Mode: rng.ModeSeeded, Seed: "p#" + string(rune('0'+i)), Seats: make([]game.Seat, 2)}, Bots: []string{"random"}}
		m, names, err := match.Play(peek{}, cfg)
		require.NoError(t, err)
		require.Equal(t, []string{"random", "random"}, names)
		require.True(t, m.Over())
		o := m.State().Outcome()
		for s := range 2 {
			won := "0"
			for _, w := range o.Winners {
				if w == s {
					won = "1"
				}
			}
			f := strings.Split(rows[2*i+s], ",")
			require.Equal(t, won, f[6], "game %d seat %d", i, s)
		}
		r, err := match.Replay(peek{}, cfg.Config, m.Moves(), m.Draws())
		require.NoError(t, err)
		require.Equal(t, match.StateBytes(m.State()), match.StateBytes(r.State()))
	}
	// Crypto: the bots draw from crypto/rand; the game still ends.
	m, _, err := match.Play(peek{}, match.PlayConfig{Config: match.Config{Mode: rng.ModeCrypto, Seats: make([]game.Seat, 2)}, Bots: []string{"random"}})
	require.NoError(t, err)
	require.True(t, m.Over())
}

func TestPlayRefusals(t *testing.T) {
	seats := make([]game.Seat, 2)
	for _, c := range []struct {
		cfg  match.PlayConfig
		want string
	}{
		{match.PlayConfig{Config: match.Config{Mode: rng.ModeSeeded, Seed: "s", Seats: seats}}, "a game needs at least one bot"},
		{match.PlayConfig{Config: match.Config{Mode: rng.ModeSeeded, Seed: "s", Seats: seats}, Bots: []string{"hold"}}, `unknown bot "hold"`},
		{match.PlayConfig{Config: match.Config{Mode: rng.ModeSeeded, Seats: seats}, Bots: []string{"random"}}, "a seeded match needs a seed"},
		{match.PlayConfig{Config: match.Config{Mode: rng.ModeSeeded, Seed: "s", Seats: seats}, Bots: []string{"random"}, BotSeed: "\xff"}, "UTF-8"},
		{match.PlayConfig{Config: match.Config{Mode: rng.ModeSeeded, Seed: "s", Seats: seats[:1]}, Bots: []string{"random"}}, "peek takes 2 seats"},
	} {
		m, _, err := match.Play(peek{}, c.cfg)
		require.ErrorContains(t, err, c.want)
		require.Nil(t, m)
	}
	_, _, err := match.Play(peek{}, match.PlayConfig{Config: match.Config{Mode: rng.ModeSeeded, Seed: "s", Seats: seats}, Bots: []string{"random"}, MaxMoves: 1})
	require.ErrorContains(t, err, "not over after 1 moves")
}
