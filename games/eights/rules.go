// Package eights is Crazy Eights on the game definition (package game),
// a small variant pinned here and in docs/games.md, and the first
// registered game on the machinery's named-deck piles (game.Pile).
//
// The deck is ranks x suits cards (ruleset numbers: ranks 8..13, suits
// 3..4; 8 x 4 = 32 by default), card c of rank c%ranks+1 and suit
// c/ranks. The deck (pile "eights") is shuffled once (tag eights.deal);
// each of two to four seats is dealt hand cards (1..5, 5 by default),
// one at a time in seat order, and the next card is turned up as the top
// of the discard pile. Seat 0 moves first, then seat order. On its turn a
// seat plays one card that matches the suit in force or the top card's
// rank, or any 8 (wild: the seat names the suit in force, 0..suits-1);
// a seat that holds no such card draws one card instead, and its turn
// ends (a seat that can play must). When the draw pile is empty a
// draw turns the discard pile, all but its top card, into the draw pile,
// shuffled (game.Pile.Take: tag deck.reshuffle.eights). When neither
// pile can give a card, a seat that cannot play draws nothing (a pass).
// A seat with no card left wins (payoff 1,
// the others 0). The game ends as a draw (every payoff 0) when every
// seat in turn has passed (nobody can play and nothing is left to draw;
// under these ranges it cannot happen: a deck has at least three eights,
// at most one of them the top card, so a hand holds one), or after
// maxMoves moves (a ruleset number, 20..10000, 500 by default), so that
// every game ends.
package eights

import (
	"fmt"

	"github.com/fairboard/fairboard/game"
)

// Name is Crazy Eights' registry name.
const Name = "eights"

// Eight is the wild rank.
const Eight = 8

// The ruleset's numbers, by path. Their ranges keep every ruleset
// playable at every seat count: 8 x 3 = 24 cards hold four hands of 5
// and the top card, and every deck holds an 8 of each suit.
var params = []game.Param{
	{Path: "ranks", Default: 8, Min: 8, Max: 13, Integer: true, Doc: "the ranks 1..ranks of each suit; 8 is wild"},
	{Path: "suits", Default: 4, Min: 3, Max: 4, Integer: true, Doc: "the suits; the deck is ranks x suits cards"},
	{Path: "hand", Default: 5, Min: 1, Max: 5, Integer: true, Doc: "the cards dealt to each seat"},
	{Path: "maxMoves", Default: 500, Min: 20, Max: 10000, Integer: true, Doc: "the moves after which the game ends as a draw"},
}

// Rules is Crazy Eights' ruleset,
// {"ranks":8,"suits":4,"hand":5,"maxMoves":500}. Build it with
// DefaultRules, NewRules or Definition.DecodeRuleset; it cannot change
// once built.
type Rules struct {
	ranks, suits, hand, maxMoves int
	canon                        []byte
	hash                         string
}

var defaultRules = mustRules(8, 4, 5, 500)

// DefaultRules returns the default ruleset: 8 ranks, 4 suits, hands of
// 5, at most 500 moves.
func DefaultRules() *Rules { return defaultRules }

// NewRules returns the ruleset of the given numbers; an error
// (game.CodeBadRuleset) for a number outside its range.
func NewRules(ranks, suits, hand, maxMoves int) (*Rules, error) {
	for i, n := range []int{ranks, suits, hand, maxMoves} {
		if err := game.CheckParam(params[i], float64(n)); err != nil {
			return nil, err
		}
	}
	r := &Rules{ranks: ranks, suits: suits, hand: hand, maxMoves: maxMoves}
	r.canon = fmt.Appendf(nil, `{"ranks":%d,"suits":%d,"hand":%d,"maxMoves":%d}`, ranks, suits, hand, maxMoves)
	r.hash = game.HashJSON(r.canon)
	return r, nil
}

func mustRules(ranks, suits, hand, maxMoves int) *Rules {
	r, err := NewRules(ranks, suits, hand, maxMoves)
	if err != nil {
		panic(err)
	}
	return r
}

// Ranks, Suits, Hand and MaxMoves return the ruleset's numbers.
func (r *Rules) Ranks() int    { return r.ranks }
func (r *Rules) Suits() int    { return r.suits }
func (r *Rules) Hand() int     { return r.hand }
func (r *Rules) MaxMoves() int { return r.maxMoves }

// Cards returns the deck's size, ranks x suits.
func (r *Rules) Cards() int { return r.ranks * r.suits }

// Rank returns card c's rank, 1..ranks; Suit its suit, 0..suits-1.
func (r *Rules) Rank(c int) int { return c%r.ranks + 1 }
func (r *Rules) Suit(c int) int { return c / r.ranks }

// Game returns "eights".
func (r *Rules) Game() string { return Name }

// CanonicalJSON returns {"ranks":R,"suits":S,"hand":H,"maxMoves":M}.
func (r *Rules) CanonicalJSON() []byte { return append([]byte(nil), r.canon...) }

// Hash returns the hex SHA-256 of CanonicalJSON.
func (r *Rules) Hash() string { return r.hash }

// decodeRules decodes a ruleset strictly: every field required, whole
// numbers in their ranges, nothing else.
func decodeRules(data []byte) (*Rules, error) {
	var v struct {
		Ranks    *float64 `json:"ranks"`
		Suits    *float64 `json:"suits"`
		Hand     *float64 `json:"hand"`
		MaxMoves *float64 `json:"maxMoves"`
	}
	if err := game.DecodeStrict(data, &v); err != nil {
		return nil, err
	}
	var got [4]int
	for i, n := range []*float64{v.Ranks, v.Suits, v.Hand, v.MaxMoves} {
		if n == nil {
			return nil, game.Reject(game.CodeBadRuleset, "missing "+params[i].Path)
		}
		if err := game.CheckParam(params[i], *n); err != nil {
			return nil, err
		}
		got[i] = int(*n)
	}
	return NewRules(got[0], got[1], got[2], got[3])
}
