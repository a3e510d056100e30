package rng

import "math/bits"

// How ChaCha20 makes its keystream quickly without changing a byte of it.
//
// A 52-card fisher-yates-v1 shuffle reads 51 x 8 = 408 keystream bytes:
// blocks 0..6 of ChaCha20 with the zero nonce. x/crypto's chacha20 has no
// SIMD code on amd64; its pure-Go block takes about 75 ns here, so the seven
// blocks cost more than the rest of the shuffle, seeding included.
// x/crypto's chacha20poly1305 does have AVX2 code on amd64, and RFC 8439's
// AEAD encrypts with the very same ChaCha20: same key, same 12-byte nonce,
// block counter 1, 2, ... for the plaintext (block 0 makes the Poly1305
// key, which Seal does not return). So Seal(zero nonce, 384 zero bytes) is
// keystream blocks 1..6 followed by a 16-byte tag that we ignore. Block 0
// comes from x/crypto's chacha20.
//
// That is the "prefix": the first read of a stream makes blocks 0..6 (one
// pure-Go block and one Seal, about 365 ns against 525 ns for seven pure-Go
// blocks), the whole of what a fresh 52-card shuffle needs. Seal has a fixed
// cost near 190 ns and about 25 ns a block after that, so it is worth it only
// for several blocks at once, and it cannot start anywhere but counter 1:
// every block after the prefix comes from x/crypto's chacha20, after
// SetCounter(chachaPrefixBlocks), chachaRefillBlocks at a time (one block
// at a time costs a long stream about 30 ns more per 52-card shuffle, in
// call overhead).
//
// Where the AEAD has no assembly (other architectures, the purego tag), or
// refuses to run (FIPS 140-only mode), chachaSealPrefix reports false and
// the prefix is made by x/crypto's chacha20 like the rest. On an amd64
// without AVX2 and BMI2, x/crypto's Seal falls back to its own pure Go: the
// same bytes, just slower. The tests compare both ways byte for byte with
// RFC 8439's vectors, with OpenSSL's vectors and with the plain reference
// (the code before this one) over many seeds, lengths and read patterns.

const (
	chachaBlock = 64
	// chachaPrefixBlocks is how many blocks the first read makes: 7, the
	// 408 bytes of a 52-card shuffle rounded up to whole blocks.
	chachaPrefixBlocks = 7
	// chachaRefillBlocks is how many blocks each later read makes.
	chachaRefillBlocks = 4
	// chachaBuf holds the prefix; later the refill blocks and the at most
	// 7 unread bytes kept in front of them.
	chachaBuf = chachaPrefixBlocks * chachaBlock
	// chachaSealLen is the keystream one Seal makes: blocks 1..6.
	chachaSealLen = (chachaPrefixBlocks - 1) * chachaBlock
)

// refill moves the unread bytes (fewer than 8) to the front of the buffer
// and adds fresh keystream after them: the prefix on the first call, then
// chachaRefillBlocks blocks per call.
func (r *ChaCha20) refill() {
	k := copy(r.buf[:], r.buf[r.pos:r.end])
	r.pos = 0
	if !r.started {
		r.started = true // and k == 0: nothing was read before
		if r.fast && chachaSealPrefix(&r.key, (*[chachaSealLen]byte)(r.buf[chachaBlock:])) {
			blk := r.buf[:chachaBlock]
			clear(blk)
			r.c.XORKeyStream(blk, blk) // block 0
			r.c.SetCounter(chachaPrefixBlocks)
			r.end = chachaPrefixBlocks * chachaBlock
			r.blocks = chachaPrefixBlocks
			return
		}
	}
	blk := r.buf[k : k+chachaRefillBlocks*chachaBlock]
	clear(blk)
	r.c.XORKeyStream(blk, blk)
	r.end = k + len(blk)
	r.blocks += chachaRefillBlocks
}

// chachaSmallN is the largest n whose reciprocal is in chachaRecip.
const chachaSmallN = 256

// chachaRecip[n] = floor((2^64-1)/n) for n in [1, chachaSmallN].
var chachaRecip [chachaSmallN + 1]uint64

func init() {
	for n := uint64(1); n <= chachaSmallN; n++ {
		chachaRecip[n] = ^uint64(0) / n
	}
}

// chachaMod returns v % n for n >= 1, the ADR's plain modulo, without a
// 64-bit division for n <= chachaSmallN (a DIV is most of an Intn's
// arithmetic).
//
// With m = floor((2^64-1)/n) >= 2^64/n - 1, the estimate q' = floor(v*m /
// 2^64) satisfies v/n - 1 < v*m/2^64 <= v/n, so q' is the true quotient
// q = floor(v/n) or q-1, and r' = v - q'*n (exact in uint64) is v % n or
// v % n + n: one conditional subtraction finishes. This is the one-
// correction form of Barrett's reduction; Lemire, Kaser and Kurz's direct
// remainder with a 128-bit multiplier is also exact here, but needs four
// multiplications instead of two and measured slower. TestChaCha20Mod
// checks it against % for every n <= chachaSmallN on edge and random
// dividends; FuzzChaCha20Mod on any.
func chachaMod(v, n uint64) uint64 {
	if n > chachaSmallN {
		return v % n
	}
	q, _ := bits.Mul64(v, chachaRecip[n])
	r := v - q*n
	if r >= n {
		r -= n
	}
	return r
}
