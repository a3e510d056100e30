package match

import (
	"cmp"
	"slices"

	"github.com/fairboard/fairboard/game"
)

// MaxSolveIterations is the most iterations a Solver runs.
const MaxSolveIterations = 10_000_000

// Solution is what a Solver finds: the average strategy of its iterations
// per information set, and its exact evaluation (PolicyValue: the value,
// the best responses, NashConv and the exploitability, NashConv/2).
type Solution struct {
	Game       string
	RulesHash  string // the ruleset's Hash
	Seats      int
	Iterations int
	Deals      int // the setups enumerated (combinations of its draws)
	Nodes      int // the game tree's nodes, chance nodes included
	PolicyValue
	// Infos is the average strategy, by seat then key.
	Infos []InfoStrategy
}

// InfoStrategy is the average strategy at one information set: its seat,
// its key (the seat's AppendInfoKey), its moves (Legal's order) and the
// probability of each.
type InfoStrategy struct {
	Seat  int
	Key   string
	Moves []game.Move
	Probs []float64
}

// Strategy returns the average strategy at seat's information set key,
// and whether there is one.
func (s *Solution) Strategy(seat int, key string) (InfoStrategy, bool) {
	i, ok := slices.BinarySearchFunc(s.Infos, InfoStrategy{Seat: seat, Key: key}, compareInfo)
	if !ok {
		return InfoStrategy{}, false
	}
	return s.Infos[i], true
}

// Prob returns the probability of the move of kind (without arguments)
// at the information set, 0 if it has none.
func (is InfoStrategy) Prob(kind string) float64 {
	for i, m := range is.Moves {
		if m.Kind == kind && m.Args == [game.MaxArgs]int64{} {
			return is.Probs[i]
		}
	}
	return 0
}

func compareInfo(a, b InfoStrategy) int {
	return cmp.Or(cmp.Compare(a.Seat, b.Seat), cmp.Compare(a.Key, b.Key))
}

// Solver solves a two-player constant-sum game (zero-sum included) by
// CFR+ over its whole game tree: regret matching+, alternating updates
// and linear averaging (Tammelin 2014; OpenSpiel's CFRPlusSolver, whose
// iterates it follows). Every figure it reports is exact over the tree,
// not sampled. A Solver is not safe for concurrent use.
type Solver struct {
	def   game.Definition
	rules game.Ruleset
	t     *tree
	f     *flat
	c     *cfrPlus
}

// NewSolver builds the game tree of def (a two-player constant-sum
// game) under r (nil: the default ruleset) with seats seats, which must
// be 2 and within def.Seats(); the seats take no options.
//
// The tree is built through the definition alone. The setup's chance is
// enumerated: Setup runs once with a probing Rand that records each
// call's range (a Shuffle of n takes n-1 values), then once per
// combination of values (at most MaxSolveDeals) through a game.Scripted,
// each with probability 1/(the product of the range sizes); every run must
// make the same calls as the probe. A move's chance comes from
// ChanceOutcomes. Information sets are keyed by seat and AppendInfoKey,
// and must have perfect recall.
//
// Every refusal wraps ErrUnsolvable and names the problem: seats other
// than 2; a setup that fails, draws differently for other values or has
// more than MaxSolveDeals outcomes; a move whose ChanceOutcomes returns
// false, or whose listed draws do not apply exactly; a tree of more than
// MaxSolveNodes nodes or a line of more than MaxSolveDepth moves; payoffs
// whose sum differs between two ends; an information set whose states
// list different moves or come after different numbers of the seat's own
// moves.
func NewSolver(def game.Definition, r game.Ruleset, seats int) (*Solver, error) {
	t, r, err := buildTwo(def, r, seats, false)
	if err != nil {
		return nil, err
	}
	f := flatten(t)
	return &Solver{def: def, rules: r, t: t, f: f, c: newCFRPlus(f)}, nil
}

// buildTwo checks seats and builds def's tree under r (nil: the
// default), returning the ruleset used.
func buildTwo(def game.Definition, r game.Ruleset, seats int, keep bool) (*tree, game.Ruleset, error) {
	if s := def.Seats(); seats != 2 || seats < s.Min || seats > s.Max {
		return nil, nil, unsolvable("the solver takes two-player games: %s with %d seats (it takes %d to %d)", def.Name(), seats, s.Min, s.Max)
	}
	if r == nil {
		r = def.DefaultRuleset()
	}
	t, err := build(def, r, seats, keep)
	return t, r, err
}

// Run runs n more iterations, n in [1, MaxSolveIterations - Iterations()]
// (an error wrapping ErrUnsolvable otherwise, nothing run).
func (s *Solver) Run(n int) error {
	if n < 1 || n > MaxSolveIterations-s.c.t {
		return unsolvable("%d more iterations after %d: want 1 to %d in all", n, s.c.t, MaxSolveIterations)
	}
	for range n {
		s.c.iterate()
	}
	return nil
}

// Iterations returns the iterations run so far.
func (s *Solver) Iterations() int { return s.c.t }

// Evaluate returns the exact evaluation of the average strategy so far
// (before any iteration: the uniform strategy's).
func (s *Solver) Evaluate() PolicyValue { return s.f.evaluate(s.c.average()) }

// Solution returns the average strategy so far with its evaluation.
func (s *Solver) Solution() *Solution {
	avg := s.c.average()
	sol := &Solution{Game: s.def.Name(), RulesHash: s.rules.Hash(), Seats: 2, Iterations: s.c.t, Deals: s.t.deals,
		Nodes: len(s.t.nodes), PolicyValue: s.f.evaluate(avg)}
	for i, is := range s.t.infos {
		probs := append([]float64(nil), avg[s.f.off[i]:s.f.off[i+1]]...)
		sol.Infos = append(sol.Infos, InfoStrategy{Seat: is.seat, Key: is.key, Moves: is.moves, Probs: probs})
	}
	slices.SortFunc(sol.Infos, compareInfo)
	return sol
}

// SolveCFR builds def's tree (NewSolver, whose refusals it returns) and
// runs iterations of CFR+, in [1, MaxSolveIterations] (an error wrapping
// ErrUnsolvable otherwise), and returns the solution.
func SolveCFR(def game.Definition, r game.Ruleset, seats, iterations int) (*Solution, error) {
	if iterations < 1 || iterations > MaxSolveIterations {
		return nil, unsolvable("%d iterations: want 1 to %d", iterations, MaxSolveIterations)
	}
	s, err := NewSolver(def, r, seats)
	if err != nil {
		return nil, err
	}
	if err := s.Run(iterations); err != nil {
		return nil, err
	}
	return s.Solution(), nil
}
