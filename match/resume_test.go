package match_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/games/pig"
	"github.com/fairboard/fairboard/match"
	"github.com/fairboard/fairboard/rng"
)

// playN applies n moves of the random bot (or to the end).
func playN(t *testing.T, m *match.Match, bot *match.Random, n int) {
	t.Helper()
	for i := 0; i < n && !m.Over(); i++ {
		seat := m.State().ToMove()
		_, err := m.Apply(bot.Choose(m.State(), seat, m.State().Legal(seat, nil)))
		require.NoError(t, err)
	}
}

// A match resumed from its moves (and draws) is the match again, and
// goes on: a seeded one on its very stream, a crypto one on a new stream
// whose draws its record keeps.
func TestResume(t *testing.T) {
	bots, err := rng.NewSeeded("resume/bots")
	require.NoError(t, err)
	bot := match.NewRandom(bots)
	seeded := match.Config{Mode: rng.ModeSeeded, Seed: "resume", Seats: make([]game.Seat, 3)}
	m, err := match.New(pig.Def, seeded)
	require.NoError(t, err)
	playN(t, m, bot, 20)
	r, err := match.Resume(pig.Def, seeded, m.Moves(), nil)
	require.NoError(t, err)
	require.Equal(t, match.StateBytes(m.State()), match.StateBytes(r.State()))
	for !m.Over() {
		seat := m.State().ToMove()
		mv := bot.Choose(m.State(), seat, m.State().Legal(seat, nil))
		_, err := m.Apply(mv)
		require.NoError(t, err)
		_, err = r.Apply(mv)
		require.NoError(t, err)
		require.Equal(t, match.StateBytes(m.State()), match.StateBytes(r.State()))
	}

	for range 10 {
		crypto := match.Config{Mode: rng.ModeCrypto, Seats: make([]game.Seat, 2)}
		m, err := match.New(pig.Def, crypto)
		require.NoError(t, err)
		playN(t, m, bot, 10)
		r, err := match.Resume(pig.Def, crypto, m.Moves(), m.Draws())
		require.NoError(t, err)
		require.Equal(t, match.StateBytes(m.State()), match.StateBytes(r.State()))
		require.Equal(t, m.Draws(), r.Draws())
		before := len(r.Draws())
		playN(t, r, bot, 1000)
		require.True(t, r.Over())
		require.Greater(t, len(r.Draws()), before, "the resumed match drew")
		again, err := match.Replay(pig.Def, crypto, r.Moves(), r.Draws())
		require.NoError(t, err)
		require.Equal(t, match.StateBytes(r.State()), match.StateBytes(again.State()))
		_, err = match.Resume(pig.Def, crypto, m.Moves(), append(m.Draws(), 1))
		require.ErrorContains(t, err, "draws left unused")
	}
}
