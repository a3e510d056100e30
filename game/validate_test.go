package game_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/game"
)

// fakeDef is a definition whose declarations a test sets.
type fakeDef struct {
	name   string
	seats  game.Seats
	kinds  []game.KindSpec
	events []game.EventSpec
	params []game.Param
	styles []game.Style
}

func (d fakeDef) Name() string                               { return d.name }
func (d fakeDef) DefaultRuleset() game.Ruleset               { return nil }
func (d fakeDef) DecodeRuleset([]byte) (game.Ruleset, error) { return nil, nil }
func (d fakeDef) Params() []game.Param                       { return d.params }
func (d fakeDef) Seats() game.Seats                          { return d.seats }
func (d fakeDef) Kinds() []game.KindSpec                     { return d.kinds }
func (d fakeDef) EventTypes() []game.EventSpec               { return d.events }
func (d fakeDef) Styles() []game.Style                       { return d.styles }
func (d fakeDef) Setup(game.Ruleset, []game.Seat, game.Rand, []game.Event) (game.State, []game.Event, error) {
	return nil, nil, nil
}

func TestValidateDefinition(t *testing.T) {
	good := fakeDef{name: "good-1", seats: game.Seats{Min: 2, Max: 4, Default: 2,
		Options: []game.SeatOption{{Name: "class", Values: []string{"warrior", "monk-2"}}}},
		kinds:  []game.KindSpec{{Name: "bet", Args: []game.ArgSpec{{Name: "amount", Min: 1, Max: 9}}}},
		events: []game.EventSpec{{Type: "Bet", Fields: []string{"seat", "amount"}}},
		params: []game.Param{{Path: "a.b", Default: 3, Min: 1, Max: 5, Integer: true}},
		styles: []game.Style{{Name: "greedy", Param: "N", Default: 2, Min: 1, Max: 3, New: func(int) game.Policy { return nil }}}}
	require.NoError(t, game.ValidateDefinition(good))

	for want, f := range map[string]func(d *fakeDef){
		`game name "Bad Name"`:            func(d *fakeDef) { d.name = "Bad Name" },
		"want 1 <= min <= default <= max": func(d *fakeDef) { d.seats.Default = 5 },
		`seat option "seat"`:              func(d *fakeDef) { d.seats.Options[0].Name = "seat" },
		`value "war rior"`:                func(d *fakeDef) { d.seats.Options[0].Values = []string{"war rior"} },
		`move kind "b\"et"`:               func(d *fakeDef) { d.kinds[0].Name = `b"et` },
		`argument "kind"`:                 func(d *fakeDef) { d.kinds[0].Args[0].Name = "kind" },
		`argument "amount": a unique`:     func(d *fakeDef) { d.kinds[0].Args[0].Min = 10 },
		"5 arguments, at most 4":          func(d *fakeDef) { d.kinds[0].Args = make([]game.ArgSpec, 5) },
		`event type "Bet": a unique`:      func(d *fakeDef) { d.events = append(d.events, d.events[0]) },
		`field "seq"`:                     func(d *fakeDef) { d.events[0].Fields = []string{"seq"} },
		`ruleset number "a.b"`:            func(d *fakeDef) { d.params[0].Default = 6 },
		`style "random"`:                  func(d *fakeDef) { d.styles[0].Name = "random" },
		`style "mcts"`:                    func(d *fakeDef) { d.styles[0].Name = "mcts" },
		"style greedy: default 4":         func(d *fakeDef) { d.styles[0].Default = 4 },
	} {
		d := good
		d.seats.Options = []game.SeatOption{{Name: "class", Values: []string{"warrior"}}}
		d.kinds = []game.KindSpec{{Name: "bet", Args: []game.ArgSpec{{Name: "amount", Min: 1, Max: 9}}}}
		d.events = []game.EventSpec{{Type: "Bet", Fields: []string{"seat", "amount"}}}
		d.params = []game.Param{{Path: "a.b", Default: 3, Min: 1, Max: 5, Integer: true}}
		d.styles = []game.Style{{Name: "greedy", Param: "N", Default: 2, Min: 1, Max: 3, New: func(int) game.Policy { return nil }}}
		f(&d)
		require.ErrorContains(t, game.ValidateDefinition(d), want)
	}
}
