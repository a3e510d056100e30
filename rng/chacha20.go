package rng

import (
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"slices"

	"golang.org/x/crypto/chacha20"
)

// ChaCha20Algorithm is the versioned name ADR-005 gives its shuffle: a
// Fisher-Yates shuffle driven by [ChaCha20]. Events and audit records that
// carry a ChaCha20 seed name this algorithm so that a later change of
// method gets a new name.
const ChaCha20Algorithm = "fisher-yates-v1"

// ChaCha20 is ADR-005's seeded RNG: the keystream of ChaCha20 (RFC 8439)
// with key = SHA-256(seed), an all-zero 12-byte nonce and the block counter
// starting at 0, read in order. Every method takes the next bytes of that
// one keystream:
//
//	Intn(n)  = BE uint64 of the next 8 bytes % n   (the ADR's arithmetic)
//	Uint64() = BE uint64 of the next 8 bytes
//	Uint32() = BE uint32 of the next 4 bytes       (so it is a [Source])
//
// Intn keeps the ADR's plain modulo: its bias is below n/2^64, far under
// anything measurable, and replays must match the ADR's numbers.
//
// The keystream is made as it is read (see chacha20_fast.go): the first
// read makes the 7 blocks a 52-card shuffle needs, later reads 4 blocks at
// a time. The stream ends after 2^32 blocks (256 GiB), where it panics, as
// x/crypto's cipher does.
//
// Use [NewChaCha20]; the zero value is not usable. A ChaCha20 is not safe
// for concurrent use. It does not allocate after its first read.
type ChaCha20 struct {
	c   chacha20.Cipher // makes the blocks after the prefix
	key [32]byte        // for the AEAD prefix; unused once started
	// fast: make blocks 1..6 with the AEAD (chacha20_fast_amd64.go);
	// started: the prefix has been made.
	fast, started bool
	buf           [chachaBuf]byte // keystream bytes buf[pos:end] are unread
	pos, end      int
	// blocks is the number of keystream blocks made so far (the block
	// counter of the next one), so that Offset needs no per-read count.
	blocks uint64
}

// NewChaCha20 returns the stream for seed (any length, empty included).
func NewChaCha20(seed []byte) *ChaCha20 {
	// Small enough to inline, so that a stream made and used in one
	// function can live on its stack instead of the heap.
	r := new(ChaCha20)
	r.setSeed(seed)
	return r
}

// setSeed starts r, which must be new, on key = SHA-256(seed).
func (r *ChaCha20) setSeed(seed []byte) { r.setKey(sha256.Sum256(seed), true) }

// newChaCha20Key returns the stream for a raw key (zero nonce, counter 0),
// which lets the tests check it against RFC 8439's all-zero-key vectors.
// fast = false makes every block with x/crypto's chacha20 alone, so that the
// tests can compare the two ways of making the keystream.
func newChaCha20Key(key [32]byte, fast bool) *ChaCha20 {
	r := new(ChaCha20)
	r.setKey(key, fast)
	return r
}

// setKey starts r, which must be new, on key.
func (r *ChaCha20) setKey(key [32]byte, fast bool) {
	var nonce [chacha20.NonceSize]byte
	c, err := chacha20.NewUnauthenticatedCipher(key[:], nonce[:])
	if err != nil {
		panic("rng: chacha20 refused a 32-byte key: " + err.Error()) // cannot happen
	}
	r.c, r.key, r.fast = *c, key, fast
}

// Uint64 returns the next 8 keystream bytes as a big-endian uint64.
func (r *ChaCha20) Uint64() uint64 {
	if r.end-r.pos < 8 {
		r.refill()
	}
	v := binary.BigEndian.Uint64(r.buf[r.pos:])
	r.pos += 8
	return v
}

// Uint32 returns the next 4 keystream bytes as a big-endian uint32.
func (r *ChaCha20) Uint32() uint32 {
	if r.end-r.pos < 4 {
		r.refill()
	}
	v := binary.BigEndian.Uint32(r.buf[r.pos:])
	r.pos += 4
	return v
}

// Read fills p with the next len(p) keystream bytes. It never fails.
func (r *ChaCha20) Read(p []byte) (int, error) {
	for done := 0; done < len(p); {
		if r.pos == r.end {
			r.refill()
		}
		k := copy(p[done:], r.buf[r.pos:r.end])
		r.pos += k
		done += k
	}
	return len(p), nil
}

// Intn returns Uint64() % n, in [0, n): ADR-005's SeededRNG.Intn. It panics
// if n <= 0, as the ADR's code does (a division by zero for n = 0).
func (r *ChaCha20) Intn(n int) int {
	if n <= 0 {
		panic("rng: ChaCha20.Intn needs n > 0")
	}
	return int(chachaMod(r.Uint64(), uint64(n)))
}

