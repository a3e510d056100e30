package engine_test

import (
	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/games/dungeon/engine"
	"github.com/fairboard/fairboard/games/dungeon/policy"
	"github.com/fairboard/fairboard/rng"
	"github.com/fairboard/fairboard/rng/trustless"
)

// Whole games the legal-actions check plays, and the branches it must reach.

// legalGame is one game of the test: its create action (by owner, "p1"
// if empty), the players' fair contributions, classes and built-in
// policies.
type legalGame struct {
	create  engine.Action
	owner   string
	entropy []string
	classes []engine.Class
	pols    []policy.Policy
	// unopened (a fair game with openings): one more player joins, never
	// opens, and is removed by the owner once the deadline has passed.
	unopened bool
	// sparse, if > 1, checks a trustless game in play fully in its first
	// round and then at one state in sparse (see TestLegalActionsProtocols).
	sparse int
}

// play plays the game as a server would (a fresh stream per action,
// session.StreamFor, saved after it; the clock one second further at
// each action), checking the enumeration before every action, the
// lobby's and each reveal included, and once the game is over. Every
// action is sent as an honest sender sends it (fill). Seat j chooses
// uniformly among the listed turn actions with probability 1/2, else as
// the built-in policy pols[j] would; the choices are drawn from a test
// stream seeded by name, so that a game can be played again with the
// same choices. In a trustless game the seats reveal each round in turn,
// seat index mod n first, each the reveal the enumeration lists for it.
func (lc *legalCheck) play(lg legalGame, name string) *engine.Game {
	t := lc.t
	t.Helper()
	lc.reached = map[string]int{}
	clear(lc.chains)
	lc.now = 1_000_000
	pick, err := rng.NewSeeded("legal-pick-" + name)
	require.NoError(t, err)
	g := &engine.Game{}
	owner := lg.owner
	if owner == "" {
		owner = policy.UID(0)
	}
	apply := func(a engine.Action, entropy string) {
		t.Helper()
		lc.now += 1000
		a = lc.fill(g, a)
		a.Entropy += entropy
		lc.now = max(lc.now, a.At)
		s := lc.stream(g, &a)
		if _, err := lc.eng.Dispatch(g, &a, s, nil); err != nil {
			t.Fatalf("%s by %s: %v", a.Kind, a.Actor, err)
		}
		if s != nil {
			require.NoError(t, g.SaveStream(s))
		}
	}
	lc.check(g) // the game not yet created: nothing is listed or accepted
	create := lg.create
	create.Kind, create.Actor = engine.ActCreate, owner
	apply(create, "")
	trust := g.Public.RNG.Mode == rng.ModeTrustless
	n := len(lg.classes)
	if lg.unopened {
		n++
	}
	for i := range n {
		lc.check(g)
		uid := policy.UID(i)
		if trust {
			ch, err := trustless.NewChain(g.Public.GameID, uint32(i), g.Public.Trustless.ChainLength, secret("chain", uid))
			require.NoError(t, err)
			lc.chains[uid] = ch
		}
		a := engine.Action{Kind: engine.ActJoin, Actor: uid, Seat: i, Class: engine.Classes[i%4], KeepSmokeBomb: i%3 == 2}
		if i < len(lg.classes) {
			a.Class = lg.classes[i]
		}
		entropy := ""
		if i < len(lg.entropy) {
			entropy = lg.entropy[i]
		}
		apply(a, entropy)
	}
	if f := g.Public.Fairness; f != nil && f.Openings {
		for i := range len(lg.classes) {
			lc.check(g)
			apply(engine.Action{Kind: engine.ActOpen, Actor: policy.UID(i)}, "")
		}
		if lg.unopened {
			lc.check(g)
			apply(engine.Action{Kind: engine.ActRemoveSeat, Actor: owner, Target: policy.UID(n - 1)}, "")
		}
	}
	lc.check(g)
	apply(engine.Action{Kind: engine.ActStart, Actor: owner}, "")
	for k := 0; g.Public.Phase != engine.PhaseFinished; k++ {
		require.Less(t, k, 20000, "the game did not finish")
		p := &g.Public
		if lg.sparse <= 1 || p.Phase == engine.PhaseLobby || p.Round <= 1 || k%lg.sparse == 0 {
			lc.check(g)
		}
		if trust && p.Trustless.Pending != nil {
			apply(lc.nextReveal(p), "")
			continue
		}
		uid := p.Awaiting
		_, seat := p.Player(uid)
		turn := lc.list(p, lc.rules, uid, engine.TurnKinds, nil)
		require.NotEmpty(t, turn, "the game awaits %s, who has nothing to do", uid)
		var a engine.Action
		if pick.Uint32(rng.TagTestOnly, nil)%2 == 0 {
			i, err := pick.UniformInt(0, int64(len(turn)-1), rng.TagTestOnly, nil)
			require.NoError(t, err)
			a = turn[i]
		} else {
			a = lg.pols[seat].Choose(p, lc.rules, uid)
		}
		apply(a, "")
	}
	lc.check(g) // finished: nothing is listed or accepted
	require.Equal(t, engine.PhaseFinished, g.Public.Phase)
	return g
}

// nextReveal returns the reveal the enumeration lists for the first seat,
// from the pending index mod n on, that has not revealed the round.
func (lc *legalCheck) nextReveal(p *engine.Public) engine.Action {
	t := p.Trustless
	for k := range t.Seats {
		uid := t.Seats[(int(t.Pending.Index)+k)%len(t.Seats)].UID
		if as := lc.list(p, lc.rules, uid, engine.KindsOf(engine.ActReveal), nil); len(as) > 0 {
			require.Len(lc.t, as, 1)
			return as[0]
		}
	}
	lc.t.Fatalf("round %d is pending but no seat has a reveal listed", t.Pending.Index)
	return engine.Action{}
}

// legalWants are the (phase, step, kind) the test requires to have been
// listed and checked at least once: every branch of the enumeration.
var legalWants = []string{
	"lobby//join", "lobby//start", "lobby//abandon",
	"playing/manage/useItem", "playing/manage/dropItem", "playing/manage/endManage", "playing/manage/abandon",
	"playing/preDuel/offerDuel", "playing/preDuel/skipDuel",
	"playing/moveOrSleep/move", "playing/moveOrSleep/sleep",
	"playing/combat/resolveCombatRound",
	"playing/duel/resolveDuelRound", "playing/duel/reroll", "playing/duel/declineReroll",
	"playing/bracket/reroll", "playing/bracket/declineReroll",
	"playing/capacity/discard",
}
