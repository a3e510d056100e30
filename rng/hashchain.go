package rng

import (
	"crypto/sha256"
	"encoding/binary"
	"math"
)

// HashChain is the SHA-256 hash-chain GameRng of nullspace
// (github.com/happybigmtn/nullspace, execution/src/casino/mod.rs), bit for
// bit, quirks included:
//
//	state = SHA-256(seed || session BE u64 || move BE u32), index = 0
//	next_byte: if index == 32 { state = SHA-256(state); index = 0 };
//	           return state[index++]
//
// Every method is a fixed transformation of that one byte stream (see each).
// seed is the already-encoded consensus seed, the bytes of the reference's
// seed.encode(); see [NullspaceSeed].
//
// The zero value is a stream over the all-zero block; use [NewHashChain] or
// [HashChainFromState]. A HashChain is not safe for concurrent use; it does
// not allocate.
type HashChain struct {
	state [32]byte
	index int
}

// NewHashChain returns GameRng::new(seed, session, move): seed is the
// encoded seed bytes, hashed as given.
func NewHashChain(seed []byte, session uint64, move uint32) *HashChain {
	h := sha256.New()
	h.Write(seed)
	var tail [12]byte
	binary.BigEndian.PutUint64(tail[:8], session)
	binary.BigEndian.PutUint32(tail[8:], move)
	h.Write(tail[:])
	r := &HashChain{}
	h.Sum(r.state[:0])
	return r
}

// NullspaceSeed encodes a consensus seed as the reference's seed.encode()
// does for its Seed type (commonware threshold_simplex Seed<MinSig>): the
// view as an unsigned LEB128 varint, then the signature bytes (a 48-byte
// compressed BLS12-381 G1 point for MinSig, not checked here).
func NullspaceSeed(view uint64, signature []byte) []byte {
	out := binary.AppendUvarint(make([]byte, 0, binary.MaxVarintLen64+len(signature)), view)
	return append(out, signature...)
}

// HashChainFromState returns GameRng::from_state(state): the stream that
// reads state[0], state[1], ... and then rehashes. It is the restore half of
// [HashChain.State].
func HashChainFromState(state [32]byte) *HashChain {
	return &HashChain{state: state}
}

// State returns the current 32-byte block, as GameRng::state() does. Like
// the reference it does not include the read position, so
// HashChainFromState(h.State()) continues h exactly only when h has read no
// byte of the block yet; otherwise it re-reads the block from its start.
func (h *HashChain) State() [32]byte { return h.state }

// NextByte returns the next byte of the stream (next_byte, next_u8).
func (h *HashChain) NextByte() byte {
	if h.index >= 32 {
		h.state = sha256.Sum256(h.state[:])
		h.index = 0
	}
	b := h.state[h.index]
	h.index++
	return b
}

// NextU32 returns the next four bytes as a big-endian uint32 (next_u32).
func (h *HashChain) NextU32() uint32 {
	a, b, c, d := h.NextByte(), h.NextByte(), h.NextByte(), h.NextByte()
	return uint32(a)<<24 | uint32(b)<<16 | uint32(c)<<8 | uint32(d)
}

// Uint32 is [HashChain.NextU32], which makes a HashChain a [Source].
func (h *HashChain) Uint32() uint32 { return h.NextU32() }

// Uint64 returns two NextU32 words, high one first, as the reference's
// rand::RngCore::next_u64 does.
func (h *HashChain) Uint64() uint64 {
	hi := uint64(h.NextU32())
	return hi<<32 | uint64(h.NextU32())
}

// NextF32 returns a float32 in [0, 1) from the next three bytes:
// (a<<16 | b<<8 | c) / 2^24 (next_f32). The division is exact.
func (h *HashChain) NextF32() float32 {
	a, b, c := h.NextByte(), h.NextByte(), h.NextByte()
	return float32(uint32(a)<<16|uint32(b)<<8|uint32(c)) / (1 << 24)
}

