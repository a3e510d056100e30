package session

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/engine"
	"github.com/fairboard/fairboard/rng"
)

func seededGame(seed string) *engine.Game {
	g := &engine.Game{}
	g.Public.RNG.Mode = rng.ModeSeeded
	g.Secret.Seed = seed
	return g
}

// A game stored between actions resumes the very stream it left, with its
// sequence number.
func TestStreamResumesWhereTheGameLeftIt(t *testing.T) {
	ref, err := rng.NewSeeded("resume")
	require.NoError(t, err)
	var want []uint32
	for range 6 {
		want = append(want, ref.Uint32(rng.TagTestOnly, nil))
	}

	g := seededGame("resume")
	var got []uint32
	for range 3 { // three "actions" of two draws each, each in a fresh stream
		s, err := Stream(g)
		require.NoError(t, err)
		got = append(got, s.Uint32(rng.TagTestOnly, nil), s.Uint32(rng.TagTestOnly, nil))
		require.NoError(t, g.SaveStream(s))
	}
	require.Equal(t, want, got)
	require.EqualValues(t, 6, g.Public.RNG.Seq)
}

func TestStreamAppliesOptionsAndSeq(t *testing.T) {
	g := seededGame("opts")
	g.Public.RNG.Seq = 41
	var seqs []uint64
	s, err := Stream(g, rng.WithAuditor(rng.AuditorFunc(func(e rng.Entry) { seqs = append(seqs, e.Seq) })))
	require.NoError(t, err)
	s.Uint32(rng.TagTestOnly, nil)
	require.Equal(t, []uint64{42}, seqs)
}

func TestStreamCrypto(t *testing.T) {
	g := &engine.Game{}
	g.Public.RNG.Mode = rng.ModeCrypto
	s, err := Stream(g)
	require.NoError(t, err)
	require.Equal(t, rng.ModeCrypto, s.Mode())
	require.NoError(t, g.SaveStream(s))
	require.Empty(t, g.Secret.RNGState, "a crypto game saves no generator state")
}

func TestStreamErrors(t *testing.T) {
	_, err := Stream(&engine.Game{})
	require.ErrorContains(t, err, "rng mode")
	g := seededGame("x")
	g.Secret.RNGState = "sfc32:not-hex"
	_, err = Stream(g)
	require.Error(t, err)
	g = seededGame("\xff")
	_, err = Stream(g)
	require.ErrorContains(t, err, "UTF-8")
}
