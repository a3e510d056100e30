package eights

import (
	"fmt"

	"github.com/fairboard/fairboard/game"
)

// Help implements game.Helper: Crazy Eights' rules in plain words, the
// numbers taken from the ruleset r (the default's for any other).
func (Definition) Help(r game.Ruleset) game.Help {
	rules, ok := r.(*Rules)
	if !ok {
		rules = DefaultRules()
	}
	return game.Help{
		Summary: "Be the first to play every card of your hand, matching the top card's suit or rank; eights are wild.",
		Sections: []game.HelpSection{
			{Title: "The deal", Intro: fmt.Sprintf("A deck of %d cards: ranks 1 to %d in %d suits. Each player is dealt %d cards, which only they see; the next card is turned up to start the discard pile, and the rest is the draw pile, face down.",
				rules.Cards(), rules.ranks, rules.suits, rules.hand)},
			{Title: "Your turn", Intro: "Seat 1 moves first, then each seat in turn.", Items: []game.HelpItem{
				{Name: "Play", Text: "Put a card of your hand on the discard pile: one of the suit in force or of the top card's rank, or any 8. An 8 is wild: you name the suit in force next."},
				{Name: "Draw", Text: "Only when you cannot play: take the top card of the draw pile; your turn ends. When the draw pile is empty, the discard pile but its top card is shuffled into a new draw pile. When neither pile has a card left and you cannot play, you pass."},
			}},
			{Title: "The end", Intro: fmt.Sprintf("The first player with no card left wins. If every player passes in turn, or after %d moves, the game is a draw.", rules.maxMoves)},
		},
	}
}
