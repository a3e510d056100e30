package leduc

import "github.com/fairboard/fairboard/game"

// Help implements game.Helper: Leduc hold'em's rules in plain words (the
// game has one ruleset; the words cover every number of players).
func (Definition) Help(game.Ruleset) game.Help {
	return game.Help{
		Summary: "A small poker: one private card each, a public card, two rounds of betting. Win the pot with the best hand at the showdown, or by making every other player fold.",
		Sections: []game.HelpSection{
			{Title: "The deal", Intro: "With two players the deck is two Jacks, two Queens and two Kings (spades and hearts); each further player adds a lower rank (a Ten with three players, a Nine with four, down to the Threes with ten). Each player puts 1 chip in the pot and is dealt one card, which only they see. After the first round of betting one card is turned face up: the public card, shared by all."},
			{Title: "Betting", Intro: "Two rounds, seat 1 first in each (or the first seat after it still in). A round ends when every player still in has checked, or has called the last raise. At most two raises a round.", Items: []game.HelpItem{
				{Name: "Call", Text: "Put in what it takes to match the last raise; with nothing to match, this is a check."},
				{Name: "Raise", Text: "Match the last raise, then put in 2 more chips in the first round, 4 in the second."},
				{Name: "Fold", Text: "Only when facing a raise: give up the hand and the chips you put in; your card is never shown. When all but one player have folded, that player takes the pot."},
			}},
			{Title: "Showdown", Intro: "After the second round the cards of the players still in are shown. A card of the public card's rank makes a pair, which beats any other hand; otherwise the higher rank wins, and equal best ranks split the pot equally. With two players you win or lose at most 13 chips."},
		},
	}
}
