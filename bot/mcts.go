package bot

import (
	"fmt"
	"math"
	"math/bits"
	"slices"
	"strconv"
	"strings"

	"github.com/fairboard/fairboard/engine"
	"github.com/fairboard/fairboard/reducers"
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
	styles             []style         // each seat's play-out style in the simulation at hand
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
	m.rules, m.eng = r, engine.New(r, reducers.Table())
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
		return m.legal[m.hintStyle(view, me, m.legal, cautiousStyle(r))]
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
	return m.hintStyle(p, me, legal, cautiousStyle(m.rules))
}

// hintStyle returns the index in legal of style s's choice for me.
func (m *MCTS) hintStyle(p *engine.Public, me *engine.Player, legal []engine.Action, s style) int {
	var a engine.Action
	choose(&a, p, m.rules, me, s)
	for i := range legal {
		if legal[i] == a {
			return i
		}
	}
	return 0
}

// startSearch seeds the decision's root stream from the bot's stream; the
// seeds of the simulations are drawn from it (sampleSeed).
func (m *MCTS) startSearch() {
	var w [4]uint32
	for i := range w {
		w[i] = m.s.Uint32(TagSearchSeed, nil)
	}
	*m.rootGen = *rng.NewSFC32(w[0], w[1], w[2], w[3])
	m.seeds = m.seeds[:0]
}

// sampleSeed makes the search stream that of sample k: the k-th
// simulation through any one child of the root uses the same deal and the
// same dice stream as the k-th through every other (common random
// numbers), so the root's children are compared on the same draws.
func (m *MCTS) sampleSeed(k int) {
	for len(m.seeds) <= k {
		var w [4]uint32
		for i := range w {
			w[i] = m.root.Uint32(TagSearchSeed, nil)
		}
		m.seeds = append(m.seeds, w)
	}
	w := m.seeds[k]
	*m.searchGen = *rng.NewSFC32(w[0], w[1], w[2], w[3])
}

// deal finds, deck by deck, the cards whose place the view does not show:
// the draw piles' cards, in an order the view does not tell.
func (m *MCTS) deal(view *engine.Public) {
	clear(m.known)
	mark := func(id string) {
		if i, ok := m.index[id]; ok {
			m.known[i] = true
		}
	}
	for i := range view.Players {
		for _, id := range view.Players[i].Items {
			mark(id)
		}
	}
	for i := range view.Decks {
		for _, id := range view.Decks[i].Discard {
			mark(id)
		}
	}
	if cb := view.Combat; cb != nil {
		for i := range cb.Enemies {
			mark(cb.Enemies[i].CardID)
		}
	}
	for d := range engine.NumDecks {
		u := m.unseen[d][:0]
		for _, id := range m.rules.InitialDeck(d) {
			if !m.known[m.index[id]] {
				u = append(u, id)
			}
		}
		m.unseen[d] = u
	}
}

// determinize sets m.det to one game the view could be: the view's public
// state, the unseen cards dealt into the draw piles in a random order, and
// the search stream as the generator.
func (m *MCTS) determinize(view *engine.Public) {
	g := &m.det
	g.Reset()
	m.copyPublic(&g.Public, view)
	p := &g.Public
	g.Secret.Decks = grow(g.Secret.Decks, engine.NumDecks)
	for d := range engine.NumDecks {
		sd := &g.Secret.Decks[d]
		sd.ID = engine.DeckIDs[d]
		sd.Cards = append(sd.Cards[:0], m.unseen[d]...)
		if m.peek == nil {
			rng.Shuffle(m.search, sd.Cards, TagSearchDeal, nil)
		} else { // the oracle: the real piles, in their real order
			sd.Cards = append(sd.Cards[:0], m.peek.Secret.Decks[d].Cards...)
		}
		if d < len(p.Decks) {
			p.Decks[d].Size = len(sd.Cards)
		}
	}
	if m.peek != nil { // the oracle: the real generator, where it stands
		if err := m.searchGen.UnmarshalText([]byte(m.peek.Secret.RNGState)); err != nil {
			panic("bot: the oracle cannot read the generator: " + err.Error())
		}
	}
	p.RNG = engine.RNGInfo{Mode: m.search.Mode(), Seq: m.search.Seq()}
}

