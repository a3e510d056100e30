package rng_test

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"os"
	"slices"
	"strconv"
	"testing"

	"github.com/fairboard/fairboard/rng"
)

// hcSeq is one sequence of testdata/hashchain/vectors.json, drawn from a
// fresh GameRng, with the byte that follows it.
type hcSeq[T any] struct {
	Max   int `json:"max"`
	Vals  []T `json:"values"`
	After int `json:"next_byte_after"`
}

// hcFile is testdata/hashchain/vectors.json, written by gen.mjs from a
// JavaScript transcription of nullspace's GameRng over Node's SHA-256.
type hcFile struct {
	Vectors []struct {
		Name         string          `json:"name"`
		SeedHex      string          `json:"seed_hex"`
		Session      string          `json:"session"`
		Move         uint32          `json:"move"`
		StateHex     string          `json:"state_hex"`
		RawBytes     []int           `json:"bytes"`
		U32          hcSeq[uint32]   `json:"u32"`
		F32Bits      hcSeq[uint32]   `json:"f32_bits"`
		U64          hcSeq[string]   `json:"u64"`
		Bounded      []hcSeq[uint8]  `json:"bounded"`
		BoundedU32   []hcSeq[uint32] `json:"bounded_u32"`
		BoundedUsize []hcSeq[int]    `json:"bounded_usize"`
		Shuffle52    hcSeq[int]      `json:"shuffle52"`
		Shuffle300   hcSeq[int]      `json:"shuffle300"`
		Draw52x10    hcSeq[int]      `json:"draw52x10"`
		Draw256x5    hcSeq[int]      `json:"draw256x5"`
		RollDie      hcSeq[uint8]    `json:"roll_die"`
		SpinRoulette hcSeq[uint8]    `json:"spin_roulette"`
		StateAfter40 string          `json:"state_after_40_bytes_hex"`
	} `json:"vectors"`
}

func hcLoad(t *testing.T) hcFile {
	t.Helper()
	raw, err := os.ReadFile("testdata/hashchain/vectors.json")
	if err != nil {
		t.Fatal(err)
	}
	var f hcFile
	if err := json.Unmarshal(raw, &f); err != nil {
		t.Fatal(err)
	}
	if len(f.Vectors) < 4 {
		t.Fatalf("vectors.json has %d cases, want at least 4", len(f.Vectors))
	}
	return f
}

// hcCheck compares got with a sequence and the byte that follows it.
func hcCheck[T comparable](t *testing.T, what string, h *rng.HashChain, got []T, want hcSeq[T]) {
	t.Helper()
	if !slices.Equal(got, want.Vals) {
		t.Fatalf("%s\n got %v\nwant %v", what, got, want.Vals)
	}
	if b := h.NextByte(); int(b) != want.After {
		t.Fatalf("%s: next byte %d, want %d (bytes consumed differ)", what, b, want.After)
	}
}

func hcDraw[T any](n int, f func() T) []T {
	out := make([]T, n)
	for i := range out {
		out[i] = f()
	}
	return out
}