// NextBounded returns a value in [0, max) by the reference's rejection
// sampling (next_bounded): limit = 255 - 255%max; read bytes until one is
// < limit; return it % max. For max = 0 it returns 0 and reads nothing.
//
// Quirk kept: the limit never exceeds 255, so the byte 255 is always
// rejected, even when max divides 256 (max = 1, 2, 4, ..., 128) and no
// rejection is needed. The result is still uniform; only the byte count
// differs from a textbook sampler.
func (h *HashChain) NextBounded(max uint8) uint8 {
	if max == 0 {
		return 0
	}
	limit := math.MaxUint8 - math.MaxUint8%max
	for {
		if v := h.NextByte(); v < limit {
			return v % max
		}
	}
}

// NextBoundedU32 returns a value in [0, max) as next_bounded_u32 does:
// limit = 2^32-1 - (2^32-1)%max; read NextU32 until one is < limit; return
// it % max. For max = 0 it returns 0 and reads nothing. The same quirk as
// NextBounded: the word 2^32-1 is always rejected.
func (h *HashChain) NextBoundedU32(max uint32) uint32 {
	if max == 0 {
		return 0
	}
	limit := math.MaxUint32 - math.MaxUint32%max
	for {
		if v := h.NextU32(); v < limit {
			return v % max
		}
	}
}

// NextBoundedUsize returns a value in [0, max) as next_bounded_usize does:
// 0 for max <= 0 (reading nothing), NextBounded for max <= 255,
// NextBoundedU32 for max <= 2^32-1, and NextBoundedU32(2^32-1) beyond (the
// reference's own fallback, which then stays below 2^32-1).
func (h *HashChain) NextBoundedUsize(max int) int {
	switch {
	case max <= 0:
		return 0
	case max <= math.MaxUint8:
		return int(h.NextBounded(uint8(max)))
	case uint64(max) <= math.MaxUint32:
		return int(h.NextBoundedU32(uint32(max)))
	default:
		return int(h.NextBoundedU32(math.MaxUint32))
	}
}

// Shuffle permutes n items by the reference's Fisher-Yates (shuffle): for i
// from n-1 down to 1, j = NextBounded(i+1) when n <= 255, else
// NextBoundedUsize(i+1) for every i (even the small ones, whose draws then
// go through the same byte path); swap(i, j). n <= 1 reads nothing.
func (h *HashChain) Shuffle(n int, swap func(i, j int)) {
	if n <= math.MaxUint8 {
		for i := n - 1; i > 0; i-- {
			swap(i, int(h.NextBounded(uint8(i+1))))
		}
		return
	}
	for i := n - 1; i > 0; i-- {
		swap(i, h.NextBoundedUsize(i+1))
	}
}

// DrawCard removes a uniformly chosen card from deck by swap-remove and
// returns it with the shortened deck (draw_card): idx = NextBounded(len)
// when len <= 255, else NextBoundedUsize(len); the last card moves into
// slot idx. An empty deck returns ok = false and reads nothing. deck's
// backing array is modified.
func (h *HashChain) DrawCard(deck []byte) (card byte, rest []byte, ok bool) {
	n := len(deck)
	if n == 0 {
		return 0, deck, false
	}
	var idx int
	if n <= math.MaxUint8 {
		idx = int(h.NextBounded(uint8(n)))
	} else {
		idx = h.NextBoundedUsize(n)
	}
	card = deck[idx]
	deck[idx] = deck[n-1]
	return card, deck[:n-1], true
}

// RollDie returns NextBounded(6) + 1, in [1, 6] (roll_die).
func (h *HashChain) RollDie() uint8 { return h.NextBounded(6) + 1 }

// SpinRoulette returns NextBounded(37), in [0, 36] (spin_roulette).
func (h *HashChain) SpinRoulette() uint8 { return h.NextBounded(37) }
