// Package kuhn is Kuhn poker (H. W. Kuhn, 1950) on the game definition
// (package game), with OpenSpiel's rules (kuhn_poker): a deck of three
// cards, J, Q and K (0, 1, 2); each of two players antes 1 chip and is
// dealt one card, the third stays undealt; seat 0 acts first. A move is
// pass or bet (one more chip); after a bet, pass folds and bet calls. Two
// passes, or a bet and a call, go to a showdown: the higher card takes the
// pot. Payoffs are net chips: ±1 or ±2. docs/games.md describes it, with
// its public, private and secret parts.
package kuhn

import (
	"fmt"

	"github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/rng"
)

// Name is Kuhn poker's registry name.
const Name = "kuhn"

// TagDeal is the tag of the deal, one shuffle of the deck (DeckID
// DeckID) at setup; TagSample is the tag of Sample's deal.
const (
	TagDeal   rng.Tag = "kuhn.deal"
	TagSample rng.Tag = "kuhn.sample"
	DeckID            = "kuhn"
)

// The cards.
const (
	Jack  = 0
	Queen = 1
	King  = 2
)

// The move kinds.
const (
	KindPass = "pass"
	KindBet  = "bet"
)

// The event types.
const (
	EventDealt    = "Dealt"    // card; addressed to the seat dealt it
	EventPassed   = "Passed"   // seat, pot (a check: no bet to answer)
	EventBet      = "Bet"      // seat, pot (after the chip)
	EventFolded   = "Folded"   // seat (passed on a bet)
	EventCalled   = "Called"   // seat, pot (after the chip)
	EventShowdown = "Showdown" // card0, card1: both cards, public
	EventWon      = "Won"      // seat, pot
)

// Definition is Kuhn poker's game definition; Def is its value.
type Definition struct{}

// Def is Kuhn poker, for the registry.
var Def game.Definition = Definition{}

// Rules is Kuhn poker's one ruleset, {}: the game has no numbers.
type Rules struct{}

var rulesJSON = []byte(`{}`)

// Game returns "kuhn".
func (Rules) Game() string { return Name }

// CanonicalJSON returns {}.
func (Rules) CanonicalJSON() []byte { return append([]byte(nil), rulesJSON...) }

// Hash returns the hex SHA-256 of {}.
func (Rules) Hash() string { return game.HashJSON(rulesJSON) }

// Name returns "kuhn".
func (Definition) Name() string { return Name }

// DefaultRuleset returns Rules{}.
func (Definition) DefaultRuleset() game.Ruleset { return Rules{} }

// DecodeRuleset decodes {} strictly: any field or trailing data is
// refused (game.CodeBadRuleset).
func (Definition) DecodeRuleset(data []byte) (game.Ruleset, error) {
	var v struct{}
	if err := game.DecodeStrict(data, &v); err != nil {
		return nil, err
	}
	return Rules{}, nil
}

// Params returns none: the game has no numbers.
func (Definition) Params() []game.Param { return nil }

// Seats returns exactly 2 seats, with no seat options.
func (Definition) Seats() game.Seats { return game.Seats{Min: 2, Max: 2, Default: 2} }

var kinds = []game.KindSpec{
	{Name: KindPass, Doc: "without a bet to answer, check (put in nothing); after a bet, fold (give up the pot)"},
	{Name: KindBet, Doc: "without a bet to answer, bet 1 chip; after a bet, call it with 1 chip"},
}

// Kinds returns pass and bet, neither with arguments.
func (Definition) Kinds() []game.KindSpec { return kinds }

var eventTypes = []game.EventSpec{
	{Type: EventDealt, Fields: []string{"card"}, Doc: "your card (0 J, 1 Q, 2 K), to its seat alone"},
	{Type: EventPassed, Fields: []string{"seat", "pot"}},
	{Type: EventBet, Fields: []string{"seat", "pot"}},
	{Type: EventFolded, Fields: []string{"seat"}},
	{Type: EventCalled, Fields: []string{"seat", "pot"}},
	{Type: EventShowdown, Fields: []string{"card0", "card1"}, Doc: "both cards, shown to all"},
	{Type: EventWon, Fields: []string{"seat", "pot"}},
}

// EventTypes returns the seven event types; Dealt is addressed to one
// seat, every other event is public.
func (Definition) EventTypes() []game.EventSpec { return eventTypes }

// Styles returns none: the random bot and the search bot play it.
func (Definition) Styles() []game.Style { return nil }

// Setup deals: one Shuffle of the deck J, Q, K (TagDeal, DeckID) through
// game.Deal; seat 0 gets the first card, seat 1 the second, the third
// stays undealt. Each seat antes 1 (a pot of 2) and reads its card in a
// Dealt event addressed to it; in a trustless deal the cards stay
// game.Hidden to the state and each seat opens its own on its device. It takes exactly 2 seats without options.
func (Definition) Setup(r game.Ruleset, seats []game.Seat, rnd game.Rand, ev []game.Event) (game.State, []game.Event, error) {
	if _, ok := r.(Rules); !ok {
		return nil, ev, game.Reject(game.CodeBadRuleset, fmt.Sprintf("not a Kuhn poker ruleset: %T", r))
	}
	if len(seats) != 2 {
		return nil, ev, game.Reject(game.CodeBadSetup, fmt.Sprintf("Kuhn poker takes 2 seats, not %d", len(seats)))
	}
	for i, s := range seats {
		if len(s.Options) != 0 {
			return nil, ev, game.Reject(game.CodeBadSetup, fmt.Sprintf("seat %d: Kuhn poker has no seat options", i))
		}
	}
	deck := []int{Jack, Queen, King}
	game.Deal(rnd, deck, []int{0, 1, game.All}, TagDeal, &rng.Ctx{DeckID: DeckID})
	s := &State{card: [2]int{deck[0], deck[1]}, undealt: deck[2]}
	for i := range 2 {
		if s.card[i] != game.Hidden { // a trustless deal: the seat opens its card on its device
			ev = append(ev, game.Event{To: i, Type: EventDealt, Vals: [game.MaxVals]int64{int64(s.card[i])}})
		}
	}
	return s, ev, nil
}

// MaxLoss returns 2: the ante and one bet, the most a seat can lose in a
// hand (what a seat caught cheating a trustless deal forfeits).
func (Definition) MaxLoss(game.Ruleset) float64 { return 2 }
