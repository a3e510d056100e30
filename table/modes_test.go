package table_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/games/eights"
	"github.com/fairboard/fairboard/games/kuhn"
	"github.com/fairboard/fairboard/games/leduc"
	"github.com/fairboard/fairboard/games/pig"
	"github.com/fairboard/fairboard/rng"
	"github.com/fairboard/fairboard/table"
)

// A table is seeded, crypto or fair for every game, and trustless for a
// game whose state is all public (Pig) or whose hidden cards are dealt by
// mental poker (Kuhn, Leduc), not for Crazy Eights (hands and a pile
// hidden, not dealt so); and the create of a refused mode says the same.
func TestModes(t *testing.T) {
	all := []rng.Mode{rng.ModeSeeded, rng.ModeCrypto, rng.ModeFair, rng.ModeTrustless}
	require.Equal(t, all, table.Modes(pig.Def))
	require.Equal(t, all, table.Modes(kuhn.Def))
	require.Equal(t, all, table.Modes(leduc.Def))
	require.Equal(t, all[:3], table.Modes(eights.Def))
	require.Empty(t, table.TrustlessRefusal(pig.Def))
	why := table.TrustlessRefusal(eights.Def)
	require.Contains(t, why, "has private parts")

	_, _, err := table.Create(eights.Def, table.CreateRequest{Actor: "u0", ActionID: "c1", Mode: rng.ModeTrustless, GameID: "g1"})
	require.ErrorContains(t, err, "eights "+why)
}
