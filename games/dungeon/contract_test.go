package dungeon_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/games/dungeon"
	"github.com/fairboard/fairboard/match"
)

// The contract suite over the dungeon: a game per seat count (2, 4, 6),
// seeded and crypto, with the first 150 states of each checked in full.
func TestContract(t *testing.T) {
	start := time.Now()
	require.NoError(t, game.ValidateDefinition(dungeon.Def))
	require.NoError(t, match.CheckContract(dungeon.Def, match.ContractOptions{Games: 1, MaxStates: 150}))
	t.Logf("contract: %v", time.Since(start))
}
