package leduc

import (
	"fmt"

	"github.com/fairboard/fairboard/game"
)

// RestoreState implements game.Restorer: the hand of the seats' cards
// (each private part's {"card":"C"}) and the public part's public card
// after its two rounds' betting (At); the chips, the pot, the seat to
// move, the shown cards and the deck's remainder follow from them, and
// game.RestoreState checks that they are the given ones. Errors: a
// ruleset that is not Leduc's, a seat count other than 2, a part that
// does not decode strictly, a card's name that is none, cards or a
// betting At refuses.
func (Definition) RestoreState(r game.Ruleset, seats []game.Seat, public []byte, private [][]byte, _ []byte) (game.State, error) {
	if _, ok := r.(Rules); !ok {
		return nil, fmt.Errorf("not a Leduc hold'em ruleset: %T", r)
	}
	if len(seats) != 2 || len(private) != 2 {
		return nil, fmt.Errorf("Leduc hold'em takes 2 seats, not %d", len(seats))
	}
	var pub struct {
		Round      int      `json:"round"`
		Round1     *string  `json:"round1"`
		Round2     *string  `json:"round2"`
		PublicCard *string  `json:"publicCard"`
		In         []int    `json:"in"`
		Pot        int      `json:"pot"`
		ToMove     int      `json:"toMove"`
		Shown      []string `json:"shown"`
	}
	if err := game.DecodePart("public", public, &pub); err != nil {
		return nil, err
	}
	if pub.Round1 == nil || pub.Round2 == nil {
		return nil, fmt.Errorf("public part: want round1 and round2")
	}
	pc := NoCard
	if pub.PublicCard != nil {
		c, err := cardOf(*pub.PublicCard)
		if err != nil {
			return nil, fmt.Errorf("public part: %w", err)
		}
		pc = c
	}
	var cards [2]int
	for i, p := range private {
		var c struct {
			Card *string `json:"card"`
		}
		if err := game.DecodePart(fmt.Sprintf("seat %d's private", i), p, &c); err != nil {
			return nil, err
		}
		if c.Card == nil {
			return nil, fmt.Errorf("seat %d's private part: no card", i)
		}
		card, err := cardOf(*c.Card)
		if err != nil {
			return nil, fmt.Errorf("seat %d's private part: %w", i, err)
		}
		cards[i] = card
	}
	return At(cards[0], cards[1], pc, *pub.Round1, *pub.Round2)
}

// cardOf returns the card named name (cardNames).
func cardOf(name string) (int, error) {
	for i, n := range cardNames {
		if n == name {
			return i, nil
		}
	}
	return 0, fmt.Errorf("%q is no card's name", name)
}
