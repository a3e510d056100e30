package engine_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/bot"
	"github.com/fairboard/fairboard/engine"
	"github.com/fairboard/fairboard/reducers"
	"github.com/fairboard/fairboard/rng"
	"github.com/fairboard/fairboard/rng/fair"
	"github.com/fairboard/fairboard/session"
)

// legalCheck compares LegalActions with Dispatch on one game: every listed
// action is accepted (on a copy of the game, with a copy of its stream),
// and every other candidate action Dispatch is offered is refused. The
// candidates are every kind with the values of the fields it reads: as a
// card, each card a player holds, each card of a discard pile or an enemy
// on the table, a card still in a draw pile, "" and an unknown id; as a
// duel target, each seated uid, "" and an unknown uid; in the lobby, each
// seat from -1 to maxPlayers with each class (and "" and an unknown class)
// and either KeepSmokeBomb for a join (in play, one join). Actors are the
// awaited player, the owner, another seated player (each in turn), one who
// is not seated, and "".
type legalCheck struct {
	t     *testing.T
	eng   *engine.Engine
	rules *engine.Ruleset
	buf   []engine.Action
	cands []engine.Action
	// off plays without checking (the search for a game that reaches a
	// state), still counting what is listed in reached.
	off bool
	// seen counts, by "phase/step/kind", the actions listed in the states
	// checked; reached the same in the game being played.
	seen, reached map[string]int
	// states counts the states checked.
	states int
}

func newLegalCheck(t *testing.T, rules *engine.Ruleset) *legalCheck {
	return &legalCheck{t: t, eng: engine.New(rules, reducers.Table()), rules: rules, seen: map[string]int{}, reached: map[string]int{}}
}

// candidates returns the actions of uid that the check offers Dispatch.
func (lc *legalCheck) candidates(g *engine.Game, uid string) []engine.Action {
	r := lc.rules
	out := lc.cands[:0]
	ids := []string{"", "no-such-card"}
	for _, p := range g.Public.Players {
		ids = append(ids, p.Items...)
	}
	for _, d := range g.Public.Decks {
		ids = append(ids, d.Discard...)
	}
	if cb := g.Public.Combat; cb != nil {
		for _, e := range cb.Enemies {
			ids = append(ids, e.CardID)
		}
	}
	for _, d := range g.Secret.Decks {
		if len(d.Cards) > 0 {
			ids = append(ids, d.Cards[0])
		}
	}
	targets := []string{"", "nobody"}
	for _, p := range g.Public.Players {
		targets = append(targets, p.UID)
	}
	classes := []engine.Class{"", "bard"}
	classes = append(classes, engine.Classes...)
	for _, k := range engine.ActionKinds {
		a := engine.Action{Kind: k, Actor: uid}
		switch k {
		case engine.ActCreate:
			// Create is never listed: it is refused on a created game,
			// and a game not yet created is not one to list actions of.
			if g.Public.Phase != engine.PhaseNone {
				a.GameID, a.Mode, a.Seed = "again", "seeded", "again"
				out = append(out, a)
			}
		case engine.ActUseItem, engine.ActDropItem, engine.ActDiscard:
			for _, id := range ids {
				a.CardID = id
				out = append(out, a)
			}
		case engine.ActOfferDuel:
			for _, u := range targets {
				a.Target = u
				out = append(out, a)
			}
		case engine.ActJoin:
			if g.Public.Phase != engine.PhaseLobby {
				a.Seat, a.Class = len(g.Public.Players), engine.ClassMonk
				out = append(out, a)
				continue
			}
			for seat := -1; seat <= r.MaxPlayers; seat++ {
				for _, c := range classes {
					for _, keep := range []bool{false, true} {
						a.Seat, a.Class, a.KeepSmokeBomb = seat, c, keep
						out = append(out, a)
					}
				}
			}
		default:
			out = append(out, a)
		}
	}
	lc.cands = out
	return out
}

