package match

import (
	"errors"
	"fmt"
	"math"

	"github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/rng"
)

// ErrUnsolvable is wrapped by every refusal of the solver and the
// evaluators (NewSolver, SolveCFR, EvaluatePolicy, EvaluateBots): a game
// they cannot solve exactly (not two seats, chance it cannot list, a
// setup whose draws depend on their values, a tree past the bounds,
// payoffs that are not constant-sum, two states of one information set
// with different moves).
var ErrUnsolvable = errors.New("cannot solve exactly")

// The solver's bounds.
const (
	// MaxSolveDeals is the most setups (combinations of the setup's
	// draws) the solver enumerates.
	MaxSolveDeals = 1_000_000
	// MaxSolveNodes is the most nodes of the game tree it builds.
	MaxSolveNodes = 2_000_000
	// MaxSolveDepth is the most moves along one line of play.
	MaxSolveDepth = 1000
)

func unsolvable(format string, a ...any) error {
	return fmt.Errorf("%w: %s", ErrUnsolvable, fmt.Sprintf(format, a...))
}

// draw is one call of the setup to its Rand: its kind and the sizes of
// the ranges it takes values from (a shuffle of n takes n-1 values, in
// [0, i] for i from n-1 down to 1).
type draw struct {
	kind  byte // 'd' Dice, 'u' UniformInt, 's' Shuffle
	min   int64
	sizes []int64
}

// probe is a Rand that records every call and returns each range's least
// value (for a shuffle, j = i: no swap). Once the product of its ranges'
// sizes passes MaxSolveDeals it panics with errTooManyDeals, so that a
// setup that draws without end under the probe's values stops.
type probe struct {
	calls []draw
	total float64
}

// errTooManyDeals is the probe's panic past MaxSolveDeals.
var errTooManyDeals = errors.New("too many deals")

func (p *probe) add(d draw) {
	p.calls = append(p.calls, d)
	if p.total == 0 {
		p.total = 1
	}
	for _, s := range d.sizes {
		p.total *= float64(s)
	}
	if p.total > MaxSolveDeals {
		panic(errTooManyDeals)
	}
}

func (p *probe) Dice(sides int, _ rng.Tag, _ *rng.Ctx) (rng.DiceRoll, error) {
	if sides < 1 {
		return rng.DiceRoll{}, fmt.Errorf("%w: %d sides", rng.ErrRange, sides)
	}
	p.add(draw{'d', 1, []int64{int64(sides)}})
	return rng.DiceRoll{Sides: sides, Value: 1}, nil
}

func (p *probe) UniformInt(lo, hi int64, _ rng.Tag, _ *rng.Ctx) (int64, error) {
	if lo > hi {
		return 0, fmt.Errorf("%w: [%d, %d]", rng.ErrRange, lo, hi)
	}
	p.add(draw{'u', lo, []int64{hi - lo + 1}})
	return lo, nil
}

func (p *probe) Shuffle(a []int, _ rng.Tag, _ *rng.Ctx) {
	d := draw{kind: 's'}
	for i := len(a) - 1; i > 0; i-- {
		d.sizes = append(d.sizes, int64(i+1))
	}
	p.add(d)
}

// scriptedProbe is a probe whose values come from a game.Scripted.
type scriptedProbe struct {
	probe
	s *game.Scripted
}

func (r *scriptedProbe) Dice(sides int, tag rng.Tag, ctx *rng.Ctx) (rng.DiceRoll, error) {
	r.probe.Dice(sides, tag, ctx)
	return r.s.Dice(sides, tag, ctx)
}

func (r *scriptedProbe) UniformInt(lo, hi int64, tag rng.Tag, ctx *rng.Ctx) (int64, error) {
	r.probe.UniformInt(lo, hi, tag, ctx)
	return r.s.UniformInt(lo, hi, tag, ctx)
}

func (r *scriptedProbe) Shuffle(a []int, tag rng.Tag, ctx *rng.Ctx) {
	r.probe.Shuffle(a, tag, ctx)
	r.s.Shuffle(a, tag, ctx)
}

func sameCalls(a, b []draw) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].kind != b[i].kind || a[i].min != b[i].min || len(a[i].sizes) != len(b[i].sizes) {
			return false
		}
		for j := range a[i].sizes {
			if a[i].sizes[j] != b[i].sizes[j] {
				return false
			}
		}
	}
	return true
}

