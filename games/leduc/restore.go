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
// ruleset that is not Leduc's, a seat count out of 2..MaxSeats, a part that
// does not decode strictly, a card's name that is none, cards or a
// betting At refuses.
func (Definition) RestoreState(r game.Ruleset, seats []game.Seat, public []byte, private [][]byte, _ []byte) (game.State, error) {
	if _, ok := r.(Rules); !ok {
		return nil, fmt.Errorf("not a Leduc hold'em ruleset: %T", r)
	}
	n := len(seats)
	if n < 2 || n > MaxSeats || len(private) != n {
		return nil, fmt.Errorf("Leduc hold'em takes 2 to %d seats with a private part each, not %d seats and %d parts", MaxSeats, n, len(private))
	}
	var pub struct {
		Round      int       `json:"round"`
		Round1     *string   `json:"round1"`
		Round2     *string   `json:"round2"`
		PublicCard *string   `json:"publicCard"`
		In         []int     `json:"in"`
		Folded     []bool    `json:"folded"`
		Pot        int       `json:"pot"`
		ToMove     int       `json:"toMove"`
		Shown      []*string `json:"shown"`
	}
	if err := game.DecodePart("public", public, &pub); err != nil {
		return nil, err
	}
	if pub.Round1 == nil || pub.Round2 == nil {
		return nil, fmt.Errorf("public part: want round1 and round2")
	}
	pc := NoCard
	if pub.PublicCard != nil {
		c, err := cardOf(n, *pub.PublicCard)
		if err != nil {
			return nil, fmt.Errorf("public part: %w", err)
		}
		pc = c
	}
	cards := make([]int, n)
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
		card, err := cardOf(n, *c.Card)
		if err != nil {
			return nil, fmt.Errorf("seat %d's private part: %w", i, err)
		}
		cards[i] = card
	}
	return AtCards(cards, pc, *pub.Round1, *pub.Round2)
}

// cardOf returns the card named name in the deck of seats seats
// (NameCard).
func cardOf(seats int, name string) (int, error) {
	for i := range 2 * (seats + 1) {
		if NameCard(seats, i) == name {
			return i, nil
		}
	}
	return 0, fmt.Errorf("%q is no card's name with %d seats", name, seats)
}
