package eights

import (
	"errors"
	"fmt"
	"slices"
	"strconv"

	"github.com/fairboard/fairboard/game"
)

// State is one game of Crazy Eights. Its public part is the top card, the
// suit in force, the seat to move, each hand's size, the draw pile's
// size, the discards under the top card (in order), the move count, the
// consecutive passes and the end; each seat's private part is its hand;
// the secret part is the draw pile's order.
type State struct {
	rules  *Rules
	hands  [][]int   // private, per seat, in the order received
	pile   game.Pile // Cards secret (the draw pile); Discards public (under the top card)
	top    int       // the discard pile's top card, kept off the pile
	suit   int       // the suit in force
	toMove int
	moves  int // moves made
	passes int // consecutive passes
	winner int // game.Nobody until a seat wins
	ended  int // 0 playing; 1 won; ReasonBlocked+1, ReasonCap+1: a draw
}

// The values of State.ended.
const (
	playing = 0
	won     = 1
	blocked = ReasonBlocked + 1
	capped  = ReasonCap + 1
)

// Hand returns a copy of seat's hand, in the order received.
func (s *State) Hand(seat int) []int { return slices.Clone(s.hands[seat]) }

// Top returns the top card; Suit the suit in force; Stock the draw
// pile's order (the next card first; secret); Discards the discards
// under the top card.
func (s *State) Top() int        { return s.top }
func (s *State) Suit() int       { return s.suit }
func (s *State) Stock() []int    { return slices.Clone(s.pile.Cards) }
func (s *State) Discards() []int { return slices.Clone(s.pile.Discards) }

func (s *State) over() bool { return s.ended != playing }

// canDraw reports whether a draw can give a card: the draw pile or the
// discards under the top card hold one.
func (s *State) canDraw() bool { return len(s.pile.Cards)+len(s.pile.Discards) > 0 }

// matches reports whether card c may be played now.
func (s *State) matches(c int) bool {
	r := s.rules
	return r.Rank(c) == Eight || r.Suit(c) == s.suit || r.Rank(c) == r.Rank(s.top)
}

func (s *State) canPlay(seat int) bool {
	return slices.ContainsFunc(s.hands[seat], s.matches)
}

// NumSeats returns the seat count.
func (s *State) NumSeats() int { return len(s.hands) }

// ToMove returns the seat to move, or game.Nobody once the game is over.
func (s *State) ToMove() int {
	if s.over() {
		return game.Nobody
	}
	return s.toMove
}

// Legal lists, for the seat to move, play for each matching card in hand
// order (an 8 once per suit, in suit order; any other card with its own
// suit); draw alone when no card can be played (a pass when neither pile
// holds a card).
func (s *State) Legal(seat int, buf []game.Move) []game.Move {
	buf = buf[:0]
	if seat != s.ToMove() {
		return buf
	}
	for i, c := range s.hands[seat] {
		switch {
		case s.rules.Rank(c) == Eight:
			for su := range s.rules.suits {
				buf = append(buf, game.Move{Seat: seat, Kind: KindPlay, Args: [game.MaxArgs]int64{int64(i), int64(su)}})
			}
		case s.matches(c):
			buf = append(buf, game.Move{Seat: seat, Kind: KindPlay, Args: [game.MaxArgs]int64{int64(i), int64(s.rules.Suit(c))}})
		}
	}
	if len(buf) == 0 {
		buf = append(buf, game.Move{Seat: seat, Kind: KindDraw})
	}
	return buf
}

