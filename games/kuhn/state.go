package kuhn

import (
	"errors"
	"fmt"
	"slices"
	"strconv"

	"github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/rng"
)

// State is one hand of Kuhn poker. Its public part is the betting
// history and the pot (and both cards once shown at a showdown); its
// private part, per seat, is that seat's card; its secret part is the
// undealt card.
type State struct {
	card    [2]int // private, per seat
	undealt int    // secret
	history []byte // public: 'p' pass, 'b' bet, in order
}

// At returns the state of a hand with the given cards (each 0..2,
// distinct) after the history (a string of 'p' and 'b', a prefix of a
// legal betting line), for tests and analysis; an error if it is not.
func At(card0, card1 int, history string) (*State, error) {
	s := &State{card: [2]int{card0, card1}, undealt: 3 - card0 - card1, history: []byte(history)}
	if err := s.Check(); err != nil {
		return nil, err
	}
	return s, nil
}

// Card returns seat's card: 0 J, 1 Q, 2 K.
func (s *State) Card(seat int) int { return s.card[seat] }

// History returns the betting history: 'p' pass, 'b' bet.
func (s *State) History() string { return string(s.history) }

// lines are the betting lines that end a hand.
var lines = []string{"pp", "bp", "bb", "pbp", "pbb"}

func (s *State) over() bool { return slices.Contains(lines, string(s.history)) }

// bets returns the chips each seat has put in: the ante and its bets.
func (s *State) bets() [2]int {
	in := [2]int{1, 1}
	for i, a := range s.history {
		if a == 'b' {
			in[i%2]++
		}
	}
	return in
}

// Pot returns the chips in the pot: 2 antes and every bet.
func (s *State) Pot() int { in := s.bets(); return in[0] + in[1] }

// showdown reports whether the hand ended with both cards shown: two
// passes or a called bet (a fold shows nothing).
func (s *State) showdown() bool {
	h := string(s.history)
	return h == "pp" || h == "bb" || h == "pbb"
}

// NumSeats returns 2.
func (s *State) NumSeats() int { return 2 }

// ToMove returns the seat to act (seat 0 first, then in turn), or
// game.Nobody once the hand is over.
func (s *State) ToMove() int {
	if s.over() {
		return game.Nobody
	}
	return len(s.history) % 2
}

// Legal lists pass then bet for the seat to act; nothing for the other
// seat or once the hand is over.
func (s *State) Legal(seat int, buf []game.Move) []game.Move {
	buf = buf[:0]
	if seat != s.ToMove() {
		return buf
	}
	return append(buf, game.Move{Seat: seat, Kind: KindPass}, game.Move{Seat: seat, Kind: KindBet})
}

// Apply plays pass or bet; it draws nothing, and a move that ends in a
// showdown opens both cards through game.Open (a trustless deal's move
// waits for the keys). Refusals, with nothing
// changed: game_over once the hand is over, unknown_player for a seat out
// of range, not_your_turn for the other seat, invalid_action for an
// unknown kind or arguments (neither kind takes any).
func (s *State) Apply(m game.Move, rnd game.Rand, ev []game.Event) ([]game.Event, error) {
	switch {
	case s.over():
		return ev, game.Reject(game.CodeGameOver, "the hand is over")
	case m.Seat < 0 || m.Seat > 1:
		return ev, game.Reject(game.CodeUnknownPlayer, "no seat "+strconv.Itoa(m.Seat))
	case m.Seat != s.ToMove():
		return ev, game.Reject(game.CodeNotYourTurn, "it is seat "+strconv.Itoa(s.ToMove())+"'s turn")
	case m.Kind != KindPass && m.Kind != KindBet:
		return ev, game.Reject(game.CodeInvalidAction, "unknown move kind "+strconv.Quote(m.Kind))
	case m.Args != [game.MaxArgs]int64{}:
		return ev, game.Reject(game.CodeInvalidAction, m.Kind+" takes no arguments")
	}
	facing := len(s.history) > 0 && s.history[len(s.history)-1] == 'b'
	seat := int64(m.Seat)
	act := byte('b')
	if m.Kind == KindPass {
		act = 'p'
	}
	next := string(s.history) + string(act)
	if next == "pp" || next == "bb" || next == "pbb" {
		// A showdown shows both cards to every seat: opened before any
		// change (a trustless deal's keys may not be there yet).
		c := game.Open(rnd, DeckID, []int{0, 1}, s.card[:])
		s.card = [2]int{c[0], c[1]}
	}
	s.history = append(s.history, act)
	pot := int64(s.Pot())
	switch {
	case m.Kind == KindPass && facing:
		ev = append(ev, game.Event{To: game.All, Type: EventFolded, Vals: [game.MaxVals]int64{seat}})
	case m.Kind == KindPass:
		ev = append(ev, game.Event{To: game.All, Type: EventPassed, Vals: [game.MaxVals]int64{seat, pot}})
	case facing:
		ev = append(ev, game.Event{To: game.All, Type: EventCalled, Vals: [game.MaxVals]int64{seat, pot}})
	default:
		ev = append(ev, game.Event{To: game.All, Type: EventBet, Vals: [game.MaxVals]int64{seat, pot}})
	}
	if !s.over() {
		return ev, nil
	}
	if s.showdown() {
		ev = append(ev, game.Event{To: game.All, Type: EventShowdown, Vals: [game.MaxVals]int64{int64(s.card[0]), int64(s.card[1])}})
	}
	return append(ev, game.Event{To: game.All, Type: EventWon, Vals: [game.MaxVals]int64{int64(s.winner()), pot}}), nil
}