// copyPublic makes dst a deep copy of src in the MCTS's own memory (dst's
// lists, and the bot's fight, duel and bracket), without src's fairness
// record.
func (m *MCTS) copyPublic(dst, src *engine.Public) {
	players, order, decks := dst.Players, dst.Order, dst.Decks
	*dst = *src
	dst.Fairness = nil
	dst.Players = grow(players, len(src.Players))
	for i := range src.Players {
		items := dst.Players[i].Items[:0]
		dst.Players[i] = src.Players[i]
		dst.Players[i].Items = append(items, src.Players[i].Items...)
	}
	dst.Order = append(order[:0], src.Order...)
	dst.Decks = grow(decks, len(src.Decks))
	for i := range src.Decks {
		disc := dst.Decks[i].Discard[:0]
		dst.Decks[i] = src.Decks[i]
		dst.Decks[i].Discard = append(disc, src.Decks[i].Discard...)
	}
	if src.Combat != nil {
		enemies := m.cb.Enemies[:0]
		m.cb = *src.Combat
		m.cb.Enemies = append(enemies, src.Combat.Enemies...)
		dst.Combat = &m.cb
	}
	if src.Duel != nil {
		m.duel = *src.Duel
		dst.Duel = &m.duel
	}
	if src.Bracket != nil {
		fin := m.br.Finalists[:0]
		m.br = *src.Bracket
		m.br.Finalists = append(fin, src.Bracket.Finalists...)
		dst.Bracket = &m.br
	}
}

// grow returns s with length n, keeping the elements it held beyond its
// length (and their lists' memory).
func grow[T any](s []T, n int) []T {
	if cap(s) < n {
		s = append(s[:cap(s)], make([]T, n-cap(s))...)
	}
	return s[:n]
}

// simulate runs one simulation from the view through the root's child
// root (its k-th: sample k, shared by the root's children): a
// determinization, the root's action, the descent of the tree to a node
// never simulated, a play-out by the seats' styles until the deciding
// player's next turn (or the game's end, in its last round), and the
// rewards (the value model's, or the winner's) backed up the path.
func (m *MCTS) simulate(view *engine.Public, root int32, seat int) {
	m.sims++
	k := int(m.nodes[root].visits)
	m.sampleSeed(k)
	m.drawStyles(len(view.Players), seat, m.vm.prior)
	m.determinize(view)
	g := &m.det
	p := &g.Public
	m.path = append(m.path[:0], 0, root)
	defer func() { m.outs[m.nodes[root].index] = append(m.outs[m.nodes[root].index], m.reward[m.rootSeat]) }()
	node, inTree := root, m.nodes[root].visits > 0
	m.act = m.legal[m.nodes[root].index]
	keyed := -1
	for n := 0; ; n++ {
		if p.Turn != keyed && m.peek == nil { // the oracle keeps the real generator
			keyed = p.Turn
			m.keyTurn(k, keyed)
		}
		var err error
		if m.events, err = m.disp.Dispatch(g, &m.act, m.search, m.events[:0]); err != nil {
			panic("bot: a simulated " + string(m.act.Kind) + " was refused: " + err.Error())
		}
		if p.Phase != engine.PhasePlaying {
			break
		}
		if p.Turn >= m.stopTurn && !p.EndTriggered && p.Step != engine.StepBracket {
			m.judge(p)
			return
		}
		me, seat := p.Player(p.Awaiting)
		if me == nil || n == rolloutLimit {
			m.backup(nil)
			return
		}
		if !inTree { // the play-out: the policies build their choice, listing nothing
			choose(&m.act, p, m.rules, me, m.styles[seat])
			continue
		}
		m.legal2 = engine.LegalActions(p, m.rules, me.UID, engine.TurnKinds, m.legal2)
		switch len(m.legal2) {
		case 0:
			m.backup(nil)
			return
		case 1:
			m.act = m.legal2[0]
			continue
		}
		var fresh bool
		node, fresh = m.selectChild(node, m.legal2, int32(seat), m.hintStyle(p, me, m.legal2, m.styles[seat]))
		m.path = append(m.path, node)
		inTree = !fresh
		m.act = m.legal2[m.nodes[node].index]
	}
	m.backup(p)
}

// keyTurn reseeds the simulation's dice at the start of turn `turn` of
// sample k: the dice of a turn depend on the sample and the turn, not on
// how many were rolled before it. So the simulations of one sample
// through different root actions roll the same dice for the turns that
// follow (common random numbers): after "sleep" or "move" the next
// player's turn goes the same way in both, and their difference is the
// actions' doing more than the dice's. Within a sample the turns' dice are
// still independent draws (the turn is mixed into the sample's seed words
// by a finaliser that spreads it over every bit).
func (m *MCTS) keyTurn(k, turn int) {
	w := &m.seeds[k]
	t := uint32(turn)
	*m.searchGen = *rng.NewSFC32(fmix32(w[0]^t*0x9e3779b9), fmix32(w[1]^t*0x85ebca6b), fmix32(w[2]^t*0xc2b2ae35), w[3])
}

