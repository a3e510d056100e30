package main

import (
	"fmt"
	"io"

	"github.com/fairboard/fairboard/games/registry/tools"
)

func init() {
	commands["play"] = command{"play a whole game with bots (seeded, crypto, fair or trustless) and print its log", runPlay}
}

// runPlay is "gamectl play". With --game NAME of a game other than the
// dungeon it plays over the game's definition (play_game.go); without
// --game, or with --game dungeon, the dungeon's own play
// (games/dungeon/tools/playcmd, through the tools' wiring), exactly as
// before games had definitions.
func runPlay(args []string, stdout, stderr io.Writer) error {
	if name, ok := gameFlag(args); ok {
		if name != dungeonName {
			return runGamePlay(args, stdout, stderr)
		}
		args = withoutGame(args)
	}
	tool := tools.Lookup(dungeonName, "play")
	if tool == nil {
		return fmt.Errorf("the dungeon brings no tool for %q", "play")
	}
	return tool(args, stdout, stderr)
}
