// Package namestest is the contract every names.Store passes (names.Memory
// in package names, names/fsnames on the Firestore emulator).
package namestest

import (
	"context"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/names"
)

// Run checks s, an empty store: names chosen and read back, copies into
// games by uid (a uid with a dot and a dash among them), an account's
// games as Seat notes them and Drop forgets them, and an unknown game's
// names empty.
func Run(t *testing.T, s names.Store) {
	ctx := context.Background()
	const u, v = "u1", "dev.user-2"
	n, err := s.Name(ctx, u)
	require.NoError(t, err)
	require.Equal(t, "", n, "an account that never chose a name")
	games, err := s.SetName(ctx, u, "Alice")
	require.NoError(t, err)
	require.Empty(t, games)
	n, err = s.Name(ctx, u)
	require.NoError(t, err)
	require.Equal(t, "Alice", n)

	m, err := s.Names(ctx, "g1")
	require.NoError(t, err)
	require.NotNil(t, m)
	require.Empty(t, m, "a game with no names")
	require.NoError(t, s.Seat(ctx, "g1", u, "Alice"))
	require.NoError(t, s.Seat(ctx, "g1", v, "<b>V</b>"))
	require.NoError(t, s.Seat(ctx, "g2", u, "Alice"))
	m, err = s.Names(ctx, "g1")
	require.NoError(t, err)
	require.Equal(t, map[string]string{u: "Alice", v: "<b>V</b>"}, m)

	games, err = s.SetName(ctx, u, "Alicia")
	require.NoError(t, err)
	slices.Sort(games)
	require.Equal(t, []string{"g1", "g2"}, games)
	require.NoError(t, s.Seat(ctx, "g1", u, "Alicia"))
	m, err = s.Names(ctx, "g1")
	require.NoError(t, err)
	require.Equal(t, map[string]string{u: "Alicia", v: "<b>V</b>"}, m, "a copy replaced, the others kept")
	m, err = s.Names(ctx, "g2")
	require.NoError(t, err)
	require.Equal(t, map[string]string{u: "Alice"}, m, "a game not copied into again keeps its copy")

	require.NoError(t, s.Drop(ctx, u, "g1"))
	games, err = s.SetName(ctx, u, "Al")
	require.NoError(t, err)
	require.Equal(t, []string{"g2"}, games, "a dropped game is no longer the account's")
	games, err = s.SetName(ctx, v, "Vee")
	require.NoError(t, err)
	require.Equal(t, []string{"g1"}, games)
	n, err = s.Name(ctx, v)
	require.NoError(t, err)
	require.Equal(t, "Vee", n)
}
