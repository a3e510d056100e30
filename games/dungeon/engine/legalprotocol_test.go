package engine_test

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/games/dungeon/engine"
	"github.com/fairboard/fairboard/games/dungeon/policy"
	"github.com/fairboard/fairboard/games/dungeon/server/session"
)

// The legal-actions check over the trustless and fair protocols, its positive controls, and the lobby's edges.

// protocolWants are the (mode: phase, kind) the protocol test requires to
// have been listed and checked at least once (see legalCheck.count).
var protocolWants = []string{
	"trustless: lobby/join", "trustless: lobby/start", "trustless: lobby/abandon",
	"trustless: playing/endManage", "trustless: playing/move", "trustless: playing/abandon",
	"pending: lobby/reveal", "pending: lobby/abort", "pending: lobby/abandon",
	"pending: playing/reveal", "pending: playing/abort", "pending: playing/abandon",
	"openings: lobby/join", "openings: lobby/open", "openings: lobby/removeSeat",
	"openings: lobby/start", "openings: lobby/abandon", "openings: playing/move",
}

// protocolGames returns the games of n players of TestLegalActionsProtocols:
// a trustless game (its owner without a seat for n = 3) and a fair game
// with openings (with one more player who never opens, if there is a seat
// for it), and the names their choices are seeded by.
func protocolGames(n int) (tg, og legalGame, tname, oname string) {
	tg = legalGame{classes: make([]engine.Class, n), pols: make([]policy.Policy, n), sparse: 12,
		create: engine.Action{GameID: fmt.Sprint("legal-trustless-", n), Mode: "trustless", ChainLength: testChain}}
	for j := range n {
		tg.classes[j] = engine.Classes[(n+j)%4]
		tg.pols[j] = []policy.Policy{policy.Cautious{}, policy.Aggressive{}}[(n+j)%2]
	}
	if n == 3 {
		tg.owner = "host"
	}
	og = tg
	seed := sha256.Sum256([]byte(fmt.Sprint("legal-openings-", n)))
	og.owner, og.sparse, og.unopened = "", 0, n < engine.DefaultRules().MaxPlayers
	og.create = engine.Action{GameID: fmt.Sprint("legal-openings-", n), Mode: "fair", ServerSeed: hex.EncodeToString(seed[:]), Openings: true}
	return tg, og, fmt.Sprint("trustless-", n), fmt.Sprint("openings-", n)
}

// TestLegalActionsProtocols plays trustless games and fair games with
// openings, of 2 to 6 players, as TestLegalActionsAgreeWithDispatch plays
// the others, with every action signed, revealed or opened with real
// keys, chains and contributions (legalCheck.fill): before every action,
// each reveal included, what Dispatch accepts from every actor is exactly
// what is listed. A trustless game with an action pending lists only the
// reveals, the abort and the owner's abandon; one game's owner has no
// seat (it signs nothing). Each game with openings of fewer than 6 players
// seats one more player that never opens, whom the owner removes at the
// deadline. In a trustless game every candidate of a seated player is
// signed, and checked if it gets that far (0.1 to 0.4 ms each on this
// loaded 2-core machine: checking every state of the five games takes
// nearly two minutes), so a trustless game is checked at every state of
// its lobby and its first round (the rounds pending there included), and
// then at one state in 12, pending or not; a game with openings at every
// state.
func TestLegalActionsProtocols(t *testing.T) {
	lc := newLegalCheck(t, engine.DefaultRules())
	last := 6
	if testing.Short() {
		last = 3
	}
	for n := 2; n <= last; n++ {
		tg, og, tname, oname := protocolGames(n)
		lc.play(tg, tname)
		lc.play(og, oname)
	}
	t.Logf("%d states checked; listed: %v", lc.states, lc.seen)
	for _, want := range protocolWants {
		require.Positive(t, lc.seen[want], "no state listed %s", want)
	}
}

// catchT is a legalT that keeps the first failure and stops the check
// there (a panic that catch recovers): the positive controls' reporter.
type catchT struct{ msg string }

func (c *catchT) Errorf(format string, args ...any) {
	if c.msg == "" {
		c.msg = fmt.Sprintf(format, args...)
	}
}
func (c *catchT) FailNow() { panic(c) }
func (c *catchT) Fatalf(format string, args ...any) {
	c.Errorf(format, args...)
	c.FailNow()
}
func (*catchT) Helper()             {}
func (*catchT) Logf(string, ...any) {}

// catch runs f and reports whether it failed.
func (c *catchT) catch(f func()) (failed bool) {
	defer func() {
		if r := recover(); r != nil {
			if r != any(c) {
				panic(r)
			}
			failed = true
		}
	}()
	f()
	return false
}

