package game_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/rng"
)

type wrap struct{ game.Rand }

func (w wrap) Unwrap() game.Rand { return w.Rand }

// StreamOf finds a Rand's stream through wrappers, and none in a script.
func TestStreamOf(t *testing.T) {
	s, err := rng.NewSeeded("of")
	require.NoError(t, err)
	for _, r := range []game.Rand{game.FromStream(s), wrap{game.FromStream(s)}, wrap{wrap{game.FromStream(s)}}} {
		got, ok := game.StreamOf(r)
		require.True(t, ok)
		require.Same(t, s, got)
	}
	for _, r := range []game.Rand{game.Script(1), wrap{game.Script(1)}, nil} {
		got, ok := game.StreamOf(r)
		require.False(t, ok)
		require.Nil(t, got)
	}
}

// StreamFor hands a bare stream over when its mode and seq are the ones
// asked for, and otherwise relays: the relay has the mode and seq asked
// for, and its words are the Rand's draws (a script's values here: a
// four-sided die of word 6 is 6 mod 4 + 1 = 3, as rng's arithmetic takes
// a power of two's span by a mask).
func TestStreamFor(t *testing.T) {
	s, err := rng.NewSeeded("for")
	require.NoError(t, err)
	require.Same(t, s, game.StreamFor(game.FromStream(s), rng.ModeSeeded, 0))
	r := game.StreamFor(game.FromStream(s), rng.ModeSeeded, 3)
	require.NotSame(t, s, r)
	require.Equal(t, uint64(3), r.Seq())
	require.NotSame(t, s, game.StreamFor(game.FromStream(s), rng.ModeCrypto, 0))

	script := game.Script(6, 1<<32-1)
	relay := game.StreamFor(script, rng.ModeCrypto, 9)
	require.Equal(t, rng.ModeCrypto, relay.Mode())
	d, err := relay.Dice(4, "test.die", nil)
	require.NoError(t, err)
	require.Equal(t, 3, d.Value)
	require.Equal(t, uint32(1<<32-1), relay.Uint32("test.word", nil))
	require.True(t, script.Done())
	require.Equal(t, []rng.Tag{game.TagWord, game.TagWord}, script.Calls)
	require.Equal(t, uint64(11), relay.Seq())
}
