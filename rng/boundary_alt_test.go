package rng

import (
	"crypto/sha256"
	"encoding/binary"
	"testing"
)

// The bounded draws of the two other generators, at their boundaries.
//
// HashChain follows the hash-chain lesson's next_bounded, whose limit is
// not the spec's: limit = MAX - MAX % max with MAX = 255 (bytes) or
// 2^32-1 (words), so the top value MAX is always rejected, even when max
// divides 2^8 or 2^32. Its first 32 bytes are its state, so
// HashChainFromState scripts them exactly.

// hcState returns a hash-chain state whose first bytes are b.
func hcState(b ...byte) [32]byte {
	var s [32]byte
	copy(s[:], b)
	return s
}

func TestBoundaryHashChainBytes(t *testing.T) {
	cases := []struct {
		max   uint8
		bytes []byte
		want  uint8
		used  int
	}{
		// max 6: 255 % 6 = 3, limit 252; 251 = 6*41 + 5.
		{6, []byte{251}, 5, 1},
		{6, []byte{252, 251}, 5, 2},
		{6, []byte{255, 252, 0}, 0, 3},
		// max 2: 255 % 2 = 1, limit 254; 253 is odd.
		{2, []byte{253}, 1, 1},
		{2, []byte{254, 253}, 1, 2},
		// max 128: 255 % 128 = 127, limit 128: half the bytes are rejected.
		{128, []byte{127}, 127, 1},
		{128, []byte{128, 200, 127}, 127, 3},
		// max 255: 255 % 255 = 0, limit 255: only 255 is rejected.
		{255, []byte{254}, 254, 1},
		{255, []byte{255, 254}, 254, 2},
		// max 1: limit 255, every byte but 255 gives 0.
		{1, []byte{254}, 0, 1},
		{1, []byte{255, 0}, 0, 2},
		// max 37 (roulette): 255 % 37 = 33, limit 222; 221 = 37*5 + 36.
		{37, []byte{221}, 36, 1},
		{37, []byte{222, 221}, 36, 2},
	}
	for _, c := range cases {
		// The byte after the script is 0x5a: reading it next proves how
		// many bytes the draw used.
		st := hcState(append(append([]byte(nil), c.bytes[:c.used]...), 0x5a)...)
		h := HashChainFromState(st)
		if got := h.NextBounded(c.max); got != c.want || h.NextByte() != 0x5a {
			t.Errorf("NextBounded(%d) over %v = %d; want %d after %d bytes", c.max, c.bytes, got, c.want, c.used)
		}
		h = HashChainFromState(st)
		if got := h.NextBoundedUsize(int(c.max)); got != int(c.want) || h.NextByte() != 0x5a {
			t.Errorf("NextBoundedUsize(%d) over %v = %d; want %d after %d bytes", c.max, c.bytes, got, c.want, c.used)
		}
	}
	// RollDie = NextBounded(6) + 1 and SpinRoulette = NextBounded(37).
	if h := HashChainFromState(hcState(252, 253, 254, 255, 5)); h.RollDie() != 6 {
		t.Error("RollDie over 252..255, 5 is not 6")
	}
	if h := HashChainFromState(hcState(222, 0)); h.SpinRoulette() != 0 {
		t.Error("SpinRoulette over 222, 0 is not 0")
	}
}

func TestBoundaryHashChainWords(t *testing.T) {
	word := func(ws ...uint32) [32]byte {
		var s [32]byte
		for i, w := range ws {
			binary.BigEndian.PutUint32(s[4*i:], w)
		}
		return s
	}
	cases := []struct {
		max   uint32
		words []uint32
		want  uint32
	}{
		// max 6: (2^32-1) % 6 = 3, limit 4294967292, the spec's too.
		{6, []uint32{4294967291}, 5},
		{6, []uint32{4294967292, 4294967291}, 5},
		// max 2: (2^32-1) % 2 = 1, limit 4294967294: unlike the spec,
		// 4294967294 and 4294967295 are rejected.
		{2, []uint32{4294967293}, 1},
		{2, []uint32{4294967294, 4294967295, 4}, 0},
		// max 300: (2^32-1) % 300 = 195, limit 4294967100.
		{300, []uint32{4294967099}, 299},
		{300, []uint32{4294967100, 301}, 1},
		// max 2^31+1: (2^32-1) % (2^31+1) = 2147483646, limit 2147483649.
		{2147483649, []uint32{2147483648}, 2147483648},
		{2147483649, []uint32{2147483649, 7}, 7},
		// max 2^32-1: 0, limit 2^32-1.
		{4294967295, []uint32{4294967294}, 4294967294},
		{4294967295, []uint32{4294967295, 3}, 3},
	}
	for _, c := range cases {
		st := word(append(append([]uint32(nil), c.words...), 0x5a5a5a5a)...)
		h := HashChainFromState(st)
		if got := h.NextBoundedU32(c.max); got != c.want || h.NextU32() != 0x5a5a5a5a {
			t.Errorf("NextBoundedU32(%d) over %v = %d; want %d after %d words", c.max, c.words, got, c.want, len(c.words))
		}
		if c.max > 255 {
			h = HashChainFromState(st)
			if got := h.NextBoundedUsize(int(c.max)); got != int(c.want) || h.NextU32() != 0x5a5a5a5a {
				t.Errorf("NextBoundedUsize(%d) over %v = %d; want %d", c.max, c.words, got, c.want)
			}
		}
	}
	// 0 means "no range": 0, and nothing read.
	h := HashChainFromState(word(9))
	if h.NextBoundedU32(0) != 0 || h.NextBoundedUsize(0) != 0 || h.NextBoundedUsize(-3) != 0 || h.NextU32() != 9 {
		t.Error("a bound of 0 or less must return 0 and read nothing")
	}
	// Past 2^32-1 the bound is clamped to 2^32-1 (64-bit platforms).
	if ^uint(0)>>32 != 0 {
		h = HashChainFromState(word(4294967295, 12))
		if got := h.NextBoundedUsize(1 << 40); got != 12 {
			t.Errorf("NextBoundedUsize(2^40) over 2^32-1, 12 = %d, want 12", got)
		}
	}
}

