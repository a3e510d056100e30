package game

import (
	"fmt"

	"github.com/fairboard/fairboard/rng"
)

// Private decks (docs/fairness.md, "Dealing without a dealer who sees").
//
// A game deals a private deck through Deal and reads a card that a move
// shows to every seat (a showdown, a public card) through Open, whatever
// the mode: it never asks which mode it plays. In crypto, seeded and fair
// modes the Rand is the server's stream: Deal is one Shuffle and Open
// returns the card the state already holds, so a game's draws, and its
// records, are exactly those of a plain Shuffle. In a trustless game the
// Rand is also a Dealer backed by a mental-poker deal among the seats'
// clients (rng/mentalpoker): Deal leaves every position Hidden to whoever
// runs the state (the server holds masked points only), a seat opens its
// own cards on its device, and Open returns a card only once every seat's
// key for it is published; before that the dealer refuses, as a stream
// refuses a word, and the move waits for the keys.

// Hidden is the value of a card that is not open to whoever runs the
// state: every dealt position in a trustless game until it is opened.
const Hidden = -1

// Dealer is implemented by a Rand that deals private decks without
// knowing them (a trustless table's mental-poker deal). The machinery
// implements it; a game calls Deal and Open, never a Dealer.
type Dealer interface {
	// DealPrivate starts the deck ctx.DeckID of n cards (0..n-1), which
	// the seats shuffle; owners[p] is the seat position p is dealt to, or
	// All for a position that stays closed until opened to every seat
	// (Open). A dealer that cannot deal (none configured, a second deck)
	// panics with rng.Refusal, as a stream that refuses a word.
	DealPrivate(n int, owners []int, tag rng.Tag, ctx *rng.Ctx)
	// DrawCard deals position pos of the deck deckID of n cards (the
	// first call starts it, every position closed) to seat `to`,
	// returning Hidden, or with to All opens it to every seat and
	// returns its card (refusing, as OpenPublic, until every seat's key
	// is in). A dealer that cannot (a seat's card after the passes have
	// begun, another deck, another size) panics with rng.Refusal.
	DrawCard(deckID string, n, pos, to int, tag rng.Tag, ctx *rng.Ctx) int
	// OpenPublic returns the cards at positions ps of deck deckID, opened
	// to every seat. A dealer that does not hold all of them open yet
	// notes the request (the positions to open) and panics with
	// rng.Refusal: the move that asked is the one to make wait.
	OpenPublic(deckID string, ps []int) []int
}

// DealerOf returns the Dealer r is, looking through Unwrappers (the
// machinery's recorder), and true; nil and false for a plain Rand.
func DealerOf(r Rand) (Dealer, bool) {
	for r != nil {
		if d, ok := r.(Dealer); ok {
			return d, true
		}
		u, ok := r.(Unwrapper)
		if !ok {
			return nil, false
		}
		r = u.Unwrap()
	}
	return nil, false
}

// Deal deals the private deck deck, which must hold the cards 0..n-1 in
// order (n = len(deck), 1..1024), position p to seat owners[p] (All: to
// nobody yet). With a plain Rand it is rnd.Shuffle(deck, tag, ctx): every
// card is known to the state, as in crypto, seeded and fair modes. With a
// Dealer every position of deck becomes Hidden and the seats shuffle.
// owners must have len(deck) entries; Deal does not read them without a
// Dealer.
func Deal(rnd Rand, deck []int, owners []int, tag rng.Tag, ctx *rng.Ctx) {
	if d, ok := DealerOf(rnd); ok {
		d.DealPrivate(len(deck), owners, tag, ctx)
		for i := range deck {
			deck[i] = Hidden
		}
		return
	}
	rnd.Shuffle(deck, tag, ctx)
}

