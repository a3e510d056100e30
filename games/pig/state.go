package pig

import (
	"errors"
	"fmt"
	"strconv"

	"github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/rng"
)

// State is one game of Pig. Everything in it is public: Pig has no private
// or secret part.
type State struct {
	rules     *Rules
	banked    []int // per seat
	turn      int   // the seat to move (the winner once over)
	turnTotal int
	turns     int  // turns begun, from 1
	over      bool // someone won
	ctx       rng.Ctx
}

// New returns the first state of a game of n seats (2 to 6) under r: every
// score 0, seat 0 to move.
func New(r *Rules, n int) *State {
	return &State{rules: r, banked: make([]int, n), turns: 1}
}

// At returns a state of a game in progress under r, for tests and
// analysis: the banked scores, the seat to move and its turn total, on the
// turn count turns (from 1). It returns an error if that state breaks an
// invariant (see Check).
func At(r *Rules, banked []int, turn, turnTotal, turns int) (*State, error) {
	s := &State{rules: r, banked: append([]int(nil), banked...), turn: turn, turnTotal: turnTotal, turns: turns}
	if err := s.Check(); err != nil {
		return nil, err
	}
	return s, nil
}

// Rules returns the state's ruleset.
func (s *State) Rules() *Rules { return s.rules }

// Banked returns seat's banked score.
func (s *State) Banked(seat int) int { return s.banked[seat] }

// TurnTotal returns the turn total of the seat to move.
func (s *State) TurnTotal() int { return s.turnTotal }

// NumSeats returns the number of seats.
func (s *State) NumSeats() int { return len(s.banked) }

// ToMove returns the seat to move, or game.Nobody once someone has won.
func (s *State) ToMove() int {
	if s.over {
		return game.Nobody
	}
	return s.turn
}

// Legal lists, for the seat to move, roll and (with a turn total above
// 0) hold; nothing for any other seat or once the game is over.
func (s *State) Legal(seat int, buf []game.Move) []game.Move {
	buf = buf[:0]
	if s.over || seat != s.turn {
		return buf
	}
	buf = append(buf, game.Move{Seat: seat, Kind: KindRoll})
	if s.turnTotal > 0 {
		buf = append(buf, game.Move{Seat: seat, Kind: KindHold})
	}
	return buf
}

// Apply plays roll or hold. Refusals, with nothing changed or drawn:
// game_over once someone has won, unknown_player for a seat out of range,
// not_your_turn for another seat than the one to move, invalid_action for
// an unknown kind (named), arguments (neither kind takes any), and hold
// with a turn total of 0. A roll draws one die (TagRoll).
func (s *State) Apply(m game.Move, rnd game.Rand, ev []game.Event) ([]game.Event, error) {
	switch {
	case s.over:
		return ev, game.Reject(game.CodeGameOver, "the game is over")
	case m.Seat < 0 || m.Seat >= len(s.banked):
		return ev, game.Reject(game.CodeUnknownPlayer, "no seat "+strconv.Itoa(m.Seat))
	case m.Seat != s.turn:
		return ev, game.Reject(game.CodeNotYourTurn, "it is seat "+strconv.Itoa(s.turn)+"'s turn")
	case m.Kind != KindRoll && m.Kind != KindHold:
		return ev, game.Reject(game.CodeInvalidAction, "unknown move kind "+strconv.Quote(m.Kind))
	case m.Args != [game.MaxArgs]int64{}:
		return ev, game.Reject(game.CodeInvalidAction, m.Kind+" takes no arguments")
	case m.Kind == KindHold && s.turnTotal == 0:
		return ev, game.Reject(game.CodeInvalidAction, "hold needs a turn total above 0")
	}
	seat := int64(s.turn)
	if m.Kind == KindHold {
		s.banked[s.turn] += s.turnTotal
		ev = append(ev, game.Event{To: game.All, Type: EventHeld, Vals: [game.MaxVals]int64{seat, int64(s.banked[s.turn])}})
		s.next()
		return ev, nil
	}
	s.ctx.Turn = s.turns
	d, err := rnd.Dice(s.rules.dieSides, TagRoll, &s.ctx)
	if err != nil {
		panic("pig: a validated ruleset's die: " + err.Error()) // DieSides >= 2 by DecodeRuleset
	}
	if d.Value == 1 {
		lost := s.turnTotal
		ev = append(ev, game.Event{To: game.All, Type: EventRolled, Vals: [game.MaxVals]int64{seat, 1, 0}},
			game.Event{To: game.All, Type: EventBusted, Vals: [game.MaxVals]int64{seat, int64(lost)}})
		s.next()
		return ev, nil
	}
	s.turnTotal += d.Value
	ev = append(ev, game.Event{To: game.All, Type: EventRolled, Vals: [game.MaxVals]int64{seat, int64(d.Value), int64(s.turnTotal)}})
	if s.banked[s.turn]+s.turnTotal >= s.rules.goal {
		s.banked[s.turn] += s.turnTotal
		s.turnTotal = 0
		s.over = true
		ev = append(ev, game.Event{To: game.All, Type: EventWon, Vals: [game.MaxVals]int64{seat, int64(s.banked[s.turn])}})
	}
	return ev, nil
}

