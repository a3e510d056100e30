package fslobby_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/internal/emulator"
	"github.com/fairboard/fairboard/lobby"
	"github.com/fairboard/fairboard/lobby/fslobby"
)

var emu = emulator.NewSuite(emulator.Config{Firestore: true})

func TestMain(m *testing.M) { os.Exit(emu.Run(m)) }

// The Firestore store on the emulator: a listing comes back as put
// (reserved seats included); Open is the listed ones only (public, in
// the lobby, a seat free), newest first, bounded; a game without a
// listing has none.
func TestFirestoreLobby(t *testing.T) {
	emu.Require(t)
	emu.Reset(t)
	ctx := context.Background()
	s := fslobby.New(emu.Client(t))
	l, err := s.Get(ctx, "none")
	require.NoError(t, err)
	require.Nil(t, l)
	base := lobby.Listing{Game: "pig", Owner: "u1", OwnerName: "Alice", Mode: "crypto", Visibility: lobby.Public,
		Seats: 2, Phase: lobby.PhaseLobby}
	for i := range 60 {
		l := base
		l.GameID, l.CreatedAt = fmt.Sprintf("g%02d", i), int64(1000+i)
		switch i % 4 {
		case 1:
			l.Visibility = lobby.Link
		case 2:
			l.Taken = 2 // full
		}
		require.NoError(t, s.Put(ctx, l))
	}
	kept := base
	kept.GameID, kept.Visibility, kept.Spectators, kept.RematchOf, kept.Reserved = "rm1", lobby.Link, true, "g00", []string{"b", "a"}
	require.NoError(t, s.Put(ctx, kept))
	got, err := s.Get(ctx, "rm1")
	require.NoError(t, err)
	require.Equal(t, kept, *got)

	open, err := s.Open(ctx, 0)
	require.NoError(t, err)
	require.Len(t, open, 30, "the 60 games' public ones with a free seat: i%4 is 0 or 3")
	for i, l := range open {
		require.True(t, l.Listed(), "%+v", l)
		if i > 0 {
			require.Greater(t, open[i-1].CreatedAt, l.CreatedAt, "newest first")
		}
	}
	require.Equal(t, "g59", open[0].GameID)
	open, err = s.Open(ctx, 5)
	require.NoError(t, err)
	require.Len(t, open, 5)
	// A listing whose game starts leaves the list.
	started := open[0]
	started.Phase = lobby.PhasePlaying
	require.NoError(t, s.Put(ctx, started))
	open, err = s.Open(ctx, 0)
	require.NoError(t, err)
	require.Len(t, open, 29)
	require.NotEqual(t, started.GameID, open[0].GameID)
}

// Every field of a listing is exempt from Firestore's automatic indexes
// but the two the query uses (listed, createdAt), which are in the
// composite index firestore.indexes.json declares for it.
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
		queried := k == fslobby.FieldListed || k == fslobby.FieldCreated
		require.Equal(t, !queried, exempt[k], "lobby.%s: exempt iff not queried", k)
	}
	require.Len(t, snap.Data(), len(exempt)+2)
}
