// Package lobbytest is the contract of a lobby.Store, run on
// lobby.Memory and, on the Firestore emulator, on lobby/fslobby.
package lobbytest

import (
	"context"
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/lobby"
)

// Run checks the lobby.Store contract on s, which must be empty: a
// listing comes back as put (kept seats included); Open is the listed
// ones only (public, in their lobby, a seat free), newest first, bounded
// (0 or out of range: lobby.MaxOpen); a game without a listing has none;
// Rename renames the owner in its listed games only.
func Run(t *testing.T, s lobby.Store) {
	t.Helper()
	ctx := context.Background()
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
	for _, n := range []int{-1, 51} {
		all, err := s.Open(ctx, n)
		require.NoError(t, err)
		require.Len(t, all, 30, "limit %d: lobby.MaxOpen", n)
	}
	// A listing whose game starts leaves the list.
	started := open[0]
	started.Phase = lobby.PhasePlaying
	require.NoError(t, s.Put(ctx, started))
	open, err = s.Open(ctx, 0)
	require.NoError(t, err)
	require.Len(t, open, 29)
	require.NotEqual(t, started.GameID, open[0].GameID)

	// A rename reaches the owner's listed games only: not another
	// owner's, not one by link, full or started.
	other := base
	other.GameID, other.Owner, other.OwnerName, other.CreatedAt = "o1", "u2", "Bob", 5000
	require.NoError(t, s.Put(ctx, other))
	n, err := s.Rename(ctx, "u1", "Alicia")
	require.NoError(t, err)
	require.Equal(t, 29, n, "the owner's listed games")
	open, err = s.Open(ctx, 0)
	require.NoError(t, err)
	for _, l := range open {
		want := map[string]string{"u1": "Alicia", "u2": "Bob"}[l.Owner]
		require.Equal(t, want, l.OwnerName, "%s", l.GameID)
	}
	for _, id := range []string{"g01", "g02", started.GameID} {
		l, err := s.Get(ctx, id)
		require.NoError(t, err)
		require.Equal(t, "Alice", l.OwnerName, "%s is not listed: unchanged", id)
	}
	n, err = s.Rename(ctx, "u1", "Alicia")
	require.NoError(t, err)
	require.Zero(t, n, "the same name again changes nothing")
}
