package pig

import (
	"fmt"

	"github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/rng"
)

// TagRoll is the tag of every roll of the die; its ctx is {turn}, the
// game's turn count from 1.
const TagRoll rng.Tag = "pig.roll"

// The move kinds.
const (
	KindRoll = "roll"
	KindHold = "hold"
)

// The event types.
const (
	EventStarted = "GameStarted" // seats, goal, dieSides
	EventRolled  = "Rolled"      // seat, value, turnTotal (after the roll; 0 on a 1)
	EventBusted  = "Busted"      // seat, lost (the turn total a 1 lost)
	EventHeld    = "Held"        // seat, banked (after banking)
	EventWon     = "Won"         // seat, score (banked plus the turn total)
)

// Definition is Pig's game definition; Def is its value.
type Definition struct{}

// Def is Pig, for the registry.
var Def game.Definition = Definition{}

// Name returns "pig".
func (Definition) Name() string { return Name }

// DefaultRuleset returns DefaultRules().
func (Definition) DefaultRuleset() game.Ruleset { return DefaultRules() }

// DecodeRuleset decodes {"goal":G,"dieSides":D} strictly: both required,
// whole numbers, goal in [1, 10000], dieSides in [2, 1000]; an unknown
// field or trailing data is refused (game.CodeBadRuleset).
func (Definition) DecodeRuleset(data []byte) (game.Ruleset, error) {
	r, err := decodeRules(data)
	if err != nil {
		return nil, err
	}
	return r, nil
}

// Params returns goal and dieSides.
func (Definition) Params() []game.Param { return append([]game.Param(nil), params...) }

// Seats returns 2 to 6 seats, 2 by default, with no seat options.
func (Definition) Seats() game.Seats { return game.Seats{Min: 2, Max: 6, Default: 2} }

var kinds = []game.KindSpec{
	{Name: KindRoll, Doc: "roll the die: a 1 ends the turn and loses the turn total, any other face adds to it"},
	{Name: KindHold, Doc: "bank the turn total and end the turn; only with a turn total above 0"},
}

// Kinds returns roll and hold, neither with arguments.
func (Definition) Kinds() []game.KindSpec { return kinds }

var eventTypes = []game.EventSpec{
	{Type: EventStarted, Fields: []string{"seats", "goal", "dieSides"}},
	{Type: EventRolled, Fields: []string{"seat", "value", "turnTotal"}},
	{Type: EventBusted, Fields: []string{"seat", "lost"}},
	{Type: EventHeld, Fields: []string{"seat", "banked"}},
	{Type: EventWon, Fields: []string{"seat", "score"}},
}

// EventTypes returns Pig's five event types; every event is public.
func (Definition) EventTypes() []game.EventSpec { return eventTypes }

// Styles returns hold:N (hold at a turn total of N, 20 by default).
func (Definition) Styles() []game.Style {
	return []game.Style{{Name: "hold", Param: "N", Default: 20, Min: 1, Max: 10000,
		Doc: "hold once the turn total reaches N (or banked plus turn total reaches the goal); else roll",
		New: func(n int) game.Policy { return HoldAt(n) }}}
}

// Setup returns the first state: every score 0, seat 0 to move. It takes
// 2 to 6 seats without options and draws nothing.
func (Definition) Setup(r game.Ruleset, seats []game.Seat, _ game.Rand, ev []game.Event) (game.State, []game.Event, error) {
	rules, ok := r.(*Rules)
	if !ok {
		return nil, ev, game.Reject(game.CodeBadRuleset, fmt.Sprintf("not a Pig ruleset: %T", r))
	}
	if len(seats) < 2 || len(seats) > 6 {
		return nil, ev, game.Reject(game.CodeBadSetup, fmt.Sprintf("Pig takes 2 to 6 seats, not %d", len(seats)))
	}
	for i, s := range seats {
		if len(s.Options) != 0 {
			return nil, ev, game.Reject(game.CodeBadSetup, fmt.Sprintf("seat %d: Pig has no seat options", i))
		}
	}
	s := New(rules, len(seats))
	ev = append(ev, game.Event{To: game.All, Type: EventStarted, Vals: [game.MaxVals]int64{int64(len(seats)), int64(rules.goal), int64(rules.dieSides)}})
	return s, ev, nil
}

// HoldAt is the hold-at-N style: hold once the turn total is at least N
// (or banked plus turn total reaches the goal), else roll.
type HoldAt int

// Choose implements game.Policy.
func (n HoldAt) Choose(st game.State, seat int, legal []game.Move) game.Move {
	s := st.(*State)
	if s.turnTotal > 0 && (s.turnTotal >= int(n) || s.banked[seat]+s.turnTotal >= s.rules.goal) {
		return game.Move{Seat: seat, Kind: KindHold}
	}
	return game.Move{Seat: seat, Kind: KindRoll}
}

// ChooseDirect implements game.DirectPolicy: the style reads the state,
// never the legal list, so the simulations' loop need not build one (it
// is Choose's move: hold only with a turn total above 0, which is legal).
func (n HoldAt) ChooseDirect(st game.State, seat int) game.Move { return n.Choose(st, seat, nil) }

// AllPublic returns true: every part of a Pig state is public (scores,
// turn total, whose turn), so Pig plays trustless tables. Pig declares no
// game.RandomBound: a player may roll for ever, so a trustless table's
// chains bound its game instead.
func (Definition) AllPublic() bool { return true }
