package rng

import (
	"fmt"
	"unicode/utf16"
	"unicode/utf8"
)

// Cyrb128 is bryc's cyrb128 string hash (public domain, "PRNGs" in
// github.com/bryc/code), in its current published form with the final mix
// h1 ^= h2^h3^h4; h2 ^= h1; h3 ^= h1; h4 ^= h1.
//
// JavaScript hashes a string by its UTF-16 code units (charCodeAt), so Go
// does the same: s is decoded as UTF-8 and every rune outside the Basic
// Multilingual Plane becomes its surrogate pair. Any string a client can type
// therefore hashes to the client's numbers. s must be valid UTF-8 (a JS
// string cannot hold anything else); otherwise Cyrb128 returns an error.
func Cyrb128(s string) ([4]uint32, error) {
	if !utf8.ValidString(s) {
		return [4]uint32{}, fmt.Errorf("rng: seed %q is not valid UTF-8, so no JavaScript client can type it", s)
	}
	h1, h2, h3, h4 := uint32(1779033703), uint32(3144134277), uint32(1013904242), uint32(2773480762)
	mix := func(k uint32) {
		h1 = h2 ^ ((h1 ^ k) * 597399067)
		h2 = h3 ^ ((h2 ^ k) * 2869860233)
		h3 = h4 ^ ((h3 ^ k) * 951274213)
		h4 = h1 ^ ((h4 ^ k) * 2716044179)
	}
	for _, r := range s {
		if r >= 0x10000 {
			hi, lo := utf16.EncodeRune(r)
			mix(uint32(hi))
			mix(uint32(lo))
			continue
		}
		mix(uint32(r))
	}
	h1 = (h3 ^ (h1 >> 18)) * 597399067
	h2 = (h4 ^ (h2 >> 22)) * 2869860233
	h3 = (h1 ^ (h3 >> 17)) * 951274213
	h4 = (h2 ^ (h4 >> 19)) * 2716044179
	h1 ^= h2 ^ h3 ^ h4
	h2 ^= h1
	h3 ^= h1
	h4 ^= h1
	return [4]uint32{h1, h2, h3, h4}, nil
}
