package match

// flat is a two-player tree in flat arrays, for the solver's and the
// evaluator's loops: no map, no pointer chasing, no allocation per
// iteration. Node n's children are kids[first[n]:first[n+1]] (prob holds
// a chance child's probability, 0 under a seat's move); every child's
// index is above its parent's (the tree is built depth first, a node
// before its subtree), so a pass in index order meets a parent before its
// children and one in reverse order the children first. Information set
// i's moves are the entries off[i]:off[i+1] of every per-move array.
type flat struct {
	seat  []int32 // a seat, nodeChance or nodeTerminal
	info  []int32 // a seat's node: its information set
	first []int32 // len(seat)+1
	kids  []int32
	prob  []float64
	pay   [2][]float64 // a terminal's payoff to each seat

	off      []int32 // len(infos)+1
	infoSeat []int32
	depth    []int32 // the seat's own moves before the set
	maxDepth [2]int32
	bySeat   [2][]int32 // each seat's information sets
	moves    int        // off[len(infos)]
}

// flatten lays t out flat; t must have two seats.
func flatten(t *tree) *flat {
	f := &flat{
		seat:  make([]int32, len(t.nodes)),
		info:  make([]int32, len(t.nodes)),
		first: make([]int32, len(t.nodes)+1),
		pay:   [2][]float64{make([]float64, len(t.nodes)), make([]float64, len(t.nodes))},
	}
	for n := range t.nodes {
		nd := &t.nodes[n]
		f.seat[n], f.info[n] = int32(nd.seat), int32(nd.info)
		f.first[n] = int32(len(f.kids))
		for a, c := range nd.children {
			f.kids = append(f.kids, int32(c))
			p := 0.0
			if nd.seat == nodeChance {
				p = nd.probs[a]
			}
			f.prob = append(f.prob, p)
		}
		if nd.seat == nodeTerminal {
			f.pay[0][n], f.pay[1][n] = nd.payoffs[0], nd.payoffs[1]
		}
	}
	f.first[len(t.nodes)] = int32(len(f.kids))
	f.off = make([]int32, len(t.infos)+1)
	f.infoSeat = make([]int32, len(t.infos))
	f.depth = make([]int32, len(t.infos))
	for i, is := range t.infos {
		f.off[i+1] = f.off[i] + int32(len(is.moves))
		f.infoSeat[i], f.depth[i] = int32(is.seat), int32(is.depth)
		f.bySeat[is.seat] = append(f.bySeat[is.seat], int32(i))
		f.maxDepth[is.seat] = max(f.maxDepth[is.seat], int32(is.depth))
	}
	f.moves = int(f.off[len(t.infos)])
	return f
}

// cfrPlus is CFR+ (Tammelin 2014; OpenSpiel's CFRPlusSolver): regret
// matching+ (cumulative regrets floored at 0 after each update),
// alternating updates (seat 0's walk, its strategy updated, then seat
// 1's walk against it) and linear averaging (iteration t adds t times
// the seat's reach times its strategy to the average's sums). Every array
// is per move (flat.off) or per node, allocated once.
type cfrPlus struct {
	f      *flat
	t      int       // iterations done
	regret []float64 // cumulative, never below 0 between walks
	cur    []float64 // the current strategy
	sum    []float64 // the average strategy's weighted sums
	own    []float64 // per node: the updating seat's reach
	opp    []float64 // per node: chance's and the other seat's reach
	val    []float64 // per node: the updating seat's value
}

func newCFRPlus(f *flat) *cfrPlus {
	n := len(f.seat)
	c := &cfrPlus{f: f, regret: make([]float64, f.moves), cur: make([]float64, f.moves), sum: make([]float64, f.moves),
		own: make([]float64, n), opp: make([]float64, n), val: make([]float64, n)}
	for i := range len(f.off) - 1 {
		matchPlus(c.regret[f.off[i]:f.off[i+1]], c.cur[f.off[i]:f.off[i+1]])
	}
	return c
}

// iterate runs one iteration: a walk for seat 0, then one for seat 1.
func (c *cfrPlus) iterate() {
	c.t++
	for p := range int32(2) {
		c.walk(p)
		f := c.f
		for _, i := range f.bySeat[p] {
			reg := c.regret[f.off[i]:f.off[i+1]]
			for a, r := range reg {
				if r < 0 {
					reg[a] = 0
				}
			}
			matchPlus(reg, c.cur[f.off[i]:f.off[i+1]])
		}
	}
}

// walk is seat p's update: the reaches top down, then the values bottom
// up, adding to p's regrets and average sums at each of its nodes. A node
// that neither seat reaches is skipped (value 0), as OpenSpiel does: it
// changes no regret or sum.
func (c *cfrPlus) walk(p int32) {
	f, cur := c.f, c.cur
	c.own[0], c.opp[0] = 1, 1
	for n, s := range f.seat {
		if s == nodeTerminal {
			continue
		}
		ro, rq := c.own[n], c.opp[n]
		lo, hi := f.first[n], f.first[n+1]
		switch {
		case s == nodeChance:
			for k := lo; k < hi; k++ {
				ch := f.kids[k]
				c.own[ch], c.opp[ch] = ro, rq*f.prob[k]
			}
		case s == p:
			o := f.off[f.info[n]] - lo
			for k := lo; k < hi; k++ {
				ch := f.kids[k]
				c.own[ch], c.opp[ch] = ro*cur[o+k], rq
			}
		default:
			o := f.off[f.info[n]] - lo
			for k := lo; k < hi; k++ {
				ch := f.kids[k]
				c.own[ch], c.opp[ch] = ro, rq*cur[o+k]
			}
		}
	}
	w := float64(c.t)
	pay := f.pay[p]
	for n := len(f.seat) - 1; n >= 0; n-- {
		s := f.seat[n]
		if s == nodeTerminal {
			c.val[n] = pay[n]
			continue
		}
		ro, rq := c.own[n], c.opp[n]
		if ro == 0 && rq == 0 {
			c.val[n] = 0
			continue
		}
		lo, hi := f.first[n], f.first[n+1]
		v := 0.0
		if s == nodeChance {
			for k := lo; k < hi; k++ {
				v += f.prob[k] * c.val[f.kids[k]]
			}
			c.val[n] = v
			continue
		}
		o := f.off[f.info[n]] - lo
		for k := lo; k < hi; k++ {
			v += cur[o+k] * c.val[f.kids[k]]
		}
		c.val[n] = v
		if s != p {
			continue
		}
		for k := lo; k < hi; k++ {
			c.regret[o+k] += rq * (c.val[f.kids[k]] - v)
			c.sum[o+k] += w * ro * cur[o+k]
		}
	}
}

// matchPlus sets out to reg's positive part normalized, uniform when no
// regret is positive.
func matchPlus(reg, out []float64) {
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

// average returns the average strategy, per move: the sums normalized,
// uniform at a set never reached.
func (c *cfrPlus) average() []float64 {
	avg := make([]float64, c.f.moves)
	for i := range len(c.f.off) - 1 {
		lo, hi := c.f.off[i], c.f.off[i+1]
		total := 0.0
		for _, x := range c.sum[lo:hi] {
			total += x
		}
		for a := lo; a < hi; a++ {
			if total > 0 {
				avg[a] = c.sum[a] / total
			} else {
				avg[a] = 1 / float64(hi-lo)
			}
		}
	}
	return avg
}
