package match_test

import (
	"errors"
	"fmt"
	"slices"
	"strconv"

	"github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/rng"
)

// peek is a test-only game with hidden parts, for the contract suite's
// hidden-information and sampler checks (Pig hides nothing). Five cards
// 1..5 are shuffled; each of two seats is dealt one (its private part),
// the other three stay in the deck (the secret part). Seat 0, then seat
// 1, guesses the other seat's card (any card but its own); then both
// cards are shown and each right guess wins.
//
// Its leak switches break it on purpose, as positive controls: leakView
// shows each seat the other's card, leakEvent announces the guesser's own
// card with its guess, badSample deals the sampled seat a new card.
type peek struct {
	leakView, leakEvent, badSample bool
}

type peekRules struct{}

func (peekRules) Game() string          { return "peek" }
func (peekRules) CanonicalJSON() []byte { return []byte(`{}`) }
func (peekRules) Hash() string          { return game.HashJSON([]byte(`{}`)) }

func (peek) Name() string                 { return "peek" }
func (peek) DefaultRuleset() game.Ruleset { return peekRules{} }
func (peek) DecodeRuleset(b []byte) (game.Ruleset, error) {
	var v struct{}
	if err := game.DecodeStrict(b, &v); err != nil {
		return nil, err
	}
	return peekRules{}, nil
}
func (peek) Params() []game.Param { return nil }
func (peek) Seats() game.Seats    { return game.Seats{Min: 2, Max: 2, Default: 2} }
func (peek) Kinds() []game.KindSpec {
	return []game.KindSpec{{Name: "guess", Args: []game.ArgSpec{{Name: "card", Min: 1, Max: 5}}}}
}
func (peek) EventTypes() []game.EventSpec {
	return []game.EventSpec{{Type: "Dealt", Fields: []string{"card"}}, {Type: "Guessed", Fields: []string{"seat", "card", "own"}},
		{Type: "Shown", Fields: []string{"card0", "card1"}}}
}
func (peek) Styles() []game.Style { return nil }

func (p peek) Setup(_ game.Ruleset, seats []game.Seat, rnd game.Rand, ev []game.Event) (game.State, []game.Event, error) {
	if len(seats) != 2 {
		return nil, ev, game.Reject(game.CodeBadSetup, "peek takes 2 seats")
	}
	s := &peekState{cfg: p, deck: []int{1, 2, 3, 4, 5}, guess: [2]int{}}
	rnd.Shuffle(s.deck, "peek.deal", &rng.Ctx{DeckID: "peek"})
	s.card = [2]int{s.deck[0], s.deck[1]}
	s.deck = s.deck[2:]
	for i := range 2 {
		ev = append(ev, game.Event{To: i, Type: "Dealt", Vals: [game.MaxVals]int64{int64(s.card[i])}})
	}
	return s, ev, nil
}

type peekState struct {
	cfg   peek
	card  [2]int // private
	deck  []int  // secret
	guess [2]int // public, 0 until made
	turn  int    // 2 once over
}

func (s *peekState) NumSeats() int { return 2 }
func (s *peekState) ToMove() int {
	if s.turn == 2 {
		return game.Nobody
	}
	return s.turn
}

func (s *peekState) Legal(seat int, buf []game.Move) []game.Move {
	buf = buf[:0]
	if seat != s.turn {
		return buf
	}
	for c := 1; c <= 5; c++ {
		if c != s.card[seat] {
			buf = append(buf, game.Move{Seat: seat, Kind: "guess", Args: [game.MaxArgs]int64{int64(c)}})
		}
	}
	return buf
}

