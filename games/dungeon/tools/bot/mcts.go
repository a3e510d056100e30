package bot

import (
	"fmt"
	"math"
	"math/bits"
	"slices"
	"strconv"
	"strings"

	"github.com/fairboard/fairboard/games/dungeon/engine"
	"github.com/fairboard/fairboard/games/dungeon/policy"
	"github.com/fairboard/fairboard/rng"
)

// MaxSimulations bounds N of an mcts:N bot.
const MaxSimulations = 1_000_000

// maxSearchSeats bounds the players a search tracks (its reward vectors).
const maxSearchSeats = 16

// rolloutLimit bounds the actions of one simulated game: a game that has
// not ended by then (never seen) scores nothing for anyone.
const rolloutLimit = 20000

// Below the root, the tree's selection is PUCT (Rosin 2011, as AlphaZero):
// a child's score is its mean reward for the player who acts there plus
// cPUCT · prior · sqrt(availability) / (1 + visits), where the prior gives
// the choice of the acting player's play-out style priorHint and shares
// the rest evenly.
const (
	cPUCT     = 1.0
	priorHint = 0.6
	// shrink is the virtual visits at the parent's mean that every
	// child's mean starts from, so that one lucky or unlucky play-out does
	// not decide.
	shrink = 2.0
	// widen is the visits a node below the root needs before its children
	// are chosen by their scores; until then the acting player's play-out
	// style's choice is followed. A node's value mixes the play of every child it tried,
	// and branching made the bot choose worse than not branching: after
	// 8 visits, at mcts:100, 0.6 pp worse on the strength test's games;
	// after 100 visits, at mcts:1000, a gain of 1.7 pp without branching
	// became 0.1 pp. So up to about 2,000 simulations a decision (1,000 an
	// option) the tree does not branch below the root.
	widen int32 = 1000
)

// MCTS is the search bot mcts:N: a Monte Carlo tree search over the
// engine's own reducers, N simulations per decision that has two or more
// legal options (a decision of one option is taken without search, and
// draws nothing).
//
// It sees what a player sees: the public view ([View]) and the ruleset.
// What a player cannot see is the order of the undrawn cards and the
// future dice, so each simulation samples both afresh (information-set
// MCTS by determinization): the draw piles are dealt in a random order
// from the cards no player holds and no discard pile or fight shows, and
// the dice come from a stream of the simulation's own, so the search
// never plans on a die it could not know. Each opponent plays the
// simulation as the cautious or the aggressive policy, drawn anew each
// time (the bot does not know how its opponents play); the deciding
// player's own later moves follow its prior (below).
//
// A simulation plays one round: the decision's action, the rest of the
// deciding player's turn and every other player's next turn, and stops
// when the deciding player's next turn begins. There the value model
// (valueModel: each player's chance to win from a public state, fitted per
// ruleset and number of players on seeded games) scores it: each seat's
// reward is its chance to win. A simulation in the game's last round (a
// player has reached the final tile) plays on to the end and scores 1 for
// the winner, 0 for everyone else. Playing every simulation to the end,
// as this bot first did, let dice rolled long after the decision decide
// most rewards: the options' differences, a point or less, drowned in that
// noise (docs/sim.md has the measurements that chose one round).
//
// The decision's options (its legal actions: the root's children) share
// the N simulations by sequential halving (Karnin, Koren and Somekh 2013;
// as Gumbel MuZero's root): in each round every option still in the
// running gets the same number of new simulations, on the same samples
// (sample k deals the same piles and, turn by turn, rolls the same dice
// for every option: common random numbers), and the better half goes on.
// Below the root, the simulations descend one tree shared by every
// sample (open loop: a node is the actions since the decision, not the
// dice between them), choosing among the children legal in the sample at
// hand (availability counts, as Cowling, Powley and Whitehouse's ISMCTS)
// by PUCT on the reward of the player who acts there, once the node has
// been simulated widen times (before that it follows the choice of the
// player's style in the simulation): every node keeps a reward per seat
// (max^n).
//
// The bot then plays the halving's winner only if it did better than its
// prior's choice, on the samples both were simulated on, by more than
// gateMargin standard errors of the paired mean; otherwise it plays the
// prior's choice. The prior is a heuristic style fitted with the value
// model (valueModel.prior: the levels of sleeping, drinking and
// challenging whose seats won most often in the fit's games), which the
// bot also plays its own turns by in its simulations. N is the bot's
// dial: with fewer than 10 simulations an option (N = 10 and below for
// two options) the bot plays as its prior; with more, it leaves the prior
// where its simulations show a better option beyond their noise, and the
// more simulations, the smaller the gains it can tell from noise.
//
// Its randomness comes from its own stream (NewGame): one decision draws
// four words from it to seed the decision's samples. The same view and
// stream state give the same choice. An MCTS is one seat's bot: not safe
// for concurrent use; it keeps its memory between decisions and games, so
// a decision allocates little. The value model is shared by every bot of
// the process (fitting one takes a few seconds, the first time a ruleset
// and number of players is seen).
type MCTS struct {
	n int
	s *rng.Stream // the bot's own stream, from NewGame

	// The engine of the ruleset last seen, lean: simulated games keep no
	// log and commit no shuffle.
	rules *engine.Ruleset
	eng   *engine.Engine
	disp  *engine.Dispatcher
	index map[string]int32 // card id -> index in rules.Cards()

	root   *rng.Stream // one decision's stream: the samples' seeds
	seeds  [][4]uint32 // the samples' seeds, drawn from root as needed
	search *rng.Stream // one simulation's stream: its deal and its dice
	// rootGen and searchGen are the generators of root and search,
	// reseeded in place (a decision, a sample) rather than made anew.
	rootGen, searchGen *rng.SFC32
	det                engine.Game // the game of one simulation
	cb                 engine.Combat
	duel               engine.Duel
	br                 engine.Bracket
	unseen             [engine.NumDecks][]string
	known              []bool
	nodes              []node
	path               []int32
	legal              []engine.Action // the decision's legal actions
	legal2             []engine.Action // a simulated decision's
	cands              []int32         // the root's children still in the running
	styles             []policy.Style  // each seat's play-out style in the simulation at hand
	outs               [][]float32     // the deciding player's reward of each simulation, by root option
	rootSeat           int             // the deciding player's index in Players
	events             []engine.Event
	act                engine.Action
	reward             [maxSearchSeats]float32

	// sims counts the simulations run (all decisions): for benchmarks.
	sims int64

	// vm is the value model of the ruleset and the number of players at
	// hand (vmPlayers), which judges a simulation after its round; fc is
	// its scratch memory and vals its answer.
	vm        *valueModel
	vmPlayers int
	fc        featureCtx
	vals      [maxSearchSeats]float32
	// stopTurn is the turn at whose start a simulation of the decision at
	// hand stops: a round after the decision's turn.
	stopTurn int

	// peek, if set, makes the search read the game's secret: the real
	// draw piles and the real generator. Only the tests set it, to build
	// the oracle the no-peeking test must catch.
	peek *engine.Game
}