// fmix32 is MurmurHash3's finaliser, a bijection that spreads every bit of
// x over the word: the turn mixed into a seed word leaves no pattern for
// the generator (which has no warm-up) to carry into its first outputs.
func fmix32(x uint32) uint32 {
	x ^= x >> 16
	x *= 0x85ebca6b
	x ^= x >> 13
	x *= 0xc2b2ae35
	x ^= x >> 16
	return x
}

// selectChild picks the child of parent to simulate among the legal
// actions (the player at index seat decides; hint indexes its style's
// choice in the simulation): it adds the children that legal actions lack, counts
// one availability for each legal child, and returns the child of the
// highest PUCT score (fresh if it was never simulated), with its index in
// legal recorded in the node.
func (m *MCTS) selectChild(parent int32, legal []engine.Action, seat int32, hint int) (int32, bool) {
	pn := &m.nodes[parent]
	fpu := 0.0 // an unvisited child's value: its parent's mean for the player
	if pn.visits > 0 {
		fpu = float64(pn.sum[seat]) / float64(pn.visits)
	}
	if pn.visits < widen {
		c := m.childOf(parent, &legal[hint], seat)
		if c < 0 {
			c = m.addChild(parent, &legal[hint], seat)
		}
		nd := &m.nodes[c]
		nd.avail++
		nd.index = int32(hint)
		return c, nd.visits == 0
	}
	k := len(legal)
	other := (1 - priorHint) / float64(k-1)
	best, bestScore := int32(-1), math.Inf(-1)
	for i := range legal {
		c := m.childOf(parent, &legal[i], seat)
		if c < 0 {
			c = m.addChild(parent, &legal[i], seat)
		}
		nd := &m.nodes[c]
		nd.avail++
		nd.index = int32(i)
		prior := other
		q := (float64(nd.sum[seat]) + shrink*fpu) / (float64(nd.visits) + shrink)
		if i == hint {
			prior = priorHint
		}
		score := q + cPUCT*prior*math.Sqrt(float64(nd.avail))/float64(1+nd.visits)
		if score > bestScore {
			best, bestScore = c, score
		}
	}
	return best, m.nodes[best].visits == 0
}

// key returns the argument of a that tells it from the other actions of
// its kind.
func key(a *engine.Action) string {
	if a.Kind == engine.ActOfferDuel {
		return a.Target
	}
	return a.CardID
}

// childOf returns parent's child for action a by the player at index
// seat, or -1.
func (m *MCTS) childOf(parent int32, a *engine.Action, seat int32) int32 {
	arg := key(a)
	for c := m.nodes[parent].child; c >= 0; c = m.nodes[c].next {
		if nd := &m.nodes[c]; nd.kind == a.Kind && nd.seat == seat && nd.arg == arg {
			return c
		}
	}
	return -1
}

// addChild adds a child for action a to parent and returns it.
func (m *MCTS) addChild(parent int32, a *engine.Action, seat int32) int32 {
	c := int32(len(m.nodes))
	m.nodes = append(m.nodes, node{kind: a.Kind, arg: key(a), seat: seat, child: -1, next: m.nodes[parent].child})
	m.nodes[parent].child = c
	return c
}

// judge ends a simulation at p, a round after the decision: every seat's
// reward is its chance to win from p by the value model.
func (m *MCTS) judge(p *engine.Public) {
	m.vm.eval(p, m.rules, &m.fc, m.vals[:])
	clear(m.reward[:])
	copy(m.reward[:], m.vals[:min(len(p.Players), maxSearchSeats)])
	m.add()
}

// backup ends a simulation at p, a finished game: 1 for its winner, 0 for
// everyone else; nothing for anyone when p is nil (a simulation cut
// short).
func (m *MCTS) backup(p *engine.Public) {
	clear(m.reward[:])
	if p != nil && p.Winner != "" {
		if _, i := p.Player(p.Winner); i >= 0 && i < maxSearchSeats {
			m.reward[i] = 1
		}
	}
	m.add()
}

// add adds the simulation's rewards to every node of its path.
func (m *MCTS) add() {
	for _, c := range m.path {
		nd := &m.nodes[c]
		nd.visits++
		for i := range nd.sum {
			nd.sum[i] += m.reward[i]
		}
	}
}