// turnsWhilePending is LegalActions as it was before the trustless mode:
// it lists the awaited player's turn actions while a round is pending.
func turnsWhilePending(p *engine.Public, r *engine.Ruleset, uid string, kinds engine.KindSet, buf []engine.Action) []engine.Action {
	buf = engine.LegalActions(p, r, uid, kinds, buf)
	if t := p.Trustless; t != nil && t.Pending != nil && kinds&engine.TurnKinds != 0 {
		q, tq := *p, *t
		tq.Pending = nil
		q.Trustless = &tq
		buf = append(buf, engine.LegalActions(&q, r, uid, kinds&engine.TurnKinds, nil)...)
	}
	return buf
}

// withoutReveals lists no reveal.
func withoutReveals(p *engine.Public, r *engine.Ruleset, uid string, kinds engine.KindSet, buf []engine.Action) []engine.Action {
	return engine.LegalActions(p, r, uid, kinds&^engine.KindsOf(engine.ActReveal), buf)
}

// joinsAfterOpening lists the joins of a game with openings after the
// first opening as before it.
func joinsAfterOpening(p *engine.Public, r *engine.Ruleset, uid string, kinds engine.KindSet, buf []engine.Action) []engine.Action {
	join := engine.KindsOf(engine.ActJoin)
	f := p.Fairness
	if f == nil || f.OpenDeadline == 0 || kinds&join == 0 {
		return engine.LegalActions(p, r, uid, kinds, buf)
	}
	q, fq := *p, *f
	fq.OpenDeadline = 0
	q.Fairness = &fq
	buf = engine.LegalActions(&q, r, uid, join, buf)
	return append(buf, engine.LegalActions(p, r, uid, kinds&^join, nil)...)
}

// The positive controls of TestLegalActionsProtocols: its check, on its
// own 2-player games (which pass it there), catches an enumeration that
// still lists turn actions while a round is pending, one that leaves the
// reveals out, and one that lists joins after the first opening.
func TestLegalActionsProtocolsControls(t *testing.T) {
	tg, og, tname, oname := protocolGames(2)
	for _, c := range []struct {
		name string
		list func(*engine.Public, *engine.Ruleset, string, engine.KindSet, []engine.Action) []engine.Action
		game legalGame
		seed string
		want []string
	}{
		{"turns while pending", turnsWhilePending, tg, tname, []string{"is refused in playing/", "is pending its reveal round"}},
		{"no reveals", withoutReveals, tg, tname, []string{"Kind:reveal", "is accepted in lobby/ but not listed"}},
		{"joins after the first opening", joinsAfterOpening, og, oname, []string{"Kind:join", "is refused in lobby/", "the openings have begun"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			ct := &catchT{}
			lc := newLegalCheck(ct, engine.DefaultRules())
			lc.list = c.list
			require.True(t, ct.catch(func() { lc.play(c.game, c.seed) }), "the check passed a broken enumeration")
			t.Log(ct.msg)
			for _, w := range c.want {
				require.Contains(t, ct.msg, w)
			}
		})
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
		_, err = eng.Dispatch(g, &engine.Action{Kind: engine.ActJoin, Actor: policy.UID(i), Seat: seat, Class: engine.Classes[i%4]}, s, nil)
		require.NoError(t, err)
		require.NoError(t, g.SaveStream(s))
		lc.check(g)
	}
	require.Empty(t, engine.LegalActions(&g.Public, rules, "p9", engine.AllKinds, nil), "a full table takes no join")
	require.Equal(t, []engine.Action{{Kind: engine.ActStart, Actor: "p1"}, {Kind: engine.ActAbandon, Actor: "p1"}},
		engine.LegalActions(&g.Public, rules, "p1", engine.AllKinds, nil))
	require.Empty(t, engine.LegalActions(&g.Public, rules, "p2", engine.AllKinds, nil))
	require.Equal(t, []engine.Action{{Kind: engine.ActAbandon, Actor: engine.ServerActor}},
		engine.LegalActions(&g.Public, rules, engine.ServerActor, engine.AllKinds, nil), "the server's sweep may abandon")
	// Only the kinds asked for.
	require.Equal(t, []engine.Action{{Kind: engine.ActAbandon, Actor: "p1"}},
		engine.LegalActions(&g.Public, rules, "p1", engine.KindsOf(engine.ActAbandon, engine.ActMove), nil))
	require.Empty(t, engine.LegalActions(&g.Public, rules, "p1", engine.TurnKinds, nil))
	// A game never created lists nothing.
	require.Empty(t, engine.LegalActions(&engine.Public{}, rules, "p1", engine.AllKinds, nil))
}