// refuse validates m without changing anything.
func (s *State) refuse(m game.Move) error {
	switch {
	case s.over():
		return game.Reject(game.CodeGameOver, "the game is over")
	case m.Seat < 0 || m.Seat >= len(s.hands):
		return game.Reject(game.CodeUnknownPlayer, "no seat "+strconv.Itoa(m.Seat))
	case m.Seat != s.toMove:
		return game.Reject(game.CodeNotYourTurn, "it is seat "+strconv.Itoa(s.toMove)+"'s turn")
	}
	switch m.Kind {
	case KindDraw:
		switch {
		case m.Args != [game.MaxArgs]int64{}:
			return game.Reject(game.CodeInvalidAction, "draw takes no arguments")
		case s.canPlay(m.Seat):
			return game.Reject(game.CodeInvalidAction, "a card of your hand can be played: you may draw only when none can")
		}
		return nil
	case KindPlay:
		i, su := m.Args[0], m.Args[1]
		switch {
		case m.Args[2] != 0 || m.Args[3] != 0:
			return game.Reject(game.CodeInvalidAction, "play takes card and suit")
		case i < 0 || i >= int64(len(s.hands[m.Seat])):
			return game.Reject(game.CodeInvalidAction, fmt.Sprintf("card %d: the hand holds %d cards", i, len(s.hands[m.Seat])))
		case su < 0 || su >= int64(s.rules.suits):
			return game.Reject(game.CodeInvalidAction, fmt.Sprintf("suit %d: the suits are 0 to %d", su, s.rules.suits-1))
		}
		c := s.hands[m.Seat][i]
		switch {
		case !s.matches(c):
			return game.Reject(game.CodeInvalidAction, fmt.Sprintf("card %d matches neither the suit in force nor the top card's rank, and is no 8", i))
		case s.rules.Rank(c) != Eight && int(su) != s.rules.Suit(c):
			return game.Reject(game.CodeInvalidAction, fmt.Sprintf("suit %d: only an 8 names a suit; this card's suit is %d", su, s.rules.Suit(c)))
		}
		return nil
	}
	return game.Reject(game.CodeInvalidAction, "unknown move kind "+strconv.Quote(m.Kind))
}

// Apply plays or draws. A draw from an empty draw pile first reshuffles
// the discards under the top card (game.Pile.Take: tag
// deck.reshuffle.eights); a draw with no card in either pile is a pass.
// A play that empties the hand wins; every seat passing in turn, or the
// maxMoves-th move, ends the game as a draw. Refusals, with nothing
// changed and nothing drawn: game_over, unknown_player, not_your_turn,
// invalid_action (an unknown kind, arguments out of range, a card that
// does not match, a suit named for a card that is no 8, a draw while a
// card of the hand can be played).
func (s *State) Apply(m game.Move, rnd game.Rand, ev []game.Event) ([]game.Event, error) {
	if err := s.refuse(m); err != nil {
		return ev, err
	}
	seat := m.Seat
	if m.Kind == KindPlay {
		i := int(m.Args[0])
		c := s.hands[seat][i]
		s.hands[seat] = slices.Delete(s.hands[seat], i, i+1)
		s.pile.Discard(s.top)
		s.top, s.suit = c, int(m.Args[1])
		s.passes = 0
		ev = append(ev, game.Event{To: game.All, Type: EventPlayed, Vals: [game.MaxVals]int64{int64(seat), int64(c), m.Args[1], int64(len(s.hands[seat]))}})
	} else if s.canDraw() {
		n := len(s.pile.Discards)
		reshuffle := len(s.pile.Cards) == 0
		c, err := s.pile.Take(rnd, nil)
		if err != nil { // canDraw said a card is there
			return ev, err
		}
		if reshuffle {
			ev = append(ev, game.Event{To: game.All, Type: EventReshuffled, Vals: [game.MaxVals]int64{int64(n)}})
		}
		s.hands[seat] = append(s.hands[seat], c)
		s.passes = 0
		ev = append(ev, game.Event{To: game.All, Type: EventDrew, Vals: [game.MaxVals]int64{int64(seat), int64(len(s.pile.Cards))}},
			game.Event{To: seat, Type: EventDrawn, Vals: [game.MaxVals]int64{int64(c)}})
	} else {
		s.passes++
		ev = append(ev, game.Event{To: game.All, Type: EventPassed, Vals: [game.MaxVals]int64{int64(seat)}})
	}
	s.moves++
	s.toMove = (seat + 1) % len(s.hands)
	switch {
	case len(s.hands[seat]) == 0:
		s.ended, s.winner = won, seat
		ev = append(ev, game.Event{To: game.All, Type: EventWon, Vals: [game.MaxVals]int64{int64(seat)}})
	case s.passes == len(s.hands):
		s.ended = blocked
		ev = append(ev, game.Event{To: game.All, Type: EventEnded, Vals: [game.MaxVals]int64{ReasonBlocked, int64(s.moves)}})
	case s.moves >= s.rules.maxMoves:
		s.ended = capped
		ev = append(ev, game.Event{To: game.All, Type: EventEnded, Vals: [game.MaxVals]int64{ReasonCap, int64(s.moves)}})
	}
	return ev, nil
}

