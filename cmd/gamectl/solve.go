package main

import (
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/match"
)

func init() {
	commands["solve"] = command{summary: "solve a two-player game exactly by CFR: its value, exploitability and strategy", run: runSolve}
}

const solveUsage = `usage: gamectl solve --game NAME [--iterations N] [--rules FILE]

Solves a two-player game on the game definition (see "gamectl games") by
counterfactual regret minimization over its whole game tree (match.SolveCFR,
docs/games.md): the setup's every deal and every move's chance outcomes are
enumerated, so the figures are exact for the strategy found. It prints the
game value per seat when both seats play the average strategy, its
exploitability (the sum over the seats of what a best response gains
against it: 0 at an equilibrium) and the average strategy per information
set, sorted by seat and key (the game's information-state key: for Kuhn
poker, the card then the betting, "Kpb" is a King after pass, bet).

It refuses, with exit status 2, a game that does not take two seats, whose
chance it cannot list (ChanceOutcomes), whose setup draws differently for
other values, or whose tree is too large (more than 2,000,000 nodes, or a
line of more than 1000 moves: Pig's tree is endless). Kuhn poker's value for
seat 0 is -1/18 (-0.0556); 10000 iterations take well under a second.

flags:
`

func runSolve(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("solve", stderr)
	fs.Usage = func() { fmt.Fprint(stderr, solveUsage); fs.PrintDefaults() }
	name := fs.String("game", "", "the game (see \"gamectl games\"), two-player")
	iterations := fs.Int("iterations", 10000, fmt.Sprintf("CFR iterations, 1 to %d", match.MaxSolveIterations))
	rules := fs.String("rules", "", "ruleset JSON file of the game (default: its default ruleset)")
	if err := parseFlags(fs, args, false); err != nil {
		return err
	}
	def, err := lookupGame(*name)
	if err != nil {
		return usageError{err}
	}
	if s := def.Seats(); s.Min > 2 || s.Max < 2 {
		return usagef("solve takes two-player games: %s takes %d to %d seats", def.Name(), s.Min, s.Max)
	}
	if *iterations < 1 || *iterations > match.MaxSolveIterations {
		return usagef("--iterations must be 1 to %d, not %d", match.MaxSolveIterations, *iterations)
	}
	r, err := gameRules(def, *rules)
	if err != nil {
		return err
	}
	sol, err := match.SolveCFR(def, r, 2, *iterations)
	if errors.Is(err, match.ErrUnsolvable) {
		return usageError{err}
	}
	if err != nil {
		return err
	}
	writeSolution(stdout, def, sol)
	return nil
}

func writeSolution(w io.Writer, def game.Definition, sol *match.Solution) {
	fmt.Fprintf(w, "%s: %d seats, %d deals, %d nodes, %d iterations of CFR\n", sol.Game, sol.Seats, sol.Deals, sol.Nodes, sol.Iterations)
	for s, v := range sol.Value {
		fmt.Fprintf(w, "value seat %d: %+.5f (a best response: %+.5f)\n", s, v, sol.BestResponse[s])
	}
	fmt.Fprintf(w, "exploitability: %.5f (the sum over the seats of a best response's gain; 0 at an equilibrium)\n", sol.Exploitability)
	fmt.Fprintln(w, "average strategy (seat, information set: each move's probability):")
	width := 0
	for _, is := range sol.Infos {
		width = max(width, len(strconv.Quote(is.Key)))
	}
	for _, is := range sol.Infos {
		var b strings.Builder
		for i, m := range is.Moves {
			fmt.Fprintf(&b, "  %s %.3f", moveLabel(def, m), is.Probs[i])
		}
		fmt.Fprintf(w, "  seat %d %-*s%s\n", is.Seat, width, strconv.Quote(is.Key), b.String())
	}
}

// moveLabel is a move's kind, with its arguments as kind(a,b).
func moveLabel(def game.Definition, m game.Move) string {
	for _, k := range def.Kinds() {
		if k.Name != m.Kind || len(k.Args) == 0 {
			continue
		}
		args := make([]string, len(k.Args))
		for i := range k.Args {
			args[i] = strconv.FormatInt(m.Args[i], 10)
		}
		return m.Kind + "(" + strings.Join(args, ",") + ")"
	}
	return m.Kind
}
