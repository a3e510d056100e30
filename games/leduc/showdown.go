package leduc

import "github.com/fairboard/fairboard/game"

// strength is a private card's strength with the public card: a pair
// above every single card, then the rank. (OpenSpiel ranks the two-card
// hand, pair first, then the higher and the lower rank; with the public
// card common to every hand, that order is this one.)
func (s *State) strength(seat int) int {
	if s.card[seat]/2 == s.public/2 {
		return MaxSeats + 1 + s.card[seat]/2
	}
	return s.card[seat] / 2
}

// best appends the seats still in whose hand is the strongest, ascending:
// one, or the seats of equal best ranks.
func (s *State) best(b []int) []int {
	top := -1
	for p := range s.seats {
		if s.out[p] {
			continue
		}
		switch v := s.strength(p); {
		case v > top:
			top, b = v, append(b[:0], p)
		case v == top:
			b = append(b, p)
		}
	}
	return b
}

// winners appends the seats that share the pot at the end: the one seat
// left after folds, or the best hands at a showdown.
func (s *State) winners(b []int) []int {
	if s.left > 1 {
		return s.best(b)
	}
	for p := range s.seats {
		if !s.out[p] {
			b = append(b, p)
		}
	}
	return b
}

// showdownEvents appends the showdown's events: with two seats
// Showdown {card0, card1} then Won {seat, pot} or Split {pot}; with more,
// Shown {seat, card} for each seat still in, ascending, then Won {seat,
// pot} or Shared {seat, pot} for each of the equal best hands.
func (s *State) showdownEvents(ev []game.Event) []game.Event {
	pot := int64(s.Pot())
	var buf [MaxSeats]int
	w := s.best(buf[:0])
	if s.seats == 2 {
		ev = append(ev, game.Event{To: game.All, Type: EventShowdown, Vals: [game.MaxVals]int64{int64(s.card[0]), int64(s.card[1])}})
		if len(w) == 1 {
			return append(ev, game.Event{To: game.All, Type: EventWon, Vals: [game.MaxVals]int64{int64(w[0]), pot}})
		}
		return append(ev, game.Event{To: game.All, Type: EventSplit, Vals: [game.MaxVals]int64{pot}})
	}
	for p := range s.seats {
		if !s.out[p] {
			ev = append(ev, game.Event{To: game.All, Type: EventShown, Vals: [game.MaxVals]int64{int64(p), int64(s.card[p])}})
		}
	}
	if len(w) == 1 {
		return append(ev, game.Event{To: game.All, Type: EventWon, Vals: [game.MaxVals]int64{int64(w[0]), pot}})
	}
	for _, p := range w {
		ev = append(ev, game.Event{To: game.All, Type: EventShared, Vals: [game.MaxVals]int64{int64(p), pot}})
	}
	return ev
}

// Outcome: over when all seats but one have folded, or after the second
// round's last call or fold. The pot goes to the one seat left, or to the
// best hand at the showdown, or is split equally among the equal best
// hands (OpenSpiel: pot/k each, which may be a half chip); each seat's
// payoff is what it takes from the pot less what it put in, so a seat
// that folds loses what it put in. Winners are the seats that take a
// share, none when every seat does (two seats of equal ranks: payoffs 0).
func (s *State) Outcome() game.Outcome {
	o := game.Outcome{Over: s.over(), Payoffs: make([]float64, s.seats)}
	if !o.Over {
		return o
	}
	var buf [MaxSeats]int
	w := s.winners(buf[:0])
	share := float64(s.Pot()) / float64(len(w))
	for p := range s.seats {
		o.Payoffs[p] = -float64(s.in[p])
	}
	for _, p := range w {
		o.Payoffs[p] += share
	}
	if len(w) < s.seats {
		o.Winners = append([]int(nil), w...)
	}
	return o
}

// sees reports whether seat sees other's card: its own, and at a
// showdown those of the seats still in.
func (s *State) sees(seat, other int) bool {
	return seat == other || (s.showdown() && !s.out[other])
}

// Sample returns a state with seat's view whose unseen private cards
// (every other seat's before a showdown, the folded seats' after it) are
// dealt again, in seat order, each UniformInt over the cards still free
// (TagSample), the deck's remainder being the rest; a copy, drawing
// nothing, when seat sees every card (two seats after a showdown).
func (s *State) Sample(seat int, rnd game.Rand) game.State {
	c := *s
	for p := range s.seats {
		if !s.sees(seat, p) {
			c.card[p] = NoCard
		}
	}
	for p := range s.seats {
		if c.card[p] != NoCard {
			continue
		}
		card, err := c.drawFree(rnd, TagSample, "sample")
		if err != nil {
			c := *s
			return &c
		}
		c.card[p] = card
	}
	return &c
}
