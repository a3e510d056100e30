package leduc

import "github.com/fairboard/fairboard/game"

// Help implements game.Helper: Leduc hold'em's rules in plain words (the
// game has one ruleset).
func (Definition) Help(game.Ruleset) game.Help {
	return game.Help{
		Summary: "A small poker: six cards, one private card each, a public card, two rounds of betting. Win the pot with the better hand at the showdown, or by making the other player fold.",
		Sections: []game.HelpSection{
			{Title: "The deal", Intro: "The deck is two Jacks, two Queens and two Kings (spades and hearts). Each player puts 1 chip in the pot and is dealt one card, which only they see. After the first round of betting one card is turned face up: the public card, shared by both."},
			{Title: "Betting", Intro: "Two rounds, seat 1 first in each. A round ends when both players have checked, or one has called the last raise. At most two raises a round.", Items: []game.HelpItem{
				{Name: "Call", Text: "Put in what it takes to match the other player; with nothing to match, this is a check."},
				{Name: "Raise", Text: "Match the other player, then put in 2 more chips in the first round, 4 in the second."},
				{Name: "Fold", Text: "Only when facing a raise: give up the hand; the other player takes the pot and no card is shown."},
			}},
			{Title: "Showdown", Intro: "After the second round both cards are shown. A card of the public card's rank makes a pair, which beats any other hand; otherwise King beats Queen beats Jack, and equal ranks split the pot (each player takes back its chips). You win or lose at most 13 chips."},
		},
	}
}
