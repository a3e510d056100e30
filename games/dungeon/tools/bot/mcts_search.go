package bot

import (
	"math"

	"github.com/fairboard/fairboard/games/dungeon/engine"
	"github.com/fairboard/fairboard/rng"
)

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
			m.styles[seat].Choose(&m.act, p, m.rules, me)
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
