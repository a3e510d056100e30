package match

import (
	"fmt"
	"slices"

	"github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/rng"
	"github.com/fairboard/fairboard/rng/mentalpoker"
)

// MentalDealer is a trustless match's game.Dealer over a mental-poker
// deal (rng/mentalpoker): it knows only what its Table's public state
// opens. The server, each seat's client and a verifier each keep one
// over their own Table, so that a game plays the same on all of them and
// none learns a card the protocol has not opened to it. One deck a hand;
// its size is fixed by the Table. Not safe for concurrent use.
type MentalDealer struct {
	deckID string
	tb     *mentalpoker.Table
	owners []int
	want   []int
	dealt  bool
	// parent is a dry run's dealer (Dry): the one whose Wanted a refused
	// opening sets.
	parent *MentalDealer
}

// Dry returns a copy of d for a dry run of a move (Match.WouldDraw): it
// deals and draws as d would, without changing d, except that a refused
// opening sets d's Wanted too (the positions the move waits for). A card
// drawn to a seat in a dry run is not drawn.
func (d *MentalDealer) Dry() game.Dealer {
	return &MentalDealer{deckID: d.deckID, tb: d.tb, owners: slices.Clone(d.owners), dealt: d.dealt, parent: d}
}

// NewMentalDealer returns a dealer over tb (a fresh hand's Table, whose
// card count is the deck's size).
func NewMentalDealer(tb *mentalpoker.Table) *MentalDealer { return &MentalDealer{tb: tb} }

// Table returns the dealer's Table.
func (d *MentalDealer) Table() *mentalpoker.Table { return d.tb }

// DealPrivate records the deck (its id and owners). It refuses
// (rng.Refusal) a second deck, a deck whose size is not the Table's, or
// owners that are not one per card, each a seat or game.All.
func (d *MentalDealer) DealPrivate(n int, owners []int, _ rng.Tag, ctx *rng.Ctx) {
	if d.dealt || d.tb == nil || n != d.tb.Cards() || len(owners) != n || ctx == nil {
		panic(rng.Refusal)
	}
	for _, o := range owners {
		if o != game.All && (o < 0 || o >= d.tb.Seats()) {
			panic(rng.Refusal)
		}
	}
	d.deckID, d.owners, d.dealt = ctx.DeckID, slices.Clone(owners), true
}

// DrawCard starts the deck at its first call (n the Table's card count,
// every position closed), gives position pos to seat `to` and returns
// Hidden (at setup, or later: the deal then waits for the other seats'
// keys of pos, PrivateKeysDue, before the game goes on), or for to
// game.All opens pos as OpenPublic does. Anything else refuses
// (rng.Refusal): a position dealt already, out of range, another deck.
func (d *MentalDealer) DrawCard(deckID string, n, pos, to int, _ rng.Tag, _ *rng.Ctx) int {
	if !d.dealt {
		if d.tb == nil || n != d.tb.Cards() {
			panic(rng.Refusal)
		}
		d.deckID, d.owners, d.dealt = deckID, make([]int, n), true
		for i := range d.owners {
			d.owners[i] = game.All
		}
	}
	if deckID != d.deckID || n != len(d.owners) || pos < 0 || pos >= n {
		panic(rng.Refusal)
	}
	if to == game.All {
		return d.OpenPublic(deckID, []int{pos})[0]
	}
	if to < 0 || to >= d.tb.Seats() || d.owners[pos] != game.All {
		panic(rng.Refusal)
	}
	d.owners[pos] = to
	return game.Hidden
}

// OpenPublic returns the cards at ps when every seat's key for each is on
// the Table; otherwise it notes ps (Wanted) and refuses (rng.Refusal).
// A position out of range, or another deck, refuses too.
func (d *MentalDealer) OpenPublic(deckID string, ps []int) []int {
	if !d.dealt || deckID != d.deckID {
		panic(rng.Refusal)
	}
	out := make([]int, len(ps))
	for i, p := range ps {
		c, err := d.tb.OpenPublic(p)
		if err != nil {
			d.want = slices.Clone(ps)
			if d.parent != nil {
				d.parent.want = slices.Clone(ps)
			}
			panic(rng.Refusal)
		}
		out[i] = c
	}
	return out
}

// Owners returns the seat each position is dealt to (game.All: none),
// nil before the deal.
func (d *MentalDealer) Owners() []int { return slices.Clone(d.owners) }

// Dealt reports whether the game has dealt its deck.
func (d *MentalDealer) Dealt() bool { return d.dealt }

// Wanted returns the positions the last refused OpenPublic asked for and
// forgets them: the keys a waiting move needs from every seat.
func (d *MentalDealer) Wanted() []int {
	w := d.want
	d.want = nil
	return w
}

// PrivateKeysDue returns, for each position dealt to a seat, the other
// seats' keys the Table still lacks, as (position, seat) pairs in
// position then seat order: the keys the deal waits for.
func (d *MentalDealer) PrivateKeysDue() [][2]int {
	var out [][2]int
	for p, o := range d.owners {
		if o == game.All {
			continue
		}
		for _, s := range d.tb.Missing(p, o) {
			out = append(out, [2]int{p, s})
		}
	}
	return out
}

// String names the dealer's deck for errors.
func (d *MentalDealer) String() string {
	return fmt.Sprintf("deck %q of %d cards", d.deckID, d.tb.Cards())
}
