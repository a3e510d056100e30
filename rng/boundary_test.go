package rng

import "testing"

// The accept/reject boundary of every sampling path, driven by words chosen
// to sit exactly on the spec's limit:
//
//	n = max - min + 1; limit = floor(2^32 / n) * n
//	draw u until u < limit; return min + u % n
//
// so limit-1 is the largest word accepted and limit the smallest rejected.
// The expected values below are worked out by hand from that formula (the
// arithmetic is in each case's comment), never taken from the code.
//
// A scripted Source reaches the paths for a generic source. The paths for
// sfc32 (drawSmall, the inlined word reads of uniform, Dice and Shuffle)
// are only taken by an *SFC32, so sfcWords builds an sfc32 state whose
// first two outputs are the chosen words.

// sfcWords returns an sfc32 generator whose first two outputs are w1 and
// w2. sfc32 outputs t = a + b + d, then sets d = d+1, a = b ^ b>>9,
// b = 9c, c = rotl(c, 21) + t. With b = d = 0 the first output is a = w1,
// and the next state has a = 0, b = 9c, d = 1, so the second output is
// 9c + 1: c = (w2 - 1) * 9^-1 mod 2^32, where 9^-1 = 0x38e38e39
// (9 * 0x38e38e39 = 2^33 + 1). Later outputs are whatever sfc32 makes.
func sfcWords(w1, w2 uint32) *SFC32 {
	const inv9 = 0x38e38e39
	return NewSFC32(w1, 0, (w2-1)*inv9, 0)
}

// wordsUsed returns how many words g has drawn since it was start, by
// stepping a copy of start until it matches (at most 8).
func wordsUsed(t *testing.T, start SFC32, g *SFC32) int {
	t.Helper()
	for k := 0; k <= 8; k++ {
		if start == *g {
			return k
		}
		start.Uint32()
	}
	t.Fatalf("generator %+v is more than 8 words past its start", *g)
	return 0
}

func TestSFCWords(t *testing.T) {
	for _, w := range [][2]uint32{{0, 0}, {1, 2}, {0xffffffff, 3}, {4294967292, 4294967291}, {7, 0xffffffff}} {
		g := sfcWords(w[0], w[1])
		if a, b := g.Uint32(), g.Uint32(); a != w[0] || b != w[1] {
			t.Errorf("sfcWords(%d, %d) outputs %d, %d", w[0], w[1], a, b)
		}
	}
}

// boundaryCase is one span n, the words drawn, the value u % n expected and
// how many words must be used (the words after the accepted one are never
// read).
type boundaryCase struct {
	n     uint64
	words []uint32
	want  uint64
	used  int
}

