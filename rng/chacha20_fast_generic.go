//go:build !amd64 || !gc || purego

package rng

// chachaHaveAEAD says that chachaSealPrefix never uses the AEAD here.
const chachaHaveAEAD = false

// chachaSealPrefix reports false: without chacha20poly1305's amd64 assembly
// the AEAD is no faster than x/crypto's chacha20 (which has assembly of its
// own on arm64, ppc64x and s390x), so every block comes from chacha20.
func chachaSealPrefix(key *[32]byte, dst *[chachaSealLen]byte) bool { return false }
