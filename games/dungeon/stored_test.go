package dungeon_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/games/dungeon"
	"github.com/fairboard/fairboard/games/dungeon/server/page"
)

// TestStoredGamesAreThePages: the definition hands the page its board and
// a follower of the game asked for (page.Game), which refuses another
// game's document; "" follows nothing.
func TestStoredGamesAreThePages(t *testing.T) {
	s, ok := dungeon.Def.(game.StoredGames)
	require.True(t, ok)
	require.Equal(t, page.Board(), s.StoredBoard())
	require.ErrorContains(t, s.FollowStored("g").State([]byte(`{"gameId":"h"}`)), `the server sent game "h" for game "g"`)
	require.EqualError(t, s.FollowStored("").State([]byte(`{"gameId":"h"}`)), "no game followed (reset first)")
}
