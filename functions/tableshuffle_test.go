package functions_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/functest"
	"github.com/fairboard/fairboard/functions"
	"github.com/fairboard/fairboard/games/kuhn"
	"github.com/fairboard/fairboard/games/pig"
	"github.com/fairboard/fairboard/games/registry"
	"github.com/fairboard/fairboard/rng"
	"github.com/fairboard/fairboard/tablestore"
)

// getShuffle answers a finished table game (Kuhn poker, seeded and
// crypto): its deck's shuffle as its record has it, the commitment the
// log published at the start, for its players; not_finished before the
// end, NOT_FOUND for a stranger, an unknown deck refused by name
// (functest.CheckTableShuffles). A finished Pig table shuffled no deck:
// none, and any deck id is unknown.
func TestTableGetShuffle(t *testing.T) {
	c := newTableServer(t, true, tablestore.NewMemory(registry.Lookup))
	ctx := context.Background()
	toks := []string{"dev:u0", "dev:u1"}
	for _, mode := range []rng.Mode{rng.ModeSeeded, rng.ModeCrypto} {
		g := "kuhn-shuffle-" + string(mode)
		more := map[string]any{}
		seed := "shuffle"
		if mode == rng.ModeCrypto {
			more["mode"], seed = "crypto", ""
			more["seed"] = nil
		}
		require.NoError(t, functest.TableLobbyWith(ctx, c, kuhn.Def, g, seed, toks, more))
		err := c.Call(ctx, "getShuffle", toks[0], map[string]any{"gameId": g}, nil)
		require.Equal(t, "FAILED_PRECONDITION", functest.Status(err), "before the end: %v", err)
		require.Contains(t, err.Error(), "not over")
		v, err := functest.TableView(ctx, c, g, toks[1])
		require.NoError(t, err)
		published, err := functest.PublishedDecks(v.Log)
		require.NoError(t, err)
		require.Len(t, published, 1, "the deal's commitment, from the start")
		bots, err := rng.NewSeeded("shuffle/bots")
		require.NoError(t, err)
		_, _, err = functest.PlayTable(ctx, c, kuhn.Def, g, toks, bots, 20)
		require.NoError(t, err)
		require.NoError(t, functest.CheckTableShuffles(ctx, c, kuhn.Def, g, toks, "dev:stranger", published))
	}

	g := "pig-shuffle"
	require.NoError(t, functest.TableLobby(ctx, c, pig.Def, g, "pig-shuffle", toks))
	bots, err := rng.NewSeeded("pig-shuffle/bots")
	require.NoError(t, err)
	_, _, err = functest.PlayTable(ctx, c, pig.Def, g, toks, bots, 2000)
	require.NoError(t, err)
	var s functions.TableShuffles
	require.NoError(t, c.Call(ctx, "getShuffle", toks[0], map[string]any{"gameId": g}, &s))
	require.Empty(t, s.Shuffles)
	require.Empty(t, s.SaltKeyHex)
	err = c.Call(ctx, "getShuffle", toks[0], map[string]any{"gameId": g, "deckId": "kuhn"}, nil)
	require.Equal(t, "INVALID_ARGUMENT", functest.Status(err), "%v", err)
}