// node is one action of the tree: the action (kind, its card or target,
// and the actor's index in Players), how often it was simulated and
// available, and the sum of the rewards of every seat over its
// simulations.
type node struct {
	kind          engine.ActionKind
	arg           string
	seat          int32
	index         int32 // its index in the legal list of the simulation at hand
	visits, avail int32
	child, next   int32 // first child, next sibling; -1 for none
	sum           [maxSearchSeats]float32
}

// NewMCTS returns the bot mcts:n (1 <= n <= MaxSimulations).
func NewMCTS(n int) *MCTS {
	m := &MCTS{n: n, legal: make([]engine.Action, 0, legalRoom), legal2: make([]engine.Action, 0, legalRoom)}
	m.rootGen, m.searchGen = rng.NewSFC32(0, 0, 0, 0), rng.NewSFC32(0, 0, 0, 0)
	m.root, m.search = rng.New(m.rootGen), rng.New(m.searchGen)
	return m
}

// parseMCTS reads "mcts:N".
func parseMCTS(name string) (*MCTS, error) {
	num, ok := strings.CutPrefix(name, "mcts:")
	if !ok {
		return nil, nil
	}
	n, err := strconv.Atoi(num)
	if err != nil || n < 1 || n > MaxSimulations || num != strconv.Itoa(n) {
		return nil, fmt.Errorf("bot %q: N in mcts:N must be a whole number from 1 to %d", name, MaxSimulations)
	}
	return NewMCTS(n), nil
}

// Name returns "mcts:N".
func (m *MCTS) Name() string { return "mcts:" + strconv.Itoa(m.n) }

// Simulations returns N.
func (m *MCTS) Simulations() int { return m.n }

// NewGame implements Searcher.
func (m *MCTS) NewGame(s *rng.Stream) { m.s = s }

// bind prepares the engine of the ruleset r.
func (m *MCTS) bind(r *engine.Ruleset) {
	if m.s == nil {
		panic("bot: " + m.Name() + " has no stream: call NewGame before its game")
	}
	if m.rules == r {
		return
	}
	m.rules, m.eng = r, engine.NewReference(r)
	m.vm = nil
	m.disp = m.eng.NewDispatcher()
	m.disp.Lean(0)
	m.index = make(map[string]int32, len(r.Cards()))
	for i, c := range r.Cards() {
		m.index[c.ID] = int32(i)
	}
	m.known = make([]bool, len(r.Cards()))
}