// Outcome: over once a seat has won (payoff 1, the others 0) or the game
// ended as a draw (no winner, every payoff 0).
func (s *State) Outcome() game.Outcome {
	o := game.Outcome{Over: s.over(), Payoffs: make([]float64, len(s.hands))}
	if s.ended == won {
		o.Winners = []int{s.winner}
		o.Payoffs[s.winner] = 1
	}
	return o
}

// AbortPayoffs returns 0 for every seat.
func (s *State) AbortPayoffs() []float64 { return make([]float64, len(s.hands)) }

// Check names every broken invariant: each card of the deck once among
// the hands, the top card, the draw pile and the discards; the suit in
// force, the seat to move, the counters and the end in range; a winner
// with an empty hand, and no empty hand before the end.
func (s *State) Check() error {
	var errs []error
	r := s.rules
	seen := make([]int, r.Cards())
	count := func(c int) {
		if c < 0 || c >= len(seen) {
			errs = append(errs, fmt.Errorf("card %d is not in a deck of %d", c, len(seen)))
			return
		}
		seen[c]++
	}
	for _, h := range s.hands {
		for _, c := range h {
			count(c)
		}
	}
	count(s.top)
	for _, c := range s.pile.Cards {
		count(c)
	}
	for _, c := range s.pile.Discards {
		count(c)
	}
	for c, n := range seen {
		if n != 1 {
			errs = append(errs, fmt.Errorf("card %d is held %d times", c, n))
		}
	}
	if s.pile.ID != DeckID {
		errs = append(errs, fmt.Errorf("the pile is %q, not %q", s.pile.ID, DeckID))
	}
	if s.suit < 0 || s.suit >= r.suits {
		errs = append(errs, fmt.Errorf("suit %d out of range", s.suit))
	}
	if s.toMove < 0 || s.toMove >= len(s.hands) || s.moves < 0 || s.moves > r.maxMoves || s.passes < 0 || s.passes > len(s.hands) {
		errs = append(errs, fmt.Errorf("seat to move %d, moves %d, passes %d out of range", s.toMove, s.moves, s.passes))
	}
	switch {
	case s.ended < playing || s.ended > capped:
		errs = append(errs, fmt.Errorf("end %d unknown", s.ended))
	case s.ended == won && (s.winner < 0 || s.winner >= len(s.hands) || len(s.hands[s.winner]) != 0):
		errs = append(errs, fmt.Errorf("winner %d without an empty hand", s.winner))
	case s.ended != won && s.winner != game.Nobody:
		errs = append(errs, fmt.Errorf("winner %d in a game not won", s.winner))
	}
	for i, h := range s.hands {
		if len(h) == 0 && s.ended == playing {
			errs = append(errs, fmt.Errorf("seat %d has no card and has not won", i))
		}
	}
	return errors.Join(errs...)
}

// Clone returns a deep copy.
func (s *State) Clone() game.State {
	c := *s
	c.hands = make([][]int, len(s.hands))
	for i, h := range s.hands {
		c.hands[i] = slices.Clone(h)
	}
	c.pile = s.pile.Clone()
	return &c
}