// check compares the enumeration with Dispatch for the actors on g, whose
// generator state is saved in it (SaveStream).
func (lc *legalCheck) check(g *engine.Game) {
	t := lc.t
	t.Helper()
	p := &g.Public
	uids := []string{"", "stranger", p.Owner, p.Awaiting}
	if n := len(p.Players); n > 0 {
		uids = append(uids, p.Players[(lc.states+int(p.Version))%n].UID)
	}
	if lc.off {
		lc.buf = engine.LegalActions(p, lc.rules, p.Awaiting, engine.AllKinds, lc.buf)
		for _, a := range lc.buf {
			lc.reached[string(p.Phase)+"/"+string(p.Step)+"/"+string(a.Kind)]++
		}
		return
	}
	lc.states++
	phase, step := p.Phase, p.Step // as they were: a wrongly accepted candidate changes them
	var s *rng.Stream
	var seq uint64
	if p.Phase != engine.PhaseNone {
		var err error
		s, err = session.Stream(g)
		require.NoError(t, err)
		seq = s.Seq()
	}
	before, err := g.Hash()
	require.NoError(t, err)
	for _, uid := range uids {
		lc.buf = engine.LegalActions(p, lc.rules, uid, engine.AllKinds, lc.buf)
		legal := slices.Clone(lc.buf)
		for _, a := range legal {
			require.Equal(t, uid, a.Actor)
			key := string(p.Phase) + "/" + string(p.Step) + "/" + string(a.Kind)
			lc.seen[key]++
			lc.reached[key]++
			c := g.Clone()
			s, err := session.Stream(c)
			require.NoError(t, err)
			if _, err := lc.eng.Dispatch(c, &a, s, nil); err != nil {
				t.Fatalf("listed %+v is refused in %s/%s: %v", a, phase, step, err)
			}
		}
		// Every other candidate must be refused: a refusal leaves the game
		// and the stream as they were, so they are tried on g itself.
		for _, a := range lc.candidates(g, uid) {
			if slices.Contains(legal, a) {
				continue
			}
			if _, err := lc.eng.Dispatch(g, &a, s, nil); err == nil {
				t.Fatalf("%+v is accepted in %s/%s but not listed (listed: %v)", a, phase, step, kindsOf(legal))
			}
		}
	}
	after, err := g.Hash()
	require.NoError(t, err)
	require.Equal(t, before, after)
	if s != nil {
		require.Equal(t, seq, s.Seq())
	}
}

func kindsOf(as []engine.Action) []string {
	var out []string
	for _, a := range as {
		out = append(out, fmt.Sprintf("%s(%s%s)", a.Kind, a.CardID, a.Target))
	}
	return out
}

// legalGame is one game of the test: its create action, the players'
// fair contributions, classes and built-in policies.
type legalGame struct {
	create  engine.Action
	entropy []string
	classes []engine.Class
	pols    []bot.Policy
}