var boundaryCases = []boundaryCase{
	// n = 1: limit = 2^32, every word is accepted and the value is 0.
	{1, []uint32{4294967295, 9}, 0, 1},
	// n = 2, 4, 256 divide 2^32: limit = 2^32, nothing is rejected.
	{2, []uint32{4294967295, 9}, 1, 1},
	{4, []uint32{4294967295, 9}, 3, 1},
	{256, []uint32{4294967295, 9}, 255, 1},
	// n = 3: floor(4294967296/3) = 1431655765, limit = 4294967295. Only
	// 4294967295 is rejected; 4294967294 = 3*1431655764 + 2.
	{3, []uint32{4294967294, 9}, 2, 1},
	{3, []uint32{4294967295, 7}, 1, 2}, // 7 = 3*2 + 1
	// n = 6: floor(4294967296/6) = 715827882, limit = 4294967292, so the
	// four words 4294967292..4294967295 are rejected. 4294967291 = limit-1
	// and limit is a multiple of 6, so it is 5 mod 6.
	{6, []uint32{4294967291, 9}, 5, 1},
	{6, []uint32{4294967292, 4294967291}, 5, 2},
	{6, []uint32{4294967295, 0}, 0, 2},
	{6, []uint32{0, 9}, 0, 1},
	// n = 7: floor(4294967296/7) = 613566756, limit = 4294967292 too.
	{7, []uint32{4294967291, 9}, 6, 1},
	{7, []uint32{4294967292, 13}, 6, 2},
	// n = 52: floor(4294967296/52) = 82595524, limit = 4294967248.
	{52, []uint32{4294967247, 9}, 51, 1},
	{52, []uint32{4294967248, 53}, 1, 2},
	// n = 100 (the weighted tables' sum): 42949672*100 = 4294967200.
	{100, []uint32{4294967199, 9}, 99, 1},
	{100, []uint32{4294967200, 4294967199}, 99, 2},
	// n = 255, the last odd span of the table: 16843009*255 = 4294967295.
	{255, []uint32{4294967294, 9}, 254, 1},
	{255, []uint32{4294967295, 255}, 0, 2},
	// n = 257, the first span past the table: 16711935*257 = 4294967295;
	// 4294967294 = 257*16711935 - 1 is 256 mod 257.
	{257, []uint32{4294967294, 9}, 256, 1},
	{257, []uint32{4294967295, 258}, 1, 2},
	// n = 300: 14316557*300 = 4294967100.
	{300, []uint32{4294967099, 9}, 299, 1},
	{300, []uint32{4294967100, 301}, 1, 2},
	// n = 2^31+1 = 2147483649: floor(2^32/n) = 1, limit = n, so nearly
	// half the words are rejected.
	{2147483649, []uint32{2147483648, 9}, 2147483648, 1},
	{2147483649, []uint32{2147483649, 2147483647}, 2147483647, 2},
	{2147483649, []uint32{4294967295, 1}, 1, 2},
	// n = 3*2^30 = 3221225472: floor(2^32/n) = 1, limit = n.
	{3221225472, []uint32{3221225471, 9}, 3221225471, 1},
	{3221225472, []uint32{3221225472, 5}, 5, 2},
	// n = 2^32-1: floor = 1, limit = 4294967295.
	{4294967295, []uint32{4294967294, 9}, 4294967294, 1},
	{4294967295, []uint32{4294967295, 4294967294}, 4294967294, 2},
	// n = 2^32: every word, as itself.
	{1 << 32, []uint32{4294967295, 9}, 4294967295, 1},
}

// TestBoundaryUniformIntScripted drives UniformInt, Dice and ChooseOne over
// a scripted source (the generic path: the table's limit and fastMod for
// n <= 256, the division past it). UniformInt runs on [-1, n-2], so the
// value is -1 + u%n.
func TestBoundaryUniformIntScripted(t *testing.T) {
	for _, c := range boundaryCases {
		src := &script{t: t, words: c.words}
		v, err := New(src).UniformInt(-1, int64(c.n)-2, TagTestOnly, nil)
		if err != nil || v != int64(c.want)-1 || src.pos != c.used {
			t.Errorf("n=%d words %v: UniformInt = %d, %v after %d words; want %d after %d",
				c.n, c.words, v, err, src.pos, int64(c.want)-1, c.used)
		}

		src = &script{t: t, words: c.words}
		d, err := New(src).Dice(int(c.n), TagTestOnly, nil)
		if err != nil || uint64(d.Value) != c.want+1 || src.pos != c.used {
			t.Errorf("n=%d words %v: Dice = %+v, %v after %d words; want %d after %d",
				c.n, c.words, d, err, src.pos, c.want+1, c.used)
		}

		if c.n > 1000 {
			continue
		}
		src = &script{t: t, words: c.words}
		_, i, err := ChooseOne(New(src), make([]struct{}, c.n), TagTestOnly, nil)
		if err != nil || uint64(i) != c.want || src.pos != c.used {
			t.Errorf("n=%d words %v: ChooseOne index %d, %v after %d words; want %d after %d",
				c.n, c.words, i, err, src.pos, c.want, c.used)
		}
	}
}

