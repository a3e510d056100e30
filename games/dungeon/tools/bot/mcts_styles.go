package bot

import (
	"github.com/fairboard/fairboard/games/dungeon/engine"
	"github.com/fairboard/fairboard/games/dungeon/policy"
	"github.com/fairboard/fairboard/rng"
)

// drawStyles draws the play-out style of each of n seats for one simulation:
// the deciding player's (at index seat) is self; each other player's is
// cautious or aggressive with even odds, since the bot does not know how
// its opponents play.
func (m *MCTS) drawStyles(n, seat int, self policy.Style) {
	m.styles = grow(m.styles, n)
	for i := range m.styles {
		m.styles[i] = policy.CautiousStyle(m.rules)
		if i != seat && m.search.Uint32(TagSearchStyle, nil)&1 == 1 {
			m.styles[i] = policy.AggressiveStyle(m.rules)
		}
		if i == seat {
			m.styles[i] = self
		}
	}
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
	m.drawStyles(players, seat, policy.CautiousStyle(m.rules))
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
			u := policy.UID(s)
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
		m.styles[i].Choose(&m.act, p, m.rules, me)
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
