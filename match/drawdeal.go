package match

import (
	"fmt"
	"slices"

	"github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/rng"
)

// Decks drawn one card at a time (docs/fairness.md, "Decks drawn one
// card at a time").
//
// A game draws a deck one card at a time with game.Draw (Leduc's: the
// public card after the first betting round). With a plain Rand each
// card is a UniformInt over the cards left when it is drawn, so no order
// exists before the draw and nothing can be committed to: at a crypto
// table the server's stream alone would choose the public card after
// seeing the bets. A crypto match with Config.DealDraws instead shuffles
// the deck at its first draw (position 0), through the recorder's
// Shuffle with the deck's id, so that the shuffle is recorded as a
// named-deck shuffle, committed by the table in its DeckCommitted event
// and opened by the record at the end; each draw is then the card at its
// position of that order. Seeded and fair matches keep the UniformInt:
// their seed, fixed before the game, binds every draw.

// DealtDeck is a deck dealt by position: its id and the order shuffled
// at its first draw (the card at each position).
type DealtDeck struct {
	DeckID string `json:"deckId"`
	Order  []int  `json:"order"`
}

// DrawDealt implements game.DeckDrawer for a match with Config.DealDraws
// (false otherwise: Draw's UniformInt). Errors as game.DeckDrawer says.
func (c *recorder) DrawDealt(deckID string, n, pos int, free []int, tag rng.Tag, _ *rng.Ctx) (int, bool, error) {
	if !c.dealDraws {
		return game.Hidden, false, nil
	}
	switch {
	case deckID == "":
		return game.Hidden, true, fmt.Errorf("%w: a dealt draw needs its deck's id", rng.ErrRange)
	case n < 1 || n > MaxDeckCards:
		return game.Hidden, true, fmt.Errorf("%w: deck %q of %d cards (1 to %d)", rng.ErrRange, deckID, n, MaxDeckCards)
	case pos < 0 || pos >= n:
		return game.Hidden, true, fmt.Errorf("%w: position %d of deck %q of %d cards", rng.ErrRange, pos, deckID, n)
	}
	i := slices.IndexFunc(c.dealt, func(d DealtDeck) bool { return d.DeckID == deckID })
	if pos == 0 {
		order := make([]int, n)
		for j := range order {
			order[j] = j
		}
		c.Shuffle(order, tag, &rng.Ctx{DeckID: deckID})
		if i < 0 {
			i = len(c.dealt)
			c.dealt = append(c.dealt, DealtDeck{DeckID: deckID})
		}
		c.dealt[i].Order = order
	} else if i < 0 {
		return game.Hidden, true, fmt.Errorf("%w: position %d of deck %q drawn before its position 0", rng.ErrRange, pos, deckID)
	}
	d := c.dealt[i]
	if len(d.Order) != n {
		return game.Hidden, true, fmt.Errorf("%w: deck %q of %d cards drawn as one of %d", rng.ErrRange, deckID, len(d.Order), n)
	}
	card := d.Order[pos]
	if !slices.Contains(free, card) {
		// Neither the card nor the cards left are named: an error may
		// reach a player, and they are the server's secrets.
		return game.Hidden, true, fmt.Errorf("%w: deck %q: the card at position %d is not among the cards left (the game took cards from the deck otherwise)", rng.ErrRange, deckID, pos)
	}
	return card, true, nil
}

// Dealt returns the orders of the decks the match dealt by position
// (Config.DealDraws), as the recorder holds them: what a snapshot keeps
// so that a restored match deals the rest of each deck from the same
// order. None for a lean match or one without DealDraws.
func (m *Match) Dealt() []DealtDeck {
	if m.rec == nil {
		return nil
	}
	return m.rec.dealt
}

// checkDealDraws refuses DealDraws (bad_setup) but for a crypto match
// that keeps its record.
func checkDealDraws(cfg Config) error {
	if cfg.DealDraws && (cfg.Mode != rng.ModeCrypto || cfg.Lean) {
		return game.Reject(game.CodeBadSetup, "dealt draws are for a crypto match that keeps its record")
	}
	return nil
}

// checkDealt checks a snapshot's dealt decks: none without
// cfg.DealDraws; else each under its own id (not empty, at most 256
// bytes), its order a permutation of 0..n-1, n from 1 to MaxDeckCards.
func checkDealt(cfg Config, dealt []DealtDeck) error {
	if len(dealt) > 0 && !cfg.DealDraws {
		return fmt.Errorf("match: dealt decks in the snapshot of a match that does not deal its draws")
	}
	if err := checkDealDraws(cfg); err != nil {
		return err
	}
	for i, d := range dealt {
		n := len(d.Order)
		switch {
		case d.DeckID == "" || len(d.DeckID) > 256:
			return fmt.Errorf("match: dealt deck %d: an id of 1 to 256 bytes", i)
		case n < 1 || n > MaxDeckCards:
			return fmt.Errorf("match: dealt deck %q: %d cards (1 to %d)", d.DeckID, n, MaxDeckCards)
		case slices.IndexFunc(dealt[:i], func(e DealtDeck) bool { return e.DeckID == d.DeckID }) >= 0:
			return fmt.Errorf("match: dealt deck %q twice", d.DeckID)
		}
		seen := make([]bool, n)
		for _, c := range d.Order {
			if c < 0 || c >= n || seen[c] {
				return fmt.Errorf("match: dealt deck %q: its order is not a permutation of 0..%d", d.DeckID, n-1)
			}
			seen[c] = true
		}
	}
	return nil
}
