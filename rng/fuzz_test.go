package rng_test

import (
	"encoding/binary"
	"errors"
	"math"
	"strings"
	"testing"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/fairboard/fairboard/internal/jsref"
	"github.com/fairboard/fairboard/rng"
)

// FuzzUniformInt: any min and max. A valid range (min <= max, at most 2^32
// values) gives a value inside it; any other gives an error wrapping
// ErrRange. Never a panic.
func FuzzUniformInt(f *testing.F) {
	for _, c := range [][2]int64{
		{1, 6}, {0, 0}, {-5, 5}, {6, 1}, {0, 1<<32 - 1}, {0, 1 << 32}, {-1 << 31, 1<<31 - 1},
		{math.MinInt64, math.MaxInt64}, {math.MaxInt64 - 3, math.MaxInt64}, {math.MinInt64, math.MinInt64 + 1},
	} {
		f.Add(c[0], c[1])
	}
	s := seeded(f, "fuzz-uniform")
	f.Fuzz(func(t *testing.T, min, max int64) {
		valid := min <= max && uint64(max)-uint64(min) < 1<<32
		v, err := s.UniformInt(min, max, rng.TagTestOnly, nil)
		switch {
		case valid && err != nil:
			t.Fatalf("UniformInt(%d, %d): %v", min, max, err)
		case valid && (v < min || v > max):
			t.Fatalf("UniformInt(%d, %d) = %d, out of range", min, max, v)
		case !valid && !errors.Is(err, rng.ErrRange):
			t.Fatalf("UniformInt(%d, %d) = %d, %v; want an error wrapping ErrRange", min, max, v, err)
		}
	})
}

// specialWeights are the weights the fuzzer picks from by byte.
var specialWeights = []float64{
	math.NaN(), math.Inf(1), math.Inf(-1), 0, math.Copysign(0, -1), -1, 0.5, 1, 2, 3, 70,
	1 << 31, 1<<32 - 1, 1 << 32, 1<<32 + 1, 1e300, math.SmallestNonzeroFloat64, 1.5, 10, 15,
}

// weightsFrom turns fuzz bytes into weights: in mode 0 each byte picks a
// special weight, otherwise every 8 bytes are a raw float64.
func weightsFrom(data []byte) []float64 {
	if len(data) == 0 {
		return nil
	}
	var w []float64
	if data[0]%2 == 0 {
		for _, b := range data[1:] {
			w = append(w, specialWeights[int(b)%len(specialWeights)])
		}
		return w
	}
	for rest := data[1:]; len(rest) >= 8; rest = rest[8:] {
		w = append(w, math.Float64frombits(binary.LittleEndian.Uint64(rest)))
	}
	return w
}

// FuzzWeightedPick: weights from fuzz bytes, including NaN, ±Inf, 0,
// negatives, fractions and huge ones. Valid weights (non-empty, each a whole
// number > 0, sum <= 2^32) give the index that r picks, with r in [0, sum);
// anything else gives an error wrapping ErrRange.
func FuzzWeightedPick(f *testing.F) {
	f.Add([]byte{0, 10, 7})                        // 70, 3... by index
	f.Add([]byte{0, 12, 7})                        // 2^32-1, 1
	f.Add([]byte{0, 0})                            // NaN
	f.Add([]byte{0, 13, 7})                        // 2^32, 1: sum past 2^32
	f.Add([]byte{0})                               // no weights
	f.Add([]byte{1, 0, 0, 0, 0, 0, 0, 0xf0, 0x3f}) // raw 1.0
	s := seeded(f, "fuzz-weighted")
	f.Fuzz(func(t *testing.T, data []byte) {
		w := weightsFrom(data)
		items := make([]rng.Weighted[int], len(w))
		valid, sum := len(w) > 0, 0.0
		for i := range w {
			items[i] = rng.Weighted[int]{Item: i * 10, Weight: w[i]}
			if !(w[i] >= 1 && w[i] <= 1<<32 && w[i] == math.Trunc(w[i])) {
				valid = false
			}
			sum += w[i]
		}
		valid = valid && sum <= 1<<32
		p, err := rng.WeightedPick(s, items, rng.TagTestOnly, nil)
		if !valid {
			if !errors.Is(err, rng.ErrRange) {
				t.Fatalf("WeightedPick(%v) = %+v, %v; want an error wrapping ErrRange", w, p, err)
			}
			return
		}
		if err != nil {
			t.Fatalf("WeightedPick(%v): %v", w, err)
		}
		if p.R < 0 || float64(p.R) >= sum || p.Index < 0 || p.Index >= len(w) || p.Item != p.Index*10 {
			t.Fatalf("WeightedPick(%v) = %+v out of range", w, p)
		}
		acc := 0.0
		for i := 0; i < p.Index; i++ {
			acc += w[i]
		}
		if float64(p.R) < acc || float64(p.R) >= acc+w[p.Index] {
			t.Fatalf("WeightedPick(%v) = %+v: r does not fall in index %d's share", w, p, p.Index)
		}
	})
}

