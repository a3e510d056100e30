// Package bot is the dungeon's bots at play: a driver ([Runner]) that
// plays whole games of policies through the engine, in every rng mode, as
// a server plays them (trustless games with one client per seat), and
// the search bot (MCTS, mcts:N) with its value features and their fit.
// The heuristic policies themselves and their styles are the game's
// (games/dungeon/policy), which the definition wraps; this package is
// one of the game's tools (games/dungeon/tools): it builds the streams it
// plays with (randlint -drivers), and no rules or definition import it.
package bot

import (
	"fmt"
	"strings"

	"github.com/fairboard/fairboard/games/dungeon/policy"
)

// legalRoom is the room of a decision's buffer of legal actions: enough
// for any turn of the default ruleset (a manage step lists 2 actions per
// item held, plus one).
const legalRoom = 16

// Names lists the bots by name: the built-in policies, and the search bot
// mcts:N (N simulations per decision, 1 to MaxSimulations).
var Names = []string{"cautious", "aggressive", "mcts:N"}

// ByName returns the bot with the name ("cautious", "aggressive" or
// "mcts:N"), or an error naming the known ones. A search bot is a new one
// (one per seat: it keeps a seat's memory and stream); the built-in
// policies are values.
func ByName(name string) (policy.Policy, error) {
	switch name {
	case "cautious":
		return policy.Cautious{}, nil
	case "aggressive":
		return policy.Aggressive{}, nil
	}
	switch m, err := parseMCTS(name); {
	case err != nil:
		return nil, err
	case m != nil:
		return m, nil
	}
	return nil, fmt.Errorf("unknown bot %q (known: %s)", name, strings.Join(Names, ", "))
}
