//go:build gc && !purego

package rng

import (
	"sync"

	"golang.org/x/crypto/chacha20poly1305"
)

// chachaHaveAEAD says that chachaSealPrefix uses the AEAD on this build.
const chachaHaveAEAD = true

// chachaNonce (ADR-005's all-zero nonce) and chachaZeros (the plaintext
// Seal encrypts: keystream XOR 0 = keystream) are only ever read.
var (
	chachaNonce [chacha20poly1305.NonceSize]byte
	chachaZeros [chachaSealLen]byte
)

// chachaSealPool holds Seal's output buffers, keystream then tag. Seal is
// called through the cipher.AEAD interface, so the compiler must assume
// that anything it writes to escapes; a pooled buffer, copied from, keeps
// the ChaCha20 itself off the heap (NewChaCha20 inlines, and a stream made
// and used in one function, as ShuffleDeck does, stays on its stack).
var chachaSealPool = sync.Pool{
	New: func() any { return new([chachaSealLen + chacha20poly1305.Overhead]byte) },
}

// chachaSealPrefix writes keystream blocks 1..chachaPrefixBlocks-1 of key's
// zero-nonce ChaCha20 to dst using chacha20poly1305's assembly (see
// chacha20_fast.go). It reports false, having written nothing, when the
// AEAD refuses to run (FIPS 140-only mode).
func chachaSealPrefix(key *[32]byte, dst *[chachaSealLen]byte) bool {
	aead, err := chacha20poly1305.New(key[:])
	if err != nil {
		return false
	}
	out := chachaSealPool.Get().(*[chachaSealLen + chacha20poly1305.Overhead]byte)
	aead.Seal(out[:0], chachaNonce[:], chachaZeros[:], nil)
	*dst = [chachaSealLen]byte(out[:chachaSealLen])
	chachaSealPool.Put(out)
	return true
}
