package rng

import (
	"bytes"
	"crypto/fips140"
	"crypto/sha256"
	"encoding/binary"
	"slices"
	"testing"

	"golang.org/x/crypto/chacha20"
)

// chachaRef is the plain transcription of ADR-005's SeededRNG that
// ChaCha20 must agree with: the code ChaCha20 had before it was made faster.
// x/crypto's chacha20 XORs zeros into a 256-byte buffer, and Intn is Go's %.
type chachaRef struct {
	c   *chacha20.Cipher
	buf [256]byte
	pos int
}

func newChachaRef(seed []byte) *chachaRef {
	key := sha256.Sum256(seed)
	var nonce [chacha20.NonceSize]byte
	c, err := chacha20.NewUnauthenticatedCipher(key[:], nonce[:])
	if err != nil {
		panic(err)
	}
	return &chachaRef{c: c, pos: len(chachaRef{}.buf)}
}

func (r *chachaRef) refill() {
	n := copy(r.buf[:], r.buf[r.pos:])
	clear(r.buf[n:])
	r.c.XORKeyStream(r.buf[n:], r.buf[n:])
	r.pos = 0
}

func (r *chachaRef) Uint64() uint64 {
	if r.pos+8 > len(r.buf) {
		r.refill()
	}
	v := binary.BigEndian.Uint64(r.buf[r.pos:])
	r.pos += 8
	return v
}

func (r *chachaRef) Uint32() uint32 {
	if r.pos+4 > len(r.buf) {
		r.refill()
	}
	v := binary.BigEndian.Uint32(r.buf[r.pos:])
	r.pos += 4
	return v
}

func (r *chachaRef) read(n int) []byte {
	p := make([]byte, n)
	for done := 0; done < n; {
		if r.pos == len(r.buf) {
			r.refill()
		}
		k := copy(p[done:], r.buf[r.pos:])
		r.pos += k
		done += k
	}
	return p
}

func (r *chachaRef) Intn(n int) int { return int(r.Uint64() % uint64(n)) }

func (r *chachaRef) Shuffle(n int, swap func(i, j int)) {
	for i := n - 1; i > 0; i-- {
		swap(i, r.Intn(i+1))
	}
}

// ccIota returns 0..n-1.
func ccIota(n int) []int {
	p := make([]int, n)
	for i := range p {
		p[i] = i
	}
	return p
}

// ccAgree runs the same sequence of operations, decoded from ops, on the
// fast stream, the plain stream and the reference, and fails at the first
// difference. Each op byte picks a read (Uint64, Uint32, Intn of a small or
// large n, Read of an odd size, a shuffle) so that reads straddle block
// edges and the end of the 448-byte prefix at every offset mod 8.
func ccAgree(t *testing.T, seed, ops []byte) {
	t.Helper()
	key := sha256.Sum256(seed)
	fast, plain, ref := newChaCha20Key(key, true), newChaCha20Key(key, false), newChachaRef(seed)
	fail := func(step int, op byte, got, gotPlain, want any) {
		t.Helper()
		t.Fatalf("seed %x op %d (%#x): fast %v, plain %v, reference %v", seed, step, op, got, gotPlain, want)
	}
	for step, op := range ops {
		var got, gotPlain, want uint64
		switch arg := int(op >> 3); op & 7 {
		case 0:
			got, gotPlain, want = fast.Uint64(), plain.Uint64(), ref.Uint64()
		case 1:
			got, gotPlain, want = uint64(fast.Uint32()), uint64(plain.Uint32()), uint64(ref.Uint32())
		case 2, 3: // n in 1..32 and 8..256: the reciprocal table
			n := arg + 1
			if op&7 == 3 {
				n = 256 - arg*8
			}
			got, gotPlain, want = uint64(fast.Intn(n)), uint64(plain.Intn(n)), uint64(ref.Intn(n))
		case 4: // n past the table, up to 2^63-1
			n := []int{257, 1000, 1 << 20, 1<<32 - 1, 1 << 32, 1<<32 + 1, 1<<53 - 1, 1<<63 - 1}[arg%8]
			got, gotPlain, want = uint64(fast.Intn(n)), uint64(plain.Intn(n)), uint64(ref.Intn(n))
		case 5: // 0..93 bytes
			p, q, w := make([]byte, arg*3), make([]byte, arg*3), ref.read(arg*3)
			fast.Read(p)
			plain.Read(q)
			if !bytes.Equal(p, w) || !bytes.Equal(q, w) {
				fail(step, op, p, q, w)
			}
		default: // shuffles of 0..31 and 52 items
			n := arg
			if op&7 == 7 {
				n = 52
			}
			a, b, c := ccIota(n), ccIota(n), ccIota(n)
			fast.Shuffle(n, func(i, j int) { a[i], a[j] = a[j], a[i] })
			plain.Shuffle(n, func(i, j int) { b[i], b[j] = b[j], b[i] })
			ref.Shuffle(n, func(i, j int) { c[i], c[j] = c[j], c[i] })
			if !slices.Equal(a, c) || !slices.Equal(b, c) {
				fail(step, op, a, b, c)
			}
		}
		if got != want || gotPlain != want {
			fail(step, op, got, gotPlain, want)
		}
	}
}

