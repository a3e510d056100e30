package server_test

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/functions"
	"github.com/fairboard/fairboard/games/dungeon/engine"
	"github.com/fairboard/fairboard/games/dungeon/server/service"
	"github.com/fairboard/fairboard/games/dungeon/server/store"
	"github.com/fairboard/fairboard/games/registry/server"
)

func admitAll(functions.Listed) error { return nil }

// TestConfigReachesTheService: what a program sets of the server is what
// its service does. Without AllowSeeded a seeded create is refused with
// the service's own error and nothing is stored; with it the game is
// made. ForceAudit turns the audit ring on for a game that did not ask
// for it, and its control, the same create without ForceAudit, leaves
// it off.
func TestConfigReachesTheService(t *testing.T) {
	ctx := t.Context()
	seeded := json.RawMessage(`{"gameId":"s1","mode":"seeded","seed":"x"}`)

	st := store.NewMemory()
	s := server.On(st, server.Config{})
	_, _, err := s.Create(ctx, "owner", seeded, admitAll)
	require.ErrorIs(t, err, service.ErrSeededRefused)
	_, err = st.Game(ctx, "s1")
	require.ErrorIs(t, err, store.ErrNotFound, "a refused create writes nothing")

	dev := server.Memory(server.Config{AllowSeeded: true})
	_, l, err := dev.Create(ctx, "owner", seeded, admitAll)
	require.NoError(t, err)
	require.Equal(t, functions.Listed{GameID: "s1", Mode: "seeded", Seats: engine.DefaultRules().MaxPlayers}, l)
	held, err := dev.Holds(ctx, "s1")
	require.NoError(t, err)
	require.True(t, held)
	require.NoError(t, dev.Close())

	for _, force := range []bool{false, true} {
		st := store.NewMemory()
		s := server.On(st, server.Config{ForceAudit: force})
		_, _, err := s.Create(ctx, "owner", json.RawMessage(`{"gameId":"c1"}`), admitAll)
		require.NoError(t, err)
		pub, err := st.Game(ctx, "c1")
		require.NoError(t, err)
		require.Equal(t, force, pub.RNG.AuditEnabled, "ForceAudit %v", force)
		require.NoError(t, s.Close())
	}
}

// closeCounter is a store whose Close is counted.
type closeCounter struct {
	store.Store
	closed int
}

func (c *closeCounter) Close() error {
	c.closed++
	return errors.New("closed")
}

// TestCloseClosesTheStore: the server's Close is its store's, error
// included, so a program that closes the server closes its Firestore
// client once.
func TestCloseClosesTheStore(t *testing.T) {
	st := &closeCounter{Store: store.NewMemory()}
	s := server.On(st, server.Config{})
	require.EqualError(t, s.Close(), "closed")
	require.Equal(t, 1, st.closed)
}