func (s *peekState) Apply(m game.Move, _ game.Rand, ev []game.Event) ([]game.Event, error) {
	switch {
	case s.turn == 2:
		return ev, game.Reject(game.CodeGameOver, "over")
	case m.Seat < 0 || m.Seat > 1:
		return ev, game.Reject(game.CodeUnknownPlayer, "no seat "+strconv.Itoa(m.Seat))
	case m.Seat != s.turn:
		return ev, game.Reject(game.CodeNotYourTurn, "not yours")
	case m.Kind != "guess":
		return ev, game.Reject(game.CodeInvalidAction, "unknown move kind "+m.Kind)
	case m.Args[0] < 1 || m.Args[0] > 5 || m.Args[0] == int64(s.card[m.Seat]) || [game.MaxArgs - 1]int64(m.Args[1:]) != [game.MaxArgs - 1]int64{}:
		return ev, game.Reject(game.CodeInvalidAction, "bad guess")
	}
	s.guess[m.Seat] = int(m.Args[0])
	own := int64(0)
	if s.cfg.leakEvent {
		own = int64(s.card[m.Seat])
	}
	ev = append(ev, game.Event{To: game.All, Type: "Guessed", Vals: [game.MaxVals]int64{int64(m.Seat), m.Args[0], own}})
	s.turn++
	if s.turn == 2 {
		ev = append(ev, game.Event{To: game.All, Type: "Shown", Vals: [game.MaxVals]int64{int64(s.card[0]), int64(s.card[1])}})
	}
	return ev, nil
}

func (s *peekState) Outcome() game.Outcome {
	o := game.Outcome{Over: s.turn == 2, Payoffs: make([]float64, 2)}
	if o.Over {
		for i := range 2 {
			if s.guess[i] == s.card[1-i] {
				o.Winners = append(o.Winners, i)
				o.Payoffs[i] = 1
			}
		}
	}
	return o
}

func (s *peekState) AbortPayoffs() []float64 { return []float64{0, 0} }

func (s *peekState) Check() error {
	all := append([]int{s.card[0], s.card[1]}, s.deck...)
	slices.Sort(all)
	if !slices.Equal(all, []int{1, 2, 3, 4, 5}) {
		return errors.New("the cards are not 1..5 once each")
	}
	return nil
}

func (s *peekState) Clone() game.State {
	c := *s
	c.deck = slices.Clone(s.deck)
	return &c
}

func (s *peekState) AppendPublic(b []byte) []byte {
	b = fmt.Appendf(b, "guess %v turn %d", s.guess, s.turn)
	if s.turn == 2 {
		b = fmt.Appendf(b, " shown %v", s.card)
	}
	return b
}

func (s *peekState) AppendPrivate(b []byte, seat int) []byte {
	return fmt.Appendf(b, "card %d", s.card[seat])
}
func (s *peekState) AppendSecret(b []byte) []byte { return fmt.Appendf(b, "deck %v", s.deck) }

func (s *peekState) AppendView(b []byte, seat int) []byte {
	b = s.AppendPrivate(s.AppendPublic(b), seat)
	if s.cfg.leakView {
		b = fmt.Appendf(b, " other %d", s.card[1-seat])
	}
	return b
}

func (s *peekState) AppendInfoKey(b []byte, seat int) []byte { return s.AppendView(b, seat) }

// Sample deals the other seat's card and the deck from the four cards
// the seat does not hold (once the cards are shown, nothing is hidden
// from it but the deck's order).
func (s *peekState) Sample(seat int, rnd game.Rand) game.State {
	c := s.Clone().(*peekState)
	var rest []int
	for card := 1; card <= 5; card++ {
		if card != s.card[seat] && (s.turn < 2 || card != s.card[1-seat]) {
			rest = append(rest, card)
		}
	}
	rnd.Shuffle(rest, "peek.sample", &rng.Ctx{DeckID: "peek"})
	if s.turn < 2 {
		c.card[1-seat], rest = rest[0], rest[1:]
	}
	c.deck = rest
	if s.cfg.badSample {
		c.card[seat] = c.card[1-seat]
	}
	return c
}

func (s *peekState) ChanceOutcomes(game.Move) ([]game.Chance, bool) { return nil, true }
