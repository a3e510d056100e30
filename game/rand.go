package game

import (
	"fmt"

	"github.com/fairboard/fairboard/rng"
)

// Rand is the tagged context through which a game draws every random
// value: the operations of rng.Stream that a game needs, with rng's tags
// and contexts (a game names its tags "GAME.WHAT", as "pig.roll"). The
// machinery passes it in; a game never builds one. The order of a game's
// calls is its canonical entropy order, so it must not depend on anything
// but the state and the move (never a map's order).
type Rand interface {
	// Dice returns a value in [1, sides] (rng.Stream.Dice).
	Dice(sides int, tag rng.Tag, ctx *rng.Ctx) (rng.DiceRoll, error)
	// UniformInt returns a value in [min, max] (rng.Stream.UniformInt).
	UniformInt(min, max int64, tag rng.Tag, ctx *rng.Ctx) (int64, error)
	// Shuffle permutes a in place by the spec's Fisher-Yates
	// (rng.Shuffle), with ctx.DeckID naming the deck.
	Shuffle(a []int, tag rng.Tag, ctx *rng.Ctx)
}

// FromStream returns the Rand over s: every call is s's, consuming and
// auditing exactly as rng documents.
func FromStream(s *rng.Stream) Rand { return streamRand{s} }

type streamRand struct{ *rng.Stream }

func (r streamRand) Shuffle(a []int, tag rng.Tag, ctx *rng.Ctx) { rng.Shuffle(r.Stream, a, tag, ctx) }

// Scripted is a Rand that returns given values in order, for tests with
// hand-computed outcomes and for solvers that apply a listed chance
// outcome (Chance.Draws). Dice and UniformInt each take the next value;
// Shuffle takes one value per swap, j for i from len(a)-1 down to 1, as
// Fisher-Yates draws them. A value outside the call's range, or a call
// past the end of the script, panics (a mistake in the script). Calls
// records every call's tag, in order.
type Scripted struct {
	Values []int64
	Next   int
	Calls  []rng.Tag
}

// Script returns a Scripted over the values.
func Script(values ...int64) *Scripted { return &Scripted{Values: values} }

// Done reports whether every value was taken.
func (s *Scripted) Done() bool { return s.Next == len(s.Values) }

func (s *Scripted) take(min, max int64, tag rng.Tag) int64 {
	if s.Next >= len(s.Values) {
		panic(fmt.Sprintf("game.Scripted: draw %d (%s) past the end of the script", s.Next+1, tag))
	}
	v := s.Values[s.Next]
	if v < min || v > max {
		panic(fmt.Sprintf("game.Scripted: value %d of draw %d (%s) outside [%d, %d]", v, s.Next+1, tag, min, max))
	}
	s.Next++
	return v
}

// Dice returns the next value, which must be in [1, sides].
func (s *Scripted) Dice(sides int, tag rng.Tag, _ *rng.Ctx) (rng.DiceRoll, error) {
	if sides < 1 {
		return rng.DiceRoll{}, fmt.Errorf("%w: %d sides", rng.ErrRange, sides)
	}
	s.Calls = append(s.Calls, tag)
	return rng.DiceRoll{Sides: sides, Value: int(s.take(1, int64(sides), tag))}, nil
}

// UniformInt returns the next value, which must be in [min, max].
func (s *Scripted) UniformInt(min, max int64, tag rng.Tag, _ *rng.Ctx) (int64, error) {
	if min > max {
		return 0, fmt.Errorf("%w: [%d, %d]", rng.ErrRange, min, max)
	}
	s.Calls = append(s.Calls, tag)
	return s.take(min, max, tag), nil
}

// Shuffle swaps a[i] with a[j] for i from len(a)-1 down to 1, each j the
// next value, in [0, i].
func (s *Scripted) Shuffle(a []int, tag rng.Tag, _ *rng.Ctx) {
	s.Calls = append(s.Calls, tag)
	for i := len(a) - 1; i > 0; i-- {
		j := s.take(0, int64(i), tag)
		a[i], a[j] = a[j], a[i]
	}
}

// Unwrapper is a Rand that passes every draw to another (the machinery's
// recorder): StreamOf looks through it.
type Unwrapper interface {
	Unwrap() Rand
}

// StreamOf returns the stream r draws from, and true, when r is
// FromStream's or an Unwrapper over one (at any depth); nil and false for
// any other Rand (a Scripted). It is for a game whose rules draw from a
// stream directly and must know the stream's mode and seed when it sets a
// game up (the dungeon, whose seeded games record their seed); such a game
// still draws through r itself (StreamFor), so that whatever wraps the
// stream records or counts every draw.
func StreamOf(r Rand) (*rng.Stream, bool) {
	for r != nil {
		switch v := r.(type) {
		case streamRand:
			return v.Stream, v.Stream != nil
		case Unwrapper:
			r = v.Unwrap()
		default:
			return nil, false
		}
	}
	return nil, false
}

// TagWord is the tag of each 32-bit word a relay stream (StreamFor) draws
// through a Rand: UniformInt(0, 2^32-1).
const TagWord rng.Tag = "game.word"

// StreamFor returns a *rng.Stream in mode, its seq at seq, whose every
// draw is made of r's: r's own stream when r is exactly FromStream's and
// that stream is in mode at seq (its draws then are the stream's, with
// their own tags in its audit); otherwise rng.NewRelay over r, whose each
// word is one r.UniformInt(0, 2^32-1, TagWord, nil), so that a recorder,
// a counter or a Scripted (a crypto match's replay) sees every draw. Over
// a Rand of a stream the two give the same values: a span of 2^32 takes
// one word and returns it. It is for a game whose rules are written
// against *rng.Stream (the dungeon's reducers); such rules draw nothing
// when they refuse a move, and the relay draws only when they draw.
func StreamFor(r Rand, mode rng.Mode, seq uint64) *rng.Stream {
	if v, ok := r.(streamRand); ok && v.Stream != nil && v.Mode() == mode && v.Seq() == seq {
		return v.Stream
	}
	return rng.NewRelay(r, mode, TagWord, rng.WithSeq(seq))
}
