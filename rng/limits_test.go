package rng

import (
	"errors"
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
