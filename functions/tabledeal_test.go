package functions_test

import (
	"context"
	"encoding/json"
	"fmt"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/functest"
	"github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/games/kuhn"
	"github.com/fairboard/fairboard/games/leduc"
	"github.com/fairboard/fairboard/match"
	"github.com/fairboard/fairboard/rng/mentalpoker"
	"github.com/fairboard/fairboard/table"
	"github.com/fairboard/fairboard/table/trustdeal"
	"github.com/fairboard/fairboard/table/trustseat"
)

// Whole trustless Kuhn games through the functions (in-memory stores):
// the seats' bots shuffle, deal, open and reveal through act's kind
// "deal"; no view holds a card before the showdown; the payoffs are
// Kuhn's settlement written again over the cards the seats opened on
// their devices; the exported record carries the deal and verifies.
func TestTrustlessKuhnOverHTTP(t *testing.T) {
	var now atomic.Int64
	now.Store(1_760_000_000_000)
	c := newTrustServer(t, &now)
	PlayTrustlessKuhn(t, c, "tlk", 6)
}

// PlayTrustlessKuhn plays n trustless Kuhn games through c and checks
// each.
func PlayTrustlessKuhn(t *testing.T, c *functest.Client, prefix string, n int) {
	ctx := context.Background()
	for g := range n {
		id := fmt.Sprintf("%s-%d", prefix, g)
		ps := devPlayers(id+"p", 2)
		rec, end, tt, err := functest.PlayDealt(ctx, c, kuhn.Def, id, ps, functest.HiddenUntilShown(ctx))
		require.NoError(t, err, "game %s", id)
		c0, c1 := tt.Seats[0].Cards()[0], tt.Seats[1].Cards()[1]
		hist := ""
		for _, m := range rec.Trustless.Deal.Moves {
			hist += map[string]string{kuhn.KindPass: "p", kuhn.KindBet: "b"}[m.Kind]
		}
		require.Equal(t, functest.KuhnSettlement(c0, c1, hist), end.Outcome.Payoffs, "cards %d %d, %s", c0, c1, hist)
	}
}

// The positive control of functest.HiddenUntilShown: a crypto Kuhn table, whose
// server deals and shows each seat its card, fails it.
func TestHiddenUntilShownCatchesADealtCard(t *testing.T) {
	var now atomic.Int64
	now.Store(1_760_000_000_000)
	c := newTrustServer(t, &now)
	ctx := context.Background()
	ps := devPlayers("hk", 2)
	id := "hk-crypto"
	require.NoError(t, c.Call(ctx, "createGame", ps[0].Token, map[string]any{"game": "kuhn", "gameId": id, "actionId": "c", "seats": 2}, nil))
	for i, p := range ps {
		require.NoError(t, c.Call(ctx, "joinGame", p.Token, map[string]any{"game": "kuhn", "gameId": id, "actionId": "j", "version": 1 + i, "seat": i}, nil))
	}
	require.NoError(t, c.Call(ctx, "startGame", ps[0].Token, map[string]any{"game": "kuhn", "gameId": id, "actionId": "s", "version": 3}, nil))
	err := functest.HiddenUntilShown(ctx)(&functest.TrustTable{C: c, Ctx: ctx, Def: kuhn.Def, ID: id, Players: ps})
	require.ErrorContains(t, err, "holds its card")
}

// Whole trustless Leduc games through the functions (in-memory stores):
// private cards at the deal, the public card's keys staged and published
// with the call that ends round 1; no view holds a card before the
// showdown; each exported record verifies.
func TestTrustlessLeducOverHTTP(t *testing.T) {
	var now atomic.Int64
	now.Store(1_760_000_000_000)
	c := newTrustServer(t, &now)
	ctx := context.Background()
	for g := range 4 {
		id := fmt.Sprintf("tll-%d", g)
		rec, _, _, err := functest.PlayDealt(ctx, c, leduc.Def, id, devPlayers(id+"p", 2), functest.HiddenUntilShown(ctx))
		require.NoError(t, err, "game %s", id)
		require.NotNil(t, rec.Trustless.Deal)
	}
}

