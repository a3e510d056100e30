package functions_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/functest"
	"github.com/fairboard/fairboard/functions"
	"github.com/fairboard/fairboard/games/registry"
	"github.com/fairboard/fairboard/rng"
	"github.com/fairboard/fairboard/tablestore"
)

// getShuffle lists every shuffle of a finished Crazy Eights table, the
// deal and each reshuffle of the discards (k 0, 1, 2, ...), as its
// record has them, each with the commitment the log published when it
// was shuffled (functest.CheckTableShuffles); a seeded four-seat table
// of a small deck (3 cards left to draw), the first of its seeds whose
// game reshuffles twice.
func TestTableGetShuffleReshuffles(t *testing.T) {
	c := newTableServer(t, true, tablestore.NewMemory(registry.Lookup))
	eights, err := registry.Lookup("eights") // through the registry: no machinery test imports a game
	require.NoError(t, err)
	ctx := context.Background()
	toks := []string{"dev:u0", "dev:u1", "dev:u2", "dev:u3"}
	more := map[string]any{"rules": map[string]any{"ranks": 8, "suits": 3, "hand": 5, "maxMoves": 500}}
	for g := 0; ; g++ {
		require.Less(t, g, 200, "no seeded game of 200 reshuffled twice")
		id := fmt.Sprintf("eights-shuffle-%d", g)
		require.NoError(t, functest.TableLobbyWith(ctx, c, eights, id, id, toks, more))
		bots, err := rng.NewSeeded(id + "/bots")
		require.NoError(t, err)
		_, v, err := functest.PlayTable(ctx, c, eights, id, toks, bots, 600)
		require.NoError(t, err)
		require.Equal(t, "finished", v.Phase)
		published, err := functest.PublishedDecks(v.Log)
		require.NoError(t, err)
		if len(published) < 3 {
			continue
		}
		require.NoError(t, functest.CheckTableShuffles(ctx, c, eights, id, toks, "dev:stranger", published))
		var s functions.TableShuffles
		require.NoError(t, c.Call(ctx, "getShuffle", toks[1], map[string]any{"gameId": id}, &s))
		require.Len(t, s.Shuffles, len(published))
		for k, sh := range s.Shuffles {
			require.Equal(t, k, sh.K)
			require.Equal(t, "eights", sh.DeckID, "Crazy Eights' one deck")
			require.Equal(t, map[bool]string{true: "eights.deal", false: "deck.reshuffle.eights"}[k == 0], string(sh.Tag))
		}
		require.Len(t, s.Shuffles[0].Order, 24)
		t.Logf("game %d: %d shuffles", g, len(s.Shuffles))
		return
	}
}
