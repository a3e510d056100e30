package match

import (
	"cmp"
	"slices"

	"github.com/fairboard/fairboard/game"
)

// MaxSolveIterations is the most iterations SolveCFR runs.
const MaxSolveIterations = 10_000_000

// Solution is what SolveCFR finds: the average strategy of its iterations
// per information set, the game's value under it, and how far it is from
// an equilibrium.
type Solution struct {
	Game       string
	Seats      int
	Iterations int
	Deals      int // the setups enumerated (combinations of its draws)
	Nodes      int // the game tree's nodes, chance nodes included
	// Value is each seat's expected payoff when every seat plays the
	// average strategy, computed exactly over the whole tree.
	Value []float64
	// BestResponse is each seat's expected payoff playing a best response
	// (exact, for imperfect information) against the other seats' average
	// strategy: at least its Value.
	BestResponse []float64
	// Exploitability is the sum over the seats of BestResponse - Value
	// (OpenSpiel's NashConv; its "exploitability" is this over the number
	// of seats): 0 exactly at an equilibrium, never negative.
	Exploitability float64
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

// SolveCFR solves def (a two-player constant-sum game, zero-sum included)
// by counterfactual regret minimization (vanilla CFR, simultaneous
// updates) over its whole game tree, for iterations in
// [1, MaxSolveIterations], under r (nil: the default ruleset), with seats
// seats, which must be 2 and within def.Seats(); the seats take no
// options.
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
// moves; iterations out of range.
func SolveCFR(def game.Definition, r game.Ruleset, seats, iterations int) (*Solution, error) {
	if s := def.Seats(); seats != 2 || seats < s.Min || seats > s.Max {
		return nil, unsolvable("the solver takes two-player games: %s with %d seats (it takes %d to %d)", def.Name(), seats, s.Min, s.Max)
	}
	if iterations < 1 || iterations > MaxSolveIterations {
		return nil, unsolvable("%d iterations: want 1 to %d", iterations, MaxSolveIterations)
	}
	if r == nil {
		r = def.DefaultRuleset()
	}
	t, err := build(def, r, seats)
	if err != nil {
		return nil, err
	}
	c := newCFR(t, seats)
	for range iterations {
		c.iterate()
	}
	avg := c.average()
	sol := &Solution{Game: def.Name(), Seats: seats, Iterations: iterations, Deals: t.deals, Nodes: len(t.nodes),
		Value: t.value(avg, seats), BestResponse: make([]float64, seats)}
	for s := range seats {
		sol.BestResponse[s] = t.bestResponse(avg, s)
		sol.Exploitability += sol.BestResponse[s] - sol.Value[s]
	}
	for i, is := range t.infos {
		sol.Infos = append(sol.Infos, InfoStrategy{Seat: is.seat, Key: is.key, Moves: is.moves, Probs: avg[i]})
	}
	slices.SortFunc(sol.Infos, compareInfo)
	return sol, nil
}

// cfr is the state of the regret minimization over a tree.
type cfr struct {
	t        *tree
	n        int
	regret   [][]float64 // per information set, per move
	stratSum [][]float64 // the seat's reach times its strategy, summed
	cur      [][]float64 // this iteration's strategy
}

func newCFR(t *tree, n int) *cfr {
	c := &cfr{t: t, n: n}
	for _, is := range t.infos {
		k := len(is.moves)
		c.regret = append(c.regret, make([]float64, k))
		c.stratSum = append(c.stratSum, make([]float64, k))
		c.cur = append(c.cur, make([]float64, k))
	}
	return c
}

// iterate is one iteration: every strategy from its regrets by regret
// matching, then one walk of the tree that adds to the regrets and the
// strategy sums.
func (c *cfr) iterate() {
	for i, reg := range c.regret {
		matchRegrets(reg, c.cur[i])
	}
	reach := make([]float64, c.n)
	for i := range reach {
		reach[i] = 1
	}
	c.walk(0, reach, 1)
}

// matchRegrets sets out to the positive regrets' proportions, uniform
// when none is positive.
func matchRegrets(reg, out []float64) {
	sum := 0.0
	for _, r := range reg {
		if r > 0 {
			sum += r
		}
	}
	for a, r := range reg {
		switch {
		case sum <= 0:
			out[a] = 1 / float64(len(reg))
		case r > 0:
			out[a] = r / sum
		default:
			out[a] = 0
		}
	}
}

// walk returns each seat's expected payoff below node id under this
// iteration's strategy, where reach is each seat's own probability of
// playing to it and chance the chance's.
func (c *cfr) walk(id int, reach []float64, chance float64) []float64 {
	nd := &c.t.nodes[id]
	switch nd.seat {
	case nodeTerminal:
		return nd.payoffs
	case nodeChance:
		v := make([]float64, c.n)
		for i, ch := range nd.children {
			w := c.walk(ch, reach, chance*nd.probs[i])
			for s := range v {
				v[s] += nd.probs[i] * w[s]
			}
		}
		return v
	}
	p := nd.seat
	sigma := c.cur[nd.info]
	v := make([]float64, c.n)
	vals := make([][]float64, len(nd.children))
	own := reach[p]
	for a, ch := range nd.children {
		reach[p] = own * sigma[a]
		vals[a] = c.walk(ch, reach, chance)
		for s := range v {
			v[s] += sigma[a] * vals[a][s]
		}
	}
	reach[p] = own
	others := chance
	for s, r := range reach {
		if s != p {
			others *= r
		}
	}
	reg, sum := c.regret[nd.info], c.stratSum[nd.info]
	for a := range nd.children {
		reg[a] += others * (vals[a][p] - v[p])
		sum[a] += own * sigma[a]
	}
	return v
}

// average returns the average strategy: the strategy sums normalized,
// uniform at an information set never reached.
func (c *cfr) average() [][]float64 {
	avg := make([][]float64, len(c.stratSum))
	for i, sum := range c.stratSum {
		avg[i] = make([]float64, len(sum))
		total := 0.0
		for _, x := range sum {
			total += x
		}
		for a, x := range sum {
			if total > 0 {
				avg[i][a] = x / total
			} else {
				avg[i][a] = 1 / float64(len(sum))
			}
		}
	}
	return avg
}