// Shuffle permutes n items by ADR-005's Fisher-Yates: for i from n-1 down
// to 1, j = Intn(i+1), swap(i, j). It panics if n < 0.
func (r *ChaCha20) Shuffle(n int, swap func(i, j int)) {
	if n < 0 {
		panic("rng: ChaCha20.Shuffle of a negative count")
	}
	for i := n - 1; i > 0; i-- {
		// Intn(i+1), with Uint64 written out: it is too big to inline.
		if r.end-r.pos < 8 {
			r.refill()
		}
		v := binary.BigEndian.Uint64(r.buf[r.pos:])
		r.pos += 8
		swap(i, int(chachaMod(v, uint64(i+1))))
	}
}

// The standard 52-card deck of [NewDeck], in order: suits spades, hearts,
// diamonds, clubs (S, H, D, C); within a suit the ranks A, 2, ..., 10, J, Q,
// K. Card i is rank i%13 of suit i/13, named rank then suit letter: "AS",
// "10D", "KC". ADR-005 fixes the names ("3C", "10D", "KS") and the ends of
// the order ("A♠ ... K♣"); the order of the two middle suits is this
// package's choice, and is part of [ChaCha20Algorithm] from now on.
var (
	deckSuits = [4]string{"S", "H", "D", "C"}
	deckRanks = [13]string{"A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"}
)

// deckNames is the deck of NewDeck, named once so that each deck is one
// allocation (the 52 names are shared, immutable strings).
var deckNames = func() (d [52]string) {
	for i := range d {
		d[i] = deckRanks[i%13] + deckSuits[i/13]
	}
	return d
}()

// NewDeck returns the 52 card names in deck order (see deckSuits), in a new
// slice the caller may reorder.
func NewDeck() []string {
	return slices.Clone(deckNames[:])
}

// ShuffleDeck returns ADR-005's ShuffleDeck(seed): [NewDeck] shuffled by
// [ChaCha20.Shuffle] over NewChaCha20(seed).
//
// It makes the same swaps on card numbers and names the cards after: the
// same deck, with 52 string writes instead of 102 (string writes into the
// heap pay the garbage collector's write barrier while it marks).
func ShuffleDeck(seed []byte) []string {
	var perm [len(deckNames)]uint8
	for i := range perm {
		perm[i] = uint8(i)
	}
	NewChaCha20(seed).Shuffle(len(perm), func(i, j int) { perm[i], perm[j] = perm[j], perm[i] })
	d := make([]string, len(perm))
	for i, c := range perm {
		d[i] = deckNames[c]
	}
	return d
}

// VerifyShuffle is ADR-005's verify-shuffle: it recomputes the
// "fisher-yates-v1" deck for seed and reports whether claimed is exactly
// that deck (same 52 names in the same order). actual is always the
// recomputed deck, so a caller can show where a claim differs.
func VerifyShuffle(seed []byte, claimed []string) (actual []string, ok bool) {
	actual = ShuffleDeck(seed)
	if len(claimed) != len(actual) {
		return actual, false
	}
	for i := range actual {
		if claimed[i] != actual[i] {
			return actual, false
		}
	}
	return actual, true
}

// ChaCha20MaxOffset is the length of a ChaCha20 keystream in bytes: 2^32
// blocks of 64 bytes (the 32-bit block counter of RFC 8439).
const ChaCha20MaxOffset = 1 << 38

// Offset returns how many keystream bytes have been read so far: the
// position [SeekChaCha20] resumes from.
func (r *ChaCha20) Offset() uint64 {
	return r.blocks*chachaBlock - uint64(r.end-r.pos)
}

// SeekChaCha20 returns the stream for seed positioned after its first off
// keystream bytes, as if they had been read: the next read returns byte
// off. It makes only the block that holds byte off and the blocks after it
// (block counter off/64), never the prefix, so resuming a long stream costs
// the same as resuming a short one. It returns an error wrapping [ErrRange]
// if off is within 256 bytes of the keystream's end (2^38 bytes) or beyond.
func SeekChaCha20(seed []byte, off uint64) (*ChaCha20, error) {
	if off > ChaCha20MaxOffset-chachaRefillBlocks*chachaBlock {
		return nil, fmt.Errorf("%w: keystream offset %d is at or near the end of the 2^38-byte keystream", ErrRange, off)
	}
	r := NewChaCha20(seed)
	if off == 0 {
		return r, nil // a fresh stream: the first read makes the prefix
	}
	r.started = true
	r.blocks = off / chachaBlock
	r.c.SetCounter(uint32(r.blocks))
	r.refill()
	r.pos = int(off % chachaBlock)
	return r, nil
}
