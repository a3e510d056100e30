package fsstore_test

import (
	"context"
	"errors"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/games/dungeon/engine"
	"github.com/fairboard/fairboard/games/dungeon/server/store"
)

// A table game's games/{id} (tablestore/fstables: it has a game field)
// is no dungeon game to this store: reads answer ErrNotFound, an action
// is a game not created, and a create is already_created; none of them
// writes a document under the table's id. This is what lets the
// functions reach the dungeon without asking the tables first.
func TestTableIDIsNoDungeonGame(t *testing.T) {
	st := newStore(t)
	ctx := context.Background()
	c := emu.Client(t)
	pub := map[string]any{"game": "pig", "ownerUid": "u0", "playerUids": []string{"u0", "u1"}, "phase": "playing", "version": int64(3)}
	priv := map[string]any{"game": "pig", "saved": "{}"}
	ref := c.Collection("games").Doc("t1")
	_, err := ref.Set(ctx, pub)
	require.NoError(t, err)
	_, err = ref.Collection("private").Doc("table").Set(ctx, priv)
	require.NoError(t, err)

	_, err = st.Game(ctx, "t1")
	require.True(t, errors.Is(err, store.ErrNotFound), "Game: %v", err)
	_, err = st.State(ctx, "t1")
	require.True(t, errors.Is(err, store.ErrNotFound), "State: %v", err)

	svc := newSvc(st)
	_, err = svc.Do(ctx, "t1", engine.Action{Kind: engine.ActJoin, Actor: "u2", ID: "j", Seat: 0, Class: "warrior"})
	var rej *engine.Error
	require.True(t, errors.As(err, &rej) && rej.Code == engine.CodeNotCreated, "join: %v", err)
	_, err = svc.Do(ctx, "t1", engine.Action{Kind: engine.ActCreate, Actor: "u2", ID: "c", GameID: "t1", Mode: "seeded", Seed: "x"})
	require.True(t, errors.As(err, &rej) && rej.Code == engine.CodeAlreadyCreated, "create: %v", err)

	snap, err := ref.Get(ctx)
	require.NoError(t, err)
	require.Equal(t, pub["version"], snap.Data()["version"])
	require.Len(t, snap.Data(), len(pub), "the table's document is as it was")
	docs, err := ref.Collection("private").Documents(ctx).GetAll()
	require.NoError(t, err)
	require.Len(t, docs, 1, "no private state beside the table's")
	for _, coll := range []string{"actions", "log", "applied"} {
		docs, err := ref.Collection(coll).Documents(ctx).GetAll()
		require.NoError(t, err)
		require.Empty(t, docs, "nothing written in %s", coll)
	}
}
