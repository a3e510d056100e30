package tenhou

import (
	"encoding/json"
	"errors"
	"os"
	"slices"
	"strings"
	"testing"
)

// published is Tenhou's validation data for game
// 2016022509gm-0009-0000-b327da61, copied unchanged from the published data
// (see its "about" field).
type published struct {
	About     string   `json:"about"`
	SeedB64   string   `json:"seed_base64"`
	LogAttr   string   `json:"log_shuffle_attribute"`
	SeedWords []uint32 `json:"seed_u32"`
	Round1    struct {
		Src      []uint32 `json:"src_u32"`
		Rnd      []uint32 `json:"rnd_u32"`
		Wall     []int    `json:"wall136"`
		Dice     []int    `json:"dice_0_based"`
		Dora     int      `json:"dora_indicator_tile_id"`
		Dealer   int      `json:"dealer_seat"`
		Seat0Hai []int    `json:"seat0_deal_from_log_hai0"`
	} `json:"round1"`
}

func loadPublished(t *testing.T) published {
	t.Helper()
	raw, err := os.ReadFile("testdata/2016022509gm-0009-0000-b327da61.json")
	if err != nil {
		t.Fatal(err)
	}
	var p published
	if err := json.Unmarshal(raw, &p); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestMT19937Reference checks the generator against mt19937ar.c's published
// output for init_by_array({0x123, 0x234, 0x345, 0x456}) (mt19937ar.out),
// init_genrand(5489) and init_by_array({0}) (also CPython's random.seed(0)).
func TestMT19937Reference(t *testing.T) {
	m := NewMT19937Array([]uint32{0x123, 0x234, 0x345, 0x456})
	want := []uint32{1067595299, 955945823, 477289528, 4107218783, 4228976476,
		3344332714, 3355579695, 227628506, 810200273, 2591290167}
	for i, w := range want {
		if got := m.Uint32(); got != w {
			t.Fatalf("init_by_array output %d = %d, want %d", i, got, w)
		}
	}
	if got := NewMT19937(5489).Uint32(); got != 3499211612 {
		t.Fatalf("init_genrand(5489) first output %d, want 3499211612", got)
	}
	for _, key := range [][]uint32{{0}, nil} {
		if got := NewMT19937Array(key).Uint32(); got != 3626764237 {
			t.Fatalf("init_by_array(%v) first output %d, want 3626764237", key, got)
		}
	}
}

// TestPublishedGame reproduces Tenhou's published round 1 of game
// 2016022509gm-0009-0000-b327da61: seed words, src, rnd, wall, dice, dora
// indicator and the dealer's starting hand.
func TestPublishedGame(t *testing.T) {
	p := loadPublished(t)
	seed, err := ParseSeed(p.SeedB64)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(seed[:], p.SeedWords) {
		t.Fatal("decoded seed words differ from seed_u32")
	}
	if s2, err := ParseSeed(p.LogAttr); err != nil || s2 != seed {
		t.Fatalf("ParseSeed of the log attribute: %v", err)
	}
	r, err := RoundOf(seed, 1)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(r.Src[:], p.Round1.Src) {
		t.Fatal("src differs")
	}
	if !slices.Equal(r.Rnd[:], p.Round1.Rnd) {
		t.Fatal("rnd differs")
	}
	wall := r.Wall()
	if !slices.Equal(wall, p.Round1.Wall) {
		t.Fatalf("wall\n got %v\nwant %v", wall, p.Round1.Wall)
	}
	if d := r.Dice(); d[0] != p.Round1.Dice[0] || d[1] != p.Round1.Dice[1] {
		t.Fatalf("dice %v, want %v", d, p.Round1.Dice)
	}
	if got := DoraIndicator(wall); got != p.Round1.Dora {
		t.Fatalf("dora indicator %d, want %d", got, p.Round1.Dora)
	}
	// Dealing from the top: four blocks of 4 per seat in turn from the
	// dealer, then one tile each. The dealer (seat 0) gets wall[135..132],
	// wall[119..116], wall[103..100], then wall[87].
	var hand []int
	for _, top := range []int{135, 119, 103} {
		hand = append(hand, wall[top], wall[top-1], wall[top-2], wall[top-3])
	}
	hand = append(hand, wall[87])
	if p.Round1.Dealer != 0 || !slices.Equal(hand, p.Round1.Seat0Hai) {
		t.Fatalf("dealer's hand %v, log hai0 %v", hand, p.Round1.Seat0Hai)
	}
}

// TestRoundsAreConsecutive checks that round k uses the k-th block of 288
// generator words.
func TestRoundsAreConsecutive(t *testing.T) {
	seed, err := ParseSeed(loadPublished(t).SeedB64)
	if err != nil {
		t.Fatal(err)
	}
	g := NewGame(seed)
	for k := 1; k <= 3; k++ {
		want := g.Next()
		got, err := RoundOf(seed, k)
		if err != nil || got != want {
			t.Fatalf("round %d differs from the %d-th Next (err %v)", k, k, err)
		}
	}
	if _, err := RoundOf(seed, 0); err == nil {
		t.Fatal("RoundOf(0) must fail")
	}
}

// TestThreePlayerWall checks the 108-tile variant: 2m..8m are absent, the
// wall is a permutation of the 108 ids, and it is the position shuffle of
// 0..107 applied to the sorted ids (the same rnd, the same swaps). The
// first tiles of the published seed's round 1 are pinned as a regression
// (Tenhou published no 3-player data; the values were computed
// independently in Python from the published rnd).
func TestThreePlayerWall(t *testing.T) {
	tiles := ThreePlayerTiles()
	if len(tiles) != Tiles3 || tiles[3] != 3 || tiles[4] != 32 || tiles[107] != 135 {
		t.Fatalf("three-player tiles: %v", tiles)
	}
	seed, err := ParseSeed(loadPublished(t).SeedB64)
	if err != nil {
		t.Fatal(err)
	}
	r, _ := RoundOf(seed, 1)
	w := r.Wall3()
	pos := make([]int, Tiles3)
	for i := range pos {
		pos[i] = i
	}
	ShuffleWithRnd(pos, &r.Rnd)
	for i := range w {
		if w[i] != tiles[pos[i]] {
			t.Fatalf("wall3[%d] = %d, want tile %d", i, w[i], tiles[pos[i]])
		}
	}
	sorted := slices.Sorted(slices.Values(w))
	if !slices.Equal(sorted, tiles) {
		t.Fatal("wall3 is not a permutation of the 108 tiles")
	}
	if !slices.Equal(w[:8], []int{38, 100, 116, 0, 52, 1, 32, 118}) {
		t.Fatalf("wall3 head %v changed", w[:8])
	}
}

func TestParseSeedErrors(t *testing.T) {
	p := loadPublished(t)
	for name, s := range map[string]string{
		"empty":      "",
		"not base64": "!!!!",
		"short":      p.SeedB64[:100],
		"long":       p.SeedB64 + "AAAA",
		"bad prefix": "mt19937ar-sha512-n288-base32," + p.SeedB64,
	} {
		if _, err := ParseSeed(s); !errors.Is(err, ErrSeed) {
			t.Errorf("%s: err %v, want ErrSeed", name, err)
		}
	}
	// Padding is optional; surrounding space is ignored.
	seed, _ := ParseSeed(p.SeedB64)
	for _, s := range []string{strings.TrimRight(p.SeedB64, "="), " " + p.LogAttr + "\n"} {
		if got, err := ParseSeed(s); err != nil || got != seed {
			t.Errorf("ParseSeed(%.20q...): %v", s, err)
		}
	}
}
