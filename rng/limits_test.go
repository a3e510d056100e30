package rng

import (
	"errors"
	"math"
	"strings"
	"testing"
)

// TestLimitOfChooseOne: ChooseOne takes up to 2^32 items, the span of one
// word. With 2^32 items the limit is 2^32 (every word accepted) and the
// index is the word itself; one more item is refused. The items are
// zero-size, so the slices cost no memory.
func TestLimitOfChooseOne(t *testing.T) {
	src := &script{t: t, words: []uint32{4294967295, 0}}
	if _, i, err := ChooseOne(New(src), make([]struct{}, 1<<32), TagTestOnly, nil); err != nil || i != 4294967295 || src.pos != 1 {
		t.Errorf("ChooseOne of 2^32 over word 2^32-1: index %d, %v after %d words", i, err, src.pos)
	}
	if _, _, err := ChooseOne(New(src), make([]struct{}, 1<<32+1), TagTestOnly, nil); !errors.Is(err, ErrRange) || src.pos != 1 {
		t.Errorf("ChooseOne of 2^32+1 items: err = %v after %d words, want ErrRange and no draw", err, src.pos)
	}
	if _, _, err := ChooseOne(New(src), []int{}, TagTestOnly, nil); !errors.Is(err, ErrRange) {
		t.Errorf("ChooseOne of nothing: err = %v", err)
	}
	// Dice: 2^32 sides is the largest die.
	if _, err := New(src).Dice(1<<32+1, TagTestOnly, nil); !errors.Is(err, ErrRange) || src.pos != 1 {
		t.Errorf("Dice(2^32+1): err = %v after %d words", err, src.pos)
	}
}

// TestTruncateInMessages: untrusted text quoted in an error is cut to 40
// bytes and "...": exactly 40 is kept whole.
func TestTruncateInMessages(t *testing.T) {
	forty := strings.Repeat("x", 40)
	var g SFC32
	err := g.UnmarshalText([]byte(forty))
	if err == nil || !strings.Contains(err.Error(), `"`+forty+`"`) {
		t.Errorf("40 bytes: %v", err)
	}
	err = g.UnmarshalText([]byte(forty + "yz"))
	if err == nil || !strings.Contains(err.Error(), `"`+forty+`..."`) || strings.Contains(err.Error(), "y") {
		t.Errorf("42 bytes: %v", err)
	}
}

// TestTierAndDeckTags: the tier tags exist for tiers 1..3 only; other tiers
// get the spec's fallback tag.
func TestTierAndDeckTags(t *testing.T) {
	for tier, want := range map[int][2]Tag{
		-1: {"random.sample", "random.sample"},
		0:  {"random.sample", "random.sample"},
		1:  {"enemy.composition.pick.t1", "loot.drop.roll.t1"},
		2:  {"enemy.composition.pick.t2", "loot.drop.roll.t2"},
		3:  {"enemy.composition.pick.t3", "loot.drop.roll.t3"},
		4:  {"random.sample", "random.sample"},
	} {
		if got := CompositionTag(tier); got != want[0] {
			t.Errorf("CompositionTag(%d) = %q, want %q", tier, got, want[0])
		}
		if got := LootTag(tier); got != want[1] {
			t.Errorf("LootTag(%d) = %q, want %q", tier, got, want[1])
		}
	}
	if InitShuffleTag("enemy.t2") != "deck.initShuffle.enemy.t2" || ReshuffleTag("chance") != "deck.reshuffle.chance" {
		t.Errorf("deck tags %q, %q", InitShuffleTag("enemy.t2"), ReshuffleTag("chance"))
	}
}

// TestLimitOfWeights: a weight is a whole number in [1, 2^32] and the sum
// is at most 2^32; anything else is refused before a word is drawn, naming
// the weight.
func TestLimitOfWeights(t *testing.T) {
	src := &script{t: t, words: []uint32{4294967295, 0}}
	// One weight of 2^32: limit 2^32, r is the word.
	p, err := WeightedPick(New(src), []Weighted[int]{{7, 1 << 32}}, TagTestOnly, nil)
	if err != nil || p.R != 4294967295 || p.Item != 7 || src.pos != 1 {
		t.Errorf("one weight of 2^32: %+v, %v after %d words", p, err, src.pos)
	}
	for _, ws := range [][]float64{
		{0}, {1, 0}, {-1}, {1.5}, {math.NaN()}, {math.Inf(1)}, {1<<32 + 1}, {1 << 32, 1}, {4294967295, 2},
	} {
		items := make([]Weighted[int], len(ws))
		for i, w := range ws {
			items[i] = Weighted[int]{i, w}
		}
		if _, err := WeightedPick(New(src), items, TagTestOnly, nil); !errors.Is(err, ErrRange) || src.pos != 1 {
			t.Errorf("weights %v: err = %v after %d words, want ErrRange and no draw", ws, err, src.pos)
		}
	}
}
