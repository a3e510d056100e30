package rng_test

import (
	"math/rand/v2" // allowed here: the rng package's own test, as a yardstick
	"testing"

	"github.com/fairboard/fairboard/rng"
)

// Benchmarks, run on request:
//
//	go test -run '^$' -bench . -benchmem -count 3 ./rng/
//
// Targets (see docs/rng.md): Shuffle52Seeded <= Shuffle52MathRandV2PCG with
// 0 allocs/op; DiceTagged <= 1.2 x BareSFC32Rejection; Shuffle52Crypto < 2 µs.

var (
	sinkInt int
	sinkU32 uint32
	benchN  uint32 = 6 // a variable, so the bare benchmark's % is a real division as in a call
)

func newDeck() []int {
	deck := make([]int, 52)
	for i := range deck {
		deck[i] = i
	}
	return deck
}

func BenchmarkShuffle52Seeded(b *testing.B) {
	s := seeded(b, "bench")
	deck := newDeck()
	b.ReportAllocs()
	for b.Loop() {
		rng.Shuffle(s, deck, rng.TagReshuffleChance, nil)
	}
	sinkInt = deck[0]
}

func BenchmarkShuffle52MathRandV2PCG(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 2))
	deck := newDeck()
	b.ReportAllocs()
	for b.Loop() {
		r.Shuffle(52, func(i, j int) { deck[i], deck[j] = deck[j], deck[i] })
	}
	sinkInt = deck[0]
}

func BenchmarkShuffle52Crypto(b *testing.B) {
	s := rng.NewCrypto()
	deck := newDeck()
	b.ReportAllocs()
	for b.Loop() {
		rng.Shuffle(s, deck, rng.TagReshuffleChance, nil)
	}
	sinkInt = deck[0]
}

func BenchmarkShuffle52Audited(b *testing.B) {
	n := 0
	s := seeded(b, "bench", rng.WithAuditor(rng.AuditorFunc(func(e rng.Entry) { n += len(e.Data.HeadPreview) })))
	deck := newDeck()
	ctx := rng.Ctx{DeckID: "chance"}
	b.ReportAllocs()
	for b.Loop() {
		rng.Shuffle(s, deck, rng.TagReshuffleChance, &ctx)
	}
	sinkInt = n
}

func BenchmarkDiceTagged(b *testing.B) {
	s := seeded(b, "bench")
	ctx := rng.Ctx{Turn: 3, ActorUID: "u1"}
	b.ReportAllocs()
	for b.Loop() {
		d, _ := s.Dice(6, rng.TagMoveRoll, &ctx)
		sinkInt += d.Value
	}
}

// BenchmarkBareSFC32Rejection is the floor for a die: one bare sfc32 draw
// with the spec's rejection step written inline (limit, loop, %), no stream,
// no tag, no seq.
func BenchmarkBareSFC32Rejection(b *testing.B) {
	g, _ := rng.SeedSFC32("bench")
	b.ReportAllocs()
	for b.Loop() {
		n := benchN
		limit := uint32((1 << 32) / uint64(n) * uint64(n))
		u := g.Uint32()
		for u >= limit {
			u = g.Uint32()
		}
		sinkU32 += 1 + u%n
	}
}
