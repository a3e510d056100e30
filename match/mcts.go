package match

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/rng"
)

// The search bot's tags: its uniform pick among a node's untried moves,
// and its play-out's uniform pick among the legal moves. Its bare draws
// (Sample's, the chance of a move it applies in a determinization) carry
// the game's own tags, drawn from the bot's stream.
const (
	TagMCTSExpand  rng.Tag = "bot.mcts.expand"
	TagMCTSPlayout rng.Tag = "bot.mcts.pick"
)

// MCTSMax is the most simulations per decision a search bot takes.
const MCTSMax = 1_000_000

// MCTSMoveLimit bounds the moves of one simulation (the descent and the
// play-out together): a determinization still going after them is scored
// with its AbortPayoffs.
const MCTSMoveLimit = 10_000

// MCTSExploration is the UCT constant c: a move's score at a node is its
// mean payoff to the seat acting there plus c*sqrt(ln(A)/n), n its visits
// and A the times it was legal when the node was visited.
const MCTSExploration = 1.4

// MCTS is information-set Monte Carlo tree search over any game (after
// OpenSpiel's ISMCTSBot): for each of N simulations it determinizes the
// state (State.Sample for the seat choosing: a state with the same view,
// its hidden part dealt again from the bot's stream), then descends a
// tree whose nodes are information sets: a node is the acting seat and
// its information-state key (State.AppendInfoKey), so every determinization
// that the acting seat cannot tell apart shares it, and moves that lead to
// the same information set share the node below. At a node it picks,
// among the moves the determinization lists for the acting seat, an
// untried one uniformly (and stops descending: one new move per
// simulation), or else the move of best UCT score for the seat acting
// there (ties: the first in the listed order). From there it plays out
// to the end with uniformly random legal moves, at most MCTSMoveLimit
// moves in all, and adds every seat's payoff (Outcome().Payoffs, or
// AbortPayoffs for an unfinished play-out) to the moves of its path, each
// node counting its own seat's. It chooses the root move visited most
// (ties: the first in the listed order), and a single legal move without
// searching.
//
// Every draw, the sampler's, the moves' chance and its own picks, comes
// from its own stream, never the game's.
type MCTS struct {
	n int
	s *rng.Stream
	r game.Rand
	// determinize is State.Sample; a test swaps it for one that peeks.
	determinize func(st game.State, seat int, r game.Rand) game.State

	index map[string]int32 // seat byte + info key -> node
	nodes []mctsNode
	path  []mctsStep
	key   []byte
	legal []game.Move
	ev    []game.Event
}

type mctsNode struct {
	seat  int
	edges []mctsEdge
}

type mctsEdge struct {
	move   game.Move
	visits int64
	avail  int64
	sum    float64 // the payoffs of the node's seat
}

type mctsStep struct {
	node int32
	edge int32
}

// NewMCTS returns the search bot with n simulations a decision (1 to
// MCTSMax), drawing from s.
func NewMCTS(n int, s *rng.Stream) *MCTS {
	if n < 1 || n > MCTSMax || s == nil {
		panic(fmt.Sprintf("match: NewMCTS(%d) needs 1 to %d simulations and a stream", n, MCTSMax))
	}
	return &MCTS{n: n, s: s, r: game.FromStream(s), index: map[string]int32{},
		determinize: func(st game.State, seat int, r game.Rand) game.State { return st.Sample(seat, r) }}
}

// Name returns "mcts:N".
func (b *MCTS) Name() string { return "mcts:" + strconv.Itoa(b.n) }

// mctsName parses "mcts:N": ok false when name is not the search bot's.
func mctsName(name string) (n int, ok bool, err error) {
	if name != "mcts" && !strings.HasPrefix(name, "mcts:") {
		return 0, false, nil
	}
	arg, has := strings.CutPrefix(name, "mcts:")
	v, perr := strconv.Atoi(arg)
	if !has || perr != nil || v < 1 || v > MCTSMax || strconv.Itoa(v) != arg {
		return 0, true, fmt.Errorf("bot %q: the search bot is mcts:N, N its simulations per move, a whole number in [1, %d]", name, MCTSMax)
	}
	return v, true, nil
}