// TestBoundaryUniformIntSFC32 is the same over sfc32 states that output the
// words: Dice takes drawSmall inline for 2..256 sides, UniformInt and
// ChooseOne take uniform's sfc32 branches (the mask, drawSmall, and the
// inlined division loop past the table).
func TestBoundaryUniformIntSFC32(t *testing.T) {
	for _, c := range boundaryCases {
		start := *sfcWords(c.words[0], c.words[1])

		g := start
		v, err := New(&g).UniformInt(-1, int64(c.n)-2, TagTestOnly, nil)
		if used := wordsUsed(t, start, &g); err != nil || v != int64(c.want)-1 || used != c.used {
			t.Errorf("n=%d words %v: UniformInt = %d, %v after %d words; want %d after %d",
				c.n, c.words, v, err, used, int64(c.want)-1, c.used)
		}

		g = start
		d, err := New(&g).Dice(int(c.n), TagTestOnly, nil)
		if used := wordsUsed(t, start, &g); err != nil || uint64(d.Value) != c.want+1 || used != c.used {
			t.Errorf("n=%d words %v: Dice = %+v, %v after %d words; want %d after %d",
				c.n, c.words, d, err, used, c.want+1, c.used)
		}

		if c.n > 1000 {
			continue
		}
		g = start
		_, i, err := ChooseOne(New(&g), make([]struct{}, c.n), TagTestOnly, nil)
		if used := wordsUsed(t, start, &g); err != nil || uint64(i) != c.want || used != c.used {
			t.Errorf("n=%d words %v: ChooseOne index %d, %v after %d words; want %d after %d",
				c.n, c.words, i, err, used, c.want, c.used)
		}
	}
}

// TestBoundaryDrawSmall calls drawSmall itself for every table span that
// rejects anything (n in 3..255 not a power of two): the word limit-1 is
// accepted as n-1, the word limit is rejected and the next word, n+1, gives
// 1. The limit is recomputed here from the spec's formula.
func TestBoundaryDrawSmall(t *testing.T) {
	for n := uint64(3); n < smallSpan; n++ {
		if n&(n-1) == 0 {
			continue
		}
		limit := uint32((uint64(1) << 32) / n * n)
		start := *sfcWords(limit-1, 0)
		g := start
		if got, used := drawSmall(&g, n), wordsUsed(t, start, &g); got != n-1 || used != 1 {
			t.Errorf("n=%d: drawSmall over limit-1 = %d after %d words, want %d after 1", n, got, used, n-1)
		}
		start = *sfcWords(limit, uint32(n)+1)
		g = start
		if got, used := drawSmall(&g, n), wordsUsed(t, start, &g); got != 1 || used != 2 {
			t.Errorf("n=%d: drawSmall over limit, n+1 = %d after %d words, want 1 after 2", n, got, used)
		}
	}
}

// TestBoundaryThreeWords: two rejections in a row, then an accepted word.
func TestBoundaryThreeWords(t *testing.T) {
	// n = 6, limit 4294967292: 4294967292 and 4294967295 are rejected,
	// 11 = 6 + 5 is accepted as 5.
	src := &script{t: t, words: []uint32{4294967292, 4294967295, 11, 0}}
	if d, err := New(src).Dice(6, TagTestOnly, nil); err != nil || d.Value != 6 || src.pos != 3 {
		t.Errorf("Dice(6) = %+v, %v after %d words, want 6 after 3", d, err, src.pos)
	}
	// n = 300, limit 4294967100.
	src = &script{t: t, words: []uint32{4294967100, 4294967295, 4294967099, 0}}
	if v, err := New(src).UniformInt(0, 299, TagTestOnly, nil); err != nil || v != 299 || src.pos != 3 {
		t.Errorf("UniformInt(0, 299) = %d, %v after %d words, want 299 after 3", v, err, src.pos)
	}
}

