package match_test

import (
	"crypto/sha256"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/games/pig"
	"github.com/fairboard/fairboard/match"
	"github.com/fairboard/fairboard/rng"
)

// A trustless match applies a move that draws only with its round's
// randomness, and the draws are the spec's over rng.NewTrustless's
// stream (checked against a Pig state fed that stream directly); a move
// that draws nothing takes no round; a setup that draws is refused.
func TestTrustlessMatch(t *testing.T) {
	cfg := match.Config{Mode: rng.ModeTrustless, Seats: make([]game.Seat, 2)}
	m, err := match.New(pig.Def, cfg)
	require.NoError(t, err)
	roll, hold := game.Move{Kind: pig.KindRoll}, game.Move{Kind: pig.KindHold}

	draws, err := m.WouldDraw(roll)
	require.NoError(t, err)
	require.True(t, draws)
	_, err = m.WouldDraw(hold) // a hold at a turn total of 0: Pig refuses it
	require.ErrorIs(t, err, game.CodeInvalidAction)
	_, err = m.WouldDraw(game.Move{Seat: 1, Kind: pig.KindRoll})
	require.ErrorIs(t, err, game.CodeNotYourTurn)

	_, err = m.ApplyKeyed(roll, nil)
	require.ErrorContains(t, err, "draws: it needs its round's randomness")
	require.Empty(t, m.Moves())

	// The independent side: Pig's state with rng.NewTrustless's stream.
	st, _, err := pig.Def.Setup(pig.Def.DefaultRuleset(), make([]game.Seat, 2), nil, nil)
	require.NoError(t, err)
	var want []game.Event
	for i := byte(0); i < 40 && !m.Over(); i++ {
		key := sha256.Sum256([]byte{i})
		mv := roll
		if i%3 == 2 {
			mv = hold
		}
		mv.Seat = m.State().ToMove()
		d, err := m.WouldDraw(mv)
		if err != nil { // a hold after a bust: roll instead
			mv.Kind = pig.KindRoll
			d = true
		}
		var k *[32]byte
		var rnd game.Rand = game.FromStream(rng.NewRefusing(rng.ModeTrustless))
		if d {
			k = &key
			rnd = game.FromStream(rng.NewTrustless(key))
		}
		_, err = m.ApplyKeyed(mv, k)
		require.NoError(t, err)
		want, err = st.Apply(mv, rnd, want)
		require.NoError(t, err)
	}
	require.Equal(t, want, m.Events()[1:])
	if !m.Over() {
		_, err = m.ApplyKeyed(game.Move{Seat: m.State().ToMove(), Kind: pig.KindRoll}, nil)
		require.Error(t, err)
	}

	// Replay from the keys gives the same game; a key on a move that
	// draws nothing is refused.
	r, err := match.ReplayTrustless(pig.Def, cfg, m.Moves(), m.Keys())
	require.NoError(t, err)
	require.Equal(t, match.StateBytes(m.State()), match.StateBytes(r.State()))
	keys := append([]*[32]byte(nil), m.Keys()...)
	for i, k := range keys {
		if k == nil {
			keys[i] = &[32]byte{}
			_, err = match.ReplayTrustless(pig.Def, cfg, m.Moves(), keys)
			require.ErrorContains(t, err, "draws nothing: it has no round")
			break
		}
	}

	_, err = match.New(peek{}, match.Config{Mode: rng.ModeTrustless, Seats: make([]game.Seat, 2)})
	require.ErrorIs(t, err, game.CodeBadSetup)
	require.ErrorContains(t, err, "setup draws")
	_, err = match.New(pig.Def, match.Config{Mode: rng.ModeTrustless, Seed: "x", Seats: make([]game.Seat, 2)})
	require.ErrorIs(t, err, game.CodeBadSetup)
}