// TestBoundaryHashChainRefill: a rejected word whose bytes end the state
// is followed by the first word of SHA-256(state), as the chain defines.
func TestBoundaryHashChainRefill(t *testing.T) {
	var st [32]byte
	for i := range st {
		st[i] = 0xff
	}
	h := HashChainFromState(st)
	for range 7 {
		h.NextU32() // bytes 0..27
	}
	next := sha256.Sum256(st[:])
	w := binary.BigEndian.Uint32(next[:4])
	// Bytes 28..31 are 0xffffffff, rejected for max 6 (limit 4294967292);
	// the next word is next[0:4], accepted unless it is >= the limit.
	want := w % 6
	if w >= 4294967292 {
		t.Fatalf("SHA-256 of the all-ones state starts with %d, a rejected word: pick another state", w)
	}
	if got := h.NextBoundedU32(6); got != want {
		t.Errorf("NextBoundedU32(6) across the refill = %d, want %d (%d %% 6)", got, want, w)
	}
}

// TestBoundaryHashChainShuffleAndDraw: the shuffle's and DrawCard's index
// draws go through the same bounded draws.
func TestBoundaryHashChainShuffleAndDraw(t *testing.T) {
	// Three items: i = 2 draws NextBounded(3) (255 % 3 = 0, limit 255):
	// 255 is rejected, 4 gives j = 1: swap 2 and 1 -> a c b. i = 1 draws
	// NextBounded(2) (limit 254): 254 is rejected, 7 gives j = 1: no swap.
	h := HashChainFromState(hcState(255, 4, 254, 7, 0x5a))
	arr := []string{"a", "b", "c"}
	h.Shuffle(len(arr), func(i, j int) { arr[i], arr[j] = arr[j], arr[i] })
	if arr[0] != "a" || arr[1] != "c" || arr[2] != "b" || h.NextByte() != 0x5a {
		t.Errorf("shuffle = %v, want [a c b] after 4 bytes", arr)
	}
	// DrawCard over 6 cards: NextBounded(6), 252 rejected, 2 gives index
	// 2; the last card takes its place.
	h = HashChainFromState(hcState(252, 2, 0x5a))
	card, rest, ok := h.DrawCard([]byte{10, 11, 12, 13, 14, 15})
	if !ok || card != 12 || string(rest) != string([]byte{10, 11, 15, 13, 14}) || h.NextByte() != 0x5a {
		t.Errorf("DrawCard = %d, %v, %v; want 12, [10 11 15 13 14]", card, rest, ok)
	}
	// 300 items: the first index uses the word path, NextBoundedUsize(300)
	// (limit 4294967100): 4294967100 is rejected, 299 keeps item 299 last.
	var st [32]byte
	binary.BigEndian.PutUint32(st[0:], 4294967100)
	binary.BigEndian.PutUint32(st[4:], 299)
	h = HashChainFromState(st)
	perm := make([]int, 300)
	for i := range perm {
		perm[i] = i
	}
	h.Shuffle(len(perm), func(i, j int) { perm[i], perm[j] = perm[j], perm[i] })
	if perm[299] != 299 {
		t.Errorf("300-item shuffle put %d last, want 299", perm[299])
	}
}

// TestBoundaryChaCha20Intn: ADR-005's Intn has no rejection: it is the
// big-endian uint64 of the next 8 keystream bytes, mod n. Read the same
// bytes from a twin stream and compare with Go's % at the n where the
// division-free path changes (the table's end) and at the ends of the
// range.
func TestBoundaryChaCha20Intn(t *testing.T) {
	ns := []int{1, 2, 3, 52, chachaSmallN - 1, chachaSmallN, chachaSmallN + 1, 1 << 32, 1<<63 - 1}
	r, twin := NewChaCha20([]byte("intn")), NewChaCha20([]byte("intn"))
	var b [8]byte
	for round := range 40 {
		for _, n := range ns {
			if _, err := twin.Read(b[:]); err != nil {
				t.Fatal(err)
			}
			want := int(binary.BigEndian.Uint64(b[:]) % uint64(n))
			if got := r.Intn(n); got != want {
				t.Fatalf("round %d: Intn(%d) = %d, want %d", round, n, got, want)
			}
		}
	}
	// chachaMod at the quotient's boundaries: q*n - 1, q*n, and 2^64-1,
	// which is 15 mod 52 (2^64 = 0 mod 4 and 2^4 = 3 mod 13, since
	// 2^12 = 1 mod 13, so 2^64 = 16 mod 52).
	if got := chachaMod(^uint64(0), 52); got != 15 {
		t.Errorf("chachaMod(2^64-1, 52) = %d, want 15", got)
	}
	for _, n := range []uint64{3, 52, chachaSmallN} {
		for _, q := range []uint64{1, 1 << 20, ^uint64(0)/n - 1} {
			if got := chachaMod(q*n, n); got != 0 {
				t.Errorf("chachaMod(%d*%d, %d) = %d, want 0", q, n, n, got)
			}
			if got := chachaMod(q*n-1, n); got != n-1 {
				t.Errorf("chachaMod(%d*%d-1, %d) = %d, want %d", q, n, n, got, n-1)
			}
		}
	}
}