// TestBoundaryWeightedPick: r = uniformInt(0, sum-1) with the sum's limit,
// then the first index whose running total exceeds r.
func TestBoundaryWeightedPick(t *testing.T) {
	e3 := []Weighted[string]{{"2xT2", 70}, {"1xT2+1xT1", 20}, {"1xT3", 10}} // totals 70, 90, 100
	cases := []struct {
		items []Weighted[string]
		words []uint32
		r     int64
		index int
		used  int
	}{
		// sum 100, limit 4294967200 (see boundaryCases).
		{e3, []uint32{69, 0}, 69, 0, 1},  // 69 < 70
		{e3, []uint32{70, 0}, 70, 1, 1},  // 70 is not < 70; 70 < 90
		{e3, []uint32{89, 0}, 89, 1, 1},  // 89 < 90
		{e3, []uint32{90, 0}, 90, 2, 1},  // 90 < 100
		{e3, []uint32{199, 0}, 99, 2, 1}, // 199 = 100 + 99
		{e3, []uint32{4294967199, 0}, 99, 2, 1},
		{e3, []uint32{4294967200, 4294967199}, 99, 2, 2},
		{e3, []uint32{4294967295, 100}, 0, 0, 2},
		// sum 7 = 3 + 4: limit 613566756*7 = 4294967292, 4294967291 is 6.
		{[]Weighted[string]{{"a", 3}, {"b", 4}}, []uint32{2, 0}, 2, 0, 1},
		{[]Weighted[string]{{"a", 3}, {"b", 4}}, []uint32{3, 0}, 3, 1, 1},
		{[]Weighted[string]{{"a", 3}, {"b", 4}}, []uint32{4294967291, 0}, 6, 1, 1},
		{[]Weighted[string]{{"a", 3}, {"b", 4}}, []uint32{4294967292, 10}, 3, 1, 2},
		// sum 2^32 = 1 + (2^32-1): no rejection, r is the word itself.
		{[]Weighted[string]{{"a", 1}, {"b", 4294967295}}, []uint32{0, 0}, 0, 0, 1},
		{[]Weighted[string]{{"a", 1}, {"b", 4294967295}}, []uint32{1, 0}, 1, 1, 1},
		{[]Weighted[string]{{"a", 1}, {"b", 4294967295}}, []uint32{4294967295, 0}, 4294967295, 1, 1},
		// sum 300 = 100 + 200 (past the table): limit 4294967100.
		{[]Weighted[string]{{"a", 100}, {"b", 200}}, []uint32{4294967100, 99}, 99, 0, 2},
		{[]Weighted[string]{{"a", 100}, {"b", 200}}, []uint32{4294967099, 0}, 299, 1, 1},
	}
	for _, c := range cases {
		check := func(path string, p Pick[string], err error, used int) {
			t.Helper()
			if err != nil || p.R != c.r || p.Index != c.index || p.Item != c.items[c.index].Item || used != c.used {
				t.Errorf("%s: weights %v words %v: %+v, %v after %d words; want r=%d index %d after %d",
					path, c.items, c.words, p, err, used, c.r, c.index, c.used)
			}
		}
		src := &script{t: t, words: c.words}
		p, err := WeightedPick(New(src), c.items, TagTestOnly, nil)
		check("script", p, err, src.pos)

		start := *sfcWords(c.words[0], c.words[1])
		g := start
		p, err = WeightedPick(New(&g), c.items, TagTestOnly, nil)
		check("sfc32", p, err, wordsUsed(t, start, &g))
	}
}

