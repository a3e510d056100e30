package rng

import (
	"testing"
)

// A relay over a seeded stream's UniformInt draws the values the stream
// draws directly, call for call, with its own seq counting its own draws.
func TestRelayDrawsTheStreamsWords(t *testing.T) {
	direct, err := NewSeeded("relay")
	if err != nil {
		t.Fatal(err)
	}
	under, _ := NewSeeded("relay")
	relay := NewRelay(under, ModeCrypto, "test.word", WithSeq(7))
	if relay.Mode() != ModeCrypto || relay.Seq() != 7 {
		t.Fatalf("mode %q seq %d", relay.Mode(), relay.Seq())
	}
	for i := range 200 {
		a, _ := direct.Dice(6, "t", nil)
		b, _ := relay.Dice(6, "t", nil)
		x, _ := direct.UniformInt(-3, 1000, "t", nil)
		y, _ := relay.UniformInt(-3, 1000, "t", nil)
		da, db := []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}, []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}
		Shuffle(direct, da, "t", nil)
		Shuffle(relay, db, "t", nil)
		if a != b || x != y || !equalInts(da, db) {
			t.Fatalf("draw %d: direct %v %d %v, relay %v %d %v", i, a, x, da, b, y, db)
		}
	}
	if relay.Seq() != 7+600 {
		t.Fatalf("relay seq %d, want %d", relay.Seq(), 7+600)
	}
	if direct.Seq() >= under.Seq() {
		t.Fatalf("the stream under the relay drew %d words, the direct one %d draws: a word per call at least", under.Seq(), direct.Seq())
	}
	if _, err := relay.State(); err == nil {
		t.Fatal("a relay's state was saved")
	}
}

type badDrawer struct{}

func (badDrawer) UniformInt(min, max int64, tag Tag, ctx *Ctx) (int64, error) { return -1, nil }

// A drawer that answers outside [0, 2^32-1] is a bug, reported by a panic.
func TestRelayPanicsOnABrokenDrawer(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Fatal("no panic")
		}
	}()
	s := NewRelay(badDrawer{}, ModeSeeded, "t")
	s.Dice(6, "t", nil)
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
