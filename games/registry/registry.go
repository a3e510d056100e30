// Package registry lists the games on the game definition: the one
// package that imports every game, for cmd/gamectl, the functions'
// deployment (deploy passes Lookup to the store of tables) and
// the pages. Importing it also links the dungeon's rules, which register
// themselves as the engine's reference game (engine.NewReference), so
// that the machinery (export, bot, sim, player, the stores) builds the
// dungeon's engines without importing it. The machinery never imports
// the registry or a game.
package registry

import (
	"errors"
	"fmt"
	"strings"

	"github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/games/dungeon"
	"github.com/fairboard/fairboard/games/eights"
	"github.com/fairboard/fairboard/games/kuhn"
	"github.com/fairboard/fairboard/games/leduc"
	"github.com/fairboard/fairboard/games/pig"
)

// Dungeon is the reference game's name. It is on the game definition as
// an adapter over engine/ and its rules (games/dungeon/reducers); "gamectl sim"
// with or without "--game dungeon" still plays it through its own
// pipeline (docs/sim.md), not the definition's.
const Dungeon = dungeon.Name

// ErrUnknown is wrapped by Lookup's error for a name no game has.
var ErrUnknown = errors.New("unknown game")

var games = []game.Definition{pig.Def, dungeon.Def, kuhn.Def, leduc.Def, eights.Def}

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

// Lookup returns the registered game called name; for any other name an
// error wrapping ErrUnknown that names the known games.
func Lookup(name string) (game.Definition, error) {
	for _, g := range games {
		if g.Name() == name {
			return g, nil
		}
	}
	return nil, fmt.Errorf("%w %q (known: %s)", ErrUnknown, name, strings.Join(Names(), ", "))
}
