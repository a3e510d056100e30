package registry_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/games/registry"
	"github.com/fairboard/fairboard/match"
	"github.com/fairboard/fairboard/match/matchtest"
)

// options are the contract suite's options per game: the default for a
// game whose states are cheap; the dungeon, whose games are hundreds of
// moves with a dozen candidates each, checks fewer states in full
// (games/dungeon's own test checks more).
func options(def game.Definition, games int) match.ContractOptions {
	if def.Name() == registry.Dungeon {
		return match.ContractOptions{Games: 1, MaxStates: 40}
	}
	return match.ContractOptions{Games: games}
}

// The contract suite over every registered game.
func TestContract(t *testing.T) {
	for _, def := range registry.All() {
		t.Run(def.Name(), func(t *testing.T) {
			require.NoError(t, game.ValidateDefinition(def))
			require.NoError(t, match.CheckContract(def, options(def, 0)))
		})
	}
}

// The positive controls over every registered game: a legal list that
// omits a move, or adds one the game refuses, is caught.
func TestContractCatchesBrokenLegal(t *testing.T) {
	for _, def := range registry.All() {
		t.Run(def.Name(), func(t *testing.T) {
			require.ErrorContains(t, match.CheckContract(matchtest.Omit(def), options(def, 1)), "which Legal does not list")
			require.ErrorContains(t, match.CheckContract(matchtest.Add(def), options(def, 1)), "Legal lists")
		})
	}
}

func TestLookup(t *testing.T) {
	require.Equal(t, []string{"pig", "dungeon", "kuhn", "leduc", "eights"}, registry.Names())
	for _, name := range []string{"pig", "dungeon", "kuhn", "leduc", "eights"} {
		def, err := registry.Lookup(name)
		require.NoError(t, err)
		require.Equal(t, name, def.Name())
	}
	require.Equal(t, "dungeon", registry.Dungeon)
	_, err := registry.Lookup("chess")
	require.ErrorIs(t, err, registry.ErrUnknown)
	require.ErrorContains(t, err, `unknown game "chess" (known: pig, dungeon, kuhn, leduc, eights)`)
	seen := map[string]bool{}
	for _, d := range registry.All() {
		require.False(t, seen[d.Name()], d.Name())
		seen[d.Name()] = true
	}
}