// play plays the game as a server would (a fresh stream per action, saved
// after it), checking the enumeration before every action, the lobby's
// included, and once the game is over. Seat j chooses uniformly among the
// listed turn actions with probability 1/2, else as the built-in policy
// pols[j] would; the choices are drawn from a test stream seeded by name,
// so that a game can be played again with the same choices.
func (lc *legalCheck) play(lg legalGame, name string) *engine.Game {
	t := lc.t
	t.Helper()
	lc.reached = map[string]int{}
	pick, err := rng.NewSeeded("legal-pick-" + name)
	require.NoError(t, err)
	g := &engine.Game{}
	apply := func(a engine.Action) {
		t.Helper()
		var s *rng.Stream
		if g.Public.Phase != engine.PhaseNone {
			s, err = session.Stream(g)
			require.NoError(t, err)
		}
		if _, err := lc.eng.Dispatch(g, &a, s, nil); err != nil {
			t.Fatalf("%s by %s: %v", a.Kind, a.Actor, err)
		}
		if s != nil {
			require.NoError(t, g.SaveStream(s))
		}
	}
	lc.check(g) // the game not yet created: nothing is listed or accepted
	create := lg.create
	create.Kind, create.Actor = engine.ActCreate, "p1"
	apply(create)
	for i, c := range lg.classes {
		lc.check(g)
		a := engine.Action{Kind: engine.ActJoin, Actor: bot.UID(i), Seat: i, Class: c, KeepSmokeBomb: i%3 == 2}
		if i < len(lg.entropy) {
			a.Entropy = lg.entropy[i]
		}
		apply(a)
	}
	lc.check(g)
	apply(engine.Action{Kind: engine.ActStart, Actor: "p1"})
	for n := 0; g.Public.Phase == engine.PhasePlaying; n++ {
		require.Less(t, n, 5000, "the game did not finish")
		lc.check(g)
		uid := g.Public.Awaiting
		_, seat := g.Public.Player(uid)
		turn := engine.LegalActions(&g.Public, lc.rules, uid, engine.TurnKinds, nil)
		require.NotEmpty(t, turn, "the game awaits %s, who has nothing to do", uid)
		var a engine.Action
		if pick.Uint32(rng.TagTestOnly, nil)%2 == 0 {
			i, err := pick.UniformInt(0, int64(len(turn)-1), rng.TagTestOnly, nil)
			require.NoError(t, err)
			a = turn[i]
		} else {
			a = lg.pols[seat].Choose(&g.Public, lc.rules, uid)
		}
		apply(a)
	}
	lc.check(g) // finished: nothing is listed or accepted
	require.Equal(t, engine.PhaseFinished, g.Public.Phase)
	return g
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

// TestLegalActionsAgreeWithDispatch plays whole games, seeded and fair,
// of 2 to 6 players, half of the decisions random among the listed ones,
// and before every action compares the enumeration with what Dispatch
// accepts from every actor. Then, for each branch of the enumeration the
// games did not reach (a re-roll in the end-game bracket is rare), it
// searches for a game that reaches it, playing without checking, and
// plays that game again checked: every branch is tested.
func TestLegalActionsAgreeWithDispatch(t *testing.T) {
	lc := newLegalCheck(t, engine.DefaultRules())
	games := 12
	if testing.Short() {
		games = 5
	}
	for i := range games {
		n := 2 + i%5
		lg := legalGame{classes: make([]engine.Class, n), pols: make([]bot.Policy, n),
			create: engine.Action{GameID: "legal", Mode: "seeded", Seed: fmt.Sprint("legal-", i)}}
		for j := range n {
			lg.classes[j] = engine.Classes[(i+j)%4]
			lg.pols[j] = []bot.Policy{bot.Cautious{}, bot.Aggressive{}}[(i+j)%2]
		}
		if i%4 == 3 {
			seed, err := fair.NewServerSeed()
			require.NoError(t, err)
			lg.create = engine.Action{GameID: "legal", Mode: "fair", ServerSeed: seed}
			lg.entropy = []string{"", "c0ffee", "AB"}
		}
		lc.play(lg, fmt.Sprint(i))
	}
	for _, want := range legalWants {
		if lc.seen[want] > 0 {
			continue
		}
		// Duelists only, so that any bracket has a re-roll to decide.
		lg := legalGame{classes: []engine.Class{engine.ClassDuelist, engine.ClassDuelist, engine.ClassDuelist},
			pols: []bot.Policy{bot.Cautious{}, bot.Aggressive{}, bot.Cautious{}}}
		found := ""
		for k := 0; k < 5000 && found == ""; k++ {
			name := fmt.Sprint("edge-", k)
			lg.create = engine.Action{GameID: "legal", Mode: "seeded", Seed: name}
			lc.off = true
			lc.play(lg, name)
			lc.off = false
			if lc.reached[want] > 0 {
				found = name
			}
		}
		require.NotEmpty(t, found, "no game of the search reached %s", want)
		lc.play(lg, found)
		require.Positive(t, lc.reached[want], "%s reached unchecked but not checked", want)
	}
	t.Logf("%d states checked; listed: %v", lc.states, lc.seen)
	for _, want := range legalWants {
		require.Positive(t, lc.seen[want], "no state listed %s", want)
	}
}

// Lobby states the whole games above pass through only in part: a full
// table, a seated player, the owner alone, a game never created.
func TestLegalActionsLobbyEdges(t *testing.T) {
	rules := engine.DefaultRules()
	lc := newLegalCheck(t, rules)
	eng := lc.eng
	g := &engine.Game{}
	_, err := eng.Dispatch(g, &engine.Action{Kind: engine.ActCreate, Actor: "p1", GameID: "edges", Mode: "seeded", Seed: "edges"}, nil, nil)
	require.NoError(t, err)
	lc.check(g)
	// The owner alone: it may join any seat; it may not start yet.
	as := engine.LegalActions(&g.Public, rules, "p1", engine.AllKinds, nil)
	require.Len(t, as, rules.MaxPlayers*len(engine.Classes)*2+1)
	require.Equal(t, engine.Action{Kind: engine.ActJoin, Actor: "p1", Seat: 0, Class: engine.ClassWarrior}, as[0])
	require.Equal(t, engine.Action{Kind: engine.ActJoin, Actor: "p1", Seat: 0, Class: engine.ClassWarrior, KeepSmokeBomb: true}, as[1])
	require.Equal(t, engine.Action{Kind: engine.ActAbandon, Actor: "p1"}, as[len(as)-1])
	// Seats taken out of order, to the last one.
	for i, seat := range []int{3, 0, 5, 1, 2, 4} {
		s, err := session.Stream(g)
		require.NoError(t, err)
		_, err = eng.Dispatch(g, &engine.Action{Kind: engine.ActJoin, Actor: bot.UID(i), Seat: seat, Class: engine.Classes[i%4]}, s, nil)
		require.NoError(t, err)
		require.NoError(t, g.SaveStream(s))
		lc.check(g)
	}
	require.Empty(t, engine.LegalActions(&g.Public, rules, "p9", engine.AllKinds, nil), "a full table takes no join")
	require.Equal(t, []engine.Action{{Kind: engine.ActStart, Actor: "p1"}, {Kind: engine.ActAbandon, Actor: "p1"}},
		engine.LegalActions(&g.Public, rules, "p1", engine.AllKinds, nil))
	require.Empty(t, engine.LegalActions(&g.Public, rules, "p2", engine.AllKinds, nil))
	// Only the kinds asked for.
	require.Equal(t, []engine.Action{{Kind: engine.ActAbandon, Actor: "p1"}},
		engine.LegalActions(&g.Public, rules, "p1", engine.KindsOf(engine.ActAbandon, engine.ActMove), nil))
	require.Empty(t, engine.LegalActions(&g.Public, rules, "p1", engine.TurnKinds, nil))
	// A game never created lists nothing.
	require.Empty(t, engine.LegalActions(&engine.Public{}, rules, "p1", engine.AllKinds, nil))
}

// The order and form of a turn's list, on states written by hand: items
// in inventory order, potions only for useItem, targets in seat order.
func TestLegalActionsOrder(t *testing.T) {
	rules := engine.DefaultRules()
	p := &engine.Public{Phase: engine.PhasePlaying, Owner: "p1", Awaiting: "p2", Current: "p2", Step: engine.StepManage,
		Players: []engine.Player{
			{UID: "p1", Seat: 0, Pos: 4},
			{UID: "p2", Seat: 1, Pos: 4, Items: []string{"t1-dagger-1", "t2-gpotion-2", "t1-smoke-1", "t1-potion-3"}},
			{UID: "p3", Seat: 2, Pos: 5},
			{UID: "p4", Seat: 3, Pos: 4},
		}}
	a := func(k engine.ActionKind, arg string) engine.Action {
		out := engine.Action{Kind: k, Actor: "p2"}
		if k == engine.ActOfferDuel {
			out.Target = arg
		} else {
			out.CardID = arg
		}
		return out
	}
	require.Equal(t, []engine.Action{
		a(engine.ActUseItem, "t2-gpotion-2"), a(engine.ActUseItem, "t1-potion-3"),
		a(engine.ActDropItem, "t1-dagger-1"), a(engine.ActDropItem, "t2-gpotion-2"), a(engine.ActDropItem, "t1-smoke-1"), a(engine.ActDropItem, "t1-potion-3"),
		a(engine.ActEndManage, ""),
	}, engine.LegalActions(p, rules, "p2", engine.AllKinds, nil))
	require.Empty(t, engine.LegalActions(p, rules, "p1", engine.TurnKinds, nil), "only the awaited player decides")
	require.Equal(t, []engine.Action{{Kind: engine.ActAbandon, Actor: "p1"}}, engine.LegalActions(p, rules, "p1", engine.AllKinds, nil))

	p.Step = engine.StepPreDuel
	require.Equal(t, []engine.Action{a(engine.ActOfferDuel, "p1"), a(engine.ActOfferDuel, "p4"), a(engine.ActSkipDuel, "")},
		engine.LegalActions(p, rules, "p2", engine.AllKinds, nil))
	p.Step = engine.StepCapacity
	as := engine.LegalActions(p, rules, "p2", engine.AllKinds, nil)
	require.Len(t, as, 4)
	for i, id := range p.Players[1].Items {
		require.Equal(t, a(engine.ActDiscard, id), as[i])
	}
	p.Step = engine.StepDuel
	p.Duel = &engine.Duel{Challenger: "p2", Target: "p4"}
	require.Equal(t, []engine.Action{a(engine.ActDuelRound, "")}, engine.LegalActions(p, rules, "p2", engine.TurnKinds, nil))
	p.Duel.Rolled = true
	require.Equal(t, []engine.Action{a(engine.ActReroll, ""), a(engine.ActDeclineReroll, "")}, engine.LegalActions(p, rules, "p2", engine.TurnKinds, nil))
	p.Step, p.Duel.Rolled = engine.StepBracket, false
	require.Empty(t, engine.LegalActions(p, rules, "p2", engine.TurnKinds, nil), "a bracket match's rounds are fought by the engine")
}

// The enumeration writes into the caller's buffer: with room, a decision
// allocates nothing.
func TestLegalActionsAllocatesNothing(t *testing.T) {
	rules := engine.DefaultRules()
	p := &engine.Public{Phase: engine.PhasePlaying, Awaiting: "p1", Step: engine.StepManage,
		Players: []engine.Player{{UID: "p1", Items: []string{"t1-dagger-1", "t1-potion-1"}}}}
	buf := make([]engine.Action, 0, 16)
	allocs := testing.AllocsPerRun(100, func() {
		buf = engine.LegalActions(p, rules, "p1", engine.TurnKinds, buf)
	})
	require.Zero(t, allocs)
	require.Len(t, buf, 4)
}

func TestKindSet(t *testing.T) {
	for i, k := range engine.ActionKinds {
		require.Equal(t, engine.KindSet(1)<<i, engine.KindsOf(k), k)
		require.True(t, engine.AllKinds.Has(k) == (k != engine.ActCreate), k)
		turn := !slices.Contains([]engine.ActionKind{engine.ActCreate, engine.ActJoin, engine.ActStart, engine.ActAbandon}, k)
		require.Equal(t, turn, engine.TurnKinds.Has(k), k)
	}
	require.Zero(t, engine.KindsOf("dance"))
	require.False(t, engine.AllKinds.Has("dance"))
}

// A buffer whose actions a caller changed (an ID, a version, a fair
// join's entropy set in place) gives the same list: the enumeration
// writes every field of the slots it reuses.
func TestLegalActionsReusesADirtyBuffer(t *testing.T) {
	rules := engine.DefaultRules()
	p := &engine.Public{Phase: engine.PhasePlaying, Awaiting: "p1", Step: engine.StepPreDuel,
		Players: []engine.Player{{UID: "p1", Pos: 3, Items: []string{"t1-potion-1"}}, {UID: "p2", Seat: 1, Pos: 3}}}
	want := engine.LegalActions(p, rules, "p1", engine.AllKinds, nil)
	buf := make([]engine.Action, 4, 16)
	for i := range buf {
		buf[i] = engine.Action{Kind: engine.ActJoin, Actor: "x", ID: "a1", Version: 7, At: 9, GameID: "g", Mode: "fair", Seed: "s",
			Audit: true, ServerSeed: "ff", Seat: 3, Class: engine.ClassMonk, KeepSmokeBomb: true, Entropy: "ab", Target: "p9", CardID: "c"}
	}
	require.Equal(t, want, engine.LegalActions(p, rules, "p1", engine.AllKinds, buf))
	buf = buf[:cap(buf)]
	for i := range buf {
		buf[i].Version = uint64(i + 1)
	}
	p.Step = engine.StepManage
	want = engine.LegalActions(p, rules, "p1", engine.AllKinds, nil)
	require.Equal(t, want, engine.LegalActions(p, rules, "p1", engine.AllKinds, buf))
}