// Draw deals one card of the private deck deckID of n cards (its cards
// 0..n-1), the pos-th the game deals from it (0, 1, …: counted by the
// game's state, never by the Rand), to seat `to`, or face up to every
// seat with to All. With a plain Rand it is free[UniformInt(0,
// len(free)-1, tag, ctx)], free the cards still in the deck in the game's
// order: the game's draws are exactly those of that UniformInt. With a
// Dealer it is the mental-poker deck's position pos: Hidden for a seat's
// card (dealt at setup: the seat opens it on its device), the card for
// to All once every seat's key is in (the move waits for them). Errors:
// the UniformInt's, and free empty.
func Draw(rnd Rand, deckID string, n, pos int, free []int, to int, tag rng.Tag, ctx *rng.Ctx) (int, error) {
	if d, ok := DealerOf(rnd); ok {
		return d.DrawCard(deckID, n, pos, to, tag, ctx), nil
	}
	if d, ok := deckDrawerOf(rnd); ok {
		if c, dealt, err := d.DrawDealt(deckID, n, pos, free, tag, ctx); dealt {
			return c, err
		}
	}
	if len(free) == 0 {
		return Hidden, fmt.Errorf("%w: no card left to draw", rng.ErrRange)
	}
	i, err := rnd.UniformInt(0, int64(len(free)-1), tag, ctx)
	if err != nil {
		return Hidden, err
	}
	return free[i], nil
}

// DeckDrawer is implemented by a Rand that deals a deck drawn one card at
// a time (Draw) from an order it shuffles at the deck's first draw, so
// that the order exists, and can be committed to, before any card of it
// is seen: the machinery's recorder at a crypto table, whose server's
// draws nothing else binds (a seeded or fair table's seed binds them).
// The machinery implements it; a game calls Draw, never a DeckDrawer.
type DeckDrawer interface {
	// DrawDealt returns the card at position pos of deck deckID of n
	// cards (0..n-1) and true, or false for a draw it leaves to Draw's
	// UniformInt (it does not deal this match's draws). Position 0
	// shuffles the deck anew (a Shuffle with ctx.DeckID deckID, tag
	// tag). Errors: a position past the deck, a deck of another size
	// than at its first draw, a card not among free (the game drew from
	// the deck otherwise), or the shuffle's.
	DrawDealt(deckID string, n, pos int, free []int, tag rng.Tag, ctx *rng.Ctx) (int, bool, error)
}

// deckDrawerOf returns the DeckDrawer r is, looking through Unwrappers.
func deckDrawerOf(r Rand) (DeckDrawer, bool) {
	for r != nil {
		if d, ok := r.(DeckDrawer); ok {
			return d, true
		}
		u, ok := r.(Unwrapper)
		if !ok {
			return nil, false
		}
		r = u.Unwrap()
	}
	return nil, false
}

// Open returns the cards at positions ps of the deck deckID, opened to
// every seat: known (the cards the state holds at those positions, one
// per position) with a plain Rand, the dealer's opening with a Dealer (a
// trustless game's showdown waits for it). Call it before changing the
// state, as any draw: a Dealer's refusal must leave the state as it was.
func Open(rnd Rand, deckID string, ps []int, known []int) []int {
	if d, ok := DealerOf(rnd); ok {
		return d.OpenPublic(deckID, ps)
	}
	return append([]int(nil), known...)
}

// Stakes is implemented by a state that can say what each seat has put
// into the hand so far (a poker pot): a trustless deal aborted because a
// seat withheld its key takes that much from the seat named
// (docs/fairness.md, "Dealing without a dealer who sees").
type Stakes interface {
	// InPot returns, per seat, the chips it has put in, each ≥ 0.
	InPot() []float64
}

// MaxLoss is implemented by a definition that deals private decks: the
// most a seat can lose in one hand under r, at least 0. A seat caught
// cheating a deal (a pass that does not recompute, an end-of-hand reveal
// withheld) forfeits that much, so that cheating never pays.
type MaxLoss interface {
	MaxLoss(r Ruleset) float64
}
