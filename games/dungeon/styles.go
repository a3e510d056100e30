package dungeon

import (
	"github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/games/dungeon/engine"
	"github.com/fairboard/fairboard/games/dungeon/policy"
)

// styles are the engine bots' heuristic policies (policy.Heuristics).
var styles = []game.Style{
	{Name: "cautious", Doc: "heals early, sleeps when hurt, never challenges, re-rolls a low defense die",
		New: func(int) game.Policy { return &Policy{Bot: policy.Cautious{}} }},
	{Name: "aggressive", Doc: "challenges whoever holds the best item when healthy, sleeps only when nearly knocked out",
		New: func(int) game.Policy { return &Policy{Bot: policy.Aggressive{}} }},
}

// Policy is a game.Policy over an engine bot policy: the bot chooses from
// the public view policy.View gives it (what bot.Runner hands it), and its
// action is mapped to the move that stands for it (State.Move). A *Policy
// keeps that view between moves, so that a move allocates none: one
// Policy serves one seat of one game at a time (as match deals them),
// never two goroutines at once.
type Policy struct {
	Bot  policy.Policy
	view *engine.Public

	// rule is Bot's policy.BuiltIn under rules when builtIn (a built-in
	// policy picks without the view copied: policy.BuiltIn.Pick), found
	// again when the state's ruleset changes.
	rules   *Rules
	rule    policy.BuiltIn
	builtIn bool
}

// Choose implements game.Policy: the listed move that stands for the
// bot's action; legal[0] if none does (a bot's bug: bot.Runner would
// refuse it).
func (p *Policy) Choose(st game.State, seat int, legal []game.Move) game.Move {
	var m game.Move
	if p.choose(&m, st, seat) {
		for _, l := range legal {
			if l == m {
				return l
			}
		}
	}
	return legal[0]
}

// ChooseDirect implements game.DirectPolicy: the move that stands for the
// bot's action, without the legal list (the engine's bots never build
// one: bot.Runner dispatches their action and the engine checks it); an
// action no move stands for (a bot's bug) is returned as a move of its
// kind with no arguments, which Apply refuses.
func (p *Policy) ChooseDirect(st game.State, seat int) (m game.Move) {
	if !p.choose(&m, st, seat) {
		m = game.Move{Seat: seat, Kind: "unmapped"}
	}
	return m
}

// choose writes the bot's action as a move into *m, and returns whether
// one stands for it. A move that does is noted on the state
// (State.choose), which then dispatches its action without building it
// again.
func (p *Policy) choose(m *game.Move, st game.State, seat int) bool {
	s := st.(*State)
	if p.rules != s.rules {
		p.rules = s.rules
		p.rule, p.builtIn = policy.BuiltInOf(p.Bot, s.rules.r)
	}
	var a *engine.Action
	if me, _ := s.g.Public.Player(s.uids[seat]); p.builtIn && me != nil {
		// Written into the state's turn in place, field by field (a
		// literal through the pointer is built whole and copied).
		a = &s.turn
		k, card, target := p.rule.Pick(&s.g.Public, s.rules.r, me)
		a.Kind, a.Actor, a.CardID, a.Target = k, me.UID, card, target
	} else {
		if p.view == nil {
			p.view = new(engine.Public)
		}
		policy.View(p.view, &s.g.Public)
		act := p.Bot.Choose(p.view, s.rules.r, s.uids[seat])
		a = &act
	}
	if !s.moveInto(m, seat, a) {
		return false
	}
	s.choose(seat, *m, a)
	return true
}