// TestBoundaryShuffle: Fisher-Yates from the end, j = uniformInt(0, i).
func TestBoundaryShuffle(t *testing.T) {
	// Three items over a script. i = 2 (n = 3, limit 4294967295): the word
	// 4294967295 is rejected, 3 gives j = 0: swap 2 and 0 -> c b a. i = 1
	// (n = 2, limit 2^32): 4294967295 is accepted, j = 1: no swap.
	src := &script{t: t, words: []uint32{4294967295, 3, 4294967295, 0}}
	arr := []string{"a", "b", "c"}
	Shuffle(New(src), arr, TagTestOnly, nil)
	if arr[0] != "c" || arr[1] != "b" || arr[2] != "a" || src.pos != 3 {
		t.Errorf("scripted shuffle = %v after %d words, want [c b a] after 3", arr, src.pos)
	}

	// The same over sfc32 (Shuffle's inlined drawSmall loop): the state of
	// sfcWords(4294967295, 3) has c = 2*0x38e38e39 = 0x71c71c72. Its third
	// output is 2 + 9*c2 + 2 with c2 = rotl(c, 21) + 4294967295, i.e.
	// rotl(c, 21) - 1; bit 0 of rotl(c, 21) is bit 11 of c, which is 1
	// (0x...1c72: 0xc = 1100 in bits 8..11), so c2 and the third output
	// are even: j = 0 for i = 1, swap 1 and 0 -> b c a.
	start := *sfcWords(4294967295, 3)
	g := start
	arr = []string{"a", "b", "c"}
	Shuffle(New(&g), arr, TagTestOnly, nil)
	if used := wordsUsed(t, start, &g); arr[0] != "b" || arr[1] != "c" || arr[2] != "a" || used != 3 {
		t.Errorf("sfc32 shuffle = %v after %d words, want [b c a] after 3", arr, used)
	}

	// 300 items over sfc32: the first swap is Shuffle's loop past the table
	// (i = 299, n = 300, limit 4294967100): 4294967100 is rejected, 301
	// gives j = 1, so item 1 ends last and nothing moves it again. The rest
	// must match the plain Fisher-Yates over uniformRef, word for word.
	start = *sfcWords(4294967100, 301)
	g = start
	ref := start
	arr300 := make([]int, 300)
	want := make([]int, 300)
	for i := range arr300 {
		arr300[i], want[i] = i, i
	}
	Shuffle(New(&g), arr300, TagTestOnly, nil)
	for i := len(want) - 1; i > 0; i-- {
		j := uniformRef(&ref, uint64(i)+1)
		want[i], want[j] = want[j], want[i]
	}
	if arr300[299] != 1 {
		t.Errorf("300-item shuffle put %d last, want 1", arr300[299])
	}
	for i := range want {
		if arr300[i] != want[i] {
			t.Fatalf("300-item shuffle differs from the reference at %d: %d, want %d", i, arr300[i], want[i])
		}
	}
	if g != ref {
		t.Errorf("300-item shuffle left the generator at %+v, the reference at %+v", g, ref)
	}
}

// TestBoundaryFloat01: one word, divided by 2^32, so the word range maps
// onto [0, 1) with 1 - 2^-32 the largest value; nothing is rejected.
func TestBoundaryFloat01(t *testing.T) {
	for _, c := range []struct {
		word uint32
		want float64
	}{
		{0, 0},
		{1, 1.0 / 4294967296},
		{1 << 31, 0.5},
		{4294967295, 1 - 1.0/4294967296}, // exact in a float64 (32 bits of mantissa)
	} {
		src := &script{t: t, words: []uint32{c.word, 0}}
		if f := New(src).Float01(TagTestOnly, nil); f != c.want || src.pos != 1 || f >= 1 {
			t.Errorf("Float01 over %d = %v after %d words, want %v after 1", c.word, f, src.pos, c.want)
		}
		start := *sfcWords(c.word, 0)
		g := start
		if f := New(&g).Float01(TagTestOnly, nil); f != c.want || wordsUsed(t, start, &g) != 1 {
			t.Errorf("sfc32 Float01 over %d = %v, want %v after 1 word", c.word, f, c.want)
		}
	}
}

// TestBoundaryUint32: the raw word, unchanged, one word per call.
func TestBoundaryUint32(t *testing.T) {
	src := &script{t: t, words: []uint32{0, 4294967295, 1 << 31}}
	s := New(src)
	for i, want := range []uint32{0, 4294967295, 1 << 31} {
		if got := s.Uint32(TagTestOnly, nil); got != want || src.pos != i+1 {
			t.Errorf("Uint32 call %d = %d after %d words, want %d", i, got, src.pos, want)
		}
	}
}
