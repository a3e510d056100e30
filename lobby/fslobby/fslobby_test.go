package fslobby_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/internal/emulator"
	"github.com/fairboard/fairboard/lobby"
	"github.com/fairboard/fairboard/lobby/fslobby"
	"github.com/fairboard/fairboard/lobby/lobbytest"
)

var emu = emulator.NewSuite(emulator.Config{Firestore: true})

func TestMain(m *testing.M) { os.Exit(emu.Run(m)) }

// The Firestore store passes the lobby.Store contract on the emulator
// (its query: where listed, ordered by createdAt descending, limited).
func TestFirestoreLobby(t *testing.T) {
	emu.Require(t)
	emu.Reset(t)
	lobbytest.Run(t, fslobby.New(emu.Client(t)))
}

// Every field of a listing is exempt from Firestore's automatic indexes
// but the three the queries use: listed and createdAt (in the composite
// index firestore.indexes.json declares for the lobby's list) and
// ownerUid (a rename's, with listed).
func TestIndexExemptionsLobby(t *testing.T) {
	emu.Require(t)
	emu.Reset(t)
	ctx := context.Background()
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
			CollectionGroup string            `json:"collectionGroup"`
			FieldPath       string            `json:"fieldPath"`
			Indexes         []json.RawMessage `json:"indexes"`
		} `json:"fieldOverrides"`
	}
	require.NoError(t, json.NewDecoder(bytes.NewReader(b)).Decode(&f))
	exempt := map[string]bool{}
	for _, o := range f.FieldOverrides {
		if o.CollectionGroup == fslobby.Coll {
			require.Empty(t, o.Indexes)
			exempt[o.FieldPath] = true
		}
	}
	found := false
	for _, ix := range f.Indexes {
		if ix.CollectionGroup == fslobby.Coll && ix.QueryScope == "COLLECTION" && len(ix.Fields) == 2 &&
			ix.Fields[0].FieldPath == fslobby.FieldListed && ix.Fields[0].Order == "ASCENDING" &&
			ix.Fields[1].FieldPath == fslobby.FieldCreated && ix.Fields[1].Order == "DESCENDING" {
			found = true
		}
	}
	require.True(t, found, "the composite index (listed, createdAt desc) of the lobby's query")
	s := fslobby.New(emu.Client(t))
	require.NoError(t, s.Put(ctx, lobby.Listing{GameID: "x", Game: "pig", Owner: "u", OwnerName: "A", Mode: "fair",
		Visibility: lobby.Link, Spectators: true, Seats: 2, Taken: 1, Phase: lobby.PhaseLobby, CreatedAt: 1, RematchOf: "y",
		Reserved: []string{"u", "v"}}))
	snap, err := emu.Client(t).Collection(fslobby.Coll).Doc("x").Get(ctx)
	require.NoError(t, err)
	for k := range snap.Data() {
		queried := k == fslobby.FieldListed || k == fslobby.FieldCreated || k == fslobby.FieldOwner
		require.Equal(t, !queried, exempt[k], "lobby.%s: exempt iff not queried", k)
	}
	require.Len(t, snap.Data(), len(exempt)+3)
}
