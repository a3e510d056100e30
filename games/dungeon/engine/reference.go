package engine

// The reference game's handler table, for the machinery that builds
// engines of the dungeon (export's verify, the bots and the search, the
// simulation runner, the follower, serve, the functions' deployment)
// without importing a game: the dungeon's rules (games/dungeon/reducers)
// register their table here when their package initializes, and a
// program links them in by importing the games (games/registry does, for
// cmd/gamectl, the functions and the pages); a test package that plays
// the dungeon imports its rules for their registration.
var reference func() Table

// RegisterReference records table, which returns a fresh handler table of
// the reference game each call. Only that game's rules package calls it,
// once, from its init; a nil table or a second registration is a mistake
// of the program's wiring, never of an input, and panics.
func RegisterReference(table func() Table) {
	switch {
	case table == nil:
		panic("engine: RegisterReference(nil)")
	case reference != nil:
		panic("engine: the reference game is registered twice")
	}
	reference = table
}

// ReferenceTable returns a fresh handler table of the reference game. It
// panics when the program links no reference game (it imports neither
// games/registry nor games/dungeon/reducers): a wiring mistake, never an
// input's.
func ReferenceTable() Table {
	if reference == nil {
		panic("engine: no reference game is registered: import github.com/fairboard/fairboard/games/registry (or games/dungeon/reducers)")
	}
	return reference()
}

// NewReference returns an engine of the reference game on rules:
// New(rules, ReferenceTable()), and it panics as ReferenceTable does.
func NewReference(rules *Ruleset) *Engine { return New(rules, ReferenceTable()) }