// setups returns every first state of def with n seats under r, each
// with probability 1/(the product of the setup's range sizes): Setup is
// probed once for its calls, then run through a game.Scripted on every
// combination of values, each run checked to make the same calls.
func setups(def game.Definition, r game.Ruleset, n int) (states []game.State, p float64, err error) {
	seats := make([]game.Seat, n)
	pr := &probe{}
	if err := probeSetup(def, r, seats, pr); err != nil {
		return nil, 0, err
	}
	var sizes, mins []int64
	total := 1.0
	for _, c := range pr.calls {
		for _, s := range c.sizes {
			sizes = append(sizes, s)
			if c.kind == 's' {
				mins = append(mins, 0)
			} else {
				mins = append(mins, c.min)
			}
			total *= float64(s)
		}
	}
	if total > MaxSolveDeals {
		return nil, 0, unsolvable("%s's setup has %g outcomes, more than %d", def.Name(), total, MaxSolveDeals)
	}
	vals := make([]int64, len(sizes))
	for {
		for i := range vals {
			vals[i] += mins[i]
		}
		rp := &scriptedProbe{s: game.Script(append([]int64(nil), vals...)...)}
		st, err := runSetup(def, r, seats, rp)
		if err != nil {
			return nil, 0, err
		}
		if !sameCalls(pr.calls, rp.calls) || !rp.s.Done() {
			return nil, 0, unsolvable("%s's setup calls depend on their values: the draws %v make other calls than the probe's", def.Name(), vals)
		}
		states = append(states, st)
		for i := range vals {
			vals[i] -= mins[i]
		}
		i := len(vals) - 1
		for ; i >= 0; i-- {
			if vals[i]++; vals[i] < sizes[i] {
				break
			}
			vals[i] = 0
		}
		if i < 0 {
			break
		}
	}
	return states, 1 / total, nil
}

// probeSetup runs Setup with the probe, turning its panic past
// MaxSolveDeals into an error.
func probeSetup(def game.Definition, r game.Ruleset, seats []game.Seat, pr *probe) (err error) {
	defer func() {
		if x := recover(); x != nil {
			if x != errTooManyDeals {
				panic(x)
			}
			err = unsolvable("%s's setup has more than %d outcomes", def.Name(), MaxSolveDeals)
		}
	}()
	if _, _, err := def.Setup(r, seats, pr, nil); err != nil {
		return unsolvable("setup of %d seats: %v", len(seats), err)
	}
	return nil
}

// runSetup runs Setup, turning a panic of the script (a call past its
// end, a value out of range: the calls changed) into an error.
func runSetup(def game.Definition, r game.Ruleset, seats []game.Seat, rp *scriptedProbe) (st game.State, err error) {
	defer func() {
		if x := recover(); x != nil {
			st, err = nil, unsolvable("%s's setup calls depend on their values: %v", def.Name(), x)
		}
	}()
	st, _, err = def.Setup(r, seats, rp, nil)
	if err != nil {
		return nil, unsolvable("setup: %v", err)
	}
	return st, nil
}

// The tree's node kinds.
const (
	nodeTerminal = -2
	nodeChance   = -1
)

// node is one state of the game tree: a terminal (payoffs), a chance node
// (children with probabilities) or a seat's decision (its information
// set's index, a child per move in the set's order).
type node struct {
	seat     int // a seat, nodeChance or nodeTerminal
	info     int
	children []int
	probs    []float64 // chance only
	payoffs  []float64 // terminal only
}

// infoSet is one information set: its seat and key, its moves, its nodes
// and how many of its own moves the seat has made to reach it.
type infoSet struct {
	seat   int
	key    string
	moves  []game.Move
	nodes  []int
	depth  int
	states []game.State // with keep: the states of nodes, in order
}

// tree is a game's whole tree; node 0 is the root (the chance of setup).
type tree struct {
	def   game.Definition
	keep  bool // keep each information set's states (sampling a bot)
	nodes []node
	infos []infoSet
	index map[string]int // seat+key -> infos
	sum   float64        // every terminal's payoffs sum to it
	deals int
}

