package leduc_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/games/leduc"
)

// uniformWalk adds to acc each seat's payoff times its probability q
// under uniform play from st, through the definition alone (Legal,
// ChanceOutcomes, Apply, Outcome).
func uniformWalk(t *testing.T, st game.State, acc []float64, q float64) {
	seat := st.ToMove()
	if seat == game.Nobody {
		for i, v := range st.Outcome().Payoffs {
			acc[i] += q * v
		}
		return
	}
	var buf [3]game.Move
	legal := st.Legal(seat, buf[:0])
	for _, m := range legal {
		p := q / float64(len(legal))
		outs, ok := st.ChanceOutcomes(m)
		if !ok {
			t.Fatal("chance outcomes not listed")
		}
		if len(outs) == 0 {
			outs = []game.Chance{{P: 1}}
		}
		for _, o := range outs {
			c := st.Clone()
			if _, err := c.Apply(m, game.Script(o.Draws...), nil); err != nil {
				t.Fatal(err)
			}
			uniformWalk(t, c, acc, p*o.P)
		}
	}
}

// The three-seat enumeration of many_test.go agrees with a walk of the
// whole game through the definition (the 336 deals, 8*7*6, each 1/336,
// then every legal move and the public card's five outcomes): the rules
// written twice give the same exact expected payoffs under uniform play.
// About 2 s: skipped with -short.
func TestUniformPayoffsThreeSeatsThroughDefinition(t *testing.T) {
	if testing.Short() {
		t.Skip("walks the whole three-seat game")
	}
	want, _ := uniformPayoffs(3)
	got := make([]float64, 3)
	for d0 := range int64(8) {
		for d1 := range int64(7) {
			for d2 := range int64(6) {
				st, _, err := leduc.Def.Setup(leduc.Rules{}, make([]game.Seat, 3), game.Script(d0, d1, d2), nil)
				require.NoError(t, err)
				uniformWalk(t, st, got, 1.0/336)
			}
		}
	}
	t.Logf("exact expected payoffs by seat: %.9f", got)
	require.InDeltaSlice(t, want, got, 1e-9)
}
