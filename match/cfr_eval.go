package match

// PolicyValue is an exact evaluation of a strategy profile of a
// two-player constant-sum game, in the game's payoff units (chips a hand
// for poker).
type PolicyValue struct {
	// Value is each seat's expected payoff when both seats play the
	// profile.
	Value [2]float64
	// BestResponse is each seat's expected payoff when it plays a best
	// response (exact, for imperfect information: one move per
	// information set) against the other seat's profile; at least Value.
	BestResponse [2]float64
	// NashConv is the sum over the seats of BestResponse - Value: 0
	// exactly at an equilibrium, never negative.
	NashConv float64
	// Exploitability is NashConv/2, OpenSpiel's exploitability: in a
	// zero-sum game (BR0 + BR1)/2, what a best-responding opponent wins
	// a hand on average, over the two seats, beyond the game's value.
	Exploitability float64
}

// evaluate returns pi's exact evaluation (pi per move, as flat.off).
func (f *flat) evaluate(pi []float64) PolicyValue {
	var pv PolicyValue
	v := f.value(pi)
	for s := range 2 {
		pv.Value[s] = v[s]
		pv.BestResponse[s] = f.bestResponse(pi, int32(s))
		pv.NashConv += pv.BestResponse[s] - pv.Value[s]
	}
	pv.Exploitability = pv.NashConv / 2
	return pv
}

// value returns each seat's expected payoff under pi, bottom up.
func (f *flat) value(pi []float64) [2]float64 {
	val := [2][]float64{make([]float64, len(f.seat)), make([]float64, len(f.seat))}
	for n := len(f.seat) - 1; n >= 0; n-- {
		s := f.seat[n]
		if s == nodeTerminal {
			val[0][n], val[1][n] = f.pay[0][n], f.pay[1][n]
			continue
		}
		lo, hi := f.first[n], f.first[n+1]
		probs, o := f.prob, int32(0)
		if s != nodeChance {
			probs, o = pi, f.off[f.info[n]]-lo
		}
		var v0, v1 float64
		for k := lo; k < hi; k++ {
			ch := f.kids[k]
			v0 += probs[o+k] * val[0][ch]
			v1 += probs[o+k] * val[1][ch]
		}
		val[0][n], val[1][n] = v0, v1
	}
	return [2]float64{val[0][0], val[1][0]}
}

// bestResponse returns the expected payoff of seat's best response to
// the other seat's pi, exact for imperfect information: the responder
// picks one move per information set (not per state), the one that
// maximizes its counterfactual value there: the sum over the set's states
// of chance's and the other seat's probability of reaching the state
// times the move's value below it (ties: the first move). The sets are
// decided deepest first (by the responder's own moves before them, the
// same for every state of a set under perfect recall), one pass over the
// tree per depth: a value below a set of depth d uses the choices made
// at every set of depth above d, the only ones under it.
func (f *flat) bestResponse(pi []float64, seat int32) float64 {
	opp := make([]float64, len(f.seat))
	opp[0] = 1
	for n, s := range f.seat {
		if s == nodeTerminal {
			continue
		}
		lo, hi := f.first[n], f.first[n+1]
		for k := lo; k < hi; k++ {
			ch := f.kids[k]
			switch s {
			case nodeChance:
				opp[ch] = opp[n] * f.prob[k]
			case seat:
				opp[ch] = opp[n]
			default:
				opp[ch] = opp[n] * pi[f.off[f.info[n]]-lo+k]
			}
		}
	}
	choice := make([]int32, len(f.off)-1) // the move's index at each of seat's sets
	score := make([]float64, f.moves)
	val := make([]float64, len(f.seat))
	pay := f.pay[seat]
	for d := f.maxDepth[seat]; d >= -1; d-- {
		for n := len(f.seat) - 1; n >= 0; n-- {
			s := f.seat[n]
			if s == nodeTerminal {
				val[n] = pay[n]
				continue
			}
			if opp[n] == 0 {
				val[n] = 0 // weighs nothing above
				continue
			}
			lo, hi := f.first[n], f.first[n+1]
			switch {
			case s == nodeChance:
				v := 0.0
				for k := lo; k < hi; k++ {
					v += f.prob[k] * val[f.kids[k]]
				}
				val[n] = v
			case s != seat:
				v, o := 0.0, f.off[f.info[n]]-lo
				for k := lo; k < hi; k++ {
					v += pi[o+k] * val[f.kids[k]]
				}
				val[n] = v
			case f.depth[f.info[n]] > d:
				val[n] = val[f.kids[lo+choice[f.info[n]]]]
			case f.depth[f.info[n]] == d:
				o := f.off[f.info[n]] - lo
				for k := lo; k < hi; k++ {
					score[o+k] += opp[n] * val[f.kids[k]]
				}
				val[n] = 0 // not used in this pass: every set above is shallower
			default:
				val[n] = 0
			}
		}
		if d < 0 {
			break
		}
		for _, i := range f.bySeat[seat] {
			if f.depth[i] != d {
				continue
			}
			lo, hi := f.off[i], f.off[i+1]
			best := lo
			for a := lo + 1; a < hi; a++ {
				if score[a] > score[best] {
					best = a
				}
			}
			choice[i] = best - lo
		}
	}
	return val[0]
}
