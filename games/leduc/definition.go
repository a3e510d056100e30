// Package leduc is Leduc hold'em (Southey et al., "Bayes' Bluff", 2005)
// on the game definition (package game), with OpenSpiel's rules
// (leduc_poker, default parameters): two players; a deck of six cards, a
// Jack, a Queen and a King in two suits (cards 0 to 5: Js Jh Qs Qh Ks Kh,
// rank card/2, every card distinct); each player antes 1 chip and is dealt
// one private card. Two betting rounds, seat 0 first in each: raises of 2
// chips in the first, 4 in the second, at most two raises a round; fold
// only when facing a bet. After the first round one public card is dealt.
// At a showdown a private card that pairs the public card wins, otherwise
// the higher rank; equal ranks split the pot. Payoffs are net chips.
// docs/games.md describes it, with its public, private and secret parts.
package leduc

import (
	"fmt"

	"github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/rng"
)

// Name is Leduc hold'em's registry name.
const Name = "leduc"

// The tags of the draws: the deal of the two private cards at setup, the
// public card when the first round ends, and Sample's deal.
const (
	TagDeal   rng.Tag = "leduc.deal"
	TagPublic rng.Tag = "leduc.public"
	TagSample rng.Tag = "leduc.sample"
)

// The rules' numbers (OpenSpiel's leduc_poker defaults).
const (
	Cards      = 6 // cards 0..5; rank card/2 (0 J, 1 Q, 2 K), suit card%2 (0 s, 1 h)
	Ante       = 1
	MaxRaises  = 2 // a round
	RaiseRound = 2 // the raise in round 1
	RaiseLater = 4 // the raise in round 2
)

// NoCard is the public card before it is dealt.
const NoCard = -1

// The move kinds, OpenSpiel's names.
const (
	KindFold  = "fold"
	KindCall  = "call"
	KindRaise = "raise"
)

// The event types.
const (
	EventDealt      = "Dealt"      // card; addressed to the seat dealt it
	EventChecked    = "Checked"    // seat (a call with nothing to call)
	EventCalled     = "Called"     // seat, pot (after the chips)
	EventRaised     = "Raised"     // seat, pot (after the chips)
	EventFolded     = "Folded"     // seat
	EventPublicCard = "PublicCard" // card: the public card, dealt after round 1
	EventShowdown   = "Showdown"   // card0, card1: both private cards, public
	EventWon        = "Won"        // seat, pot
	EventSplit      = "Split"      // pot: equal ranks, each takes back its chips
)

// Definition is Leduc hold'em's game definition; Def is its value.
type Definition struct{}

// Def is Leduc hold'em, for the registry.
var Def game.Definition = Definition{}

// Rules is Leduc hold'em's one ruleset, {}: OpenSpiel's default
// parameters, with no number a designer may change.
type Rules struct{}

var rulesJSON = []byte(`{}`)

// Game returns "leduc".
func (Rules) Game() string { return Name }

// CanonicalJSON returns {}.
func (Rules) CanonicalJSON() []byte { return append([]byte(nil), rulesJSON...) }

// Hash returns the hex SHA-256 of {}.
func (Rules) Hash() string { return game.HashJSON(rulesJSON) }

// Name returns "leduc".
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

// Params returns none: the game's numbers are fixed.
func (Definition) Params() []game.Param { return nil }

// Seats returns exactly 2 seats, with no seat options.
func (Definition) Seats() game.Seats { return game.Seats{Min: 2, Max: 2, Default: 2} }

var kinds = []game.KindSpec{
	{Name: KindFold, Doc: "facing a raise, give up the hand and the chips you put in"},
	{Name: KindCall, Doc: "put in what it takes to match the other player (a check when that is nothing)"},
	{Name: KindRaise, Doc: "match the other player, then put in the raise: 2 chips in the first round, 4 in the second; at most two raises a round"},
}

// Kinds returns fold, call and raise, none with arguments.
func (Definition) Kinds() []game.KindSpec { return kinds }

