// Package tenhou reproduces Tenhou's published wall shuffle for Japanese
// mahjong ("mt19937ar-sha512-n288-base64"), so that the wall of any round
// of any Tenhou game can be rebuilt from the game's seed and checked.
//
// The algorithm, as Tenhou published it on blog.tenhou.net and as
// the tenhou-shuffle crate re-implements it:
//
//   - The game seed is 624 32-bit words, stored base64-encoded as
//     little-endian bytes in the log's SHUFFLE attribute ([ParseSeed]). One
//     [MT19937] per game is seeded with init_by_array over those words.
//   - Each round takes the next 288 words of that generator (src,
//     [SrcFromMT]), hashes each 32-word chunk, as 128 little-endian bytes,
//     with SHA-512, and reads each 64-byte digest back as 16 little-endian
//     words: 9 x 16 = 144 words (rnd, [RndFromSrc]).
//   - The wall starts sorted (tile ids 0..n-1 for the 136-tile game) and is
//     shuffled low to high: for i in 0..n-2, swap(i, i + rnd[i] % (n-i))
//     ([ShuffleWithRnd]). The dice are rnd[135] % 6 and rnd[136] % 6
//     (0-based, 0..5).
//   - Tiles are dealt from the highest index down; the lowest 14 indices are
//     the dead wall, and the first dora indicator is wall[5]
//     ([Round.DoraIndicator]; checked against the published game).
//
// Tile ids are Tenhou's: id/4 is the tile kind in the order 1m..9m, 1p..9p,
// 1s..9s, E S W N, haku hatsu chun; id%4 the copy.
package tenhou

import (
	"crypto/sha512"
	"encoding/base64"
	"encoding/binary"
	"errors"
	"fmt"
	"strings"
)

// Sizes of the algorithm's arrays.
const (
	SeedWords = 624 // words of a game seed
	SrcWords  = 288 // src words per round (9 chunks of 32)
	RndWords  = 144 // rnd words per round (9 SHA-512 digests of 16)
	Tiles4    = 136 // tiles of the 4-player game
	Tiles3    = 108 // tiles of the 3-player game (2m..8m removed)
)

// SeedPrefix is what the log's SHUFFLE attribute puts before the base64
// seed: the algorithm's name.
const SeedPrefix = "mt19937ar-sha512-n288-base64,"

// ErrSeed is wrapped by every error of [ParseSeed].
var ErrSeed = errors.New("tenhou: invalid seed")

// ParseSeed decodes a game seed: standard base64 (padding optional) of the
// 624 words as little-endian bytes, with or without [SeedPrefix]. It returns
// an error wrapping [ErrSeed] if the text is not base64 or does not decode
// to exactly 2496 bytes.
func ParseSeed(s string) ([SeedWords]uint32, error) {
	var words [SeedWords]uint32
	s = strings.TrimPrefix(strings.TrimSpace(s), SeedPrefix)
	raw, err := base64.RawStdEncoding.DecodeString(strings.TrimRight(s, "="))
	if err != nil {
		return words, fmt.Errorf("%w: not base64: %v", ErrSeed, err)
	}
	if len(raw) != 4*SeedWords {
		return words, fmt.Errorf("%w: decodes to %d bytes, want %d (624 words)", ErrSeed, len(raw), 4*SeedWords)
	}
	for i := range words {
		words[i] = binary.LittleEndian.Uint32(raw[4*i:])
	}
	return words, nil
}

// SrcFromMT returns the next 288 words of the game generator: one round's
// src.
func SrcFromMT(mt *MT19937) [SrcWords]uint32 {
	var src [SrcWords]uint32
	for i := range src {
		src[i] = mt.Uint32()
	}
	return src
}

// RndFromSrc returns rnd: for each 32-word chunk of src, SHA-512 of its 128
// little-endian bytes, read back as 16 little-endian words.
func RndFromSrc(src *[SrcWords]uint32) [RndWords]uint32 {
	var rnd [RndWords]uint32
	var chunk [128]byte
	for c := range SrcWords / 32 {
		for i := range 32 {
			binary.LittleEndian.PutUint32(chunk[4*i:], src[32*c+i])
		}
		sum := sha512.Sum512(chunk[:])
		for i := range 16 {
			rnd[16*c+i] = binary.LittleEndian.Uint32(sum[4*i:])
		}
	}
	return rnd
}

// ShuffleWithRnd shuffles wall in place as Tenhou does: for i from 0 to
// len-2, swap(i, i + rnd[i] % (len-i)). Tenhou shuffles 136 or 108 tiles;
// any length up to 144 (the size of rnd) is accepted, and longer walls
// panic.
func ShuffleWithRnd[T any](wall []T, rnd *[RndWords]uint32) {
	n := len(wall)
	if n > RndWords {
		panic("tenhou: wall longer than rnd")
	}
	for i := 0; i+1 < n; i++ {
		j := i + int(rnd[i]%uint32(n-i))
		wall[i], wall[j] = wall[j], wall[i]
	}
}

// ThreePlayerTiles returns the 108 tile ids of the 3-player game in
// ascending order: all 136 ids except 2m..8m (ids 4..31).
func ThreePlayerTiles() []int {
	t := make([]int, 0, Tiles3)
	for id := range Tiles4 {
		if id < 4 || id >= 32 {
			t = append(t, id)
		}
	}
	return t
}