// winner returns the seat that takes the pot of a finished hand: the
// higher card at a showdown, else the seat that did not fold.
func (s *State) winner() int {
	if s.showdown() {
		if s.card[0] > s.card[1] {
			return 0
		}
		return 1
	}
	return len(s.history) % 2 // the folder acted last: the seat after it
}

// Outcome: over after pass-pass, bet-pass, bet-bet, pass-bet-pass or
// pass-bet-bet; the one winner takes what the other put in (+1 or +2),
// the other loses it.
func (s *State) Outcome() game.Outcome {
	o := game.Outcome{Over: s.over(), Payoffs: make([]float64, 2)}
	if o.Over {
		w := s.winner()
		won := float64(s.bets()[1-w])
		o.Winners = []int{w}
		o.Payoffs[w], o.Payoffs[1-w] = won, -won
	}
	return o
}

// AbortPayoffs returns 0 for both seats: a hand stopped early is void.
func (s *State) AbortPayoffs() []float64 { return []float64{0, 0} }

// Check names every broken invariant: the three cards J, Q, K once each
// between the seats and the undealt card (in a trustless deal, the
// undealt card game.Hidden and the seats' cards both Hidden or both
// shown, distinct); a history of 'p' and 'b' that is
// a prefix of a betting line.
func (s *State) Check() error {
	var errs []error
	seen := [3]bool{}
	cards := []int{s.card[0], s.card[1], s.undealt}
	if s.undealt == game.Hidden { // a trustless deal: the dealt cards are Hidden or both shown
		cards = nil
		if s.card[0] != game.Hidden || s.card[1] != game.Hidden {
			cards = s.card[:]
		}
	}
	for _, c := range cards {
		if c < Jack || c > King || seen[c] {
			errs = append(errs, fmt.Errorf("cards %v and undealt %d: want J, Q, K once each", s.card, s.undealt))
			break
		}
		seen[c] = true
	}
	h := string(s.history)
	ok := h == ""
	for _, l := range lines {
		ok = ok || (len(h) <= len(l) && l[:len(h)] == h)
	}
	if !ok {
		errs = append(errs, fmt.Errorf("history %q is not a betting line's prefix", h))
	}
	return errors.Join(errs...)
}

// Clone returns a deep copy.
func (s *State) Clone() game.State {
	c := *s
	c.history = append([]byte(nil), s.history...)
	return &c
}

// AppendPublic appends {"history":"H","pot":P,"toMove":T} and, after a
// showdown, ,"shown":[C0,C1] before the closing brace.
func (s *State) AppendPublic(b []byte) []byte {
	b = append(b, `{"history":"`...)
	b = append(b, s.history...)
	b = append(b, `","pot":`...)
	b = strconv.AppendInt(b, int64(s.Pot()), 10)
	b = append(b, `,"toMove":`...)
	b = strconv.AppendInt(b, int64(s.ToMove()), 10)
	if s.over() && s.showdown() {
		b = fmt.Appendf(b, `,"shown":[%d,%d]`, s.card[0], s.card[1])
	}
	return append(b, '}')
}

// AppendPrivate appends {"card":C}, seat's card.
func (s *State) AppendPrivate(b []byte, seat int) []byte {
	b = append(b, `{"card":`...)
	b = strconv.AppendInt(b, int64(s.card[seat]), 10)
	return append(b, '}')
}

// AppendSecret appends {"undealt":C}.
func (s *State) AppendSecret(b []byte) []byte {
	b = append(b, `{"undealt":`...)
	b = strconv.AppendInt(b, int64(s.undealt), 10)
	return append(b, '}')
}

// AppendView appends {"public":PUBLIC,"private":PRIVATE}: the public part
// and seat's own card.
func (s *State) AppendView(b []byte, seat int) []byte {
	b = append(b, `{"public":`...)
	b = s.AppendPublic(b)
	b = append(b, `,"private":`...)
	b = s.AppendPrivate(b, seat)
	return append(b, '}')
}

// cardNames are the cards' letters.
const cardNames = "JQK"

// cardName is a card's letter, '?' for game.Hidden.
func cardName(c int) byte {
	if c == game.Hidden {
		return '?'
	}
	return cardNames[c]
}

// AppendInfoKey appends seat's card's letter and the betting history, as
// "K" at the start and "Kpb" after a pass and a bet (OpenSpiel's
// information state is the card number and the history), and after a
// showdown "/" and the other seat's card.
func (s *State) AppendInfoKey(b []byte, seat int) []byte {
	b = append(b, cardName(s.card[seat]))
	b = append(b, s.history...)
	if s.over() && s.showdown() {
		b = append(b, '/', cardName(s.card[1-seat]))
	}
	return b
}

// Sample returns a state with seat's view whose other card and undealt
// card are dealt again, by one Shuffle (TagSample, DeckID) of the cards
// seat cannot see: the two it does not hold, or after a showdown the
// undealt one alone (a shuffle of one card draws nothing).
func (s *State) Sample(seat int, rnd game.Rand) game.State {
	c := s.Clone().(*State)
	shown := s.over() && s.showdown()
	var rest []int
	for card := Jack; card <= King; card++ {
		if card != s.card[seat] && (!shown || card != s.card[1-seat]) {
			rest = append(rest, card)
		}
	}
	rnd.Shuffle(rest, TagSample, &rng.Ctx{DeckID: DeckID})
	if !shown {
		c.card[1-seat], rest = rest[0], rest[1:]
	}
	c.undealt = rest[0]
	return c
}

// ChanceOutcomes returns none and true: no move draws.
func (s *State) ChanceOutcomes(game.Move) ([]game.Chance, bool) { return nil, true }

// InPot returns the chips each seat has put in: its ante and its bets.
func (s *State) InPot() []float64 {
	in := s.bets()
	return []float64{float64(in[0]), float64(in[1])}
}