// drawStyles draws the play-out style of each of n seats for one simulation:
// the deciding player's (at index seat) is self; each other player's is
// cautious or aggressive with even odds, since the bot does not know how
// its opponents play.
func (m *MCTS) drawStyles(n, seat int, self style) {
	m.styles = grow(m.styles, n)
	for i := range m.styles {
		m.styles[i] = cautiousStyle(m.rules)
		if i != seat && m.search.Uint32(TagSearchStyle, nil)&1 == 1 {
			m.styles[i] = aggressiveStyle(m.rules)
		}
		if i == seat {
			m.styles[i] = self
		}
	}
}

// aggressiveStyle is Aggressive's style.
func aggressiveStyle(r *engine.Ruleset) style {
	return style{potionAt: r.MaxHP * 3 / 10, sleepAt: r.MaxHP * 2 / 10, duel: true}
}

// cautiousStyle is the play-out policy's style (Cautious's).
func cautiousStyle(r *engine.Ruleset) style {
	return style{potionAt: r.MaxHP / 2, sleepAt: r.MaxHP * 4 / 10, duel: false}
}

// KeepSmokeBomb implements Joiner: whether to keep a held Smoke bomb when
// challenged, the one standing preference a player sets at its join. It
// simulates N/2 games the lobby could become with each answer, on the same
// samples (the seats not yet taken filled in seat order by players of a
// class drawn at random, who spend their bombs; then the start and a
// play-out to the end, the opponents' styles drawn as in a decision), and
// keeps its bombs only if that won more by the decisions' margin
// (gateMargin standard errors of the paired mean): the heuristics spend
// them. These simulations play whole games (a lobby has no round to stop
// after), and the bot itself plays them as cautious.
func (m *MCTS) KeepSmokeBomb(view *engine.Public, r *engine.Ruleset, uid string, seat int, class engine.Class, players int) bool {
	if view.Phase != engine.PhaseLobby || players > maxSearchSeats || players < r.MinPlayers || players > r.MaxPlayers ||
		seat < 0 || seat >= players || len(view.Players) >= players {
		return false
	}
	m.bind(r)
	m.startSearch()
	m.outs = grow(m.outs, 2)
	m.outs[0], m.outs[1] = m.outs[0][:0], m.outs[1][:0]
	for k := range max(m.n/2, 1) {
		for arm := range 2 {
			m.sampleSeed(k) // the same sample for both answers
			m.sims++
			m.outs[arm] = append(m.outs[arm], m.simulateJoin(view, uid, seat, class, players, arm == 1))
		}
	}
	return m.better(1, 0)
}

// simulateJoin plays one game the lobby could become, with uid joining
// seat with class and keep, and returns uid's reward.
func (m *MCTS) simulateJoin(view *engine.Public, uid string, seat int, class engine.Class, players int, keep bool) float32 {
	m.drawStyles(players, seat, cautiousStyle(m.rules))
	g := &m.det
	g.Reset()
	m.copyPublic(&g.Public, view)
	p := &g.Public
	p.RNG = engine.RNGInfo{Mode: m.search.Mode(), Seq: m.search.Seq()}
	do := func(a *engine.Action) bool {
		var err error
		m.events, err = m.disp.Dispatch(g, a, m.search, m.events[:0])
		return err == nil
	}
	for s := 0; s < players; s++ {
		if seatTakenIn(p, s) {
			continue
		}
		m.act = engine.Action{Kind: engine.ActJoin, Actor: uid, Seat: s, Class: class, KeepSmokeBomb: keep}
		if s != seat {
			u := UID(s)
			if o, _ := p.Player(u); o != nil || u == uid {
				u = "sim-" + u
			}
			c, _, err := rng.ChooseOne(m.search, engine.Classes, TagSearchSeat, nil)
			if err != nil {
				return 0
			}
			m.act = engine.Action{Kind: engine.ActJoin, Actor: u, Seat: s, Class: c}
		}
		if !do(&m.act) {
			return 0
		}
	}
	m.act = engine.Action{Kind: engine.ActStart, Actor: p.Owner}
	if !do(&m.act) {
		return 0
	}
	for n := 0; p.Phase == engine.PhasePlaying; n++ {
		me, _ := p.Player(p.Awaiting)
		if me == nil || n == rolloutLimit {
			return 0
		}
		_, i := p.Player(me.UID)
		choose(&m.act, p, m.rules, me, m.styles[i])
		if !do(&m.act) {
			panic("bot: a simulated " + string(m.act.Kind) + " was refused")
		}
	}
	if p.Winner == uid {
		return 1
	}
	return 0
}

func seatTakenIn(p *engine.Public, seat int) bool {
	for i := range p.Players {
		if p.Players[i].Seat == seat {
			return true
		}
	}
	return false
}