var eventTypes = []game.EventSpec{
	{Type: EventDealt, Fields: []string{"card"}, Doc: "your card (0 Js, 1 Jh, 2 Qs, 3 Qh, 4 Ks, 5 Kh), to its seat alone"},
	{Type: EventChecked, Fields: []string{"seat"}},
	{Type: EventCalled, Fields: []string{"seat", "pot"}},
	{Type: EventRaised, Fields: []string{"seat", "pot"}},
	{Type: EventFolded, Fields: []string{"seat"}},
	{Type: EventPublicCard, Fields: []string{"card"}, Doc: "the public card, dealt to all after the first round"},
	{Type: EventShowdown, Fields: []string{"card0", "card1"}, Doc: "both private cards, shown to all"},
	{Type: EventWon, Fields: []string{"seat", "pot"}},
	{Type: EventSplit, Fields: []string{"pot"}, Doc: "equal ranks: each player takes back its chips"},
}

// EventTypes returns the nine event types; Dealt is addressed to one seat,
// every other event is public.
func (Definition) EventTypes() []game.EventSpec { return eventTypes }

// Setup deals seat 0 a card, UniformInt(0, 5) (TagDeal) among the six,
// then seat 1 one, UniformInt(0, 4) among the five left in ascending
// order, as OpenSpiel's chance deals them, through game.Draw (positions 0
// and 1 of the deck; in a trustless deal both stay game.Hidden and each
// seat opens its own on its device); each seat antes 1 (a pot of 2)
// and reads its card in a Dealt event addressed to it. It takes exactly 2
// seats without options.
func (Definition) Setup(r game.Ruleset, seats []game.Seat, rnd game.Rand, ev []game.Event) (game.State, []game.Event, error) {
	if _, ok := r.(Rules); !ok {
		return nil, ev, game.Reject(game.CodeBadRuleset, fmt.Sprintf("not a Leduc hold'em ruleset: %T", r))
	}
	if len(seats) != 2 {
		return nil, ev, game.Reject(game.CodeBadSetup, fmt.Sprintf("Leduc hold'em takes 2 seats, not %d", len(seats)))
	}
	for i, s := range seats {
		if len(s.Options) != 0 {
			return nil, ev, game.Reject(game.CodeBadSetup, fmt.Sprintf("seat %d: Leduc hold'em has no seat options", i))
		}
	}
	s := newState(NoCard, NoCard)
	for seat := range 2 {
		var buf [Cards]int
		c, err := game.Draw(rnd, Name, Cards, seat, s.free(buf[:0]), seat, TagDeal, &rng.Ctx{DeckID: Name, Phase: dealPhase[seat]})
		if err != nil {
			return nil, ev, err
		}
		s.card[seat] = c
	}
	for i := range 2 {
		if s.card[i] != game.Hidden { // a trustless deal: the seat opens its card on its device
			ev = append(ev, game.Event{To: i, Type: EventDealt, Vals: [game.MaxVals]int64{int64(s.card[i])}})
		}
	}
	return s, ev, nil
}

// free appends the cards in no hand and not public, ascending.
func (s *State) free(b []int) []int {
	for c := range Cards {
		if c != s.card[0] && c != s.card[1] && c != s.public {
			b = append(b, c)
		}
	}
	return b
}

// dealPhase names each seat's deal in its draw's ctx.
var dealPhase = [2]string{"seat0", "seat1"}

// drawFree draws one of the free cards, UniformInt(0, n-1) over them in
// ascending order, with tag, DeckID "leduc" and phase in the ctx.
func (s *State) drawFree(rnd game.Rand, tag rng.Tag, phase string) (int, error) {
	var buf [Cards]int
	free := s.free(buf[:0])
	i, err := rnd.UniformInt(0, int64(len(free)-1), tag, &rng.Ctx{DeckID: Name, Phase: phase})
	if err != nil {
		return NoCard, err
	}
	return free[i], nil
}

// MaxLoss returns 13: the ante, two raises of 2 in the first round and
// two of 4 in the second, the most a seat can lose in a hand (what a
// seat caught cheating a trustless deal forfeits).
func (Definition) MaxLoss(game.Ruleset) float64 { return Ante + 2*RaiseRound + 2*RaiseLater }
