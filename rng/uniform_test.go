package rng

import (
	"testing"
)

// uniformRef is the spec's uniformInt transcribed plainly, with the limit in
// 64 bits as JavaScript's doubles hold it:
//
//	n = max - min + 1; limit = floor(2^32 / n) * n
//	do { u = nextUint32() } while (u >= limit)
//	return min + (u % n)
//
// (here with min = 0). It is the reference that uniform, the optimised form,
// must equal word for word.
func uniformRef(src Source, n uint64) uint64 {
	limit := (uint64(1) << 32) / n * n
	for {
		u := uint64(src.Uint32())
		if u < limit {
			return u % n
		}
	}
}

// script is a Source that returns chosen words in order and counts them. It
// fails the test if it runs out.
type script struct {
	t     testing.TB
	words []uint32
	pos   int
}

func (s *script) Uint32() uint32 {
	if s.pos >= len(s.words) {
		s.t.Fatalf("script ran out after %d words", s.pos)
	}
	w := s.words[s.pos]
	s.pos++
	return w
}

// edgeWords returns the words where uniform(n) could go wrong: the ends of
// the word range, n and its neighbours, the limit and its neighbours, and
// the powers of two around the middle.
func edgeWords(n uint64) []uint32 {
	limit := (uint64(1) << 32) / n * n
	var out []uint32
	add := func(v uint64) {
		if v < 1<<32 {
			out = append(out, uint32(v))
		}
	}
	for _, v := range []uint64{0, 1, 2, 1<<31 - 1, 1 << 31, 1<<31 + 1, 1<<32 - 2, 1<<32 - 1} {
		add(v)
	}
	for d := uint64(0); d < 3; d++ {
		add(n + d)
		add(limit + d)
		if n >= d+1 {
			add(n - d - 1)
		}
		if limit >= d+1 {
			add(limit - d - 1)
		}
	}
	return out
}

// largeSpans are the spans above the tables that the test covers.
var largeSpans = []uint64{
	257, 299, 300, 512, 1000, 1024, 1<<16 - 1, 1 << 16, 1<<16 + 1,
	1_000_000_007, 1<<24 - 1, 1<<31 - 1, 1 << 31, 1<<31 + 1, 1<<31 + 2,
	3 << 30, 3<<30 + 1, 1<<32 - 2, 1<<32 - 1, 1 << 32,
}

// TestUniformMatchesReference runs uniform and uniformRef over the same
// words, for every n in 1..300 and the large spans: each n gets its edge
// words (each alone, each followed by an accepted word) and a run of sfc32
// words, and both must return the same values and consume the same words.
func TestUniformMatchesReference(t *testing.T) {
	var spans []uint64
	for n := uint64(1); n <= 300; n++ {
		spans = append(spans, n)
	}
	spans = append(spans, largeSpans...)
	gen := NewSFC32(1, 2, 3, 4)
	for _, n := range spans {
		var words []uint32
		for _, w := range edgeWords(n) {
			words = append(words, w, 0) // 0 is always accepted: limit >= n >= 1
		}
		for range 400 {
			words = append(words, gen.Uint32())
		}
		words = append(words, 0) // so no call runs out of words

		ref := &script{t: t, words: words}
		opt := &script{t: t, words: words}
		s := New(opt)
		for call := 0; ref.pos < len(words); call++ {
			want := uniformRef(ref, n)
			got := s.uniform(n)
			if got != want || opt.pos != ref.pos {
				t.Fatalf("n=%d call %d: uniform = %d after %d words, reference = %d after %d words",
					n, call, got, opt.pos, want, ref.pos)
			}
		}
	}
}

// TestUniformEveryEdgeWordAlone checks, word by word, that uniform accepts
// exactly the words below the spec's limit and maps them to u % n.
func TestUniformEveryEdgeWordAlone(t *testing.T) {
	spans := append([]uint64{1, 2, 3, 4, 6, 7, 8, 52, 255, 256}, largeSpans...)
	for _, n := range spans {
		limit := (uint64(1) << 32) / n * n
		for _, w := range edgeWords(n) {
			src := &script{t: t, words: []uint32{w, 5}}
			got := New(src).uniform(n)
			if uint64(w) < limit {
				if got != uint64(w)%n || src.pos != 1 {
					t.Errorf("n=%d word %d (< limit %d): got %d after %d words, want %d after 1", n, w, limit, got, src.pos, uint64(w)%n)
				}
			} else if got != 5%n || src.pos != 2 {
				t.Errorf("n=%d word %d (>= limit %d): got %d after %d words, want it rejected and %d", n, w, limit, got, src.pos, 5%n)
			}
		}
	}
}

// TestUniformOneConsumesOneWord: n = 1 has limit 2^32, so it draws exactly
// one word (the spec's loop runs once) and returns 0.
func TestUniformOneConsumesOneWord(t *testing.T) {
	for _, w := range []uint32{0, 1, 1 << 31, 1<<32 - 1} {
		src := &script{t: t, words: []uint32{w, 9}}
		s := New(src)
		if got := s.uniform(1); got != 0 || src.pos != 1 {
			t.Errorf("uniform(1) on word %d = %d after %d words, want 0 after 1", w, got, src.pos)
		}
		v, err := s.UniformInt(-7, -7, TagTestOnly, nil)
		if err != nil || v != -7 || src.pos != 2 {
			t.Errorf("UniformInt(-7, -7) = %d, %v after %d words, want -7 after 2", v, err, src.pos)
		}
	}
}

// TestFastMod checks the division-free remainder against % for every table
// span over a stride of words that hits both ends of the range.
func TestFastMod(t *testing.T) {
	for n := uint64(2); n <= smallSpan; n++ {
		m := smallTab[n].magic
		check := func(u uint32) {
			if got, want := fastMod(u, m, n), uint64(u)%n; got != want {
				t.Fatalf("fastMod(%d, n=%d) = %d, want %d", u, n, got, want)
			}
		}
		for u := uint64(0); u < 1<<32; u += 1<<32/4093 + 7 {
			check(uint32(u))
		}
		for d := uint32(0); d < 600; d++ {
			check(d)
			check(^d)
		}
	}
}

// TestSmallLimitTable checks the tables against the spec's formula.
func TestSmallLimitTable(t *testing.T) {
	for n := uint64(2); n <= smallSpan; n++ {
		if want := (uint64(1) << 32) / n * n; smallTab[n].limit != want {
			t.Errorf("smallTab[%d].limit = %d, want %d", n, smallTab[n].limit, want)
		}
	}
}

// TestUniformSFC32PathMatchesReference: a stream over sfc32 takes the
// inlined paths (drawSmall, the inline word reads), which the scripted
// source does not; they must equal uniformRef over a copy of the same
// generator, value for value and word for word.
func TestUniformSFC32PathMatchesReference(t *testing.T) {
	var spans []uint64
	for n := uint64(1); n <= 300; n++ {
		spans = append(spans, n)
	}
	spans = append(spans, largeSpans...)
	for _, n := range spans {
		g := NewSFC32(0x9e3779b9, uint32(n), 0x7f4a7c15, 1)
		ref := *g
		s := New(g)
		if s.sfc == nil {
			t.Fatal("New(*SFC32) does not take the sfc32 path")
		}
		for call := range 200 {
			want := uniformRef(&ref, n)
			if got := s.uniform(n); got != want || *g != ref {
				t.Fatalf("n=%d call %d: uniform = %d, reference %d (generators %v, %v)", n, call, got, want, *g, ref)
			}
		}
	}
}
