package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/fairboard/fairboard/internal/cli"

	"github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/match"
)

func init() {
	commands["solve"] = command{summary: "solve a two-player zero-sum game exactly by CFR+: its value, exploitability and strategy", run: runSolve}
}

const solveUsage = `usage: gamectl solve --game NAME [--players 2] [--iterations N] [--rules FILE] [--out DIR]
       gamectl solve --game NAME [--players 2] --against BOT [--samples K] [--seed S] [--rules FILE]

Solves a two-player zero-sum game on the game definition (see "gamectl
games") by CFR+ (regret matching+, alternating updates, linear averaging)
over its whole game tree (match.Solver, docs/sim.md "Solving a game"): the
setup's every deal and every move's chance outcomes are enumerated, so the
figures are exact for the strategy found, not sampled. Progress goes to
stderr. Stdout has the game value per seat when both seats play the
average strategy, each seat's best response against it, NashConv (the sum
of the best responses' gains), the average strategy per information set
(sorted by seat and key: for Kuhn poker the card then the betting, "Kpb" is
a King after pass, bet), and as its last line exactly

  value V exploitability E

(each with 9 decimals): V is the first seat's expected payoff, E =
NashConv/2 = (BR0 + BR1)/2 in a zero-sum game, OpenSpiel's exploitability:
what a best response gains, averaged over the two seats, in the game's
payoff units (chips a hand for poker). E is 0 exactly at an equilibrium.
--out DIR writes the strategy to DIR/strategy.json for the bot cfr:DIR.

--against BOT evaluates BOT playing both seats instead, with the same last
line: a bot with a table (random, cfr:DIR) exactly; any other bot (mcts:N,
a style) is asked K times (--samples) at each information set, its
strategy there taken as its answers' frequencies, and E's and V's standard
errors (a bootstrap of the answers) are printed on the line above.

It refuses, with exit status 2, a game that does not take two seats,
--players other than 2 (Leduc hold'em takes 2 to 10 players; the solver
only two), a game whose
chance it cannot list (ChanceOutcomes), whose setup draws differently for
other values, whose payoffs do not sum to a constant, or whose tree is too
large (more than 2,000,000 nodes, or a line of more than 1000 moves: Pig's
tree is endless). Kuhn poker's value for seat 0 is -1/18 (-0.0556).

flags:
`

// solveFlags are solve's flags.
type solveFlags struct {
	name, rules, seed, out, against string
	iterations, samples, players    int
}

func runSolve(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("solve", stderr)
	fs.Usage = func() { fmt.Fprint(stderr, solveUsage); fs.PrintDefaults() }
	var f solveFlags
	fs.StringVar(&f.name, "game", "", "the game (see \"gamectl games\"), two-player zero-sum")
	fs.IntVar(&f.players, "players", 2, "seats: 2, the only count the solver takes (a game such as leduc takes more elsewhere)")
	fs.IntVar(&f.iterations, "iterations", 1000, fmt.Sprintf("CFR+ iterations, 1 to %d", match.MaxSolveIterations))
	fs.StringVar(&f.rules, "rules", "", "ruleset JSON file of the game (default: its default ruleset)")
	fs.StringVar(&f.seed, "seed", "solve", "seed of --against's sampled bots and of their standard errors' resamples (the solver draws nothing)")
	fs.StringVar(&f.out, "out", "", "directory to write the strategy to (strategy.json, for the bot cfr:DIR)")
	fs.StringVar(&f.against, "against", "", "evaluate this bot in both seats instead of solving (random, cfr:DIR, mcts:N, a style)")
	fs.IntVar(&f.samples, "samples", 100, fmt.Sprintf("with --against, a bot without a table is asked K times at each information set, 1 to %d", match.MaxBotSamples))
	if err := parseFlags(fs, args, false); err != nil {
		return err
	}
	def, err := lookupGame(f.name)
	if err != nil {
		return usageError{Err: err}
	}
	if s := def.Seats(); s.Min > 2 || s.Max < 2 {
		return usagef("solve takes two-player games: %s takes %d to %d seats", def.Name(), s.Min, s.Max)
	}
	if f.players != 2 {
		s := def.Seats()
		return usagef("--players %d: solve takes two-player games only (%s takes %d to %d players elsewhere: sim, play)", f.players, def.Name(), s.Min, s.Max)
	}
	if err := f.check(fs); err != nil {
		return err
	}
	r, err := gameRules(def, f.rules)
	if err != nil {
		return err
	}
	if r == nil {
		r = def.DefaultRuleset()
	}
	if f.against != "" {
		return runAgainst(def, r, f, stdout, stderr)
	}
	var out *pendingFile
	if f.out != "" {
		if err := os.MkdirAll(f.out, 0o755); err != nil {
			return usagef("--out %s: %v", f.out, err)
		}
		if out, err = reserveFile("--out", filepath.Join(f.out, match.StrategyFileName)); err != nil {
			return err
		}
		defer out.discard()
	}
	sol, err := solveWithProgress(def, r, f.iterations, stderr)
	if errors.Is(err, match.ErrUnsolvable) {
		return usageError{Err: err}
	}
	if err != nil {
		return err
	}
	writeSolution(stdout, def, sol)
	if out != nil {
		if err := match.WriteStrategy(out, sol, r); err != nil {
			return fmt.Errorf("--out: %w", err)
		}
		if err := out.commit(); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "wrote %s (play it with the bot cfr:%s)\n", out.path, f.out)
	}
	fmt.Fprintf(stdout, "value %.9f exploitability %.9f\n", sol.Value[0], sol.Exploitability)
	return nil
}

