//go:build gc && !purego

package rng

import "golang.org/x/crypto/chacha20poly1305"

// chachaHaveAEAD says that chachaSealPrefix uses the AEAD on this build.
const chachaHaveAEAD = true

// chachaNonce (ADR-005's all-zero nonce) and chachaZeros (the plaintext
// Seal encrypts: keystream XOR 0 = keystream) are only ever read.
var (
	chachaNonce [chacha20poly1305.NonceSize]byte
	chachaZeros [(chachaPrefixBlocks - 1) * chachaBlock]byte
)

// chachaSealPrefix writes keystream blocks 1..chachaPrefixBlocks-1 of key's
// zero-nonce ChaCha20 to dst, followed by the 16 tag bytes Seal appends,
// using chacha20poly1305's assembly (see chacha20_fast.go). dst needs room
// for both. It reports false, having written nothing, when the AEAD refuses
// to run (FIPS 140-only mode).
func chachaSealPrefix(key *[32]byte, dst []byte) bool {
	aead, err := chacha20poly1305.New(key[:])
	if err != nil {
		return false
	}
	aead.Seal(dst[:0], chachaNonce[:], chachaZeros[:], nil)
	return true
}
