package table_test

import (
	"fmt"
	"strings"

	"github.com/fairboard/fairboard/game"
)

// hide is a test-only game with a private part per seat: each seat is
// dealt a card, a number in [100000, 999999] (six digits, so that finding
// its digits in what another reads is a leak, not a coincidence), and
// nothing ever shows it to another seat. In turn, for three rounds, each
// seat keeps its card or swaps it for a new one (at most twice); at the
// end the highest card wins, told by the outcome only.
//
// Its leak switches break it on purpose, as positive controls: leakView
// shows each seat every card, leakEvent addresses the new card of a swap
// to everyone.
type hide struct{ leakView, leakEvent bool }

type hideRules struct{}

func (hideRules) Game() string          { return "hide" }
func (hideRules) CanonicalJSON() []byte { return []byte(`{}`) }
func (hideRules) Hash() string          { return game.HashJSON([]byte(`{}`)) }

func (hide) Name() string                 { return "hide" }
func (hide) DefaultRuleset() game.Ruleset { return hideRules{} }
func (hide) DecodeRuleset(b []byte) (game.Ruleset, error) {
	var v struct{}
	if err := game.DecodeStrict(b, &v); err != nil {
		return nil, err
	}
	return hideRules{}, nil
}
func (hide) Params() []game.Param { return nil }
func (hide) Seats() game.Seats    { return game.Seats{Min: 2, Max: 4, Default: 3} }
func (hide) Kinds() []game.KindSpec {
	return []game.KindSpec{{Name: "keep"}, {Name: "swap"}}
}
func (hide) EventTypes() []game.EventSpec {
	return []game.EventSpec{{Type: "Dealt", Fields: []string{"card"}}, {Type: "Kept", Fields: []string{"seat"}},
		{Type: "Swapped", Fields: []string{"seat"}}, {Type: "Drew", Fields: []string{"card"}}}
}
func (hide) Styles() []game.Style { return nil }

const hideRounds = 3

func (h hide) Setup(_ game.Ruleset, seats []game.Seat, rnd game.Rand, ev []game.Event) (game.State, []game.Event, error) {
	if len(seats) < 2 || len(seats) > 4 {
		return nil, ev, game.Reject(game.CodeBadSetup, "hide takes 2 to 4 seats")
	}
	s := &hideState{cfg: h, card: make([]int64, len(seats)), swaps: make([]int, len(seats))}
	for i := range seats {
		c, err := rnd.UniformInt(100000, 999999, "hide.deal", nil)
		if err != nil {
			return nil, ev, game.Reject(game.CodeBadSetup, err.Error())
		}
		s.card[i] = c
		ev = append(ev, game.Event{To: i, Type: "Dealt", Vals: [game.MaxVals]int64{c}})
	}
	return s, ev, nil
}

type hideState struct {
	cfg   hide
	card  []int64 // private
	swaps []int   // public
	turn  int     // moves made; over at hideRounds*seats
}

func (s *hideState) NumSeats() int { return len(s.card) }
func (s *hideState) ToMove() int {
	if s.turn == hideRounds*len(s.card) {
		return game.Nobody
	}
	return s.turn % len(s.card)
}

func (s *hideState) Legal(seat int, buf []game.Move) []game.Move {
	buf = buf[:0]
	if seat != s.ToMove() {
		return buf
	}
	buf = append(buf, game.Move{Seat: seat, Kind: "keep"})
	if s.swaps[seat] < 2 {
		buf = append(buf, game.Move{Seat: seat, Kind: "swap"})
	}
	return buf
}

func (s *hideState) Apply(m game.Move, rnd game.Rand, ev []game.Event) ([]game.Event, error) {
	switch {
	case s.ToMove() == game.Nobody:
		return ev, game.Reject(game.CodeGameOver, "over")
	case m.Seat < 0 || m.Seat >= len(s.card):
		return ev, game.Reject(game.CodeUnknownPlayer, "no such seat")
	case m.Seat != s.ToMove():
		return ev, game.Reject(game.CodeNotYourTurn, "not yours")
	case m.Args != [game.MaxArgs]int64{} || m.Kind != "keep" && m.Kind != "swap":
		return ev, game.Reject(game.CodeInvalidAction, "keep or swap")
	case m.Kind == "swap" && s.swaps[m.Seat] == 2:
		return ev, game.Reject(game.CodeInvalidAction, "no swap left")
	}
	if m.Kind == "swap" {
		c, err := rnd.UniformInt(100000, 999999, "hide.swap", nil)
		if err != nil {
			return ev, game.Reject(game.CodeInvalidAction, err.Error())
		}
		s.card[m.Seat] = c
		s.swaps[m.Seat]++
		to := m.Seat
		if s.cfg.leakEvent {
			to = game.All
		}
		ev = append(ev, game.Event{To: game.All, Type: "Swapped", Vals: [game.MaxVals]int64{int64(m.Seat)}},
			game.Event{To: to, Type: "Drew", Vals: [game.MaxVals]int64{c}})
	} else {
		ev = append(ev, game.Event{To: game.All, Type: "Kept", Vals: [game.MaxVals]int64{int64(m.Seat)}})
	}
	s.turn++
	return ev, nil
}

func (s *hideState) Outcome() game.Outcome {
	o := game.Outcome{Over: s.ToMove() == game.Nobody, Payoffs: make([]float64, len(s.card))}
	if o.Over {
		best := 0
		for i, c := range s.card {
			if c > s.card[best] {
				best = i
			}
		}
		o.Winners, o.Payoffs[best] = []int{best}, 1
	}
	return o
}

func (s *hideState) AbortPayoffs() []float64 { return make([]float64, len(s.card)) }
func (s *hideState) Check() error            { return nil }
func (s *hideState) Clone() game.State {
	c := *s
	c.card, c.swaps = append([]int64(nil), s.card...), append([]int(nil), s.swaps...)
	return &c
}
func (s *hideState) AppendPublic(b []byte) []byte {
	return fmt.Appendf(b, "turn %d swaps %v", s.turn, s.swaps)
}
func (s *hideState) AppendPrivate(b []byte, seat int) []byte {
	return fmt.Appendf(b, "card %d", s.card[seat])
}
func (s *hideState) AppendSecret(b []byte) []byte { return b }
func (s *hideState) AppendView(b []byte, seat int) []byte {
	b = s.AppendPrivate(append(s.AppendPublic(b), ' '), seat)
	if s.cfg.leakView {
		b = fmt.Appendf(b, " all %v", s.card)
	}
	return b
}
func (s *hideState) AppendInfoKey(b []byte, seat int) []byte { return s.AppendView(b, seat) }
func (s *hideState) Sample(int, game.Rand) game.State        { return s.Clone() }
func (s *hideState) ChanceOutcomes(game.Move) ([]game.Chance, bool) {
	return nil, false
}

// cardsOf reads each seat's card from match.StateBytes of a hide state
// (public, then each private part "card N", each after a NUL).
func cardsOf(stateBytes []byte) []string {
	parts := strings.Split(string(stateBytes), "\x00")
	var cards []string
	for _, p := range parts[1 : len(parts)-1] {
		cards = append(cards, strings.TrimPrefix(p, "card "))
	}
	return cards
}
