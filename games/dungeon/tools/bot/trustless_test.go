package bot_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/games/dungeon/engine"
	"github.com/fairboard/fairboard/games/dungeon/policy"
	"github.com/fairboard/fairboard/games/dungeon/tools/bot"
)

// TestPlayTrustless plays whole trustless games of 2, 4 and 6 bots in
// process, each seat with its own chain, key and replica of the game
// (which would stop the game at the first event it could not reproduce),
// and checks after every action: the state is consistent (Game.Check);
// an action applied at once drew nothing; a pending action is applied
// only by the reveal that closes its round, which draws; the rounds'
// indices run 1, 2, 3, ... And over the games: some kinds were applied at
// once in one state and held for a round in another (what draws is the
// state's answer, not the kind's).
func TestPlayTrustless(t *testing.T) {
	rules := engine.DefaultRules()
	atOnce, held := map[engine.ActionKind]int{}, map[engine.ActionKind]int{}
	for _, n := range []int{2, 4, 6} {
		for _, pol := range []policy.Policy{policy.Aggressive{}, policy.Cautious{}} {
			r := bot.NewRunner(engine.NewReference(rules))
			seats := make([]bot.Seat, n)
			for i, c := range policy.DefaultClasses(n) {
				seats[i] = bot.Seat{Class: c, Policy: pol}
			}
			var g engine.Game
			seq, index := uint64(0), uint32(1)
			// Seeded secrets: the same six games every run (with fresh
			// secrets, 1 run in 30 had no kind both held and applied at
			// once, and the test failed).
			cfg := bot.TrustlessConfig{Seed: fmt.Sprintf("play-%d-%s", n, pol.Name()), After: func(g *engine.Game, ev []engine.Event) error {
				require.NoError(t, g.Check(rules))
				p := &g.Public
				if len(ev) == 0 {
					return nil // a reveal held until its round closes
				}
				switch ev[0].Type {
				case engine.EvActionPending:
					require.Len(t, ev, 1)
					require.Equal(t, index, ev[0].Trust.Index, "indices without gaps")
					require.Equal(t, seq, p.RNG.Seq)
					held[ev[0].Trust.Action.Kind]++
				case engine.EvRoundRevealed:
					require.Equal(t, index, ev[0].Trust.Index)
					require.Greater(t, p.RNG.Seq, seq, "a round's action draws")
					index++
				default:
					last := ev[len(ev)-1]
					require.Equal(t, engine.EvActionAccepted, last.Type)
					require.Equal(t, seq, p.RNG.Seq, "an action applied at once drew nothing")
					atOnce[last.Trust.Action.Kind]++
				}
				seq = p.RNG.Seq
				return nil
			}}
			clients, err := r.PlayTrustless(&g, cfg, seats)
			require.NoError(t, err)
			require.Len(t, clients, n)
			require.Equal(t, engine.PhaseFinished, g.Public.Phase)
			require.Equal(t, index, g.Public.Trustless.NextIndex)
			for _, c := range clients {
				require.Equal(t, g.Public.Trustless.Transcript, c.Follower().Game().Public.Trustless.Transcript,
					"every client's replica ends on the server's transcript")
			}
		}
	}
	both := 0
	for k := range held {
		if atOnce[k] > 0 {
			both++
		}
	}
	require.Positive(t, both, "held %v, at once %v", held, atOnce)
	t.Logf("held for a round: %v; applied at once: %v", held, atOnce)
	require.Zero(t, held[engine.ActEndManage]+held[engine.ActSkipDuel], "these never draw")
	require.Zero(t, atOnce[engine.ActMove]+atOnce[engine.ActCombatRound], "these always draw")
}

// TestPlayTrustlessSeeded: a seeded game of bots is the same game each
// time (the same transcript, every chain and key derived from the seed),
// and another seed plays another game.
func TestPlayTrustlessSeeded(t *testing.T) {
	rules := engine.DefaultRules()
	play := func(seed string) engine.Hash32 {
		r := bot.NewRunner(engine.NewReference(rules))
		seats := []bot.Seat{{Class: engine.ClassWarrior, Policy: policy.Cautious{}}, {Class: engine.ClassScout, Policy: policy.Aggressive{}}}
		var g engine.Game
		_, err := r.PlayTrustless(&g, bot.TrustlessConfig{Seed: seed}, seats)
		require.NoError(t, err)
		return g.Public.Trustless.Transcript
	}
	a := play("same")
	require.Equal(t, a, play("same"), "one seed, one game")
	require.NotEqual(t, a, play("other"), "another seed, another game")
}
