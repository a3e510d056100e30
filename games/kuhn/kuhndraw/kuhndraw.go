// Package kuhndraw is Kuhn poker with a private draw after the setup, a
// variant for the tests of the trustless deal (it is not registered: no
// tool offers it). Seat 0, at its first turn only, may "draw" the undealt
// card (position 2 of the deck) to itself, privately, and then plays on
// as in Kuhn poker. The card changes no payoff: it is there to be dealt,
// to its seat alone, in the middle of a hand, so that the deal's wait for
// the other seats' keys after a move (docs/fairness.md, "Drawing") is
// tested with a game's own code. Its parts (public, private, secret)
// are Kuhn poker's: the draw is not in them, which a registered game
// could not do (a view must show that seat 0 drew); it is for tests only.
package kuhndraw

import (
	"fmt"
	"slices"

	"github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/games/kuhn"
	"github.com/fairboard/fairboard/rng"
)

// Definition is the variant's definition.
type Definition struct{ kuhn.Definition }

// Def is the variant.
var Def game.Definition = Definition{}

// KindDraw is the draw's move kind.
const KindDraw = "draw"

// Name returns "kuhn-draw".
func (Definition) Name() string { return "kuhn-draw" }

// drawRules is Kuhn's ruleset under this game's name.
type drawRules struct{ kuhn.Rules }

// Game returns "kuhn-draw".
func (drawRules) Game() string { return "kuhn-draw" }

// DefaultRuleset returns Kuhn's one ruleset under this name.
func (Definition) DefaultRuleset() game.Ruleset { return drawRules{} }

// DecodeRuleset decodes {} strictly, as Kuhn's.
func (Definition) DecodeRuleset(data []byte) (game.Ruleset, error) {
	if _, err := kuhn.Def.DecodeRuleset(data); err != nil {
		return nil, err
	}
	return drawRules{}, nil
}

// Kinds returns Kuhn's pass and bet, and draw.
func (Definition) Kinds() []game.KindSpec {
	return append(slices.Clone(kuhn.Def.Kinds()), game.KindSpec{Name: KindDraw, Doc: "take the undealt card, privately"})
}

// Setup is Kuhn's setup.
func (Definition) Setup(r game.Ruleset, seats []game.Seat, rnd game.Rand, ev []game.Event) (game.State, []game.Event, error) {
	if _, ok := r.(drawRules); !ok {
		return nil, ev, game.Reject(game.CodeBadRuleset, fmt.Sprintf("not a kuhn-draw ruleset: %T", r))
	}
	st, ev, err := kuhn.Def.Setup(kuhn.Rules{}, seats, rnd, ev)
	if err != nil {
		return nil, ev, err
	}
	return &drawState{State: st, drawn: -1}, ev, nil
}

// drawState is a Kuhn state with the draw: moved once seat 0 made any
// move, drawn the card drawn (game.Hidden in a trustless deal; -1 before
// a draw).
type drawState struct {
	game.State
	moved bool
	drawn int
}

// Legal is Kuhn's, and the draw for seat 0 before its first move.
func (s *drawState) Legal(seat int, buf []game.Move) []game.Move {
	buf = s.State.Legal(seat, buf)
	if seat == 0 && !s.moved && len(buf) > 0 {
		buf = append(buf, game.Move{Seat: 0, Kind: KindDraw})
	}
	return buf
}

// Apply applies Kuhn's moves, and the draw: position 2 to seat 0.
func (s *drawState) Apply(m game.Move, rnd game.Rand, ev []game.Event) ([]game.Event, error) {
	if m.Kind != KindDraw {
		ev, err := s.State.Apply(m, rnd, ev)
		if err == nil {
			s.moved = true
		}
		return ev, err
	}
	if m.Seat != 0 || s.moved {
		return ev, game.Reject(game.CodeInvalidAction, "only seat 0 draws, at its first turn")
	}
	c, err := game.Draw(rnd, kuhn.DeckID, 3, 2, []int{0, 1, 2}, 0, "kuhn-draw.draw", &rng.Ctx{DeckID: kuhn.DeckID})
	if err != nil {
		return ev, err
	}
	s.moved, s.drawn = true, c
	return ev, nil
}

// Clone returns a deep copy.
func (s *drawState) Clone() game.State {
	c := *s
	c.State = s.State.Clone()
	return &c
}
