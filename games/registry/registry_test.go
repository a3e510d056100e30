package registry_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/games/registry"
	"github.com/fairboard/fairboard/match"
	"github.com/fairboard/fairboard/match/matchtest"
)

// The contract suite over every registered game.
func TestContract(t *testing.T) {
	for _, def := range registry.All() {
		t.Run(def.Name(), func(t *testing.T) {
			require.NoError(t, game.ValidateDefinition(def))
			require.NoError(t, match.CheckContract(def, match.ContractOptions{}))
		})
	}
}

// The positive controls over every registered game: a legal list that
// omits a move, or adds one the game refuses, is caught.
func TestContractCatchesBrokenLegal(t *testing.T) {
	for _, def := range registry.All() {
		t.Run(def.Name(), func(t *testing.T) {
			require.ErrorContains(t, match.CheckContract(matchtest.Omit(def), match.ContractOptions{Games: 1}), "which Legal does not list")
			require.ErrorContains(t, match.CheckContract(matchtest.Add(def), match.ContractOptions{Games: 1}), "Legal lists")
		})
	}
}

func TestLookup(t *testing.T) {
	require.Equal(t, []string{"pig"}, registry.Names())
	def, err := registry.Lookup("pig")
	require.NoError(t, err)
	require.Equal(t, "pig", def.Name())
	_, err = registry.Lookup("dungeon")
	require.ErrorIs(t, err, registry.ErrNotOnDefinition)
	_, err = registry.Lookup("chess")
	require.ErrorIs(t, err, registry.ErrUnknown)
	require.ErrorContains(t, err, `unknown game "chess" (known: pig, dungeon)`)
	seen := map[string]bool{}
	for _, d := range registry.All() {
		require.False(t, seen[d.Name()], d.Name())
		seen[d.Name()] = true
	}
}
