// Package leduc is Leduc hold'em (Southey et al., "Bayes' Bluff", 2005)
// on the game definition (package game), with OpenSpiel's rules
// (leduc_poker, default parameters but the number of players): 2 to 10
// players (2 by default); a deck of two suits of one rank more than the
// players, 2(n+1) cards (with two players six, a Jack, a Queen and a
// King: cards 0 to 5, Js Jh Qs Qh Ks Kh, rank card/2, every card
// distinct); each player antes 1 chip and is dealt one private card. Two
// betting rounds, seat 0 (or the first seat after it still in) first in
// each: raises of 2 chips in the first, 4 in the second, at most two
// raises a round; fold only when facing a bet; a folded seat is skipped;
// a round ends when every seat still in has matched the last raise (or
// all checked). After the first round one public card is dealt. The hand
// ends when all but one seat fold, or at a showdown among the seats
// still in: a private card that pairs the public card wins, otherwise the
// higher rank; equal best ranks split the pot. Payoffs are net chips.
// docs/games.md describes it, with its public, private and secret parts.
package leduc

import (
	"fmt"
	"strconv"

	"github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/rng"
)

// Name is Leduc hold'em's registry name.
const Name = "leduc"

// The tags of the draws: the deal of the private cards at setup, the
// public card when the first round ends, and Sample's deal.
const (
	TagDeal   rng.Tag = "leduc.deal"
	TagPublic rng.Tag = "leduc.public"
	TagSample rng.Tag = "leduc.sample"
)

// The rules' numbers (OpenSpiel's leduc_poker defaults, and its range of
// players).
const (
	Cards      = 6 // with two seats: cards 0..5; rank card/2 (0 J, 1 Q, 2 K), suit card%2 (0 s, 1 h)
	MaxSeats   = 10
	MaxCards   = 2 * (MaxSeats + 1) // the deck with MaxSeats seats
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
	EventShowdown   = "Showdown"   // card0, card1: both private cards, public (two seats)
	EventShown      = "Shown"      // seat, card: a seat's card at a showdown of more than two seats
	EventWon        = "Won"        // seat, pot
	EventSplit      = "Split"      // pot: equal ranks, each takes back its chips (two seats)
	EventShared     = "Shared"     // seat, pot: one of the equal best hands' equal shares (more than two seats)
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

// Seats returns 2 to MaxSeats (10) seats, 2 by default, with no seat
// options.
func (Definition) Seats() game.Seats { return game.Seats{Min: 2, Max: MaxSeats, Default: 2} }

var kinds = []game.KindSpec{
	{Name: KindFold, Doc: "facing a raise, give up the hand and the chips you put in", Forfeit: true},
	{Name: KindCall, Doc: "put in what it takes to match the last raise (a check when that is nothing)"},
	{Name: KindRaise, Doc: "match the last raise, then put in the raise: 2 chips in the first round, 4 in the second; at most two raises a round"},
}

// Kinds returns fold, call and raise, none with arguments.
func (Definition) Kinds() []game.KindSpec { return kinds }

var eventTypes = []game.EventSpec{
	{Type: EventDealt, Fields: []string{"card"}, Doc: "your card (two seats: 0 Js, 1 Jh, 2 Qs, 3 Qh, 4 Ks, 5 Kh; n seats: 2(n+1) cards, rank card/2, the highest King), to its seat alone"},
	{Type: EventChecked, Fields: []string{"seat"}},
	{Type: EventCalled, Fields: []string{"seat", "pot"}},
	{Type: EventRaised, Fields: []string{"seat", "pot"}},
	{Type: EventFolded, Fields: []string{"seat"}},
	{Type: EventPublicCard, Fields: []string{"card"}, Doc: "the public card, dealt to all after the first round"},
	{Type: EventShowdown, Fields: []string{"card0", "card1"}, Doc: "two seats: both private cards, shown to all"},
	{Type: EventShown, Fields: []string{"seat", "card"}, Doc: "more than two seats: the card of a seat still in at the showdown, shown to all"},
	{Type: EventWon, Fields: []string{"seat", "pot"}},
	{Type: EventSplit, Fields: []string{"pot"}, Doc: "two seats, equal ranks: each player takes back its chips"},
	{Type: EventShared, Fields: []string{"seat", "pot"}, Doc: "more than two seats: seat holds one of the equal best hands and takes an equal share of the pot"},
}

// EventTypes returns the eleven event types; Dealt is addressed to one
// seat, every other event is public.
func (Definition) EventTypes() []game.EventSpec { return eventTypes }

// Setup deals each seat in turn a card, UniformInt(0, k-1) (TagDeal)
// among the k cards left in ascending order (with two seats: seat 0 one of
// six, seat 1 one of five), as OpenSpiel's chance deals them, through
// game.Draw (seat p's card is position p of the deck; in a trustless deal
// every one stays game.Hidden and each seat opens its own on its device);
// each seat antes 1 and reads its card in a Dealt event addressed to it.
// It takes 2 to MaxSeats seats without options.
func (Definition) Setup(r game.Ruleset, seats []game.Seat, rnd game.Rand, ev []game.Event) (game.State, []game.Event, error) {
	if _, ok := r.(Rules); !ok {
		return nil, ev, game.Reject(game.CodeBadRuleset, fmt.Sprintf("not a Leduc hold'em ruleset: %T", r))
	}
	n := len(seats)
	if n < 2 || n > MaxSeats {
		return nil, ev, game.Reject(game.CodeBadSetup, fmt.Sprintf("Leduc hold'em takes 2 to %d seats, not %d", MaxSeats, n))
	}
	for i, s := range seats {
		if len(s.Options) != 0 {
			return nil, ev, game.Reject(game.CodeBadSetup, fmt.Sprintf("seat %d: Leduc hold'em has no seat options", i))
		}
	}
	s := newState(n)
	for seat := range n {
		var buf [MaxCards]int
		c, err := game.Draw(rnd, Name, s.cards(), seat, s.free(buf[:0]), seat, TagDeal, &rng.Ctx{DeckID: Name, Phase: dealPhase(seat)})
		if err != nil {
			return nil, ev, err
		}
		s.card[seat] = c
	}
	for i := range n {
		if s.card[i] != game.Hidden { // a trustless deal: the seat opens its card on its device
			ev = append(ev, game.Event{To: i, Type: EventDealt, Vals: [game.MaxVals]int64{int64(s.card[i])}})
		}
	}
	return s, ev, nil
}

// cards returns the deck's size, 2(seats+1).
func (s *State) cards() int { return 2 * (s.seats + 1) }

// free appends the cards in no hand and not public, ascending.
func (s *State) free(b []int) []int {
	var used [MaxCards]bool
	for _, c := range s.card[:s.seats] {
		if c >= 0 && c < MaxCards {
			used[c] = true
		}
	}
	if s.public >= 0 && s.public < MaxCards {
		used[s.public] = true
	}
	for c := range s.cards() {
		if !used[c] {
			b = append(b, c)
		}
	}
	return b
}

// dealPhase names seat's deal in its draw's ctx: "seat0", "seat1", ...
func dealPhase(seat int) string { return "seat" + strconv.Itoa(seat) }

// drawFree draws one of the free cards, UniformInt(0, n-1) over them in
// ascending order, with tag, DeckID "leduc" and phase in the ctx.
func (s *State) drawFree(rnd game.Rand, tag rng.Tag, phase string) (int, error) {
	var buf [MaxCards]int
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
