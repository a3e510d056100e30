package engine

import (
	"strings"
	"testing"
)

// cardByScan is a second, plain implementation of Ruleset.Card: the card
// whose id equals id, found by reading every card.
func cardByScan(r *Ruleset, id string) *Card {
	cards := r.Cards()
	for i := range cards {
		if cards[i].ID == id {
			return &cards[i]
		}
	}
	return nil
}

// Card finds a card by the place of its id's bytes when the id is one of
// the ruleset's own, and by value otherwise: every id, as the ruleset holds
// it, as a copy with other bytes, and every prefix and suffix of it (views
// of the interned bytes that are not a card's id, or another card's: "x-1"
// is a prefix of "x-10"), must give what a plain scan gives.
func TestCardFindsByIdentityAndByValue(t *testing.T) {
	r := DefaultRules()
	checked := 0
	check := func(id string) {
		t.Helper()
		if got, want := r.Card(id), cardByScan(r, id); got != want {
			t.Fatalf("Card(%q) = %v, want %v", id, got, want)
		}
		checked++
	}
	for d := range NumDecks {
		for _, id := range r.InitialDeck(d) {
			check(id)
			check(strings.Clone(id))
			for n := range len(id) {
				check(id[:n])
				check(id[n:])
			}
		}
	}
	for _, id := range []string{"", "nope", "t1-potion", strings.Repeat("x", 40)} {
		if r.Card(id) != nil {
			t.Fatalf("Card(%q) found a card", id)
		}
	}
	if checked < 200 {
		t.Fatalf("only %d ids checked", checked)
	}
	// The initial decks hold exactly the cards, each id once.
	seen := map[string]bool{}
	for d := range NumDecks {
		for _, id := range r.InitialDeck(d) {
			if seen[id] || r.Card(id) == nil || r.Card(id).Deck != d {
				t.Fatalf("deck %d: id %q twice, unknown or in another deck", d, id)
			}
			seen[id] = true
		}
	}
	if len(seen) != len(r.Cards()) {
		t.Fatalf("%d ids in the decks, %d cards", len(seen), len(r.Cards()))
	}
}

// Player finds a player whether the uid asked for is a copy of its UID
// (the same bytes) or an equal string with other bytes, never a player
// whose uid merely shares bytes or a last letter with it.
func TestPlayerFindsByIdentityAndByValue(t *testing.T) {
	all := "p1p2p10q1"
	p := &Public{Players: []Player{{UID: all[0:2]}, {UID: all[2:4]}, {UID: all[4:7]}, {UID: all[7:9]}}}
	cases := []struct {
		uid  string
		want int
	}{
		{all[0:2], 0}, {all[2:4], 1}, {all[4:7], 2}, {all[7:9], 3},
		{strings.Clone("p1"), 0}, {strings.Clone("p10"), 2}, {strings.Clone("q1"), 3},
		{all[4:6], 0},  // "p1" as a view of "p10"'s bytes: found by value
		{all[0:1], -1}, // "p", a view of "p1"'s first byte
		{"p3", -1}, {"", -1}, {"P1", -1},
	}
	for _, c := range cases {
		pl, i := p.Player(c.uid)
		if i != c.want || (i < 0) != (pl == nil) || (i >= 0 && pl != &p.Players[i]) {
			t.Errorf("Player(%q) = %p, %d; want index %d", c.uid, pl, i, c.want)
		}
	}
}
