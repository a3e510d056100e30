package game

import (
	"errors"
	"fmt"

	"github.com/fairboard/fairboard/rng"
)

// Pile is a named deck that a game keeps in its state and the machinery
// shuffles: a draw pile (Cards, the top card first) and a discard pile.
// Every shuffle of it, the first and each reshuffle of the discards when
// the draw pile runs out, goes through the game's Rand with ctx.DeckID
// the pile's ID, so the machinery records it as a shuffle of that deck:
// at a crypto, seeded or fair table it is committed when it is shuffled
// and revealed at the end (docs/fairness.md, "Named decks"). A game never
// branches on the mode. A Pile's draw pile is hidden from the seats but
// known to whoever runs the state, so it is for the server's modes: a
// game with one is not all public (AllPublic), and a trustless table
// deals private decks by mental poker (Deal, Draw) instead.
//
// The zero Pile is an empty deck with no ID; make one with NewPile. A
// Pile's slices are its own: Clone copies them.
type Pile struct {
	// ID names the deck (rng.Ctx.DeckID), 1-64 characters of
	// [A-Za-z0-9_.-].
	ID string
	// Cards is the draw pile, the next card first; Discards the discard
	// pile, in the order the cards were discarded.
	Cards    []int
	Discards []int
}

// ErrEmptyPile is returned by Take when the draw pile and the discards
// are both empty.
var ErrEmptyPile = errors.New("game: the pile and its discards are empty")

// ReshuffleTag is the tag of the reshuffle of the discards of the deck
// id: "deck.reshuffle.ID", the spec's ("Deck exhaustion and
// reshuffling").
func ReshuffleTag(id string) rng.Tag { return rng.Tag("deck.reshuffle." + id) }

// NewPile returns the deck id holding cards as its draw pile, in that
// order (not shuffled: call Shuffle), and no discards. Errors: an id
// that is not 1-64 characters of [A-Za-z0-9_.-].
func NewPile(id string, cards []int) (Pile, error) {
	if !validPileID(id) {
		return Pile{}, fmt.Errorf("game: a pile's id is 1-64 characters of [A-Za-z0-9_.-], not %q", id)
	}
	return Pile{ID: id, Cards: append([]int(nil), cards...)}, nil
}

func validPileID(id string) bool {
	if len(id) == 0 || len(id) > 64 {
		return false
	}
	for _, c := range []byte(id) {
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9', c == '_', c == '.', c == '-':
		default:
			return false
		}
	}
	return true
}

// ctxOf is ctx (or an empty one) with DeckID the pile's.
func (p *Pile) ctxOf(ctx *rng.Ctx) *rng.Ctx {
	c := rng.Ctx{}
	if ctx != nil {
		c = *ctx
	}
	c.DeckID = p.ID
	return &c
}

// Shuffle shuffles the draw pile through rnd (Rand.Shuffle, the spec's
// Fisher-Yates) under tag, ctx's DeckID set to the pile's ID.
func (p *Pile) Shuffle(rnd Rand, tag rng.Tag, ctx *rng.Ctx) {
	rnd.Shuffle(p.Cards, tag, p.ctxOf(ctx))
}

// Take draws the top card of the draw pile. When the draw pile is empty
// it first turns the discards into the draw pile and shuffles them (tag
// ReshuffleTag(ID), the spec's reshuffle), then draws; with no card in
// either it returns ErrEmptyPile and changes nothing.
func (p *Pile) Take(rnd Rand, ctx *rng.Ctx) (int, error) {
	if len(p.Cards) == 0 {
		if len(p.Discards) == 0 {
			return 0, ErrEmptyPile
		}
		p.Cards, p.Discards = p.Discards, p.Cards[:0]
		rnd.Shuffle(p.Cards, ReshuffleTag(p.ID), p.ctxOf(ctx))
	}
	c := p.Cards[0]
	p.Cards = p.Cards[1:]
	return c, nil
}

// Discard puts cards on the discard pile, in order.
func (p *Pile) Discard(cards ...int) { p.Discards = append(p.Discards, cards...) }

// Clone returns a copy of p that shares no slice with it.
func (p *Pile) Clone() Pile {
	return Pile{ID: p.ID, Cards: append([]int(nil), p.Cards...), Discards: append([]int(nil), p.Discards...)}
}

// Resample shuffles the draw pile again through rnd under tag: for a
// state's Sample, whose hidden part (the order of the cards not yet
// drawn) is dealt again while every view stays the same. The discards,
// which every seat saw, keep their order.
func (p *Pile) Resample(rnd Rand, tag rng.Tag) {
	rnd.Shuffle(p.Cards, tag, p.ctxOf(nil))
}