// FuzzSeed: any string. NewSeeded fails exactly when it is not valid UTF-8;
// otherwise its hash is cyrb128 over the string's UTF-16 code units, and a
// State/Restore in the middle continues the same stream.
func FuzzSeed(f *testing.F) {
	for _, s := range []string{"", "seed-start-01", "🎲", "\xff", "a\x00b", "\xed\xa0\x80", strings.Repeat("é", 100)} {
		f.Add(s, uint8(3))
	}
	f.Fuzz(func(t *testing.T, seed string, k uint8) {
		s, err := rng.NewSeeded(seed)
		if !utf8.ValidString(seed) {
			if err == nil {
				t.Fatalf("NewSeeded(%q) accepted invalid UTF-8", seed)
			}
			return
		}
		if err != nil {
			t.Fatalf("NewSeeded(%q): %v", seed, err)
		}
		h, _ := rng.Cyrb128(seed)
		if want := jsref.Cyrb128Units(utf16.Encode([]rune(seed))); h != want {
			t.Fatalf("Cyrb128(%q) = %v, reference %v", seed, h, want)
		}
		for range k {
			s.Uint32(rng.TagTestOnly, nil)
		}
		state, err := s.State()
		if err != nil {
			t.Fatal(err)
		}
		r, err := rng.Restore(state, seed, rng.WithSeq(s.Seq()))
		if err != nil {
			t.Fatalf("Restore(%q): %v", state, err)
		}
		if r.Seed() != seed || r.Seq() != s.Seq() || r.Mode() != rng.ModeSeeded {
			t.Fatalf("restored seed %q seq %d mode %s, want %q %d seeded", r.Seed(), r.Seq(), r.Mode(), seed, s.Seq())
		}
		for i := range 8 {
			if a, b := s.Uint32(rng.TagTestOnly, nil), r.Uint32(rng.TagTestOnly, nil); a != b {
				t.Fatalf("after Restore, word %d is %d, the original stream's %d", i, b, a)
			}
		}
	})
}

// FuzzRestore: any saved-state text gives an error or a working stream,
// never a panic; an accepted state saves back to its canonical lower-case
// form, which restores to the same stream.
func FuzzRestore(f *testing.F) {
	for _, s := range []string{
		"sfc32:0123456789abcdef0123456789abcdef", "sfc32:0123456789ABCDEF0123456789ABCDEF",
		"sfc32:", "sfc32:xyz", "chacha20:00", "", "sfc32:00000000000000000000000000000000",
		"sfc32:0123456789abcdef0123456789abcdef0",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, state string) {
		s, err := rng.Restore(state, "")
		if err != nil {
			return
		}
		canon, err := s.State()
		if err != nil || canon != strings.ToLower(state) {
			t.Fatalf("Restore(%q).State() = %q, %v; want the lower-case state", state, canon, err)
		}
		r, err := rng.Restore(canon, "")
		if err != nil {
			t.Fatalf("Restore(%q) of a saved state: %v", canon, err)
		}
		v, err := s.UniformInt(1, 6, rng.TagTestOnly, nil)
		if err != nil || v < 1 || v > 6 {
			t.Fatalf("restored stream UniformInt(1, 6) = %d, %v", v, err)
		}
		if w, _ := r.UniformInt(1, 6, rng.TagTestOnly, nil); w != v {
			t.Fatalf("two restores of %q differ: %d and %d", canon, v, w)
		}
	})
}

// FuzzChooseOne: any length. 0 gives ErrRange; otherwise the item at the
// returned index, which is in range.
func FuzzChooseOne(f *testing.F) {
	for _, n := range []uint16{0, 1, 2, 3, 52, 65535} {
		f.Add(n)
	}
	s := seeded(f, "fuzz-choose")
	f.Fuzz(func(t *testing.T, n uint16) {
		arr := make([]int, n)
		for i := range arr {
			arr[i] = i + 1
		}
		v, i, err := rng.ChooseOne(s, arr, rng.TagTestOnly, nil)
		if n == 0 {
			if !errors.Is(err, rng.ErrRange) || v != 0 {
				t.Fatalf("ChooseOne of nothing = %d, %v; want ErrRange", v, err)
			}
			return
		}
		if err != nil || i < 0 || i >= int(n) || v != arr[i] {
			t.Fatalf("ChooseOne(n=%d) = %d at %d, %v", n, v, i, err)
		}
	})
}

// FuzzDice: any number of sides. 1..2^32 gives a value in 1..sides; any
// other gives ErrRange.
func FuzzDice(f *testing.F) {
	for _, n := range []int{math.MinInt, -1, 0, 1, 4, 6, 1 << 31, 1<<32 - 1, 1 << 32, 1<<32 + 1, math.MaxInt} {
		f.Add(n)
	}
	s := seeded(f, "fuzz-dice")
	f.Fuzz(func(t *testing.T, sides int) {
		d, err := s.Dice(sides, rng.TagMoveRoll, nil)
		if sides < 1 || int64(sides) > 1<<32 {
			if !errors.Is(err, rng.ErrRange) {
				t.Fatalf("Dice(%d) = %+v, %v; want ErrRange", sides, d, err)
			}
			return
		}
		if err != nil || d.Sides != sides || d.Value < 1 || d.Value > sides {
			t.Fatalf("Dice(%d) = %+v, %v", sides, d, err)
		}
	})
}
