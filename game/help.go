package game

// Helper is a definition that can tell a player how to play: the web
// page's "How to play" reads it. It is optional; a game without it shows
// its moves' and seat options' docs only.
type Helper interface {
	// Help returns the game's help under r (a ruleset of the
	// definition), its numbers taken from r, so that a designer's ruleset
	// is described as it plays.
	Help(r Ruleset) Help
}

// Help is a game's rules in plain words, in sections.
type Help struct {
	// Summary is one or two sentences: what the game is and how it is won.
	Summary  string        `json:"summary"`
	Sections []HelpSection `json:"sections"`
}

// HelpSection is one part of the rules ("Your turn", "Classes"): an
// introduction and items, each a name and what it means.
type HelpSection struct {
	Title string     `json:"title"`
	Intro string     `json:"intro,omitempty"`
	Items []HelpItem `json:"items,omitempty"`
}

// HelpItem is one named thing of a section: a step, a class, a card.
type HelpItem struct {
	Name string `json:"name"`
	Text string `json:"text"`
}