// next ends the turn: the next seat in order, with a turn total of 0.
func (s *State) next() {
	s.turnTotal = 0
	s.turn++
	if s.turn == len(s.banked) {
		s.turn = 0
	}
	s.turns++
}

// Outcome: over once a seat has won; that seat is the one winner, with
// payoff 1, every other seat 0.
func (s *State) Outcome() game.Outcome {
	o := game.Outcome{Over: s.over, Payoffs: make([]float64, len(s.banked))}
	if s.over {
		o.Winners = []int{s.turn}
		o.Payoffs[s.turn] = 1
	}
	return o
}

// AbortPayoffs returns 0 for every seat: nobody wins a game stopped early.
func (s *State) AbortPayoffs() []float64 { return make([]float64, len(s.banked)) }

// Check names every broken invariant: 2 to 6 seats; the seat to move in
// range; scores and turn total not negative; in a game in progress every
// banked score below the goal and the mover's banked plus turn total too;
// in a finished game the winner (the seat to move) at or past the goal,
// every other seat below it and no turn total; a turn count of at least 1.
func (s *State) Check() error {
	var errs []error
	bad := func(format string, a ...any) { errs = append(errs, fmt.Errorf(format, a...)) }
	n := len(s.banked)
	if n < 2 || n > 6 {
		bad("%d seats, want 2 to 6", n)
	}
	if s.turn < 0 || s.turn >= n {
		return errors.Join(append(errs, fmt.Errorf("seat to move %d out of range", s.turn))...)
	}
	if s.turnTotal < 0 || s.turns < 1 {
		bad("turn total %d, turns %d: want >= 0 and >= 1", s.turnTotal, s.turns)
	}
	for i, b := range s.banked {
		won := s.over && i == s.turn
		if b < 0 || (!won && b >= s.rules.goal) || (won && b < s.rules.goal) {
			bad("seat %d banked %d against a goal of %d (winner: %v)", i, b, s.rules.goal, won)
		}
	}
	if !s.over && s.banked[s.turn]+s.turnTotal >= s.rules.goal {
		bad("seat %d has reached the goal in a game in progress", s.turn)
	}
	if s.over && s.turnTotal != 0 {
		bad("a turn total of %d in a finished game", s.turnTotal)
	}
	return errors.Join(errs...)
}

// Clone returns a deep copy.
func (s *State) Clone() game.State {
	c := *s
	c.banked = append([]int(nil), s.banked...)
	return &c
}

// AppendPublic appends
// {"banked":[B0,...],"turn":T,"turnTotal":K,"turns":N,"over":false}.
func (s *State) AppendPublic(b []byte) []byte {
	b = append(b, `{"banked":[`...)
	for i, v := range s.banked {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendInt(b, int64(v), 10)
	}
	b = append(b, `],"turn":`...)
	b = strconv.AppendInt(b, int64(s.turn), 10)
	b = append(b, `,"turnTotal":`...)
	b = strconv.AppendInt(b, int64(s.turnTotal), 10)
	b = append(b, `,"turns":`...)
	b = strconv.AppendInt(b, int64(s.turns), 10)
	b = append(b, `,"over":`...)
	b = strconv.AppendBool(b, s.over)
	return append(b, '}')
}

// AppendPrivate appends nothing: Pig has no private part.
func (s *State) AppendPrivate(b []byte, _ int) []byte { return b }

// AppendSecret appends nothing: Pig has no secret part.
func (s *State) AppendSecret(b []byte) []byte { return b }

// AppendView appends the public part: every seat sees everything.
func (s *State) AppendView(b []byte, _ int) []byte { return s.AppendPublic(b) }

// AppendInfoKey appends the public part: Pig's state is all a seat needs
// to know (the past does not change what may happen).
func (s *State) AppendInfoKey(b []byte, _ int) []byte { return s.AppendPublic(b) }

// Sample returns a clone and draws nothing: nothing is hidden.
func (s *State) Sample(_ int, _ game.Rand) game.State { return s.Clone() }

// ChanceOutcomes lists a roll's faces 1..dieSides, each with probability
// 1/dieSides; a hold draws nothing. For a move that is not legal it
// returns false.
func (s *State) ChanceOutcomes(m game.Move) ([]game.Chance, bool) {
	legal := s.Legal(m.Seat, make([]game.Move, 0, 2))
	for _, l := range legal {
		if l != m {
			continue
		}
		if m.Kind == KindHold {
			return nil, true
		}
		out := make([]game.Chance, s.rules.dieSides)
		for f := range out {
			out[f] = game.Chance{Draws: []int64{int64(f + 1)}, P: 1 / float64(s.rules.dieSides)}
		}
		return out, true
	}
	return nil, false
}
