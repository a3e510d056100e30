package rng_test

import (
	"bytes"
	"encoding/json"
	"os"
	"slices"
	"testing"

	"github.com/fairboard/fairboard/rng"
)

// vectorFile is the output of testdata/sfc32/gen.mjs: the spec's seeded
// numbers as bryc's JavaScript and the spec's pseudocode compute them.
type vectorFile struct {
	Comment string        `json:"comment"`
	Seeds   []seedVectors `json:"seeds"`
}

type seedVectors struct {
	Seed       string    `json:"seed"`
	Cyrb128    [4]uint32 `json:"cyrb128"`
	U32        []uint32  `json:"u32"`
	UniformInt []struct {
		Min    int64   `json:"min"`
		Max    int64   `json:"max"`
		Values []int64 `json:"values"`
		Words  int     `json:"words"`
	} `json:"uniformInt"`
	Float01 struct {
		Values []float64 `json:"values"`
		Words  int       `json:"words"`
	} `json:"float01"`
	Shuffle []struct {
		N      int   `json:"n"`
		Result []int `json:"result"`
		Words  int   `json:"words"`
	} `json:"shuffle"`
	WeightedPick []struct {
		Weights []float64 `json:"weights"`
		R       []int64   `json:"r"`
		Index   []int     `json:"index"`
		Words   int       `json:"words"`
	} `json:"weightedPick"`
	ChooseOne []struct {
		N       int   `json:"n"`
		Indices []int `json:"indices"`
		Words   int   `json:"words"`
	} `json:"chooseOne"`
}

func loadVectors(t *testing.T) vectorFile {
	t.Helper()
	raw, err := os.ReadFile("testdata/sfc32/vectors.json")
	if err != nil {
		t.Fatal(err)
	}
	var v vectorFile
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&v); err != nil {
		t.Fatalf("vectors.json: %v", err)
	}
	if len(v.Seeds) < 10 {
		t.Fatalf("vectors.json has %d seeds; the generator writes 13", len(v.Seeds))
	}
	return v
}

// seeded returns a fresh seeded stream, failing the test on error.
func seeded(t testing.TB, seed string, opts ...rng.Option) *rng.Stream {
	t.Helper()
	s, err := rng.NewSeeded(seed, opts...)
	if err != nil {
		t.Fatalf("NewSeeded(%q): %v", seed, err)
	}
	return s
}

// checkWords fails unless s has drawn exactly words words since it was
// seeded: its state must equal that of a bare sfc32 advanced words times.
func checkWords(t *testing.T, s *rng.Stream, seed string, words int, what string) {
	t.Helper()
	ref, err := rng.SeedSFC32(seed)
	if err != nil {
		t.Fatal(err)
	}
	for range words {
		ref.Uint32()
	}
	want, _ := ref.MarshalText()
	got, err := s.State()
	if err != nil {
		t.Fatal(err)
	}
	if got != string(want) {
		t.Errorf("%s: stream is not %d words in (state %s, want %s)", what, words, got, want)
	}
}

func TestVectorsCyrb128AndUint32(t *testing.T) {
	for _, v := range loadVectors(t).Seeds {
		h, err := rng.Cyrb128(v.Seed)
		if err != nil {
			t.Fatalf("Cyrb128(%q): %v", v.Seed, err)
		}
		if h != v.Cyrb128 {
			t.Errorf("Cyrb128(%q) = %v, want %v", v.Seed, h, v.Cyrb128)
		}
		s := seeded(t, v.Seed)
		bare, _ := rng.SeedSFC32(v.Seed)
		for i, want := range v.U32 {
			if got := s.Uint32(rng.TagTestOnly, nil); got != want {
				t.Fatalf("seed %q: Uint32 #%d = %d, want %d", v.Seed, i, got, want)
			}
			if got := bare.Uint32(); got != want {
				t.Fatalf("seed %q: SFC32.Uint32 #%d = %d, want %d", v.Seed, i, got, want)
			}
		}
	}
}

func TestVectorsUniformInt(t *testing.T) {
	for _, v := range loadVectors(t).Seeds {
		for _, c := range v.UniformInt {
			s := seeded(t, v.Seed)
			for i, want := range c.Values {
				got, err := s.UniformInt(c.Min, c.Max, rng.TagTestOnly, nil)
				if err != nil || got != want {
					t.Fatalf("seed %q: UniformInt(%d, %d) #%d = %d, %v; want %d", v.Seed, c.Min, c.Max, i, got, err, want)
				}
			}
			checkWords(t, s, v.Seed, c.Words, "UniformInt")
		}
	}
}

func TestVectorsFloat01(t *testing.T) {
	for _, v := range loadVectors(t).Seeds {
		s := seeded(t, v.Seed)
		for i, want := range v.Float01.Values {
			if got := s.Float01(rng.TagTestOnly, nil); got != want {
				t.Fatalf("seed %q: Float01 #%d = %v, want %v", v.Seed, i, got, want)
			}
		}
		checkWords(t, s, v.Seed, v.Float01.Words, "Float01")
	}
}

