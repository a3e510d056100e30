package table_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/games/kuhn"
	"github.com/fairboard/fairboard/rng"
	"github.com/fairboard/fairboard/rng/mentalpoker"
	"github.com/fairboard/fairboard/table"
	"github.com/fairboard/fairboard/table/trustdeal"
	"github.com/fairboard/fairboard/table/trustseat"
)

// At a dealing table the first move carries its seat's deal keys
// (docs/fairness.md, "Cost in commits"). The table refuses, changing
// nothing (version, phase, keys): a move whose deal part is a pass, and
// the move with one key's signature broken (bad_signature); the move its
// seat's client made is the control: one action, the deal's keys all in
// and the move applied. Before it, seat 1 owes nothing: its keys rode
// with its pass.
func TestTrustlessKuhnMoveCarriesKeys(t *testing.T) {
	tbl, seats := kuhnTable(t, "km")
	inDeal := func(v *table.View) bool { return v.Trustless.Deal.Phase == trustdeal.PhaseDeal }
	_, err := trustseat.Play(tblSrv{tbl}, seats, betAlways, inDeal, 20)
	require.NoError(t, err)
	none, err := seats[1].DealTo("k1", tbl.View(uid(1)))
	require.NoError(t, err)
	require.Nil(t, none, "seat 1 owes no key")
	v0 := tbl.View(uid(0))
	a, err := seats[0].Move("m0", v0, game.Move{Kind: kuhn.KindBet})
	require.NoError(t, err)
	require.NotNil(t, a.Deal)
	require.Len(t, a.Deal.Keys, 1)

	unchanged := func(name string) {
		t.Helper()
		v := tbl.View("")
		require.Equal(t, v0.Version, v.Version, name)
		require.Equal(t, trustdeal.PhaseDeal, v.Trustless.Deal.Phase, name)
		require.Len(t, v.Trustless.Deal.Keys, 1, name)
	}
	withPass := a
	withPass.ActionID = "m0-pass"
	withPass.Deal = &table.DealMessage{Keys: a.Deal.Keys, Pass: v0.Trustless.Deal.Passes[3]}
	_, err = tbl.Do(withPass)
	require.ErrorContains(t, err, "invalid_action")
	unchanged("a move with a pass")
	badSig := a
	badSig.ActionID = "m0-sig"
	k := *a.Deal.Keys[0]
	k.Sig = append([]byte(nil), k.Sig...)
	k.Sig[0] ^= 1
	badSig.Deal = &table.DealMessage{Keys: append(a.Deal.Keys[:0:0], &k)}
	_, err = tbl.Do(badSig)
	require.ErrorContains(t, err, "bad_signature")
	unchanged("a key's signature broken")

	_, err = tbl.Do(a) // the control
	require.NoError(t, err)
	v := tbl.View("")
	require.Equal(t, v0.Version+1, v.Version)
	require.Equal(t, trustdeal.PhasePlay, v.Trustless.Deal.Phase)
	require.Len(t, v.Trustless.Deal.Keys, 2)
	require.Len(t, v.Trustless.Deal.Moves, 1)
}

// Elsewhere than at a dealing table a move carries no deal message: a
// crypto Kuhn table refuses one (invalid_action) and takes the same move
// without it (the control).
func TestMoveWithADealMessageElsewhere(t *testing.T) {
	tbl, _, err := table.Create(kuhn.Def, table.CreateRequest{Actor: uid(0), ActionID: "c", Mode: rng.ModeCrypto, GameID: "kc"})
	require.NoError(t, err)
	for i := range 2 {
		_, err = tbl.Do(table.Action{Actor: uid(i), ActionID: "join", Version: uint64(1 + i), Kind: table.KindJoin, Seat: i})
		require.NoError(t, err)
	}
	_, err = tbl.Do(table.Action{Actor: uid(0), ActionID: "start", Version: 3, Kind: table.KindStart})
	require.NoError(t, err)
	mv := table.Action{Actor: uid(0), ActionID: "m", Version: 4, Kind: table.KindMove, Move: []byte(`{"kind":"bet"}`),
		Deal: &table.DealMessage{Keys: []*mentalpoker.KeyMessage{{}}}}
	_, err = tbl.Do(mv)
	require.ErrorContains(t, err, "invalid_action")
	mv.Deal = nil
	_, err = tbl.Do(mv)
	require.NoError(t, err, "the control")
}
