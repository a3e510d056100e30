package game

// AllPublic is implemented by a definition that declares every part of
// its states public: no seat ever has a private part and the server no
// secret part (AppendPrivate and AppendSecret always empty). Only such a
// game plays a trustless table: its randomness comes from reveal rounds
// that every seat sees, so nothing dealt could stay hidden from the
// others. A game with private parts (a poker hand) would need mental-poker
// deals, which tables do not have yet (docs/fairness.md, "Trustless
// tables"). The contract suite checks the declaration on every state it
// visits.
type AllPublic interface {
	AllPublic() bool
}

// IsAllPublic reports whether def declares every part of its states
// public (AllPublic). A definition that does not implement AllPublic is
// not.
func IsAllPublic(def Definition) bool {
	p, ok := def.(AllPublic)
	return ok && p.AllPublic()
}

// RandomBound is implemented by a definition that can bound the moves
// that draw in one game under a ruleset: a trustless table refuses a
// chain shorter than the bound. A game without one (Pig: a player may
// roll for ever) plays on chains of the table's length, and a game that
// exhausts them ends as aborted with the reason chainExhausted.
type RandomBound interface {
	// MaxRandomMoves returns the most moves of one game under r that draw
	// randomness (the setup included), at least 1.
	MaxRandomMoves(r Ruleset) int
}
