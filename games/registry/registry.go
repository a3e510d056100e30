// Package registry lists the games on the game definition: the one
// package that imports every game, for cmd/gamectl (and, later, the
// functions). The machinery (package match) never imports it.
package registry

import (
	"errors"
	"fmt"
	"strings"

	"github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/games/pig"
)

// Dungeon is the reference game's name. It is not on the game definition
// yet (issue 27): engine/ and reducers/ play it, and every command without
// a game plays it.
const Dungeon = "dungeon"

// ErrUnknown is wrapped by Lookup's error for a name no game has.
var ErrUnknown = errors.New("unknown game")

// ErrNotOnDefinition is wrapped by Lookup's error for the dungeon.
var ErrNotOnDefinition = errors.New("not yet on the game definition")

var games = []game.Definition{pig.Def}

// All returns the registered games, in registry order.
func All() []game.Definition { return append([]game.Definition(nil), games...) }

// Names returns the registered games' names.
func Names() []string {
	names := make([]string, len(games))
	for i, g := range games {
		names[i] = g.Name()
	}
	return names
}

// Lookup returns the registered game called name. For "dungeon" the error
// wraps ErrNotOnDefinition; for any other unknown name it wraps ErrUnknown
// and names the known games.
func Lookup(name string) (game.Definition, error) {
	for _, g := range games {
		if g.Name() == name {
			return g, nil
		}
	}
	if name == Dungeon {
		return nil, fmt.Errorf("the dungeon is %w: it still plays through engine/ and reducers/", ErrNotOnDefinition)
	}
	return nil, fmt.Errorf("%w %q (known: %s)", ErrUnknown, name, strings.Join(append(Names(), Dungeon), ", "))
}
