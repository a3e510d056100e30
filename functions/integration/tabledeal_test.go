package integration

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/functest"
	"github.com/fairboard/fairboard/games/registry"
)

// Whole trustless Kuhn games through the functions on the Firestore and
// Auth emulators (the deal's log, staged keys included, in the table's
// private document between calls): the seats' bots shuffle and deal by
// mental poker through act's kind "deal"; no seat's getView holds a card
// before the showdown (functest.HiddenUntilShown, whose positive control
// is functions' TestHiddenUntilShownCatchesADealtCard); the payoffs are
// Kuhn's settlement written again over the cards the seats opened on
// their devices; each exported record verifies.
func TestTrustlessKuhnOnFirestore(t *testing.T) {
	var now atomic.Int64
	now.Store(fixedNow.UnixMilli())
	c := newTrustEnv(t, &now)
	def, err := registry.Lookup("kuhn")
	require.NoError(t, err)
	ctx := context.Background()
	for g := range 3 {
		rec, end, tt, err := functest.PlayDealt(ctx, c, def, runID("fs-tk"), trustPlayers(t, "tk"+string(rune('a'+g)), 2), functest.HiddenUntilShown(ctx))
		require.NoError(t, err)
		c0, c1 := tt.Seats[0].Cards()[0], tt.Seats[1].Cards()[1]
		hist := ""
		for _, m := range rec.Trustless.Deal.Moves {
			hist += map[string]string{"pass": "p", "bet": "b"}[m.Kind]
		}
		require.Equal(t, functest.KuhnSettlement(c0, c1, hist), end.Outcome.Payoffs, "cards %d %d, %s", c0, c1, hist)
		t.Logf("game %d: %s, cards %d %d, payoffs %v", g, hist, c0, c1, end.Outcome.Payoffs)
	}
}

// Whole trustless Leduc games through the functions on the emulators:
// the public card's keys staged in the table's private document and
// published with the call that ends round 1; no seat's getView holds a
// card before the showdown; each exported record verifies.
func TestTrustlessLeducOnFirestore(t *testing.T) {
	var now atomic.Int64
	now.Store(fixedNow.UnixMilli())
	c := newTrustEnv(t, &now)
	def, err := registry.Lookup("leduc")
	require.NoError(t, err)
	ctx := context.Background()
	for g := range 2 {
		// The calls from the first pass to the first move, timed: each is
		// one commit of the table's document.
		var start, first time.Time
		calls := 0
		hidden := functest.HiddenUntilShown(ctx)
		check := func(tt *functest.TrustTable) error {
			v, err := tt.View(tt.Players[0].UID)
			if err != nil {
				return err
			}
			if d := v.Trustless.Deal; d != nil && first.IsZero() {
				if start.IsZero() {
					start = time.Now()
				}
				if len(d.Moves) > 0 {
					first = time.Now()
				} else {
					calls++
				}
			}
			return hidden(tt)
		}
		rec, end, _, err := functest.PlayDealt(ctx, c, def, runID("fs-tle"), trustPlayers(t, "tl"+string(rune('a'+g)), 2), check)
		require.NoError(t, err)
		t.Logf("game %d: %d moves, %d keys published, payoffs %v; %d calls from the first pass to the first move applied, %v (with the test's getViews)",
			g, len(rec.Moves), len(rec.Trustless.Deal.Keys), end.Outcome.Payoffs, calls, first.Sub(start))
	}
}
