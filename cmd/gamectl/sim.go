package main

import (
	"fmt"
	"io"

	"github.com/fairboard/fairboard/games/registry/tools"
)

func init() {
	commands["sim"] = command{summary: "run seeded balance simulations (and merge shards)", run: runSim}
}

// runSim is "gamectl sim [merge|sweep|sensitivity|tune] ...". With
// --game NAME of a game other than the dungeon it runs over the game's
// definition (sim_game*.go); without --game, or with --game dungeon, the
// dungeon's own tools (games/dungeon/tools/simcmd, through the tools' wiring),
// exactly as before games had definitions. "merge" is the dungeon's.
func runSim(args []string, stdout, stderr io.Writer) error {
	sub := ""
	if len(args) > 0 {
		switch args[0] {
		case "merge", "sweep", "sensitivity", "tune":
			sub, args = args[0], args[1:]
		}
	}
	if name, ok := gameFlag(args); ok && sub != "merge" {
		if name != dungeonName {
			switch sub {
			case "sweep":
				return runGameSweep(args, stdout, stderr)
			case "sensitivity":
				return runGameSensitivity(args, stdout, stderr)
			case "tune":
				return runGameTune(args, stdout, stderr)
			}
			return runGameSim(args, stdout, stderr)
		}
		if args = withoutGame(args); sub == "" {
			return runSim(args, stdout, stderr) // "sim --game dungeon sweep ..."
		}
	}
	path := "sim"
	if sub != "" {
		path += " " + sub
	}
	tool := tools.Lookup(dungeonName, path)
	if tool == nil {
		return fmt.Errorf("the dungeon brings no tool for %q", path)
	}
	return tool(args, stdout, stderr)
}
