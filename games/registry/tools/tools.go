// Package tools wires the command-line tools a game brings of its own
// into cmd/gamectl: today the dungeon's simulation tools
// (games/dungeon/tools/simcmd) and its "gamectl play"
// (games/dungeon/tools/playcmd), which play it on its own pipeline. It is the
// registry's second half, kept apart so that the pages' WebAssembly, which
// imports the registry, does not link them; only gamectl imports it.
package tools

import (
	"io"

	"github.com/fairboard/fairboard/games/dungeon"
	"github.com/fairboard/fairboard/games/dungeon/tools/playcmd"
	"github.com/fairboard/fairboard/games/dungeon/tools/simcmd"
)

// Tool is a game's tool for one gamectl command path: it takes the
// arguments after the path, and its errors are internal/cli's (a
// UsageError exits 2, an ExitError its code, any other 1).
type Tool func(args []string, stdout, stderr io.Writer) error

// Lookup returns the tool the game called name brings for the command
// path ("play", "sim", "sim merge", "sim sweep", "sim sensitivity", "sim tune"),
// or nil when it brings none (every game but the dungeon: gamectl then
// runs its own, over the game's definition).
func Lookup(name, command string) Tool {
	if name != dungeon.Name {
		return nil
	}
	if t := simcmd.Tool(command); t != nil {
		return t
	}
	if t := playcmd.Tool(command); t != nil {
		return t
	}
	return nil
}
