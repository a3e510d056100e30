package kuhn

import (
	"fmt"

	"github.com/fairboard/fairboard/game"
)

// RestoreState implements game.Restorer: the hand of the seats' cards
// (each private part's {"card":C}) after the public part's betting
// history (At); the pot, the seat to move, the shown cards and the
// undealt card follow from them, and game.RestoreState checks that they
// are the given ones. Errors: a ruleset that is not Kuhn's, a seat count
// other than 2, a part that does not decode strictly, cards or a history
// At refuses.
func (Definition) RestoreState(r game.Ruleset, seats []game.Seat, public []byte, private [][]byte, _ []byte) (game.State, error) {
	if _, ok := r.(Rules); !ok {
		return nil, fmt.Errorf("not a Kuhn poker ruleset: %T", r)
	}
	if len(seats) != 2 || len(private) != 2 {
		return nil, fmt.Errorf("Kuhn poker takes 2 seats, not %d", len(seats))
	}
	var pub struct {
		History *string `json:"history"`
		Pot     int     `json:"pot"`
		ToMove  int     `json:"toMove"`
		Shown   []int   `json:"shown"`
	}
	if err := game.DecodePart("public", public, &pub); err != nil {
		return nil, err
	}
	if pub.History == nil {
		return nil, fmt.Errorf("public part: no history")
	}
	var cards [2]int
	for i, p := range private {
		var c struct {
			Card *int `json:"card"`
		}
		if err := game.DecodePart(fmt.Sprintf("seat %d's private", i), p, &c); err != nil {
			return nil, err
		}
		if c.Card == nil {
			return nil, fmt.Errorf("seat %d's private part: no card", i)
		}
		cards[i] = *c.Card
	}
	return At(cards[0], cards[1], *pub.History)
}
