package rng

import (
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"math/bits"
	"strings"
)

// SFC32 is Chris Doty-Humphrey's Small Fast Counting generator, 32-bit, in
// the form of bryc's published JavaScript:
//
//	t = a + b + d; d = d + 1; a = b ^ b>>9; b = c + c<<3; c = rotl(c, 21) + t
//
// returning t, with no warm-up discards. The zero value is a valid generator
// (state 0,0,0,0), though not a useful one; use [NewSFC32] or [SeedSFC32].
type SFC32 struct {
	a, b, c, d uint32
}

// NewSFC32 returns a generator with the state (a, b, c, d).
func NewSFC32(a, b, c, d uint32) *SFC32 {
	return &SFC32{a, b, c, d}
}

// SeedSFC32 returns sfc32 seeded with cyrb128(seed), as the spec's seeded
// mode does. It fails only if seed is not valid UTF-8.
func SeedSFC32(seed string) (*SFC32, error) {
	h, err := Cyrb128(seed)
	if err != nil {
		return nil, err
	}
	return NewSFC32(h[0], h[1], h[2], h[3]), nil
}

// Uint32 returns the next word of the stream. c*9 is the JavaScript's
// c + (c << 3) and RotateLeft32(c, 21) its (c << 21 | c >>> 11), modulo 2^32
// alike; written so, the step costs the inliner less, which keeps drawSmall
// inlinable.
func (s *SFC32) Uint32() uint32 {
	t := s.a + s.b + s.d
	s.d++
	s.a = s.b ^ s.b>>9
	s.b = s.c * 9
	s.c = bits.RotateLeft32(s.c, 21) + t
	return t
}

const sfc32Prefix = "sfc32:"

// MarshalText returns the state as "sfc32:" followed by the four words as 32
// lower-case hex digits (big-endian a, b, c, d). It never fails.
func (s *SFC32) MarshalText() ([]byte, error) {
	var raw [16]byte
	binary.BigEndian.PutUint32(raw[0:], s.a)
	binary.BigEndian.PutUint32(raw[4:], s.b)
	binary.BigEndian.PutUint32(raw[8:], s.c)
	binary.BigEndian.PutUint32(raw[12:], s.d)
	out := make([]byte, 0, len(sfc32Prefix)+32)
	out = append(out, sfc32Prefix...)
	return hex.AppendEncode(out, raw[:]), nil
}

// UnmarshalText restores a state written by [SFC32.MarshalText]. It returns an
// error, and leaves s unchanged, if text is not exactly "sfc32:" and 32 hex
// digits.
func (s *SFC32) UnmarshalText(text []byte) error {
	str := string(text)
	if !strings.HasPrefix(str, sfc32Prefix) {
		return fmt.Errorf("rng: saved state %q does not name sfc32 (want prefix %q)", truncate(str), sfc32Prefix)
	}
	body := str[len(sfc32Prefix):]
	if len(body) != 32 {
		return fmt.Errorf("rng: saved sfc32 state has %d hex digits, want 32", len(body))
	}
	raw, err := hex.DecodeString(body)
	if err != nil {
		return errors.New("rng: saved sfc32 state is not hexadecimal")
	}
	s.a = binary.BigEndian.Uint32(raw[0:])
	s.b = binary.BigEndian.Uint32(raw[4:])
	s.c = binary.BigEndian.Uint32(raw[8:])
	s.d = binary.BigEndian.Uint32(raw[12:])
	return nil
}

// truncate shortens untrusted text quoted in an error message.
func truncate(s string) string {
	const max = 40
	if len(s) <= max {
		return s
	}
	return s[:max] + "..."
}
