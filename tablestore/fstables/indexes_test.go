package fstables_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/games/registry"
	"github.com/fairboard/fairboard/rng"
	"github.com/fairboard/fairboard/tablestore/storetest"
)

// TestIndexExemptionsEveryGame: a table of every registered game, played
// to its end on the emulator, writes no field that nothing queries
// without its exemption from Firestore's automatic indexes in
// firestore.indexes.json: every top-level field of its private table,
// log and seat documents, and every map, array or long string of its game document
// (playerUids keeps its index: clients query it with array-contains).
// store/fsstore's TestIndexExemptions does the same for the dungeon's own
// documents.
func TestIndexExemptionsEveryGame(t *testing.T) {
	b, err := os.ReadFile("../../firestore.indexes.json")
	require.NoError(t, err)
	var f struct {
		FieldOverrides []struct {
			CollectionGroup string            `json:"collectionGroup"`
			FieldPath       string            `json:"fieldPath"`
			Indexes         []json.RawMessage `json:"indexes"`
		} `json:"fieldOverrides"`
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	require.NoError(t, dec.Decode(&f))
	exempt := map[string]bool{}
	for _, o := range f.FieldOverrides {
		require.Empty(t, o.Indexes, "%s.%s keeps indexes", o.CollectionGroup, o.FieldPath)
		exempt[o.CollectionGroup+"."+o.FieldPath] = true
	}
	require.LessOrEqual(t, len(f.FieldOverrides), 200, "Firestore allows 200 single-field exemptions")
	require.False(t, exempt["games.playerUids"], "games.playerUids is queried by clients and keeps its index")

	s := newStore(t)
	c := emu.Client(t)
	ctx := context.Background()
	seatDocs := 0
	for _, def := range registry.All() {
		g := "idx-" + def.Name()
		storetest.Lobby(t, s, def, g, "idx", def.Seats().Default) // seats without options: a game's defaults
		if len(def.Seats().Options) == 0 {
			// To the end; the dungeon's lobby and start write the same
			// documents, and a whole dungeon game replayed per action on
			// the emulator is long.
			bots, _ := rng.NewSeeded("idx/bots")
			storetest.PlayOut(t, s, def, g, bots, 100000)
		}
		for _, coll := range []string{"private", "log"} {
			snaps, err := c.Collection("games/" + g + "/" + coll).Documents(ctx).GetAll()
			require.NoError(t, err)
			require.NotEmpty(t, snaps, "%s wrote no %s document", def.Name(), coll)
			for _, sn := range snaps {
				for k := range sn.Data() {
					require.True(t, exempt[coll+"."+k], "%s: %s.%s is written, never queried, and not exempt from indexing", def.Name(), coll, k)
				}
			}
		}
		// The seat documents of a game with private parts or addressed
		// events (none for Pig): every field exempt, uid included (the
		// rules read it; no query does).
		snaps, err := c.Collection("games/" + g + "/seats").Documents(ctx).GetAll()
		require.NoError(t, err)
		seatDocs += len(snaps)
		for _, sn := range snaps {
			for k := range sn.Data() {
				require.True(t, exempt["seats."+k], "%s: seats.%s is written, never queried, and not exempt from indexing", def.Name(), k)
			}
		}
		doc, err := c.Doc("games/" + g).Get(ctx)
		require.NoError(t, err)
		for k, v := range doc.Data() {
			big := false
			switch x := v.(type) {
			case []any, map[string]any:
				big = true
			case string:
				big = len(x) > 200
			}
			if big && k != "playerUids" {
				require.True(t, exempt["games."+k], "%s: games.%s (a map, an array or a long string) is not exempt from indexing", def.Name(), k)
			}
		}
	}
	require.NotZero(t, seatDocs, "no registered game wrote a seat document (Kuhn poker does)")
}
