package pig

import (
	"fmt"

	"github.com/fairboard/fairboard/game"
)

// Help implements game.Helper: Pig's rules with r's goal and die (any
// other ruleset gets the default's help).
func (Definition) Help(gr game.Ruleset) game.Help {
	r := DefaultRules()
	if x, ok := gr.(*Rules); ok && x != nil {
		r = x
	}
	return game.Help{
		Summary: fmt.Sprintf("A dice game of pushing your luck: the first to bank %d points wins.", r.Goal()),
		Sections: []game.HelpSection{{Title: "Your turn", Intro: "Seat 1 starts; then each seat in turn.", Items: []game.HelpItem{
			{Name: "Roll", Text: fmt.Sprintf("Roll the d%d: a 1 ends your turn and loses this turn's total; any other face adds to it. You win the moment your banked score plus this turn's total reaches %d.", r.DieSides(), r.Goal())},
			{Name: "Hold", Text: "Bank this turn's total and end your turn (once you have rolled something)."},
		}}},
	}
}
