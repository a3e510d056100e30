package engine_test

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/games/dungeon/engine"
	"github.com/fairboard/fairboard/games/dungeon/policy"
	"github.com/fairboard/fairboard/rng"
	"github.com/fairboard/fairboard/rng/fair"
)

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
		lg := legalGame{classes: make([]engine.Class, n), pols: make([]policy.Policy, n),
			create: engine.Action{GameID: "legal", Mode: "seeded", Seed: fmt.Sprint("legal-", i)}}
		for j := range n {
			lg.classes[j] = engine.Classes[(i+j)%4]
			lg.pols[j] = []policy.Policy{policy.Cautious{}, policy.Aggressive{}}[(i+j)%2]
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
			pols: []policy.Policy{policy.Cautious{}, policy.Aggressive{}, policy.Cautious{}}}
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

// The protocols' lists, on states written by hand: a trustless round
// pending, the same game with none, and a fair lobby with openings before,
// during and after the openings.
func TestLegalActionsProtocolForms(t *testing.T) {
	rules := engine.DefaultRules()
	var digest, tr engine.Hash32
	for i := range digest {
		digest[i], tr[i] = 0xab, 0x0c
	}
	p := &engine.Public{Phase: engine.PhasePlaying, Owner: "p1", Awaiting: "p2", Current: "p2", Step: engine.StepMoveOrSleep,
		RNG:     engine.RNGInfo{Mode: rng.ModeTrustless},
		Players: []engine.Player{{UID: "p1", Seat: 0}, {UID: "p2", Seat: 1}, {UID: "p3", Seat: 3}},
		Trustless: &engine.Trustless{ChainLength: 100, NextIndex: 7,
			Seats: []engine.TrustSeat{{UID: "p1", Seat: 0}, {UID: "p2", Seat: 1}, {UID: "p3", Seat: 3}},
			Pending: &engine.Pending{Index: 7, Digest: digest, Transcript: tr, Deadline: 9000,
				Action:  engine.Action{Kind: engine.ActMove, Actor: "p2"},
				Reveals: []engine.RevealMark{{UID: "p3", Seat: 3}}}}}
	list := func(uid string, kinds engine.KindSet) []engine.Action {
		return engine.LegalActions(p, rules, uid, kinds, nil)
	}
	reveal := func(uid string, seat int) engine.Action {
		return engine.Action{Kind: engine.ActReveal, Actor: uid, Seat: seat, Index: 7,
			Digest: strings.Repeat("ab", 32), Transcript: strings.Repeat("0c", 32)}
	}
	abort := func(uid string) engine.Action { return engine.Action{Kind: engine.ActAbort, Actor: uid} }
	abandon := func(uid string) engine.Action { return engine.Action{Kind: engine.ActAbandon, Actor: uid} }
	// Pending: no move for the awaited player; the reveals of the seats
	// that have not revealed, the abort for anyone, the owner's abandon.
	require.Equal(t, []engine.Action{reveal("p2", 1), abort("p2")}, list("p2", engine.AllKinds))
	require.Equal(t, []engine.Action{abandon("p1"), reveal("p1", 0), abort("p1")}, list("p1", engine.AllKinds))
	require.Equal(t, []engine.Action{abort("p3")}, list("p3", engine.AllKinds), "p3 has revealed")
	require.Equal(t, []engine.Action{abort("")}, list("", engine.AllKinds))
	require.Equal(t, []engine.Action{abort(engine.ServerActor)}, list(engine.ServerActor, engine.AllKinds), "no sweep while a round is pending")
	require.Empty(t, list("p2", engine.TurnKinds))
	require.Equal(t, []engine.Action{reveal("p1", 0), abort("p1")}, list("p1", engine.ProtocolKinds))
	require.Equal(t, []engine.Action{abandon("p1")}, list("p1", engine.AllKinds&^engine.ProtocolKinds))
	// No round pending: the game's decisions, and no protocol action.
	p.Trustless.Pending = nil
	require.Equal(t, []engine.Action{{Kind: engine.ActMove, Actor: "p2"}, {Kind: engine.ActSleep, Actor: "p2"}}, list("p2", engine.AllKinds))
	require.Equal(t, []engine.Action{abandon(engine.ServerActor)}, list(engine.ServerActor, engine.AllKinds))
	require.Empty(t, list("", engine.AllKinds))
	// A trustless game without its protocol state: Dispatch refuses all.
	p.Trustless = nil
	require.Empty(t, list("p1", engine.AllKinds))

	// A fair lobby with openings, nobody opened yet: joins for the free
	// seats (1, 2, 4, 5), open for each seat, no start, no removal.
	p = &engine.Public{Phase: engine.PhaseLobby, Owner: "p1", RNG: engine.RNGInfo{Mode: rng.ModeFair},
		Players: []engine.Player{{UID: "p1", Seat: 0}, {UID: "p2", Seat: 3}},
		Fairness: &engine.Fairness{Openings: true, DeadlineMs: 60_000,
			Seats: []engine.FairSeat{{UID: "p1", Seat: 0}, {UID: "p2", Seat: 3}}}}
	open := engine.Action{Kind: engine.ActOpen, Actor: "p1"}
	as := list("p9", engine.AllKinds)
	require.Len(t, as, 4*len(engine.Classes)*2)
	require.Equal(t, engine.Action{Kind: engine.ActJoin, Actor: "p9", Seat: 1, Class: engine.ClassWarrior}, as[0])
	require.Equal(t, engine.Action{Kind: engine.ActJoin, Actor: "p9", Seat: 5, Class: engine.Classes[len(engine.Classes)-1], KeepSmokeBomb: true}, as[len(as)-1])
	require.Equal(t, []engine.Action{abandon("p1"), open}, list("p1", engine.AllKinds))
	require.Equal(t, []engine.Action{{Kind: engine.ActOpen, Actor: "p2"}}, list("p2", engine.AllKinds))
	// p1 has opened: the seats are fixed, p2 may be removed after the
	// deadline (At, the sender's).
	p.Fairness.Seats[0].Opened, p.Fairness.OpenDeadline = true, 65_000
	require.Empty(t, list("p9", engine.AllKinds), "no join after the first opening")
	require.Equal(t, []engine.Action{abandon("p1"), {Kind: engine.ActRemoveSeat, Actor: "p1", Target: "p2"}}, list("p1", engine.AllKinds))
	require.Equal(t, []engine.Action{{Kind: engine.ActOpen, Actor: "p2"}}, list("p2", engine.AllKinds))
	// Every seat has opened: the owner may start.
	p.Fairness.Seats[1].Opened = true
	require.Equal(t, []engine.Action{{Kind: engine.ActStart, Actor: "p1"}, abandon("p1")}, list("p1", engine.AllKinds))
	require.Empty(t, list("p2", engine.AllKinds))
	// The same lobby without openings: entropy at join, no open.
	p.Fairness.Openings = false
	p.Fairness.Seats[1].Opened = false
	require.Equal(t, []engine.Action{{Kind: engine.ActStart, Actor: "p1"}, abandon("p1")}, list("p1", engine.AllKinds))
	require.Len(t, list("p9", engine.AllKinds), 4*len(engine.Classes)*2)
}

