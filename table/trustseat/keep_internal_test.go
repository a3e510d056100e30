package trustseat

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/games/kuhn"
	"github.com/fairboard/fairboard/rng"
	"github.com/fairboard/fairboard/table"
	"github.com/fairboard/fairboard/table/trustdeal"
)

// A restored seat makes its passes again and compares them with the
// table's: a deal seed that is not the one the seat dealt with is
// refused by name; the seat's own seed (the control) passes. And a seat
// never reveals an index for a second round: the same round gives the
// same reveal again, another digest at that index is refused.
func TestCatchUpChecksPasses(t *testing.T) {
	m := table.NewMemory()
	_, err := m.Create("cu", kuhn.Def, table.CreateRequest{Actor: "u0", ActionID: "c", Mode: rng.ModeTrustless, Seats: 2})
	require.NoError(t, err)
	v, err := m.View("cu", "")
	require.NoError(t, err)
	seats := make([]*Seat, 2)
	for i, u := range []string{"u0", "u1"} {
		seats[i], err = New(kuhn.Def, "cu", u, i, v.Trustless.ChainLength)
		require.NoError(t, err)
		_, err = m.Do("cu", seats[i].Join("j", uint64(1+i), nil, nil))
		require.NoError(t, err)
	}
	_, err = m.Do("cu", table.Action{Actor: "u0", ActionID: "s", Version: 3, Kind: table.KindStart})
	require.NoError(t, err)
	for i := 0; ; i++ {
		v, err = m.View("cu", "u0")
		require.NoError(t, err)
		if v.Trustless.Deal.Phase != trustdeal.PhasePass {
			break
		}
		s := seats[v.Trustless.Deal.NextSeat]
		sv, err := m.View("cu", s.UID())
		require.NoError(t, err)
		a, err := s.DealTo("d"+string(rune('0'+i)), sv)
		require.NoError(t, err)
		_, err = m.Do("cu", *a)
		require.NoError(t, err)
	}
	good, err := Restore(kuhn.Def, "cu", "u0", 0, seats[0].Export())
	require.NoError(t, err)
	_, err = good.DealTo("x", v)
	require.NoError(t, err)
	bad, err := Restore(kuhn.Def, "cu", "u0", 0, seats[0].Export())
	require.NoError(t, err)
	bad.dealSeed[0] ^= 1
	_, err = bad.DealTo("x", v)
	require.ErrorContains(t, err, "is not the one its secrets make")

	var d, tr, d2 [32]byte
	d[0], tr[0], d2[0] = 1, 2, 3
	r1, err := good.reveal(1, &d, &tr)
	require.NoError(t, err)
	r2, err := good.reveal(1, &d, &tr)
	require.NoError(t, err)
	require.Equal(t, r1, r2)
	_, err = good.reveal(1, &d2, &tr)
	require.ErrorContains(t, err, "asked for index 1 after 1")
	back, err := Restore(kuhn.Def, "cu", "u0", 0, good.Export())
	require.NoError(t, err)
	_, err = back.reveal(1, &d2, &tr)
	require.ErrorContains(t, err, "asked for index 1 after 1", "the restored seat remembers its last reveal")
	r3, err := back.reveal(1, &d, &tr)
	require.NoError(t, err)
	require.Equal(t, r1, r3)
}