func TestVectorsShuffle(t *testing.T) {
	for _, v := range loadVectors(t).Seeds {
		for _, c := range v.Shuffle {
			s := seeded(t, v.Seed)
			arr := make([]int, c.N)
			for i := range arr {
				arr[i] = i
			}
			rng.Shuffle(s, arr, rng.TagTestOnly, nil)
			if !slices.Equal(arr, c.Result) {
				t.Fatalf("seed %q: Shuffle(0..%d) = %v, want %v", v.Seed, c.N-1, arr, c.Result)
			}
			checkWords(t, s, v.Seed, c.Words, "Shuffle")
		}
	}
}

func TestVectorsWeightedPick(t *testing.T) {
	for _, v := range loadVectors(t).Seeds {
		for _, c := range v.WeightedPick {
			items := make([]rng.Weighted[int], len(c.Weights))
			for i, w := range c.Weights {
				items[i] = rng.Weighted[int]{Item: 100 + i, Weight: w}
			}
			s := seeded(t, v.Seed)
			for i := range c.R {
				p, err := rng.WeightedPick(s, items, rng.TagTestOnly, nil)
				if err != nil {
					t.Fatal(err)
				}
				if p.R != c.R[i] || p.Index != c.Index[i] || p.Item != 100+c.Index[i] {
					t.Fatalf("seed %q: WeightedPick(%v) #%d = %+v, want r %d index %d", v.Seed, c.Weights, i, p, c.R[i], c.Index[i])
				}
			}
			checkWords(t, s, v.Seed, c.Words, "WeightedPick")
		}
	}
}

func TestVectorsChooseOne(t *testing.T) {
	for _, v := range loadVectors(t).Seeds {
		for _, c := range v.ChooseOne {
			arr := make([]string, c.N)
			for i := range arr {
				arr[i] = string(rune('A' + i))
			}
			s := seeded(t, v.Seed)
			for i, want := range c.Indices {
				got, idx, err := rng.ChooseOne(s, arr, rng.TagTestOnly, nil)
				if err != nil || idx != want || got != arr[want] {
					t.Fatalf("seed %q: ChooseOne(n=%d) #%d = %q, %d, %v; want index %d", v.Seed, c.N, i, got, idx, err, want)
				}
			}
			checkWords(t, s, v.Seed, c.Words, "ChooseOne")
		}
	}
}

// TestVectorsDiceIsUniformInt pins Dice(sides) to UniformInt(1, sides).
func TestVectorsDiceIsUniformInt(t *testing.T) {
	for _, v := range loadVectors(t).Seeds {
		for _, c := range v.UniformInt {
			if c.Min != 1 {
				continue
			}
			s := seeded(t, v.Seed)
			for i, want := range c.Values {
				d, err := s.Dice(int(c.Max), rng.TagTestOnly, nil)
				if err != nil || int64(d.Value) != want || d.Sides != int(c.Max) {
					t.Fatalf("seed %q: Dice(%d) #%d = %+v, %v; want %d", v.Seed, c.Max, i, d, err, want)
				}
			}
		}
	}
}

// TestSpecFixtureExamples pins what the exact algorithm gives for the seeds
// of the spec's golden fixtures 02 and 03, each on a fresh stream.
//
// The spec's numbers are illustrative and do NOT all match: fixture 02 says
// seed "comp-01" gives E3 compositions [2xT2, 2xT2, 1xT2+1xT1, ...], but
// weightedPick([70,20,10]) on sfc32(cyrb128("comp-01")) gives
// [1xT2+1xT1, 2xT2, 2xT2, 1xT2+1xT1, 2xT2, 1xT2+1xT1] (r = 70, 58, 60, 77, 4,
// 80); fixture 03 says seed "eq-01" gives back-rolls [2,1,3], but three d4s
// give [2,2,3] (first and last agree, the second does not). The algorithm,
// cross-checked against the published JavaScript in vectors.json, wins: the
// values below are what every client computes.
func TestSpecFixtureExamples(t *testing.T) {
	choices := []rng.Weighted[string]{
		{Item: "2xT2", Weight: 70},
		{Item: "1xT2+1xT1", Weight: 20},
		{Item: "1xT3", Weight: 10},
	}
	s := seeded(t, "comp-01")
	var picks []string
	var rs []int64
	ctx := rng.Ctx{TileID: 7, EnemyTier: 3}
	for range 6 {
		p, err := rng.WeightedPick(s, choices, rng.CompositionTag(3), &ctx)
		if err != nil {
			t.Fatal(err)
		}
		picks = append(picks, p.Item)
		rs = append(rs, p.R)
	}
	wantPicks := []string{"1xT2+1xT1", "2xT2", "2xT2", "1xT2+1xT1", "2xT2", "1xT2+1xT1"}
	if !slices.Equal(picks, wantPicks) || !slices.Equal(rs, []int64{70, 58, 60, 77, 4, 80}) {
		t.Errorf("comp-01 E3 picks = %v (r %v), want %v (r [70 58 60 77 4 80])", picks, rs, wantPicks)
	}

	s = seeded(t, "eq-01")
	var back []int
	for _, uid := range []string{"A", "B", "C"} {
		d, err := s.Dice(4, rng.TagEarthquakeBackRoll, &rng.Ctx{ActorUID: uid})
		if err != nil {
			t.Fatal(err)
		}
		back = append(back, d.Value)
	}
	if !slices.Equal(back, []int{2, 2, 3}) {
		t.Errorf("eq-01 earthquake back-rolls = %v, want [2 2 3]", back)
	}
}
