package fsnames_test

import (
	"context"
	"encoding/json"
	"os"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/names/fsnames"
)

// TestIndexExemptions: every field the names store writes (users/{uid}
// and games/{id}/names/all) is exempt from Firestore's automatic indexes
// in firestore.indexes.json: nothing queries them, and index entries are
// billed. A field added and not exempted fails here.
func TestIndexExemptions(t *testing.T) {
	b, err := os.ReadFile("../../firestore.indexes.json")
	require.NoError(t, err)
	var f struct {
		FieldOverrides []struct {
			CollectionGroup string            `json:"collectionGroup"`
			FieldPath       string            `json:"fieldPath"`
			Indexes         []json.RawMessage `json:"indexes"`
		} `json:"fieldOverrides"`
	}
	require.NoError(t, json.Unmarshal(b, &f))
	exempt := map[string]bool{}
	for _, o := range f.FieldOverrides {
		if len(o.Indexes) == 0 {
			exempt[o.CollectionGroup+"."+o.FieldPath] = true
		}
	}

	emu.Require(t)
	emu.Reset(t)
	c := emu.Client(t)
	s := fsnames.New(c)
	ctx := context.Background()
	require.NoError(t, s.Seat(ctx, "g1", "alice", "Alice"))
	_, err = s.SetName(ctx, "alice", "Alicia")
	require.NoError(t, err)
	written := 0
	for coll, path := range map[string]string{"users": "users/alice", "names": "games/g1/names/all"} {
		snap, err := c.Doc(path).Get(ctx)
		require.NoError(t, err, path)
		for k := range snap.Data() {
			written++
			require.True(t, exempt[coll+"."+k], "%s.%s is written, never queried, and not exempt from indexing", coll, k)
		}
	}
	require.Greater(t, written, 1, "the store wrote its documents")
}
