package eights

import (
	"fmt"

	"github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/rng"
)

// DeckID is the deck's id (the pile's, rng.Ctx.DeckID); TagDeal is the
// tag of its first shuffle, at setup; its reshuffles are tagged
// game.ReshuffleTag(DeckID), "deck.reshuffle.eights"; TagSample is the
// tag of Sample's deal.
const (
	DeckID            = "eights"
	TagDeal   rng.Tag = "eights.deal"
	TagSample rng.Tag = "eights.sample"
)

// The move kinds.
const (
	KindPlay = "play"
	KindDraw = "draw"
)

// The event types.
const (
	EventStarted    = "Started"    // seats, cards, hand, top
	EventDealt      = "Dealt"      // card; addressed to the seat dealt it
	EventPlayed     = "Played"     // seat, card, suit (in force after), left (cards in the hand)
	EventReshuffled = "Reshuffled" // cards (the discards turned into the draw pile)
	EventDrew       = "Drew"       // seat, stock (cards left to draw)
	EventDrawn      = "Drawn"      // card; addressed to the seat that drew it
	EventPassed     = "Passed"     // seat (nothing to draw, nothing to play)
	EventWon        = "Won"        // seat
	EventEnded      = "Ended"      // reason (1 blocked, 2 the move cap), moves
)

// The reasons of an Ended event.
const (
	ReasonBlocked = 1 // every seat in turn passed
	ReasonCap     = 2 // maxMoves moves
)

// MaxCards is the largest deck (13 x 4): a hand index is below it.
const MaxCards = 52

// Definition is Crazy Eights' game definition; Def is its value.
type Definition struct{}

// Def is Crazy Eights, for the registry.
var Def game.Definition = Definition{}

// Name returns "eights".
func (Definition) Name() string { return Name }

// DefaultRuleset returns DefaultRules().
func (Definition) DefaultRuleset() game.Ruleset { return DefaultRules() }

// DecodeRuleset decodes {"ranks":R,"suits":S,"hand":H,"maxMoves":M}
// strictly: every field required, whole numbers in their ranges (Params);
// an unknown field or trailing data is refused (game.CodeBadRuleset).
func (Definition) DecodeRuleset(data []byte) (game.Ruleset, error) {
	r, err := decodeRules(data)
	if err != nil {
		return nil, err
	}
	return r, nil
}

// Params returns ranks, suits, hand and maxMoves.
func (Definition) Params() []game.Param { return append([]game.Param(nil), params...) }

// Seats returns 2 to 4 seats, 2 by default, with no seat options.
func (Definition) Seats() game.Seats { return game.Seats{Min: 2, Max: 4, Default: 2} }

var kinds = []game.KindSpec{
	{Name: KindPlay, Args: []game.ArgSpec{{Name: "card", Min: 0, Max: MaxCards - 1}, {Name: "suit", Min: 0, Max: 3}},
		Doc: "play the card at index card of your hand (0 first): it matches the suit in force or the top card's rank, or it is an 8; suit is the suit in force after it: the card's own, or for an 8 the one you name"},
	{Name: KindDraw, Doc: "when no card of your hand can be played: draw one card and end your turn (with nothing left to draw, pass)"},
}

// Kinds returns play {card, suit} and draw.
func (Definition) Kinds() []game.KindSpec { return kinds }

var eventTypes = []game.EventSpec{
	{Type: EventStarted, Fields: []string{"seats", "cards", "hand", "top"}},
	{Type: EventDealt, Fields: []string{"card"}, Doc: "a card dealt to you, to its seat alone"},
	{Type: EventPlayed, Fields: []string{"seat", "card", "suit", "left"}},
	{Type: EventReshuffled, Fields: []string{"cards"}, Doc: "the discard pile but its top card shuffled into the draw pile"},
	{Type: EventDrew, Fields: []string{"seat", "stock"}},
	{Type: EventDrawn, Fields: []string{"card"}, Doc: "the card you drew, to its seat alone"},
	{Type: EventPassed, Fields: []string{"seat"}},
	{Type: EventWon, Fields: []string{"seat"}},
	{Type: EventEnded, Fields: []string{"reason", "moves"}, Doc: "a draw: 1 nobody can play or draw, 2 the move cap"},
}

