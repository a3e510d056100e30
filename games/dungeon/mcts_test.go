package dungeon_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/games/dungeon"
	"github.com/fairboard/fairboard/match"
	"github.com/fairboard/fairboard/rng"
)

// The machinery's search bot plays the dungeon, a game with a secret part
// that its sampler deals again, to the end, and the same seeds give the
// same game.
func TestMatchMCTSPlaysTheDungeon(t *testing.T) {
	play := func() string {
		start := time.Now()
		m, names, err := match.Play(dungeon.Def, match.PlayConfig{Config: match.Config{Mode: rng.ModeSeeded, Seed: "dungeon-mcts",
			Seats: make([]game.Seat, 2)}, Bots: []string{"mcts:4", "cautious"}})
		require.NoError(t, err)
		require.True(t, m.Over())
		require.Equal(t, []string{"mcts:4", "cautious"}, names)
		t.Logf("%d moves, %v", len(m.Moves()), time.Since(start))
		return string(m.LogJSON())
	}
	require.Equal(t, play(), play())
}
