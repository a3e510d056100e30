// Package jsref is a second implementation of the seeded stream's two
// published pieces, bryc's cyrb128 and sfc32, transcribed from the
// JavaScript statement by statement (UTF-16 code units as charCodeAt gives
// them, Math.imul and every sum modulo 2^32). It shares no code with package
// rng: tests use it as the independent reference that rng's seeded mode
// and the golden fixtures are checked against. Not for use outside tests.
package jsref

import (
	"fmt"
	"unicode/utf16"
)

// Cyrb128 is bryc's cyrb128 over the UTF-16 code units of s.
func Cyrb128(s string) [4]uint32 { return Cyrb128Units(utf16.Encode([]rune(s))) }

// Cyrb128Units is bryc's cyrb128 over the code units.
func Cyrb128Units(units []uint16) [4]uint32 {
	h1, h2, h3, h4 := uint32(1779033703), uint32(3144134277), uint32(1013904242), uint32(2773480762)
	for _, u := range units {
		k := uint32(u)
		h1 = h2 ^ (h1^k)*597399067
		h2 = h3 ^ (h2^k)*2869860233
		h3 = h4 ^ (h3^k)*951274213
		h4 = h1 ^ (h4^k)*2716044179
	}
	h1 = (h3 ^ h1>>18) * 597399067
	h2 = (h4 ^ h2>>22) * 2869860233
	h3 = (h1 ^ h3>>17) * 951274213
	h4 = (h2 ^ h4>>19) * 2716044179
	h1 ^= h2 ^ h3 ^ h4
	h2 ^= h1
	h3 ^= h1
	h4 ^= h1
	return [4]uint32{h1, h2, h3, h4}
}

// SFC32 is bryc's sfc32 (c + (c << 3) and (c << 21 | c >>> 11), all
// modulo 2^32), its state the four words a, b, c, d.
type SFC32 struct{ A, B, C, D uint32 }

// NewSFC32 returns the generator seeded with the four words of h, as the
// spec seeds it from cyrb128 (no words discarded).
func NewSFC32(h [4]uint32) *SFC32 { return &SFC32{h[0], h[1], h[2], h[3]} }

// Next returns the next 32-bit word.
func (s *SFC32) Next() uint32 {
	t := s.A + s.B + s.D
	s.D = s.D + 1
	s.A = s.B ^ s.B>>9
	s.B = s.C + s.C<<3
	s.C = s.C<<21 | s.C>>11
	s.C = s.C + t
	return t
}

// State is the state as rng's saved-state text writes it: "sfc32:" and the
// four words a, b, c, d as 32 hex digits.
func (s *SFC32) State() string { return fmt.Sprintf("sfc32:%08x%08x%08x%08x", s.A, s.B, s.C, s.D) }