// TestChaCha20MatchesReference compares ChaCha20, fast and plain, with the
// reference over 300 seeds: the first 52-card shuffle (the ADR's
// ShuffleDeck), then 3,000 bytes of keystream read in every way from every
// offset, well past the AEAD prefix.
func TestChaCha20MatchesReference(t *testing.T) {
	g := NewSFC32(1, 2, 3, 4) // op sequences; any fixed source will do
	for s := range 300 {
		seed := binary.BigEndian.AppendUint64(nil, uint64(s))
		ops := []byte{7} // a 52-card shuffle first, on the fresh stream
		for range 400 {
			ops = append(ops, byte(g.Uint32()))
		}
		ccAgree(t, seed[:s%9], ops) // seed lengths 0..8
	}
}

// TestChaCha20LongStream compares 1 MiB of keystream (16,384 blocks) read
// as uint64s with the reference, and a shuffle from far down the stream.
func TestChaCha20LongStream(t *testing.T) {
	seed := []byte("long")
	r, ref := NewChaCha20(seed), newChachaRef(seed)
	want := ref.read(1 << 20)
	for off := 0; off < len(want); off += 8 {
		if got := r.Uint64(); got != binary.BigEndian.Uint64(want[off:]) {
			t.Fatalf("Uint64 at byte %d = %d, want %d", off, got, binary.BigEndian.Uint64(want[off:]))
		}
	}
	a, b := ccIota(52), ccIota(52)
	r.Shuffle(52, func(i, j int) { a[i], a[j] = a[j], a[i] })
	ref.Shuffle(52, func(i, j int) { b[i], b[j] = b[j], b[i] })
	if !slices.Equal(a, b) {
		t.Fatalf("shuffle after 1 MiB\n got %v\nwant %v", a, b)
	}
}

// TestChaCha20SealPrefix pins that this build really takes the AEAD path
// where it has one (a silently disabled fast path would pass every other
// test), and that its bytes are blocks 1..6 of x/crypto's keystream.
func TestChaCha20SealPrefix(t *testing.T) {
	key := sha256.Sum256([]byte("prefix"))
	var dst [chachaSealLen]byte
	ok := chachaSealPrefix(&key, &dst)
	if !chachaHaveAEAD || fips140.Enforced() {
		if ok {
			t.Fatal("chachaSealPrefix used the AEAD on a build without it")
		}
		t.Skip("no AEAD prefix on this build")
	}
	if !ok {
		t.Fatal("chachaSealPrefix reported false on amd64 (gc, not purego)")
	}
	var nonce [chacha20.NonceSize]byte
	c, _ := chacha20.NewUnauthenticatedCipher(key[:], nonce[:])
	want := make([]byte, chachaPrefixBlocks*chachaBlock)
	c.XORKeyStream(want, want)
	if got := dst[:]; !bytes.Equal(got, want[chachaBlock:]) {
		t.Fatalf("Seal of zeros is not keystream blocks 1..6\n got %x\nwant %x", got, want[chachaBlock:])
	}
}

// TestChaCha20Allocs pins the allocations: none for reads after the first;
// at most the AEAD's 32-byte key for a fresh stream made and shuffled in
// one function (the stream stays on the stack); that plus the deck for
// ShuffleDeck.
func TestChaCha20Allocs(t *testing.T) {
	r := NewChaCha20([]byte("allocs"))
	var deck [52]int
	swap := func(i, j int) { deck[i], deck[j] = deck[j], deck[i] }
	if a := testing.AllocsPerRun(100, func() { r.Shuffle(len(deck), swap) }); a != 0 {
		t.Errorf("Shuffle of 52 on a started stream: %v allocs, want 0", a)
	}
	seed := make([]byte, 32)
	if a := testing.AllocsPerRun(100, func() { NewChaCha20(seed).Shuffle(len(deck), swap) }); a > 1 {
		t.Errorf("fresh stream and Shuffle of 52: %v allocs, want at most 1", a)
	}
	if a := testing.AllocsPerRun(100, func() { ShuffleDeck(seed) }); a > 2 {
		t.Errorf("ShuffleDeck: %v allocs, want at most 2", a)
	}
}