// EventTypes returns the nine event types; Dealt and Drawn are addressed
// to one seat, every other event is public.
func (Definition) EventTypes() []game.EventSpec { return eventTypes }

// Styles returns first: play the first card that matches, an 8 last
// (naming the suit the seat holds most of), else draw.
func (Definition) Styles() []game.Style {
	return []game.Style{{Name: "first", Doc: "play the first matching card of the hand, keeping eights last (naming the suit held most); else draw",
		New: func(int) game.Policy { return First{} }}}
}

// Setup shuffles the deck (the pile DeckID, tag TagDeal), deals hand
// cards to each seat one at a time in seat order (each in a Dealt event
// addressed to its seat) and turns the next card up. It takes 2 to 4
// seats without options.
func (Definition) Setup(r game.Ruleset, seats []game.Seat, rnd game.Rand, ev []game.Event) (game.State, []game.Event, error) {
	rules, ok := r.(*Rules)
	if !ok {
		return nil, ev, game.Reject(game.CodeBadRuleset, fmt.Sprintf("not a Crazy Eights ruleset: %T", r))
	}
	if len(seats) < 2 || len(seats) > 4 {
		return nil, ev, game.Reject(game.CodeBadSetup, fmt.Sprintf("Crazy Eights takes 2 to 4 seats, not %d", len(seats)))
	}
	for i, s := range seats {
		if len(s.Options) != 0 {
			return nil, ev, game.Reject(game.CodeBadSetup, fmt.Sprintf("seat %d: Crazy Eights has no seat options", i))
		}
	}
	deck := make([]int, rules.Cards())
	for i := range deck {
		deck[i] = i
	}
	pile, err := game.NewPile(DeckID, deck)
	if err != nil {
		return nil, ev, err
	}
	pile.Shuffle(rnd, TagDeal, nil)
	s := &State{rules: rules, pile: pile, hands: make([][]int, len(seats)), winner: game.Nobody}
	for range rules.hand {
		for i := range s.hands {
			c, _ := s.pile.Take(rnd, nil) // the deck holds every hand and the top: nothing to reshuffle
			s.hands[i] = append(s.hands[i], c)
		}
	}
	s.top, _ = s.pile.Take(rnd, nil)
	s.suit = rules.Suit(s.top)
	ev = append(ev, game.Event{To: game.All, Type: EventStarted, Vals: [game.MaxVals]int64{int64(len(seats)), int64(rules.Cards()), int64(rules.hand), int64(s.top)}})
	for i, h := range s.hands {
		for _, c := range h {
			ev = append(ev, game.Event{To: i, Type: EventDealt, Vals: [game.MaxVals]int64{int64(c)}})
		}
	}
	return s, ev, nil
}

// First is the style "first": the first listed play that is not an 8;
// else the first 8, naming the suit the seat holds most of among its
// other cards (the lowest on a tie); else draw.
type First struct{}

// Choose implements game.Policy.
func (First) Choose(st game.State, seat int, legal []game.Move) game.Move {
	s := st.(*State)
	for _, m := range legal {
		if m.Kind == KindPlay && s.rules.Rank(s.hands[seat][m.Args[0]]) != Eight {
			return m
		}
	}
	for _, m := range legal {
		if m.Kind == KindPlay {
			held := make([]int, s.rules.suits)
			for i, c := range s.hands[seat] {
				if i != int(m.Args[0]) {
					held[s.rules.Suit(c)]++
				}
			}
			best := 0
			for su, n := range held {
				if n > held[best] {
					best = su
				}
			}
			m.Args[1] = int64(best)
			return m
		}
	}
	return legal[len(legal)-1]
}