// build builds the tree of def with n seats under r; with keep, each
// information set keeps its states.
func build(def game.Definition, r game.Ruleset, n int, keep bool) (*tree, error) {
	sts, p, err := setups(def, r, n)
	if err != nil {
		return nil, err
	}
	t := &tree{def: def, keep: keep, index: map[string]int{}, sum: math.NaN(), deals: len(sts)}
	t.nodes = append(t.nodes, node{seat: nodeChance})
	root := node{seat: nodeChance}
	for _, st := range sts {
		c, err := t.add(st, make([]int, n), 0)
		if err != nil {
			return nil, err
		}
		root.children = append(root.children, c)
		root.probs = append(root.probs, p)
	}
	t.nodes[0] = root
	return t, nil
}

// add adds the subtree of st, whose seats have made own[seat] moves along
// the way, at depth moves; it returns its node's index.
func (t *tree) add(st game.State, own []int, depth int) (int, error) {
	if len(t.nodes) >= MaxSolveNodes {
		return 0, unsolvable("%s's tree has more than %d nodes", t.def.Name(), MaxSolveNodes)
	}
	if depth > MaxSolveDepth {
		return 0, unsolvable("%s has a line of more than %d moves", t.def.Name(), MaxSolveDepth)
	}
	id := len(t.nodes)
	t.nodes = append(t.nodes, node{})
	seat := st.ToMove()
	if seat == game.Nobody {
		o := st.Outcome()
		sum := 0.0
		for _, v := range o.Payoffs {
			sum += v
		}
		if math.IsNaN(t.sum) {
			t.sum = sum
		}
		if len(o.Payoffs) != st.NumSeats() || math.Abs(sum-t.sum) > 1e-9 {
			return 0, unsolvable("%s is not constant-sum: payoffs %v", t.def.Name(), o.Payoffs)
		}
		t.nodes[id] = node{seat: nodeTerminal, payoffs: o.Payoffs}
		return id, nil
	}
	legal := st.Legal(seat, nil)
	if len(legal) == 0 {
		return 0, unsolvable("%s awaits seat %d, which has no legal move", t.def.Name(), seat)
	}
	key := fmt.Sprintf("%d\x00%s", seat, st.AppendInfoKey(nil, seat))
	info, ok := t.index[key]
	if !ok {
		info = len(t.infos)
		t.index[key] = info
		t.infos = append(t.infos, infoSet{seat: seat, key: string(st.AppendInfoKey(nil, seat)), moves: legal, depth: own[seat]})
	}
	is := &t.infos[info]
	if !sameMoves(is.moves, legal) || is.depth != own[seat] {
		return 0, unsolvable("%s: seat %d's information set %q holds states with different moves or reached after different numbers of its own moves (imperfect recall)", t.def.Name(), seat, is.key)
	}
	is.nodes = append(is.nodes, id)
	if t.keep {
		is.states = append(is.states, st)
	}
	nd := node{seat: seat, info: info}
	own[seat]++
	defer func() { own[seat]-- }()
	for _, m := range legal {
		outs, ok := st.ChanceOutcomes(m)
		if !ok {
			return 0, unsolvable("%s's ChanceOutcomes cannot list the outcomes of %s", t.def.Name(), m.Kind)
		}
		var c int
		var err error
		if len(outs) == 0 {
			c, err = t.child(st, m, nil, own, depth)
		} else {
			ch := node{seat: nodeChance}
			cid := len(t.nodes)
			t.nodes = append(t.nodes, node{})
			for _, o := range outs {
				g, err := t.child(st, m, o.Draws, own, depth)
				if err != nil {
					return 0, err
				}
				ch.children = append(ch.children, g)
				ch.probs = append(ch.probs, o.P)
			}
			t.nodes[cid] = ch
			c = cid
		}
		if err != nil {
			return 0, err
		}
		nd.children = append(nd.children, c)
	}
	t.nodes[id] = nd
	return id, nil
}

// child applies m with exactly the draws to a clone of st and adds it.
func (t *tree) child(st game.State, m game.Move, draws []int64, own []int, depth int) (int, error) {
	next := st.Clone()
	script := game.Script(draws...)
	if err := applyScripted(next, m, script); err != nil || !script.Done() {
		return 0, unsolvable("%s: %s with the draws %v: %v (its draws are not those ChanceOutcomes lists)", t.def.Name(), m.Kind, draws, err)
	}
	return t.add(next, own, depth+1)
}

func sameMoves(a, b []game.Move) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