// ccModValues returns the dividends chachaMod is checked on for n: the
// ends of uint64, the multiples of n and their neighbours at both ends,
// powers of two and their neighbours, and 20,000 SFC32 values.
func ccModValues(n uint64) []uint64 {
	const maxU = ^uint64(0)
	top := maxU / n * n // the largest multiple of n
	vs := []uint64{0, 1, n - 1, n, n + 1, 2*n - 1, 2 * n, top, top - 1, top - n, top + n - 1, maxU, maxU - 1, maxU - n}
	for k := range 64 {
		p := uint64(1) << k
		vs = append(vs, p-1, p, p+1, p/n*n, p/n*n-1)
	}
	g := NewSFC32(uint32(n), 7, 11, 13)
	for range 20000 {
		vs = append(vs, uint64(g.Uint32())<<32|uint64(g.Uint32()))
	}
	return vs
}

// TestChaCha20Mod checks the division-free remainder against % for every n
// in 1..256 (every n a shuffle of up to 257 items or an Intn(1..256) uses)
// and for n past the table.
func TestChaCha20Mod(t *testing.T) {
	ns := []uint64{257, 1000, 1<<32 - 1, 1 << 32, 1<<32 + 1, 1<<53 - 1, 1 << 63, ^uint64(0)}
	for n := uint64(1); n <= chachaSmallN; n++ {
		ns = append(ns, n)
	}
	for _, n := range ns {
		for _, v := range ccModValues(n) {
			if got := chachaMod(v, n); got != v%n {
				t.Fatalf("chachaMod(%d, %d) = %d, want %d", v, n, got, v%n)
			}
		}
	}
}

// FuzzChaCha20Mod compares chachaMod with % on any dividend and any n >= 1.
func FuzzChaCha20Mod(f *testing.F) {
	f.Add(uint64(0), uint64(1))
	f.Add(^uint64(0), uint64(52))
	f.Add(^uint64(0)/3*3, uint64(3))
	f.Add(uint64(1)<<63, uint64(256))
	f.Add(uint64(12345), uint64(257))
	f.Fuzz(func(t *testing.T, v, n uint64) {
		if n == 0 {
			return
		}
		for _, m := range []uint64{n, n%chachaSmallN + 1} { // any n, and one from the table
			if got := chachaMod(v, m); got != v%m {
				t.Fatalf("chachaMod(%d, %d) = %d, want %d", v, m, got, v%m)
			}
		}
	})
}

// FuzzChaCha20Stream compares the fast and plain streams with the
// reference for any seed and any sequence of reads (see ccAgree).
func FuzzChaCha20Stream(f *testing.F) {
	f.Add([]byte(""), []byte{7})
	f.Add([]byte("a"), []byte{7, 7, 7, 1, 0, 5 | 21<<3})
	f.Add(make([]byte, 32), bytes.Repeat([]byte{0, 1, 2, 3, 4, 5, 6, 7, 0xff}, 60))
	f.Fuzz(func(t *testing.T, seed, ops []byte) {
		if len(ops) > 1024 {
			ops = ops[:1024]
		}
		ccAgree(t, seed, ops)
	})
}

// BenchmarkChaCha20RefShuffle52 and BenchmarkChaCha20RefSeedAndShuffle52
// are BenchmarkChaCha20Shuffle52 and BenchmarkChaCha20SeedAndShuffle52
// (altsrc_bench_test.go) on the reference, the implementation before the
// fast path, so that one run shows before and after.
func BenchmarkChaCha20RefShuffle52(b *testing.B) {
	r := newChachaRef([]byte("bench"))
	var deck [52]int
	b.ReportAllocs()
	for b.Loop() {
		r.Shuffle(len(deck), func(i, j int) { deck[i], deck[j] = deck[j], deck[i] })
	}
}

func BenchmarkChaCha20RefSeedAndShuffle52(b *testing.B) {
	var seed [32]byte
	var deck [52]int
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		binary.BigEndian.PutUint64(seed[:], uint64(i))
		newChachaRef(seed[:]).Shuffle(len(deck), func(i, j int) { deck[i], deck[j] = deck[j], deck[i] })
	}
}
