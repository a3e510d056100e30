package rng

import "fmt"

// Drawer is what a relay stream draws its words from: a tagged uniform
// integer in a range, as [Stream.UniformInt] gives one. A game's
// randomness interface (game.Rand) is one.
type Drawer interface {
	UniformInt(min, max int64, tag Tag, ctx *Ctx) (int64, error)
}

// NewRelay returns a stream in mode whose source makes no randomness of
// its own: each 32-bit word is one d.UniformInt(0, 2^32-1, tag, nil), so
// every draw the stream makes (Dice, UniformInt, Shuffle, ... with the
// spec's arithmetic over those words) is made of d's draws, and is
// recorded, replayed or counted wherever d is. Over d = a stream's own
// UniformInt, whose span of 2^32 takes exactly one word and returns it
// unchanged, the relay draws the very words the stream would have drawn
// directly: the same values.
//
// It is the bridge for rules written against *Stream (the dungeon's
// reducers) played by a caller that hands them only a Drawer (the game
// definition's machinery). The relay's seq starts at 0 ([WithSeq] sets
// it) and counts its own draws, not d's words; its audit entries, with
// [WithAuditor], are its own draws with their tags, while d's auditor
// sees the words under tag. Its state cannot be saved ([ErrNotSavable]).
//
// randlint does not count NewRelay as building an RNG (docs/lint.md): it
// has no entropy but what d, which the caller was handed, gives it.
func NewRelay(d Drawer, mode Mode, tag Tag, opts ...Option) *Stream {
	return newStream(relaySource{d: d, tag: tag}, mode, opts)
}

// relaySource is NewRelay's source.
type relaySource struct {
	d   Drawer
	tag Tag
}

// Uint32 draws one word from the drawer.
func (r relaySource) Uint32() uint32 {
	v, err := r.d.UniformInt(0, MaxSpan-1, r.tag, nil)
	if err != nil || v < 0 || v >= MaxSpan {
		// A Drawer that refuses [0, 2^32-1] or answers outside it is
		// broken; the stream's arithmetic has no error path.
		panic(fmt.Sprintf("rng: relay drawer gave %d, %v for [0, 2^32-1]", v, err))
	}
	return uint32(v)
}