// A reveal's digest and transcript are made once: a buffer that lists the
// same round again allocates nothing.
func TestLegalActionsRevealAllocatesOnce(t *testing.T) {
	rules := engine.DefaultRules()
	p := &engine.Public{Phase: engine.PhasePlaying, Owner: "p1", Awaiting: "p1", Step: engine.StepManage,
		RNG:     engine.RNGInfo{Mode: rng.ModeTrustless},
		Players: []engine.Player{{UID: "p1", Items: []string{"t1-dagger-1"}}, {UID: "p2", Seat: 1}},
		Trustless: &engine.Trustless{Seats: []engine.TrustSeat{{UID: "p1"}, {UID: "p2", Seat: 1}},
			Pending: &engine.Pending{Index: 3, Digest: engine.Hash32{1}, Transcript: engine.Hash32{2}}}}
	buf := make([]engine.Action, 0, 16)
	require.Equal(t, 2.0, testing.AllocsPerRun(1, func() {
		p.Trustless.Pending.Digest[0]++ // a new round each time
		p.Trustless.Pending.Transcript[0]++
		buf = engine.LegalActions(p, rules, "p1", engine.AllKinds, buf)
	}))
	require.Zero(t, testing.AllocsPerRun(100, func() {
		buf = engine.LegalActions(p, rules, "p1", engine.AllKinds, buf)
	}))
	require.Equal(t, engine.Action{Kind: engine.ActReveal, Actor: "p1", Index: 3,
		Digest: p.Trustless.Pending.Digest.String(), Transcript: p.Trustless.Pending.Transcript.String()}, buf[1])
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
	protocol := []engine.ActionKind{engine.ActReveal, engine.ActAbort, engine.ActOpen, engine.ActRemoveSeat}
	for i, k := range engine.ActionKinds {
		require.Equal(t, engine.KindSet(1)<<i, engine.KindsOf(k), k)
		require.True(t, engine.AllKinds.Has(k) == (k != engine.ActCreate), k)
		require.Equal(t, slices.Contains(protocol, k), engine.ProtocolKinds.Has(k), k)
		turn := !slices.Contains(append([]engine.ActionKind{engine.ActCreate, engine.ActJoin, engine.ActStart, engine.ActAbandon}, protocol...), k)
		require.Equal(t, turn, engine.TurnKinds.Has(k), k)
	}
	require.Zero(t, engine.KindsOf("dance"))
	require.False(t, engine.AllKinds.Has("dance"))
}