func appendInts(b []byte, a []int) []byte {
	b = append(b, '[')
	for i, v := range a {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendInt(b, int64(v), 10)
	}
	return append(b, ']')
}

// AppendPublic appends {"top":C,"suit":S,"toMove":T,"hands":[N,...],
// "stock":K,"discards":[C,...],"moves":M,"passes":P,"winner":W,
// "ended":E} (toMove and winner -1 for none; ended 0 playing, 1 won, 2
// blocked, 3 the move cap).
func (s *State) AppendPublic(b []byte) []byte {
	b = fmt.Appendf(b, `{"top":%d,"suit":%d,"toMove":%d,"hands":[`, s.top, s.suit, s.ToMove())
	for i, h := range s.hands {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendInt(b, int64(len(h)), 10)
	}
	b = fmt.Appendf(b, `],"stock":%d,"discards":`, len(s.pile.Cards))
	b = appendInts(b, s.pile.Discards)
	return fmt.Appendf(b, `,"moves":%d,"passes":%d,"winner":%d,"ended":%d}`, s.moves, s.passes, s.winner, s.ended)
}

// AppendPrivate appends {"hand":[C,...]}, seat's hand in the order
// received.
func (s *State) AppendPrivate(b []byte, seat int) []byte {
	b = append(b, `{"hand":`...)
	return append(appendInts(b, s.hands[seat]), '}')
}

// AppendSecret appends {"stock":[C,...]}, the draw pile, the next card
// first.
func (s *State) AppendSecret(b []byte) []byte {
	b = append(b, `{"stock":`...)
	return append(appendInts(b, s.pile.Cards), '}')
}

// AppendView appends {"public":PUBLIC,"private":PRIVATE}.
func (s *State) AppendView(b []byte, seat int) []byte {
	b = append(b, `{"public":`...)
	b = s.AppendPublic(b)
	b = append(b, `,"private":`...)
	b = s.AppendPrivate(b, seat)
	return append(b, '}')
}

// AppendInfoKey appends seat's view: the public part (the discards in
// order among it) and its hand.
func (s *State) AppendInfoKey(b []byte, seat int) []byte { return s.AppendView(b, seat) }

// Sample returns a state with seat's view whose other hands and draw
// pile are dealt again: the cards seat has not seen (the other hands and
// the draw pile, pooled in card order) go into the draw pile, which
// Pile.Resample shuffles (TagSample); each other seat, in seat order,
// takes as many cards as it held from its top, in order, and the rest
// stays the draw pile. Pooling, rather than keeping the draw pile's
// cards, is what keeps the sample blind: the draw pile's contents would
// tell the other hands' (in two seats, exactly). The sample does not use
// what seat could infer from the play (which discards a reshuffle put
// back, the cards another seat passed on).
func (s *State) Sample(seat int, rnd game.Rand) game.State {
	c := s.Clone().(*State)
	var pool []int
	for i, h := range c.hands {
		if i != seat {
			pool = append(pool, h...)
		}
	}
	pool = append(pool, c.pile.Cards...)
	slices.Sort(pool)
	c.pile.Cards = pool
	c.pile.Resample(rnd, TagSample)
	for i, h := range c.hands {
		if i != seat {
			n := copy(h, c.pile.Cards)
			c.pile.Cards = c.pile.Cards[n:]
		}
	}
	c.pile.Cards = slices.Clone(c.pile.Cards)
	return c
}

// ChanceOutcomes returns none and true for a move that draws nothing (a
// play, a draw from a draw pile that holds a card: its order was dealt
// by a shuffle before, a pass), and false for a draw that reshuffles.
func (s *State) ChanceOutcomes(m game.Move) ([]game.Chance, bool) {
	if m.Kind == KindDraw && len(s.pile.Cards) == 0 && len(s.pile.Discards) > 1 {
		return nil, false
	}
	return nil, true
}
