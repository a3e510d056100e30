package integration

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/functest"
	"github.com/fairboard/fairboard/games/registry"
	"github.com/fairboard/fairboard/match"
	"github.com/fairboard/fairboard/rng"
	"github.com/fairboard/fairboard/table"
)

// A crypto Kuhn poker table on Firestore publishes its deck's
// commitment in the public log document of the start, the one a page
// follows by listeners, and getView's log holds the same; nothing a seat
// can read there before the end (games/{id}, its log, the seat
// documents) holds the salt key or the salt, while the private table,
// the server's alone, holds the key (the positive control of the
// scan). At the end getShuffle and the record reveal them and open the
// published commitment (functest.CheckTableShuffles).
func TestTableShufflesOnFirestore(t *testing.T) {
	kuhnDef, err := registry.Lookup("kuhn")
	require.NoError(t, err)
	c := newTableEnv(t)
	fc := emu.Client(t)
	ctx := context.Background()
	toks := []string{token(t, "deck-a"), token(t, "deck-b")}
	g := runID("fs-kuhn-deck")
	require.NoError(t, functest.TableLobbyWith(ctx, c, kuhnDef, g, "", toks, map[string]any{"mode": "crypto", "seed": nil}))

	readable := func() string { // every document a seat reads, as text
		var b strings.Builder
		doc, err := fc.Doc("games/" + g).Get(ctx)
		require.NoError(t, err)
		fmt.Fprintf(&b, "%v\n", doc.Data())
		for _, coll := range []string{"log", "seats"} {
			docs, err := fc.Collection("games/" + g + "/" + coll).Documents(ctx).GetAll()
			require.NoError(t, err)
			for _, d := range docs {
				fmt.Fprintf(&b, "%v\n", d.Data())
			}
		}
		return b.String()
	}
	var published []string
	logs, err := fc.Collection("games/" + g + "/log").Documents(ctx).GetAll()
	require.NoError(t, err)
	for _, d := range logs {
		for _, x := range d.Data()["events"].([]any) {
			e := x.(map[string]any)
			if e["type"] == table.TypeDeckCommitted {
				opts := e["options"].([]any)
				require.Equal(t, []any{"kuhn", "kuhn.deal"}, opts[:2])
				published = append(published, opts[2].(string))
			}
		}
	}
	require.Len(t, published, 1, "the start's log document holds the commitment")
	v, err := functest.TableView(ctx, c, g, toks[0])
	require.NoError(t, err)
	fromView, err := functest.PublishedDecks(v.Log)
	require.NoError(t, err)
	require.Equal(t, published, fromView)
	before := readable()
	priv, err := fc.Doc("games/" + g + "/private/table").Get(ctx)
	require.NoError(t, err)
	private, err := json.Marshal(priv.Data())
	require.NoError(t, err)

	bots, err := rng.NewSeeded("fs-kuhn-deck/bots")
	require.NoError(t, err)
	_, _, err = functest.PlayTable(ctx, c, kuhnDef, g, toks, bots, 20)
	require.NoError(t, err)
	require.NoError(t, functest.CheckTableShuffles(ctx, c, kuhnDef, g, toks, token(t, "deck-stranger"), published))

	var raw json.RawMessage
	require.NoError(t, c.Call(ctx, "exportGame", toks[0], map[string]any{"gameId": g}, &raw))
	rec, err := match.ReadRecord(raw)
	require.NoError(t, err)
	require.NotContains(t, before, rec.Decks.SaltKeyHex)
	require.NotContains(t, before, rec.Decks.Shuffles[0].SaltHex)
	require.Contains(t, string(private), rec.Decks.SaltKeyHex, "the scan finds the key where it is kept")
}
