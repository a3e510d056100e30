package session

import (
	"encoding/hex"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/games/dungeon/engine"
	"github.com/fairboard/fairboard/rng"
	"github.com/fairboard/fairboard/rng/trustless"
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

// The spec's migration note: "rng.mode defaults to crypto if missing". A
// stored game without a mode (written before the mode was stored) gets a
// crypto stream, and the mode is set, so the engine's check of the stream
// against the game's mode passes and the next save stores it.
func TestStreamMigratesAMissingModeToCrypto(t *testing.T) {
	for _, g := range []*engine.Game{
		{Public: engine.Public{Phase: engine.PhasePlaying, RNG: engine.RNGInfo{Seq: 17}}},
		// A seed without a mode does not make the game seeded.
		{Public: engine.Public{Phase: engine.PhaseLobby}, Secret: engine.Secret{Seed: "old"}},
	} {
		s, err := Stream(g)
		require.NoError(t, err)
		require.Equal(t, rng.ModeCrypto, s.Mode())
		require.Equal(t, rng.ModeCrypto, g.Public.RNG.Mode)
		require.Equal(t, g.Public.RNG.Seq, s.Seq())
	}
	p := engine.Public{RNG: engine.RNGInfo{Mode: rng.ModeSeeded}, Phase: engine.PhaseLobby}
	Migrate(&p)
	require.Equal(t, rng.ModeSeeded, p.RNG.Mode, "a stored mode is kept")
}

func TestStreamErrors(t *testing.T) {
	_, err := Stream(&engine.Game{})
	require.ErrorContains(t, err, "rng mode", "a game not created has no stream")
	_, err = Stream(&engine.Game{Public: engine.Public{Phase: engine.PhaseLobby, RNG: engine.RNGInfo{Mode: "dice-cup"}}})
	require.ErrorContains(t, err, "rng mode")
	g := seededGame("x")
	g.Secret.RNGState = "sfc32:not-hex"
	_, err = Stream(g)
	require.Error(t, err)
	g = seededGame("\xff")
	_, err = Stream(g)
	require.ErrorContains(t, err, "UTF-8")
}

func TestStreamFair(t *testing.T) {
	g := &engine.Game{}
	g.Public.RNG.Mode = rng.ModeFair
	g.Secret.ServerSeed = strings.Repeat("ab", 32)
	// In the lobby: the fresh stream of the seed the seated players make.
	s, err := Stream(g)
	require.NoError(t, err)
	want, err := g.FairGameSeed()
	require.NoError(t, err)
	require.Equal(t, hex.EncodeToString(want[:]), s.Seed())
	require.Equal(t, rng.ModeFair, s.Mode())
	// Started: the saved offset resumes the very stream.
	g.Secret.GameSeed = hex.EncodeToString(want[:])
	ref := rng.NewFair(want[:])
	var w []uint32
	for range 6 {
		w = append(w, ref.Uint32(rng.TagTestOnly, nil))
	}
	var got []uint32
	for range 3 {
		s, err := Stream(g)
		require.NoError(t, err)
		got = append(got, s.Uint32(rng.TagTestOnly, nil), s.Uint32(rng.TagTestOnly, nil))
		require.NoError(t, g.SaveStream(s))
	}
	require.Equal(t, w, got)
	require.Equal(t, "chacha20:24", g.Secret.RNGState)

	for _, c := range []struct {
		mut  func(g *engine.Game)
		want string
	}{
		{func(g *engine.Game) { g.Secret.GameSeed = "zz" }, "not 32 bytes of hex"},
		{func(g *engine.Game) { g.Secret.GameSeed = "abcd" }, "not 32 bytes of hex"},
		{func(g *engine.Game) { g.Secret.RNGState = "sfc32:00" }, "does not start with"},
		{func(g *engine.Game) { g.Secret.GameSeed, g.Secret.ServerSeed = "", "short" }, "server seed"},
		{func(g *engine.Game) { g.Secret.GameSeed, g.Secret.Entropy = "", []string{"00"} }, "1 contributions for 0 players"},
	} {
		bad := g.Clone()
		c.mut(bad)
		_, err := Stream(bad)
		require.ErrorContains(t, err, c.want)
	}
}

// StreamFor: in a trustless game, every action gets a stream that refuses
// its first word, but the reveal that closes the pending round, which
// gets ChaCha20 keyed by the round's R_v over every seat's link in seat
// order, its seq continuing the game's; in every other mode it is Stream.
func TestStreamFor(t *testing.T) {
	g := &engine.Game{}
	p := &g.Public
	p.Phase, p.GameID = engine.PhaseLobby, "sf"
	p.RNG = engine.RNGInfo{Mode: rng.ModeTrustless, Seq: 17}
	t0 := engine.Hash32{1}
	p.Trustless = &engine.Trustless{ChainLength: 100, NextIndex: 3, Seats: []engine.TrustSeat{{UID: "a", Seat: 0}, {UID: "b", Seat: 2}, {UID: "c", Seat: 4}}}
	move := engine.Action{Kind: engine.ActMove, Actor: "a"}
	s, err := StreamFor(g, &move)
	require.NoError(t, err)
	require.True(t, s.Refuses())
	require.Equal(t, uint64(17), s.Seq())

	digest := engine.Hash32{9}
	p.Trustless.Pending = &engine.Pending{Index: 3, Digest: digest, Transcript: t0}
	la, lb, lc := engine.Hash32{0xa}, engine.Hash32{0xb}, engine.Hash32{0xc}
	reveal := func(uid string, l engine.Hash32) *engine.Action {
		return &engine.Action{Kind: engine.ActReveal, Actor: uid, Link: l.String()}
	}
	// The first reveals do not close the round.
	s, err = StreamFor(g, reveal("c", lc))
	require.NoError(t, err)
	require.True(t, s.Refuses())
	g.Secret.Links = []engine.RoundLink{{Seat: 4, Link: lc}, {Seat: 0, Link: la}}
	// A reveal by a seat that has revealed already, or with a malformed
	// link, is not the closing one (the engine refuses it).
	s, _ = StreamFor(g, reveal("a", la))
	require.True(t, s.Refuses())
	s, _ = StreamFor(g, &engine.Action{Kind: engine.ActReveal, Actor: "b", Link: "zz"})
	require.True(t, s.Refuses())
	// The closing one: R_3 over a, b, c's links in seat order.
	s, err = StreamFor(g, reveal("b", lb))
	require.NoError(t, err)
	require.False(t, s.Refuses())
	require.Equal(t, rng.ModeTrustless, s.Mode())
	require.Equal(t, uint64(17), s.Seq())
	r := trustless.Randomness("sf", 3, (*[32]byte)(&digest), [][32]byte{la, lb, lc})
	require.Equal(t, hex.EncodeToString(r[:]), s.Seed())

	// Every other mode: Stream.
	sg := seededGame("x")
	sg.Public.Phase = engine.PhaseLobby
	a, _ := StreamFor(sg, reveal("b", lb))
	b, _ := Stream(sg)
	require.Equal(t, b.Uint32(rng.TagTestOnly, nil), a.Uint32(rng.TagTestOnly, nil))
}
