package match

import (
	"cmp"
	"slices"
)

// value returns each seat's expected payoff when every seat plays sigma
// (a distribution per information set over its moves).
func (t *tree) value(sigma [][]float64, n int) []float64 {
	var walk func(id int) []float64
	walk = func(id int) []float64 {
		nd := &t.nodes[id]
		if nd.seat == nodeTerminal {
			return nd.payoffs
		}
		v := make([]float64, n)
		for a, ch := range nd.children {
			p := 0.0
			if nd.seat == nodeChance {
				p = nd.probs[a]
			} else {
				p = sigma[nd.info][a]
			}
			if p == 0 {
				continue
			}
			w := walk(ch)
			for s := range v {
				v[s] += p * w[s]
			}
		}
		return v
	}
	return walk(0)
}

// bestResponse returns the expected payoff of seat's best response to
// the other seats' sigma, exact for imperfect information: the responder
// picks one move per information set (not per state), the one that
// maximizes its counterfactual value there, the sum over the set's states
// of the others' and chance's probability of reaching the state times
// the move's value below it. The sets are decided deepest first (by the
// number of the responder's own moves before them, which perfect recall
// makes the same for every state of a set), so that a move's value below
// a state uses the choices already made at every later set of the
// responder.
func (t *tree) bestResponse(sigma [][]float64, seat int) float64 {
	// others[id]: the probability that chance and the other seats play
	// to node id (the responder's own moves count 1).
	others := make([]float64, len(t.nodes))
	var down func(id int, p float64)
	down = func(id int, p float64) {
		others[id] = p
		nd := &t.nodes[id]
		for a, ch := range nd.children {
			switch {
			case nd.seat == nodeChance:
				down(ch, p*nd.probs[a])
			case nd.seat == seat:
				down(ch, p)
			default:
				down(ch, p*sigma[nd.info][a])
			}
		}
	}
	down(0, 1)

	choice := make([]int, len(t.infos)) // the responder's move per set, -1 until decided
	for i := range choice {
		choice[i] = -1
	}
	var val func(id int) float64
	val = func(id int) float64 {
		nd := &t.nodes[id]
		switch {
		case nd.seat == nodeTerminal:
			return nd.payoffs[seat]
		case nd.seat == seat:
			a := choice[nd.info]
			if a < 0 {
				panic("match: a best response reached an undecided information set (imperfect recall)")
			}
			return val(nd.children[a])
		}
		v := 0.0
		for a, ch := range nd.children {
			p := 0.0
			if nd.seat == nodeChance {
				p = nd.probs[a]
			} else {
				p = sigma[nd.info][a]
			}
			if p != 0 {
				v += p * val(ch)
			}
		}
		return v
	}

	var sets []int
	for i, is := range t.infos {
		if is.seat == seat {
			sets = append(sets, i)
		}
	}
	slices.SortStableFunc(sets, func(a, b int) int { return cmp.Compare(t.infos[b].depth, t.infos[a].depth) })
	for _, i := range sets {
		is := &t.infos[i]
		best, bestV := 0, 0.0
		for a := range is.moves {
			v := 0.0
			for _, id := range is.nodes {
				if p := others[id]; p != 0 {
					v += p * val(t.nodes[id].children[a])
				}
			}
			if a == 0 || v > bestV {
				best, bestV = a, v
			}
		}
		choice[i] = best
	}
	return val(0)
}
