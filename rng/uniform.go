package rng

import "math/bits"

// uniform returns a value in [0, n) for n in [1, 2^32], consuming words
// exactly as the spec's uniformInt does:
//
//	limit = floor(2^32 / n) * n
//	do u = next() while u >= limit
//	return u % n
//
// The spec's arithmetic is the contract (other clients replay it), so this is
// that arithmetic made faster, not another method such as Lemire's: for the
// small spans of dice and decks (n <= smallSpan) the limit and the modulus
// come from a table computed once, so a draw does no division; when n
// divides 2^32 (1, powers of two, 2^32) every word is accepted and u % n is
// a mask. uniformRef in the tests is the plain transcription it is checked
// against.
//
// The word source is read inline (sfc32's Uint32 is inlined; the interface
// call is the fallback for other sources) rather than through Stream.next,
// which is too big to inline.
func (s *Stream) uniform(n uint64) uint64 {
	g, src := s.sfc, s.src
	var u uint32
	switch {
	case n&(n-1) == 0:
		// n divides 2^32: the limit is 2^32 itself.
		if g != nil {
			u = g.Uint32()
		} else {
			u = src.Uint32()
		}
		return uint64(u) & (n - 1)
	case n <= smallSpan:
		if g != nil {
			return drawSmall(g, n)
		}
		t := &smallTab[n]
		for {
			if u := uint64(src.Uint32()); u < t.limit {
				return fastMod(uint32(u), t.magic, n)
			}
		}
	default:
		limit := uint32((1 << 32) / n * n) // < 2^32 because n does not divide 2^32
		for {
			if g != nil {
				u = g.Uint32()
			} else {
				u = src.Uint32()
			}
			if u < limit {
				return uint64(u % uint32(n))
			}
		}
	}
}

// drawSmall is uniform for an sfc32 source and 2 <= n <= smallSpan, written
// to fit Go's inlining budget (cost 80 of 80) so that Dice and Shuffle, the
// hottest callers, make no call per draw. Keep it that small:
// `go build -gcflags=-m ./rng` must report "can inline drawSmall".
func drawSmall(g *SFC32, n uint64) uint64 {
	t := &smallTab[n]
	for {
		if u := uint64(g.Uint32()); u < t.limit {
			hi, _ := bits.Mul64(t.magic*u, n)
			return hi
		}
	}
}

// smallSpan is the largest span served from the table.
const smallSpan = 256

// smallTab[n] holds, for n in [2, smallSpan], the spec's limit
// floor(2^32/n)*n and the fastMod multiplier. The limit is kept in 64 bits
// because for a power of two it is 2^32 itself (every word is accepted).
var smallTab [smallSpan + 1]struct{ limit, magic uint64 }

func init() {
	for n := uint64(2); n <= smallSpan; n++ {
		smallTab[n].limit = (1 << 32) / n * n
		smallTab[n].magic = ^uint64(0)/n + 1
	}
}

// fastMod returns u % n using Lemire, Kaser and Kurz's "Faster remainder by
// direct computation" (2019): with m = floor((2^64-1)/n)+1, u % n is the
// high word of (m*u mod 2^64) * n, exact for every 32-bit u and 2 <= n < 2^32.
func fastMod(u uint32, m, n uint64) uint64 {
	hi, _ := bits.Mul64(m*uint64(u), n)
	return hi
}