// BenchmarkLegalActions times one decision's list with a reused buffer:
// a manage step with four items, and a trustless round pending (the
// owner's abandon, its reveal and the abort).
func BenchmarkLegalActions(b *testing.B) {
	rules := engine.DefaultRules()
	manage := &engine.Public{Phase: engine.PhasePlaying, Awaiting: "p1", Step: engine.StepManage,
		Players: []engine.Player{{UID: "p1", Items: []string{"t1-dagger-1", "t2-gpotion-2", "t1-smoke-1", "t1-potion-3"}}}}
	pending := &engine.Public{Phase: engine.PhasePlaying, Owner: "p1", Awaiting: "p2", Step: engine.StepMoveOrSleep,
		RNG:     engine.RNGInfo{Mode: rng.ModeTrustless},
		Players: []engine.Player{{UID: "p1"}, {UID: "p2", Seat: 1}},
		Trustless: &engine.Trustless{Seats: []engine.TrustSeat{{UID: "p1"}, {UID: "p2", Seat: 1}},
			Pending: &engine.Pending{Index: 3, Digest: engine.Hash32{1}, Transcript: engine.Hash32{2}}}}
	for _, c := range []struct {
		name string
		p    *engine.Public
	}{{"manage", manage}, {"pending", pending}} {
		b.Run(c.name, func(b *testing.B) {
			buf := make([]engine.Action, 0, 16)
			b.ReportAllocs()
			for b.Loop() {
				buf = engine.LegalActions(c.p, rules, "p1", engine.AllKinds, buf)
			}
		})
	}
}

// A buffer whose actions a caller changed (an ID, a version, a signature
// or a fair join's entropy set in place) gives the same list: the
// enumeration writes every field of the slots it reuses.
func TestLegalActionsReusesADirtyBuffer(t *testing.T) {
	rules := engine.DefaultRules()
	p := &engine.Public{Phase: engine.PhasePlaying, Owner: "p2", Awaiting: "p1", Step: engine.StepPreDuel,
		Players: []engine.Player{{UID: "p1", Pos: 3, Items: []string{"t1-potion-1"}}, {UID: "p2", Seat: 1, Pos: 3}}}
	dirty := func(n int) []engine.Action {
		buf := make([]engine.Action, n, 16)
		for i := range buf {
			buf[i] = engine.Action{Kind: engine.ActJoin, Actor: "x", ID: "a1", Version: 7, At: 9, GameID: "g", Mode: "fair", Seed: "s",
				Audit: true, ChainLength: 5, DeadlineMs: 6, Openings: true, ServerSeed: "ff", Seat: 3, Class: engine.ClassMonk,
				KeepSmokeBomb: true, Entropy: "ab", EntropyCommitment: "cd", ChainHead: "ef", PublicKey: "01", Signature: "23",
				Index: 4, Link: "45", Digest: "67", Transcript: "89", Target: "p9", CardID: "c"}
		}
		return buf
	}
	want := engine.LegalActions(p, rules, "p1", engine.AllKinds, nil)
	require.Equal(t, want, engine.LegalActions(p, rules, "p1", engine.AllKinds, dirty(4)))
	buf := dirty(16)
	for i := range buf {
		buf[i].Version = uint64(i + 1)
	}
	p.Step = engine.StepManage
	want = engine.LegalActions(p, rules, "p1", engine.AllKinds, nil)
	require.Equal(t, want, engine.LegalActions(p, rules, "p1", engine.AllKinds, buf))
	// Each field alone, in a trustless round's list.
	p.RNG.Mode = rng.ModeTrustless
	p.Trustless = &engine.Trustless{Seats: []engine.TrustSeat{{UID: "p1"}, {UID: "p2", Seat: 1}},
		Pending: &engine.Pending{Index: 3, Digest: engine.Hash32{1}, Transcript: engine.Hash32{2}}}
	for _, uid := range []string{"p1", "p2"} {
		want = engine.LegalActions(p, rules, uid, engine.AllKinds, nil)
		require.Len(t, want, map[string]int{"p1": 2, "p2": 3}[uid]) // the owner p2's abandon, a reveal, the abort
		for f := range reflect.TypeFor[engine.Action]().NumField() {
			buf := dirty(3)
			clean := make([]engine.Action, 3)
			for i := range buf {
				reflect.ValueOf(&clean[i]).Elem().Field(f).Set(reflect.ValueOf(buf[i]).Field(f))
			}
			require.Equal(t, want, engine.LegalActions(p, rules, uid, engine.AllKinds, clean), "field %s", reflect.TypeFor[engine.Action]().Field(f).Name)
		}
	}
}