// Choose searches from st for seat and returns one of legal.
func (b *MCTS) Choose(st game.State, seat int, legal []game.Move) game.Move {
	if len(legal) == 1 {
		return legal[0]
	}
	b.reset()
	root := b.node(st, seat)
	for range b.n {
		b.simulate(b.determinize(st, seat, b.r))
	}
	best, bestN := legal[0], int64(-1)
	for _, m := range legal {
		for _, e := range b.nodes[root].edges {
			if e.move == m && e.visits > bestN {
				best, bestN = m, e.visits
			}
		}
	}
	return best
}

// reset empties the tree, keeping its buffers.
func (b *MCTS) reset() {
	clear(b.index)
	for i := range b.nodes {
		b.nodes[i].edges = b.nodes[i].edges[:0]
	}
	b.nodes = b.nodes[:0]
}

// node returns the index of st's node for seat, the acting seat, adding
// it if new.
func (b *MCTS) node(st game.State, seat int) int32 {
	b.key = append(b.key[:0], byte(seat))
	b.key = st.AppendInfoKey(b.key, seat)
	if i, ok := b.index[string(b.key)]; ok {
		return i
	}
	i := int32(len(b.nodes))
	if len(b.nodes) < cap(b.nodes) {
		b.nodes = b.nodes[:i+1]
		b.nodes[i].seat = seat
	} else {
		b.nodes = append(b.nodes, mctsNode{seat: seat})
	}
	b.index[string(b.key)] = i
	return i
}

// simulate runs one simulation on the determinization st (its own).
func (b *MCTS) simulate(st game.State) {
	b.path = b.path[:0]
	moves := 0
	for ; moves < MCTSMoveLimit; moves++ {
		seat := st.ToMove()
		if seat == game.Nobody {
			break
		}
		b.legal = st.Legal(seat, b.legal)
		if len(b.legal) == 0 {
			break // a broken game: scored as aborted
		}
		ni := b.node(st, seat)
		e, untried := b.pick(ni)
		b.path = append(b.path, mctsStep{ni, e})
		b.apply(st, b.nodes[ni].edges[e].move)
		if untried {
			moves++
			break
		}
	}
	for ; moves < MCTSMoveLimit; moves++ {
		seat := st.ToMove()
		if seat == game.Nobody {
			break
		}
		b.legal = st.Legal(seat, b.legal)
		if len(b.legal) == 0 {
			break
		}
		m, _, _ := rng.ChooseOne(b.s, b.legal, TagMCTSPlayout, nil)
		b.apply(st, m)
	}
	var pay []float64
	if o := st.Outcome(); o.Over {
		pay = o.Payoffs
	} else {
		pay = st.AbortPayoffs()
	}
	for _, p := range b.path {
		n := &b.nodes[p.node]
		e := &n.edges[p.edge]
		e.visits++
		if n.seat < len(pay) {
			e.sum += pay[n.seat]
		}
	}
}

// pick chooses the move at node ni among b.legal: an untried one
// uniformly (untried true), else the best by UCT. It counts each listed
// move's availability.
func (b *MCTS) pick(ni int32) (int32, bool) {
	n := &b.nodes[ni]
	untried := 0
	for _, m := range b.legal {
		e := n.edge(m)
		n.edges[e].avail++
		if n.edges[e].visits == 0 {
			untried++
		}
	}
	if untried > 0 {
		k, _ := b.s.UniformInt(0, int64(untried-1), TagMCTSExpand, nil)
		for _, m := range b.legal {
			e := n.edge(m)
			if n.edges[e].visits == 0 {
				if k == 0 {
					return e, true
				}
				k--
			}
		}
	}
	best, bestV := int32(-1), math.Inf(-1)
	for _, m := range b.legal {
		e := n.edge(m)
		ed := &n.edges[e]
		v := ed.sum/float64(ed.visits) + MCTSExploration*math.Sqrt(math.Log(float64(ed.avail))/float64(ed.visits))
		if v > bestV {
			best, bestV = e, v
		}
	}
	return best, false
}

// edge returns the index of m's edge at n, adding it if new.
func (n *mctsNode) edge(m game.Move) int32 {
	for i := range n.edges {
		if n.edges[i].move == m {
			return int32(i)
		}
	}
	n.edges = append(n.edges, mctsEdge{move: m})
	return int32(len(n.edges) - 1)
}

// apply applies a listed move to the bot's own determinization.
func (b *MCTS) apply(st game.State, m game.Move) {
	var err error
	if b.ev, err = st.Apply(m, b.r, b.ev[:0]); err != nil {
		panic(fmt.Sprintf("match: the search bot's listed move %s by seat %d refused: %v", m.Kind, m.Seat, err))
	}
}
