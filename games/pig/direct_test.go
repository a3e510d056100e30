package pig_test

import (
	"slices"
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/games/pig"
	"github.com/fairboard/fairboard/match"
	"github.com/fairboard/fairboard/rng"
)

// The hold-at-N style chooses without the legal list (game.DirectPolicy,
// which the simulations' loop asks so) exactly what it chooses over it,
// and that move is legal, in every state of games it plays with N from 1
// to 30.
func TestHoldAtChoosesDirectlyAsOverTheList(t *testing.T) {
	var pol game.Policy = pig.HoldAt(20)
	_, ok := pol.(game.DirectPolicy)
	require.True(t, ok, "HoldAt is a DirectPolicy")
	states := 0
	for i := range 12 {
		m, err := match.New(pig.Def, match.Config{Mode: rng.ModeSeeded, Seed: "direct#" + strconv.Itoa(i), Seats: make([]game.Seat, 2+i%3)})
		require.NoError(t, err)
		n := pig.HoldAt(1 + 29*i/11)
		var legal []game.Move
		for !m.Over() {
			st := m.State()
			seat := st.ToMove()
			legal = st.Legal(seat, legal)
			mv := n.ChooseDirect(st, seat)
			require.Equal(t, n.Choose(st, seat, legal), mv, "state %d", states)
			require.True(t, slices.Contains(legal, mv), "state %d: %v is legal", states, mv)
			_, err := m.Apply(mv)
			require.NoError(t, err)
			states++
		}
	}
	require.Greater(t, states, 500)
}
