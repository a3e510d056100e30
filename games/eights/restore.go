package eights

import (
	"fmt"

	"github.com/fairboard/fairboard/game"
)

// RestoreState implements game.Restorer: the state of its three parts,
// the public part's top card, suit in force, seat to move, discards,
// counters and end (AppendPublic), each seat's hand (AppendPrivate) and
// the draw pile's order (AppendSecret). game.RestoreState checks that the
// state appends to exactly the given parts (the hand and draw pile sizes
// the public part repeats, toMove -1 once over). Errors: a ruleset that
// is not Crazy Eights', seats that Setup would refuse, a part that does
// not decode strictly or lacks a field, a state that breaks an invariant
// (Check: every card of the deck once, values in range).
func (Definition) RestoreState(r game.Ruleset, seats []game.Seat, public []byte, private [][]byte, secret []byte) (game.State, error) {
	rules, ok := r.(*Rules)
	if !ok {
		return nil, fmt.Errorf("not a Crazy Eights ruleset: %T", r)
	}
	if len(seats) < 2 || len(seats) > 4 || len(private) != len(seats) {
		return nil, fmt.Errorf("Crazy Eights takes 2 to 4 seats and a private part each, not %d seats and %d parts", len(seats), len(private))
	}
	var pub struct {
		Top      *int  `json:"top"`
		Suit     *int  `json:"suit"`
		ToMove   *int  `json:"toMove"`
		Hands    []int `json:"hands"`
		Stock    *int  `json:"stock"`
		Discards []int `json:"discards"`
		Moves    *int  `json:"moves"`
		Passes   *int  `json:"passes"`
		Winner   *int  `json:"winner"`
		Ended    *int  `json:"ended"`
	}
	if err := game.DecodePart("public", public, &pub); err != nil {
		return nil, err
	}
	if pub.Top == nil || pub.Suit == nil || pub.ToMove == nil || pub.Discards == nil || pub.Moves == nil || pub.Passes == nil || pub.Winner == nil || pub.Ended == nil {
		return nil, fmt.Errorf("public part: want top, suit, toMove, hands, stock, discards, moves, passes, winner and ended")
	}
	s := &State{rules: rules, hands: make([][]int, len(seats)), top: *pub.Top, suit: *pub.Suit, toMove: *pub.ToMove,
		moves: *pub.Moves, passes: *pub.Passes, winner: *pub.Winner, ended: *pub.Ended}
	if s.ended != playing {
		// Over: toMove reads -1; the seat that would move next is the
		// one after the last mover, which only Apply used.
		s.toMove = 0
		if s.moves > 0 {
			s.toMove = s.moves % len(seats)
		}
	}
	for i, p := range private {
		var h struct {
			Hand []int `json:"hand"`
		}
		if err := game.DecodePart(fmt.Sprintf("seat %d's private", i), p, &h); err != nil {
			return nil, err
		}
		if h.Hand == nil {
			return nil, fmt.Errorf("seat %d's private part: no hand", i)
		}
		s.hands[i] = h.Hand
	}
	var sec struct {
		Stock []int `json:"stock"`
	}
	if err := game.DecodePart("secret", secret, &sec); err != nil {
		return nil, err
	}
	if sec.Stock == nil {
		return nil, fmt.Errorf("secret part: no stock")
	}
	s.pile = game.Pile{ID: DeckID, Cards: sec.Stock, Discards: pub.Discards}
	if err := s.Check(); err != nil {
		return nil, err
	}
	return s, nil
}
