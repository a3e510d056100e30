package kuhn

import "github.com/fairboard/fairboard/game"

// Help implements game.Helper: Kuhn poker's rules in plain words (the
// game has one ruleset).
func (Definition) Help(game.Ruleset) game.Help {
	return game.Help{
		Summary: "The smallest poker: three cards, one each, one round of betting. Win the pot with the higher card, or by making the other player fold.",
		Sections: []game.HelpSection{
			{Title: "The deal", Intro: "The deck is a Jack, a Queen and a King. Each player puts 1 chip in the pot and is dealt one card, which only they see; the third card is not used."},
			{Title: "Betting", Intro: "Seat 1 acts first, then the other player; at most one bet is made.", Items: []game.HelpItem{
				{Name: "Pass", Text: "With no bet to answer, check: put in nothing. If both players check, the cards are shown. After a bet, pass folds: the bettor takes the pot and no card is shown."},
				{Name: "Bet", Text: "With no bet to answer, put 1 more chip in the pot; the other player then calls or folds. After a bet, bet calls it with 1 chip and the cards are shown."},
			}},
			{Title: "Showdown", Intro: "King beats Queen beats Jack: the higher card takes the pot. You win or lose 1 chip (the ante) or 2 (ante and bet)."},
		},
	}
}
