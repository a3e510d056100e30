package bot_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/audit"
	"github.com/fairboard/fairboard/games/dungeon/engine"
	"github.com/fairboard/fairboard/games/dungeon/tools/bot"
	"github.com/fairboard/fairboard/rng"
)

// PlayWith, which rebuilds the stream the way a server does, plays a seeded
// game exactly as Play does with one stream: same log, same audit, same
// final state (but the saved generator state), same actions.
func TestPlayWithSeededIsPlay(t *testing.T) {
	eng := engine.NewReference(engine.DefaultRules())
	a, b := bot.NewRunner(eng), bot.NewRunner(eng)
	a.Record, b.Record = true, true
	recA, recB := audit.New(audit.KeepAll()), audit.New(audit.KeepAll())
	g1, log1, err := a.Play("with", seats4(), recA)
	require.NoError(t, err)
	var g2 engine.Game
	require.NoError(t, b.PlayWith(&g2, bot.Config{Create: engine.Action{GameID: "bot-with", Mode: "seeded", Seed: "with"}, Auditor: recB}, seats4()))
	require.Equal(t, log1, b.Events())
	require.Equal(t, recA.All(), recB.All())
	require.Equal(t, a.Actions(), b.Actions())
	// Play keeps one stream and never saves it; PlayWith saves it after
	// every action, as a store would.
	require.NotEmpty(t, g2.Secret.RNGState)
	g2.Secret.RNGState = ""
	h1, _ := g1.Hash()
	h2, _ := g2.Hash()
	require.Equal(t, h1, h2)
}

func TestPlayWithStopsOnAfterError(t *testing.T) {
	r := bot.NewRunner(engine.NewReference(engine.DefaultRules()))
	n := 0
	err := r.PlayWith(&engine.Game{}, bot.Config{Create: engine.Action{Mode: "seeded", Seed: "x"},
		After: func(*engine.Game, []engine.Event) error {
			if n++; n == 3 {
				return errStop
			}
			return nil
		}}, seats4())
	require.ErrorIs(t, err, errStop)
	require.Equal(t, 3, n)
	err = r.PlayWith(&engine.Game{}, bot.Config{Create: engine.Action{Mode: string(rng.ModeCrypto)}}, seats4())
	require.ErrorIs(t, err, engine.CodeInvalidAction, "a crypto game without a server seed is refused")
}

type stopErr struct{}

func (stopErr) Error() string { return "stop" }

var errStop = stopErr{}

// A runner reuses its game's memory, the reveal's included: a game played
// after another is the same as one played on a fresh runner.
func TestReusedGameRevealsTheSame(t *testing.T) {
	eng := engine.NewReference(engine.DefaultRules())
	reused, fresh := bot.NewRunner(eng), bot.NewRunner(eng)
	for _, seed := range []string{"reuse-long-game-1", "reuse-2", "reuse-3"} {
		g1, _, err := reused.Play(seed, seats4(), nil)
		require.NoError(t, err)
		g2, _, err := fresh.Play(seed, seats4(), nil)
		require.NoError(t, err)
		j1, _ := g1.CanonicalJSON()
		j2, _ := g2.CanonicalJSON()
		require.JSONEq(t, string(j2), string(j1))
		require.Len(t, g1.Public.Fairness.Salts, len(g1.Secret.Shuffles))
		fresh = bot.NewRunner(eng)
	}
}
