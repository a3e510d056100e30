package bot_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/bot"
	"github.com/fairboard/fairboard/engine"
	"github.com/fairboard/fairboard/reducers"
)

func TestPlayTrustlessSmoke(t *testing.T) {
	for _, n := range []int{2, 4, 6} {
		r := bot.NewRunner(engine.New(engine.DefaultRules(), reducers.Table()))
		r.Record = true
		seats := make([]bot.Seat, n)
		for i, c := range bot.DefaultClasses(n) {
			seats[i] = bot.Seat{Class: c, Policy: bot.Aggressive{}}
		}
		var g engine.Game
		clients, err := r.PlayTrustless(&g, bot.TrustlessConfig{}, seats)
		require.NoError(t, err)
		require.Len(t, clients, n)
		require.Equal(t, engine.PhaseFinished, g.Public.Phase)
		t.Logf("%d players: %d actions, %d events, %d rounds", n, len(r.Actions()), len(r.Events()), g.Public.Trustless.NextIndex-1)
	}
}