// Choose implements Policy: the action of the player uid, whom the game
// awaits, after N simulations (at once when it has one legal action).
func (m *MCTS) Choose(view *engine.Public, r *engine.Ruleset, uid string) engine.Action {
	m.legal = engine.LegalActions(view, r, uid, engine.TurnKinds, m.legal)
	switch len(m.legal) {
	case 0:
		return engine.Action{}
	case 1:
		return m.legal[0]
	}
	m.bind(r)
	me, seat := view.Player(uid)
	if len(view.Players) > maxSearchSeats {
		// more players than the search tracks: as cautious
		return m.legal[m.hintStyle(view, me, m.legal, policy.CautiousStyle(r))]
	}
	if m.vm == nil || m.vmPlayers != len(view.Players) {
		m.vm, m.vmPlayers = valueFor(r, len(view.Players)), len(view.Players)
	}
	m.stopTurn = view.Turn + len(view.Players)
	m.startSearch()
	m.deal(view)
	m.nodes = append(m.nodes[:0], node{child: -1, next: -1})
	hint := m.hint(view, me, m.legal)
	m.rootSeat = seat
	m.outs = grow(m.outs, len(m.legal))
	for i := range m.outs {
		m.outs[i] = m.outs[i][:0]
	}
	// The root's children, one per legal action (they depend on the public
	// state only), share the budget by sequential halving: in each round
	// every option still in the running gets the same number of new
	// simulations, on the same samples, and the better half goes on.
	m.cands = m.cands[:0]
	for i := range m.legal {
		m.cands = append(m.cands, m.addChild(0, &m.legal[i], int32(seat)))
		m.nodes[m.cands[i]].index = int32(i)
	}
	rounds := bits.Len(uint(len(m.cands) - 1)) // ceil(log2(options))
	budget := m.n
	for r := 0; len(m.cands) > 1; r++ {
		per := max(1, budget/(len(m.cands)*max(rounds-r, 1)))
		for _, c := range m.cands {
			for range per {
				m.simulate(view, c, seat)
			}
			budget -= per
		}
		m.rank(seat, hint)
		m.cands = m.cands[:(len(m.cands)+1)/2]
	}
	if best := int(m.nodes[m.cands[0]].index); best != hint && m.better(best, hint) {
		return m.legal[best]
	}
	return m.legal[hint]
}

// minEvidence is the fewest simulations of each of two options on which
// the bot may prefer one to the prior's choice.
const minEvidence = 10

// better reports whether option i did better than option h (the prior's
// choice) for the deciding player, on the samples both were simulated on
// (at least minEvidence): whether the mean difference of their rewards
// exceeds gateMargin standard errors. With few simulations the difference
// between two options is mostly noise, and the prior's choice is then the
// better bet (docs/sim.md: how the margin was chosen).
func (m *MCTS) better(i, h int) bool {
	a, b := m.outs[i], m.outs[h]
	n := min(len(a), len(b))
	if n < minEvidence {
		return false
	}
	var sum, sq float64
	for k := range n {
		d := float64(a[k] - b[k])
		sum += d
		sq += d * d
	}
	mean := sum / float64(n)
	v := (sq - sum*mean) / float64(n-1)
	if v <= 0 {
		return mean > 0
	}
	return mean/math.Sqrt(v/float64(n)) > gateMargin
}

// gateMargin is the gate's margin: the search's best option replaces the
// prior's choice when its mean gain, paired on the samples both were
// simulated on, exceeds this many standard errors of that mean.
const gateMargin = 0.5

// rank sorts the candidates by their mean reward for the player at index
// seat, best first; ties go to the prior's choice (hint), then
// to the first listed.
func (m *MCTS) rank(seat, hint int) {
	mean := func(c int32) float32 {
		nd := &m.nodes[c]
		return nd.sum[seat] / float32(max(nd.visits, 1))
	}
	slices.SortStableFunc(m.cands, func(x, y int32) int {
		mx, my := mean(x), mean(y)
		switch {
		case mx > my:
			return -1
		case mx < my:
			return 1
		case m.nodes[x].index == int32(hint):
			return -1
		case m.nodes[y].index == int32(hint):
			return 1
		}
		return int(m.nodes[x].index - m.nodes[y].index)
	})
}

// hint returns the index in legal of the prior's choice for me (the
// cautious policy's before the value model is bound).
func (m *MCTS) hint(p *engine.Public, me *engine.Player, legal []engine.Action) int {
	if m.vm != nil {
		return m.hintStyle(p, me, legal, m.vm.prior)
	}
	return m.hintStyle(p, me, legal, policy.CautiousStyle(m.rules))
}

// hintStyle returns the index in legal of style s's choice for me.
func (m *MCTS) hintStyle(p *engine.Public, me *engine.Player, legal []engine.Action, s policy.Style) int {
	var a engine.Action
	s.Choose(&a, p, m.rules, me)
	for i := range legal {
		if legal[i] == a {
			return i
		}
	}
	return 0
}