// check validates the flags that need neither the ruleset nor the tree.
func (f *solveFlags) check(fs *flag.FlagSet) error {
	switch {
	case f.iterations < 1 || f.iterations > match.MaxSolveIterations:
		return usagef("--iterations must be 1 to %d, not %d", match.MaxSolveIterations, f.iterations)
	case f.samples < 1 || f.samples > match.MaxBotSamples:
		return usagef("--samples must be 1 to %d, not %d", match.MaxBotSamples, f.samples)
	case f.seed == "" || !utf8.ValidString(f.seed):
		return usagef("--seed must be a non-empty UTF-8 string")
	case f.against == "" && cli.IsSet(fs, "samples"):
		return usagef("--samples is for --against: the solver asks no bot")
	case f.against != "" && cli.IsSet(fs, "iterations"):
		return usagef("--against evaluates a bot: it runs no iterations (--iterations is for solving)")
	case f.against != "" && f.out != "":
		return usagef("--against evaluates a bot: it writes no strategy (--out is for solving)")
	case cli.IsSet(fs, "against") && f.against == "":
		return usagef("--against needs a bot (random, cfr:DIR, mcts:N, a style)")
	case cli.IsSet(fs, "out") && f.out == "":
		return usagef("--out needs a directory")
	}
	return nil
}

// solveWithProgress runs the solver, saying on stderr how far it is
// about ten times (the exploitability of the average so far, exact).
func solveWithProgress(def game.Definition, r game.Ruleset, iterations int, stderr io.Writer) (*match.Solution, error) {
	start := time.Now()
	s, err := match.NewSolver(def, r, 2)
	if err != nil {
		return nil, err
	}
	fmt.Fprintf(stderr, "%s: tree built in %v\n", def.Name(), time.Since(start).Round(time.Millisecond))
	step := max(1, iterations/10)
	for done := 0; done < iterations; {
		n := min(step, iterations-done)
		if err := s.Run(n); err != nil {
			return nil, err
		}
		done += n
		pv := s.Evaluate()
		fmt.Fprintf(stderr, "iteration %d/%d: value %.6f exploitability %.6f (%v)\n", done, iterations, pv.Value[0], pv.Exploitability, time.Since(start).Round(time.Millisecond))
	}
	return s.Solution(), nil
}

func writeSolution(w io.Writer, def game.Definition, sol *match.Solution) {
	fmt.Fprintf(w, "%s: %d seats, %d deals, %d nodes, %d information sets, %d iterations of CFR+\n", sol.Game, sol.Seats, sol.Deals, sol.Nodes, len(sol.Infos), sol.Iterations)
	writeValue(w, sol.PolicyValue)
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

// writeValue prints each seat's value and best response, and NashConv.
func writeValue(w io.Writer, pv match.PolicyValue) {
	for s, v := range pv.Value {
		fmt.Fprintf(w, "value seat %d: %+.9f (a best response against it: %+.9f)\n", s, v, pv.BestResponse[s])
	}
	fmt.Fprintf(w, "NashConv: %.9f (the sum over the seats of a best response's gain; 0 at an equilibrium; the exploitability is half of it)\n", pv.NashConv)
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