// Hostile seats through the functions: seat 1's last pass with its keys
// riding, one key's signature broken, is refused by its code
// (bad_signature) and changes nothing (the same pass with its keys
// intact is then taken: the control); seat 0 then withholds its deal key
// past the deadline: act's abort before it is refused
// (deadline_not_passed), after it the game ends naming seat 0, which
// loses its ante; the exported record verifies.
func TestTrustlessKuhnStallerOverHTTP(t *testing.T) {
	var now atomic.Int64
	now.Store(1_760_000_000_000)
	c := newTrustServer(t, &now)
	ctx := context.Background()
	ps := devPlayers("tks", 2)
	tt, err := functest.NewTrustTable(ctx, c, kuhn.Def, "tk-st", ps, map[string]any{"deadlineMs": 5000}, true)
	require.NoError(t, err)
	lastPass := func(v *table.View) bool { return len(v.Trustless.Deal.Passes) == 3 }
	v, err := trustseat.Play(tt, tt.Seats, func(v *table.View) game.Move { return v.Legal[0] }, lastPass, 20)
	require.NoError(t, err)
	require.Equal(t, trustdeal.PhasePass, v.Trustless.Deal.Phase)

	v1, err := tt.View(ps[1].UID)
	require.NoError(t, err)
	a, err := tt.Seats[1].DealTo("p1", v1)
	require.NoError(t, err)
	require.NotNil(t, a.Deal.Pass)
	require.Len(t, a.Deal.Keys, 1)
	bad := *a
	bad.ActionID = "p1-bad"
	k := *a.Deal.Keys[0]
	k.Sig = append([]byte(nil), k.Sig...)
	k.Sig[0] ^= 1
	bad.Deal = &table.DealMessage{Pass: a.Deal.Pass, Keys: []*mentalpoker.KeyMessage{&k}}
	_, err = tt.Do(bad)
	require.Error(t, err)
	require.Equal(t, "bad_signature", err.(*functest.Error).Details["code"], "%v", err)
	v1, err = tt.View(ps[1].UID)
	require.NoError(t, err)
	require.Equal(t, trustdeal.PhasePass, v1.Trustless.Deal.Phase, "nothing changed")
	require.Len(t, v1.Trustless.Deal.Passes, 3, "nothing changed")
	_, err = tt.Do(*a) // the control
	require.NoError(t, err)
	v1, err = tt.View(ps[1].UID)
	require.NoError(t, err)
	require.Equal(t, trustdeal.PhaseDeal, v1.Trustless.Deal.Phase)

	deadline := now.Load() + 5000
	abort := table.Action{Actor: ps[0].UID, ActionID: "ab", Kind: table.KindAbort}
	now.Store(deadline)
	_, err = tt.Do(abort)
	require.Equal(t, "deadline_not_passed", err.(*functest.Error).Details["code"], "%v", err)
	now.Store(deadline + 1)
	abort.ActionID = "ab2"
	_, err = tt.Do(abort)
	require.NoError(t, err)
	end, err := tt.View(ps[0].UID)
	require.NoError(t, err)
	require.Equal(t, &table.Outcome{Abandoned: true, Winners: []int{}, Payoffs: []float64{-1, 1}, Reason: match.ForfeitDeadline, Missing: []int{0}}, end.Outcome)
	var raw json.RawMessage
	require.NoError(t, c.Call(ctx, "exportGame", ps[0].Token, map[string]any{"gameId": "tk-st"}, &raw))
	rec, err := match.ReadRecord(raw)
	require.NoError(t, err)
	div, err := match.CheckRecord(kuhn.Def, rec)
	require.NoError(t, err)
	require.NoError(t, div)
}
