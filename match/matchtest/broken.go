// Package matchtest holds broken variants of any game definition: the
// positive controls that show the contract suite (match.CheckContract)
// catches a legal list that is wrong.
package matchtest

import (
	"slices"

	"github.com/fairboard/fairboard/game"
)

// Omit returns def with a legal list that leaves out its last move
// whenever it lists more than one: Apply still accepts the move.
func Omit(def game.Definition) game.Definition { return broken{def, omit} }

// Add returns def with a legal list that adds a move Apply refuses: the
// last kind with zero arguments, whenever the list does not hold it, else
// that move by the next seat (for a game whose every list holds every
// kind).
func Add(def game.Definition) game.Definition { return broken{def, add} }

// Unseated returns def with a legal list that answers for a seat out of
// range as for the seat awaited: the moves of a seat that is not there.
func Unseated(def game.Definition) game.Definition { return broken{def, unseated} }

type how int

const (
	omit how = iota
	add
	unseated
)

type broken struct {
	game.Definition
	how how
}

func (b broken) Setup(r game.Ruleset, seats []game.Seat, rnd game.Rand, ev []game.Event) (game.State, []game.Event, error) {
	st, ev, err := b.Definition.Setup(r, seats, rnd, ev)
	if err != nil {
		return nil, ev, err
	}
	return &state{st, b}, ev, nil
}

type state struct {
	game.State
	b broken
}

func (s *state) Legal(seat int, buf []game.Move) []game.Move {
	if s.b.how == unseated && (seat < 0 || seat >= s.NumSeats()) && s.ToMove() != game.Nobody {
		return s.State.Legal(s.ToMove(), buf)
	}
	l := s.State.Legal(seat, buf)
	switch {
	case s.b.how == omit && len(l) > 1:
		return l[:len(l)-1]
	case s.b.how == add && len(l) > 0:
		kinds := s.b.Kinds()
		extra := game.Move{Seat: seat, Kind: kinds[len(kinds)-1].Name}
		if slices.Contains(l, extra) {
			// a game that lists every kind (Kuhn poker's pass and bet):
			// the same move by another seat, refused as not its turn
			extra.Seat = (seat + 1) % s.NumSeats()
		}
		if !slices.Contains(l, extra) {
			l = append(l, extra)
		}
	}
	return l
}

func (s *state) Clone() game.State { return &state{s.State.Clone(), s.b} }

func (s *state) Sample(seat int, rnd game.Rand) game.State {
	return &state{s.State.Sample(seat, rnd), s.b}
}

// SkewReset returns def with states that set a new game up again
// (game.Resetter) one draw off: SetupAgain draws a value before def's
// Setup, so the new game is not the one a fresh Setup makes. The
// positive control of CheckReset.
func SkewReset(def game.Definition) game.Definition { return skewed{def} }

type skewed struct{ game.Definition }

func (d skewed) Setup(r game.Ruleset, seats []game.Seat, rnd game.Rand, ev []game.Event) (game.State, []game.Event, error) {
	st, ev, err := d.Definition.Setup(r, seats, rnd, ev)
	if err != nil {
		return nil, ev, err
	}
	return &skewState{st, d}, ev, nil
}

type skewState struct {
	game.State
	d skewed
}

func (s *skewState) SetupAgain(r game.Ruleset, seats []game.Seat, rnd game.Rand, ev []game.Event) ([]game.Event, error) {
	if _, err := rnd.UniformInt(0, 1, "matchtest.skew", nil); err != nil {
		return ev, err
	}
	st, ev, err := s.d.Definition.Setup(r, seats, rnd, ev)
	if err != nil {
		return ev, err
	}
	s.State = st
	return ev, nil
}
