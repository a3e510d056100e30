package rng_test

import (
	"encoding/binary"
	"testing"

	"github.com/fairboard/fairboard/rng"
	"github.com/fairboard/fairboard/rng/tenhou"
)

// BenchmarkChaCha20Shuffle52 is one ADR-005 fisher-yates-v1 shuffle of a
// 52-card deck (51 Intn calls) from a stream already seeded. ADR-005
// budgets about 1 ms per shuffle; the target here is under 1 µs.
func BenchmarkChaCha20Shuffle52(b *testing.B) {
	r := rng.NewChaCha20([]byte("bench"))
	var deck [52]int
	b.ReportAllocs()
	for b.Loop() {
		r.Shuffle(len(deck), func(i, j int) { deck[i], deck[j] = deck[j], deck[i] })
	}
}

// BenchmarkChaCha20SeedAndShuffle52 includes seeding (SHA-256 of a 32-byte
// seed and the cipher set-up), as a server shuffling each hand afresh does.
func BenchmarkChaCha20SeedAndShuffle52(b *testing.B) {
	var seed [32]byte
	var deck [52]int
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		binary.BigEndian.PutUint64(seed[:], uint64(i))
		rng.NewChaCha20(seed[:]).Shuffle(len(deck), func(i, j int) { deck[i], deck[j] = deck[j], deck[i] })
	}
}

// BenchmarkHashChainShuffle52 is one GameRng shuffle of 52 cards (51
// next_bounded calls, about 52 bytes, two SHA-256 rehashes).
func BenchmarkHashChainShuffle52(b *testing.B) {
	h := rng.NewHashChain([]byte("bench"), 1, 0)
	var deck [52]int
	b.ReportAllocs()
	for b.Loop() {
		h.Shuffle(len(deck), func(i, j int) { deck[i], deck[j] = deck[j], deck[i] })
	}
}

// BenchmarkTenhouRound is one Tenhou round: 288 MT19937 words, 9 SHA-512
// digests and the 136-tile shuffle.
func BenchmarkTenhouRound(b *testing.B) {
	var seed [tenhou.SeedWords]uint32
	for i := range seed {
		seed[i] = uint32(i) * 2654435761
	}
	g := tenhou.NewGame(seed)
	var wall [tenhou.Tiles4]int
	b.ReportAllocs()
	for b.Loop() {
		r := g.Next()
		for i := range wall {
			wall[i] = i
		}
		tenhou.ShuffleWithRnd(wall[:], &r.Rnd)
	}
}
