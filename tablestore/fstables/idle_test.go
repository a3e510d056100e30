package fstables_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/games/pig"
	"github.com/fairboard/fairboard/tablestore/storetest"
)

// The idle query on the emulator (storetest.CheckIdle), and the field it
// reads: tableActedAt on the public document, the create's time while in
// the lobby and gone once the table is finished.
func TestFirestoreIdle(t *testing.T) {
	s := newStore(t)
	storetest.CheckIdle(t, s, pig.Def, "fs-idle")
	ctx := context.Background()
	c := emu.Client(t)
	doc, err := c.Doc("games/fs-idle-lob").Get(ctx)
	require.NoError(t, err)
	require.Equal(t, int64(1000), doc.Data()["tableActedAt"])
	doc, err = c.Doc("games/fs-idle-play").Get(ctx)
	require.NoError(t, err)
	_, ok := doc.Data()["tableActedAt"]
	require.False(t, ok, "tableActedAt left on a finished table")
}

// The idle query's index: tableActedAt keeps its automatic index (no
// exemption) and firestore.indexes.json has the composite index of its
// query (phase ==, then tableActedAt <=, ordered by it), which Firestore
// requires and the emulator does not check.
func TestIdleQueryIsIndexed(t *testing.T) {
	b, err := os.ReadFile("../../firestore.indexes.json")
	require.NoError(t, err)
	var f struct {
		Indexes []struct {
			CollectionGroup string `json:"collectionGroup"`
			QueryScope      string `json:"queryScope"`
			Fields          []struct {
				FieldPath string `json:"fieldPath"`
				Order     string `json:"order"`
			} `json:"fields"`
		} `json:"indexes"`
		FieldOverrides []struct {
			CollectionGroup string `json:"collectionGroup"`
			FieldPath       string `json:"fieldPath"`
		} `json:"fieldOverrides"`
	}
	require.NoError(t, json.NewDecoder(bytes.NewReader(b)).Decode(&f))
	for _, o := range f.FieldOverrides {
		require.False(t, o.CollectionGroup == "games" && (o.FieldPath == "tableActedAt" || o.FieldPath == "phase"),
			"games.%s is queried by the idle sweep and must keep its index", o.FieldPath)
	}
	found := false
	for _, ix := range f.Indexes {
		if ix.CollectionGroup != "games" || ix.QueryScope != "COLLECTION" || len(ix.Fields) != 2 {
			continue
		}
		found = found || ix.Fields[0].FieldPath == "phase" && ix.Fields[0].Order == "ASCENDING" &&
			ix.Fields[1].FieldPath == "tableActedAt" && ix.Fields[1].Order == "ASCENDING"
	}
	require.True(t, found, "firestore.indexes.json lacks the idle query's index (games: phase, tableActedAt)")
}
