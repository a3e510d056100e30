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
// come from tables computed once, so a draw does no division. uniformRef in
// the tests is the plain transcription it is checked against.
func (s *Stream) uniform(n uint64) uint64 {
	if n <= 1 {
		s.next() // limit is 2^32: every word is accepted, and u % 1 is 0
		return 0
	}
	if n <= smallSpan {
		lim, m := smallLimit[n], smallMagic[n]
		for {
			u := s.next()
			if uint64(u) < lim {
				return fastMod(u, m, n)
			}
		}
	}
	if n&(n-1) == 0 {
		// A power of two divides 2^32: the limit is 2^32 itself, so every
		// word is accepted, and u % n is u & (n-1). (This also covers
		// n = 2^32, whose modulus does not fit a word.)
		return uint64(s.next()) & (n - 1)
	}
	limit := uint32((1 << 32) / n * n) // < 2^32 because n does not divide 2^32
	for {
		u := s.next()
		if u < limit {
			return uint64(u % uint32(n))
		}
	}
}

// smallSpan is the largest span served from the tables.
const smallSpan = 256

// smallLimit[n] is the spec's floor(2^32/n)*n and smallMagic[n] the fastMod
// multiplier, for n in [2, smallSpan] (n = 1 is handled before the tables).
// The limit is kept in 64 bits because for a power of two n it is 2^32
// itself: every word is accepted.
var (
	smallLimit [smallSpan + 1]uint64
	smallMagic [smallSpan + 1]uint64
)

func init() {
	for n := uint64(2); n <= smallSpan; n++ {
		smallMagic[n] = ^uint64(0)/n + 1
		smallLimit[n] = (1 << 32) / n * n
	}
}

// fastMod returns u % n using Lemire, Kaser and Kurz's "Faster remainder by
// direct computation" (2019): with m = floor((2^64-1)/n)+1, u % n is the
// high word of (m*u mod 2^64) * n, exact for every 32-bit u and 2 <= n < 2^32.
func fastMod(u uint32, m, n uint64) uint64 {
	hi, _ := bits.Mul64(m*uint64(u), n)
	return hi
}