func TestHashChainVectors(t *testing.T) {
	for _, v := range hcLoad(t).Vectors {
		t.Run(v.Name, func(t *testing.T) {
			seed, err := hex.DecodeString(v.SeedHex)
			if err != nil {
				t.Fatal(err)
			}
			session, err := strconv.ParseUint(v.Session, 10, 64)
			if err != nil {
				t.Fatal(err)
			}
			fresh := func() *rng.HashChain { return rng.NewHashChain(seed, session, v.Move) }

			if st := fresh().State(); hex.EncodeToString(st[:]) != v.StateHex {
				t.Fatalf("initial state %x, want %s", st, v.StateHex)
			}
			h := fresh()
			for i, want := range v.RawBytes {
				if b := h.NextByte(); int(b) != want {
					t.Fatalf("byte %d = %d, want %d", i, b, want)
				}
			}
			h = fresh()
			hcCheck(t, "NextU32", h, hcDraw(len(v.U32.Vals), h.NextU32), v.U32)
			h = fresh()
			f32 := hcDraw(len(v.F32Bits.Vals), h.NextF32)
			bits := make([]uint32, len(f32))
			for i, f := range f32 {
				bits[i] = uint32(f * (1 << 24)) // exact: f is bits/2^24
				if f < 0 || f >= 1 {
					t.Fatalf("NextF32 %v out of [0, 1)", f)
				}
			}
			hcCheck(t, "NextF32", h, bits, v.F32Bits)
			h = fresh()
			u64 := hcDraw(len(v.U64.Vals), func() string { return strconv.FormatUint(h.Uint64(), 10) })
			hcCheck(t, "Uint64", h, u64, v.U64)
			for _, b := range v.Bounded {
				h := fresh()
				hcCheck(t, "NextBounded("+strconv.Itoa(b.Max)+")", h,
					hcDraw(len(b.Vals), func() uint8 { return h.NextBounded(uint8(b.Max)) }), b)
			}
			for _, b := range v.BoundedU32 {
				h := fresh()
				hcCheck(t, "NextBoundedU32("+strconv.Itoa(b.Max)+")", h,
					hcDraw(len(b.Vals), func() uint32 { return h.NextBoundedU32(uint32(b.Max)) }), b)
			}
			for _, b := range v.BoundedUsize {
				h := fresh()
				hcCheck(t, "NextBoundedUsize("+strconv.Itoa(b.Max)+")", h,
					hcDraw(len(b.Vals), func() int { return h.NextBoundedUsize(b.Max) }), b)
			}
			for _, sh := range []struct {
				n    int
				want hcSeq[int]
			}{{52, v.Shuffle52}, {300, v.Shuffle300}} {
				h := fresh()
				perm := make([]int, sh.n)
				for i := range perm {
					perm[i] = i
				}
				h.Shuffle(sh.n, func(i, j int) { perm[i], perm[j] = perm[j], perm[i] })
				hcCheck(t, "Shuffle("+strconv.Itoa(sh.n)+")", h, perm, sh.want)
			}
			for _, dr := range []struct {
				n    int
				want hcSeq[int]
			}{{52, v.Draw52x10}, {256, v.Draw256x5}} {
				h := fresh()
				deck := make([]byte, dr.n)
				for i := range deck {
					deck[i] = byte(i)
				}
				var got []int
				for range dr.want.Vals {
					card, rest, ok := h.DrawCard(deck)
					if !ok || len(rest) != len(deck)-1 {
						t.Fatalf("DrawCard from %d cards: ok %v, %d left", len(deck), ok, len(rest))
					}
					got, deck = append(got, int(card)), rest
				}
				hcCheck(t, "DrawCard from "+strconv.Itoa(dr.n), h, got, dr.want)
			}
			h = fresh()
			hcCheck(t, "RollDie", h, hcDraw(len(v.RollDie.Vals), h.RollDie), v.RollDie)
			h = fresh()
			hcCheck(t, "SpinRoulette", h, hcDraw(len(v.SpinRoulette.Vals), h.SpinRoulette), v.SpinRoulette)

			h = fresh()
			for range 40 {
				h.NextByte()
			}
			if st := h.State(); hex.EncodeToString(st[:]) != v.StateAfter40 {
				t.Fatalf("state after 40 bytes %x, want %s", st, v.StateAfter40)
			}
		})
	}
}

// TestHashChainBoundedRejects255 pins the reference's limit quirk: for max
// dividing 256 the limit is still 255 - 255%max < 256, so byte 255 is
// rejected and one more byte is read.
func TestHashChainBoundedRejects255(t *testing.T) {
	var state [32]byte
	state[0], state[1] = 255, 7
	for _, max := range []uint8{1, 2, 4, 128} {
		h := rng.HashChainFromState(state)
		if got, want := h.NextBounded(max), 7%max; got != want {
			t.Errorf("NextBounded(%d) over bytes 255, 7 = %d, want %d (255 rejected)", max, got, want)
		}
	}
	h := rng.HashChainFromState(state)
	if got := h.NextBounded(0); got != 0 || h.NextByte() != 255 {
		t.Error("NextBounded(0) must return 0 and read nothing")
	}
}

// TestHashChainFromState follows the reference's craps test: from_state of
// [2, 3, 0, ...] rolls 3 and 4 (the bytes read from index 0), and a stream
// restored from State() at a block start continues the original.
func TestHashChainFromState(t *testing.T) {
	h := rng.HashChainFromState([32]byte{2, 3})
	if a, b := h.RollDie(), h.RollDie(); a != 3 || b != 4 {
		t.Fatalf("dice %d, %d; want 3, 4", a, b)
	}
	orig := rng.NewHashChain([]byte("seed"), 9, 1)
	for range 32 {
		orig.NextByte()
	}
	orig.NextByte() // rehash: the new block is fresh, index 1
	st := orig.State()
	restored := rng.HashChainFromState(st)
	restored.NextByte()
	want := hcDraw(100, orig.NextByte)
	if got := hcDraw(100, restored.NextByte); !bytes.Equal(got, want) {
		t.Fatal("restored stream differs from the original")
	}
}

func TestHashChainDrawEmptyAndSource(t *testing.T) {
	h := rng.NewHashChain(nil, 0, 0)
	if _, rest, ok := h.DrawCard(nil); ok || len(rest) != 0 {
		t.Fatal("DrawCard of an empty deck must fail")
	}
	s := rng.New(rng.NewHashChain(nil, 0, 0))
	if got, want := s.Uint32("", nil), rng.NewHashChain(nil, 0, 0).NextU32(); got != want {
		t.Fatalf("Stream over HashChain: %d, want next_u32 %d", got, want)
	}
}

func TestNullspaceSeed(t *testing.T) {
	sig := bytes.Repeat([]byte{0xab}, 48)
	for _, c := range []struct {
		view uint64
		head string
	}{{0, "00"}, {1, "01"}, {127, "7f"}, {128, "8001"}, {300, "ac02"}} {
		got := rng.NullspaceSeed(c.view, sig)
		if hex.EncodeToString(got[:len(got)-48]) != c.head || !bytes.Equal(got[len(got)-48:], sig) {
			t.Errorf("view %d: %x", c.view, got)
		}
	}
}
