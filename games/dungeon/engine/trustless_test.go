package engine_test

import (
	"bytes"
	"crypto/ed25519"
	"encoding/hex"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/games/dungeon/engine"
	"github.com/fairboard/fairboard/internal/checks"
	"github.com/fairboard/fairboard/rng"
	"github.com/fairboard/fairboard/rng/trustless"
)

// TestTrustlessStartIsPending: the start draws (turn order), so it is held
// as a public pending action of index 1, and applied only when the last
// seat reveals, with the round's links published at once first.
func TestTrustlessStartIsPending(t *testing.T) {
	tg := newTrustless(t, 3)
	ev := tg.must(tg.signed(0, engine.Action{Kind: engine.ActStart}))
	require.Len(t, ev, 1)
	require.Equal(t, engine.EvActionPending, ev[0].Type)
	p := &tg.g.Public
	pd := p.Trustless.Pending
	require.NotNil(t, pd)
	require.Equal(t, uint32(1), pd.Index)
	require.Equal(t, engine.ActStart, pd.Action.Kind)
	require.Equal(t, tg.now+engine.DefaultDeadlineMs, pd.Deadline)
	require.Equal(t, engine.PhaseLobby, p.Phase, "nothing is applied while pending")
	require.Zero(t, p.RNG.Seq)
	require.Equal(t, ev[0].Trust.Digest, pd.Digest)

	ev = tg.must(tg.reveal(1))
	require.Empty(t, ev, "a reveal that does not close the round emits nothing")
	ev = tg.must(tg.reveal(2))
	require.Empty(t, ev)
	ev = tg.must(tg.reveal(0))
	require.Equal(t, engine.EvRoundRevealed, ev[0].Type)
	rr := ev[0].Trust
	require.Equal(t, uint32(1), rr.Index)
	require.Len(t, rr.Reveals, 3)
	require.Equal(t, []int{1, 2, 0}, []int{rr.Reveals[0].Seat, rr.Reveals[1].Seat, rr.Reveals[2].Seat}, "in the order they came")
	var sawOrder bool
	for _, e := range ev[1:] {
		sawOrder = sawOrder || e.Type == engine.EvGameStarted
		require.NotEqual(t, engine.EvDeckShuffled, e.Type, "a trustless game shuffles nothing")
	}
	require.True(t, sawOrder)
	require.Equal(t, engine.PhasePlaying, p.Phase)
	require.Equal(t, uint32(2), p.Trustless.NextIndex)
	require.Positive(t, p.RNG.Seq)
	for i, s := range p.Trustless.Seats {
		require.Equal(t, tg.link(i, 1), s.Link)
	}
	require.Empty(t, tg.g.Secret.Links)
	require.Empty(t, tg.g.Secret.Decks, "no deck order exists")
	for _, d := range p.Decks {
		require.Equal(t, d.Size, len(d.Pile))
	}
}

// TestTrustlessRevealRejections: every way a reveal is refused, each
// leaving the game exactly as it was, then the round closes normally.
// Each refusal of a well-formed reveal by a protocol check has its
// positive control (refusedBy): that check off, the reveal is accepted,
// or refused only by a later check.
func TestTrustlessRevealRejections(t *testing.T) {
	tg := newTrustless(t, 3)
	// Nothing pending yet.
	early := tg.reveal0(0, 1)
	tg.refused(early, engine.CodeWrongIndex)

	tg.must(tg.signed(0, engine.Action{Kind: engine.ActStart}))
	good := tg.reveal(1)

	// A reveal for the next index (early, out of turn), properly signed.
	next := tg.reveal0(1, 2)
	tg.refusedBy(next, engine.CodeWrongIndex, checks.RevealIndex, engine.CodeBadSignature) // signed over index 2, checked over the pending 1

	// Another seat's reveal, sent by p2.
	other := good
	other.Seat = 2
	tg.refusedBy(other, engine.CodeWrongSeat, checks.RevealSeat, "") // the seat is not signed: taken as p2's

	// A stranger.
	stranger := good
	stranger.Actor = "mallory"
	tg.refused(stranger, engine.CodeUnknownPlayer)

	// A wrong link: the seat's link for index 2, and 32 other bytes.
	wrong := good
	wrong.Link = tg.link(1, 2).String()
	tg.refusedBy(wrong, engine.CodeWrongLink, checks.RevealLink, "")
	wrong.Link = engine.Hash32{9}.String()
	tg.refusedBy(wrong, engine.CodeWrongLink, checks.RevealLink, "")
	wrong.Link = "zz"
	tg.refused(wrong, engine.CodeInvalidAction)

	// Another digest, signed: the seat signs what it says it signs, but
	// not the pending action.
	pd := tg.g.Public.Trustless.Pending
	otherDigest := engine.Hash32{1, 2, 3}
	tg.refusedBy(tg.revealSigned(1, pd.Index, otherDigest, pd.Transcript, tg.link(1, 1)), engine.CodeWrongDigest, checks.RevealDigest, "")
	// Another transcript (a client shown another game), signed.
	tg.refusedBy(tg.revealSigned(1, pd.Index, pd.Digest, engine.Hash32{4}, tg.link(1, 1)), engine.CodeWrongDigest, checks.RevealDigest, "")

	// A signature that does not verify: flipped, by another seat's key,
	// missing.
	bad := good
	sig, _ := hex.DecodeString(bad.Signature)
	sig[0] ^= 1
	bad.Signature = hex.EncodeToString(sig)
	tg.refusedBy(bad, engine.CodeBadSignature, checks.RevealSignature, "")
	bad.Signature = tg.revealSigned(2, pd.Index, pd.Digest, pd.Transcript, tg.link(1, 1)).Signature
	tg.refusedBy(bad, engine.CodeBadSignature, checks.RevealSignature, "")
	bad.Signature = ""
	tg.refused(bad, engine.CodeInvalidAction)

	// Past the deadline.
	late := good
	late.At = pd.Deadline + 1
	tg.refusedBy(late, engine.CodeDeadlinePassed, checks.RevealDeadline, "")

	// The good one, then the same again.
	tg.must(good)
	tg.refusedBy(good, engine.CodeAlreadyRevealed, checks.RevealOnce, "")

	// A closing reveal with a stream that is not the round's: the engine
	// refuses it (and so a server cannot choose the randomness).
	last := tg.reveal(2)
	tg.must(last) // seat 2, not closing yet (seat 0 is missing)
	closing := tg.reveal(0)
	for name, s := range map[string]*rng.Stream{
		"a refusing stream": rng.NewRefusing(rng.ModeTrustless, rng.WithSeq(0)),
		"another key":       rng.NewTrustless([32]byte{7}, rng.WithSeq(0)),
	} {
		before, _ := tg.g.CanonicalJSON()
		_, err := tg.eng.Dispatch(&tg.g, &closing, s, nil)
		require.ErrorIs(t, err, engine.CodeBadStream, name)
		after, _ := tg.g.CanonicalJSON()
		require.True(t, bytes.Equal(before, after), name)
	}
	tg.must(closing)
	require.Nil(t, tg.g.Public.Trustless.Pending)
	require.Equal(t, engine.PhasePlaying, tg.g.Public.Phase)
}

// reveal0 is seat i's reveal of index v, built by hand (its client would
// refuse to make it): its link for v, signed over the game's current
// transcript and a zero digest if nothing is pending.
func (tg *tgame) reveal0(i int, v uint32) engine.Action {
	var d, tr engine.Hash32
	if pd := tg.g.Public.Trustless.Pending; pd != nil {
		d, tr = pd.Digest, pd.Transcript
	}
	return tg.revealSigned(i, v, d, tr, tg.link(i, v))
}

// revealSigned is seat i's reveal with the given fields, signed with its
// key.
func (tg *tgame) revealSigned(i int, v uint32, digest, transcript, link engine.Hash32) engine.Action {
	sec := tg.seats[i].Secrets()
	key := ed25519.NewKeyFromSeed(sec.KeySeed[:])
	msg := trustless.RevealMessage("tg", v, (*[32]byte)(&digest), (*[32]byte)(&transcript))
	return engine.Action{Kind: engine.ActReveal, Actor: tg.seats[i].UID(), Seat: i, Index: v, Link: link.String(),
		Digest: digest.String(), Transcript: transcript.String(), Signature: hex.EncodeToString(ed25519.Sign(key, msg))}
}

// TestTrustlessFreezesWhilePending: while an action is pending, every
// other action is refused (pending), whoever sends it; the owner's abandon
// is its abort.
func TestTrustlessFreezesWhilePending(t *testing.T) {
	tg := newTrustless(t, 3)
	tg.start()
	p := &tg.g.Public
	cur, i := p.Awaiting, -1
	for k, s := range tg.seats {
		if s.UID() == cur {
			i = k
		}
	}
	// Make the awaited player's move (it draws) pending.
	for p.Step != engine.StepMoveOrSleep {
		a := engine.Action{Kind: engine.ActEndManage}
		if p.Step == engine.StepPreDuel {
			a.Kind = engine.ActSkipDuel
		}
		tg.must(tg.signed(i, a))
	}
	tg.must(tg.signed(i, engine.Action{Kind: engine.ActMove}))
	require.NotNil(t, p.Trustless.Pending)
	// The same player again, another, a second start, a join, a second move.
	tg.refused(tg.signed(i, engine.Action{Kind: engine.ActSleep}), engine.CodePending)
	tg.refused(tg.signed((i+1)%3, engine.Action{Kind: engine.ActEndManage}), engine.CodePending)
	tg.refused(tg.signed(i, engine.Action{Kind: engine.ActMove}), engine.CodePending)
	tg.refused(engine.Action{Kind: engine.ActJoin, Actor: "p9", Version: p.Version}, engine.CodePending)
	// Someone else's abandon is not the owner's.
	tg.refused(tg.signed(1, engine.Action{Kind: engine.ActAbandon}), engine.CodePending)
	// The owner's abandon is the owner's abort, recorded as such.
	tg.must(tg.reveal(1))
	ev := tg.must(tg.signed(0, engine.Action{Kind: engine.ActAbandon}))
	require.Equal(t, engine.EvGameAborted, ev[0].Type)
	rec := ev[0].Trust
	require.Equal(t, engine.AbortAbandoned, rec.Reason)
	require.Equal(t, "p1", rec.By)
	require.Len(t, rec.Reveals, 1, "the reveal that came is published with the abort")
	require.Equal(t, tg.link(1, rec.Index), rec.Reveals[0].Link)
	require.ElementsMatch(t, []string{"p1", "p3"}, rec.Missing)
	requireAbortedWithoutDraw(t, tg, ev)
}

// requireAbortedWithoutDraw: the abort's events end the game (GameFinished
// outcome aborted, then the reveal), no die, pick or card was drawn for
// the round, and every later action is refused.
func requireAbortedWithoutDraw(t *testing.T, tg *tgame, ev []engine.Event) {
	t.Helper()
	seq := tg.g.Public.RNG.Seq
	types := []engine.EventType{}
	for _, e := range ev {
		types = append(types, e.Type)
	}
	require.Equal(t, []engine.EventType{engine.EvGameAborted, engine.EvGameFinished, engine.EvFairnessRevealed}, types)
	require.Equal(t, "aborted", ev[1].Outcome)
	require.Equal(t, engine.PhaseFinished, tg.g.Public.Phase)
	require.Nil(t, tg.g.Public.Trustless.Pending)
	require.Empty(t, tg.g.Secret.Links)
	require.Equal(t, seq, tg.g.Public.RNG.Seq)
	for k := range tg.seats {
		a := tg.reveal0(k, ev[0].Trust.Index)
		_, err := tg.do(a)
		require.ErrorIs(t, err, engine.CodeGameOver)
	}
}

// TestTrustlessDeadline: a round whose deadline passes with a seat missing
// cannot be aborted before the deadline, is aborted after it naming the
// missing seat, and nothing is re-rolled: the action that was pending is
// never applied, with any randomness.
func TestTrustlessDeadline(t *testing.T) {
	tg := newTrustless(t, 3)
	tg.start()
	seq := tg.g.Public.RNG.Seq
	p := &tg.g.Public
	for p.Step != engine.StepMoveOrSleep {
		_, i := p.Player(p.Awaiting)
		a := engine.Action{Kind: engine.ActEndManage}
		if p.Step == engine.StepPreDuel {
			a.Kind = engine.ActSkipDuel
		}
		tg.must(tg.signed(i, a))
	}
	_, i := p.Player(p.Awaiting)
	tg.must(tg.signed(i, engine.Action{Kind: engine.ActMove}))
	pd := p.Trustless.Pending
	tg.must(tg.reveal(0))
	tg.must(tg.reveal(2))
	// Not before the deadline, not even at it; nor with nothing pending.
	tg.refused(engine.Action{Kind: engine.ActAbort, Actor: "server", At: pd.Deadline}, engine.CodeDeadlineNotPassed)
	require.False(t, tg.g.AbortDue(pd.Deadline))
	require.True(t, tg.g.AbortDue(pd.Deadline+1))
	ev := tg.must(engine.Action{Kind: engine.ActAbort, Actor: "server", At: pd.Deadline + 1})
	rec := ev[0].Trust
	require.Equal(t, engine.AbortDeadline, rec.Reason)
	require.Equal(t, []string{"p2"}, rec.Missing)
	require.Equal(t, pd.Index, rec.Index)
	require.Equal(t, pd.Digest, rec.Digest)
	require.Len(t, rec.Reveals, 2)
	for _, e := range ev {
		require.NotEqual(t, engine.EvDiceRolled, e.Type, "the pending move was never rolled")
		require.NotEqual(t, engine.EvMoved, e.Type)
	}
	require.Equal(t, seq, tg.g.Public.RNG.Seq, "not one word was drawn after the start's round")
	requireAbortedWithoutDraw(t, tg, ev)
	_, err := tg.do(engine.Action{Kind: engine.ActAbort, Actor: "server", At: pd.Deadline + 5})
	require.ErrorIs(t, err, engine.CodeGameOver)
}

func TestTrustlessAbortWithNothingPending(t *testing.T) {
	tg := newTrustless(t, 2)
	tg.refused(engine.Action{Kind: engine.ActAbort, Actor: "server", At: 1 << 50}, engine.CodeWrongStep)
}

// TestTrustlessActionSignatures: a seated player's action must carry its
// signature over the action at its version; an actor without a seat
// signs nothing. Each signature that does not verify has its positive
// control: ActionSignature off, the action is accepted.
func TestTrustlessActionSignatures(t *testing.T) {
	tg := newTrustless(t, 3)
	start := tg.signed(0, engine.Action{Kind: engine.ActStart})
	unsigned := start
	unsigned.Signature = ""
	tg.refused(unsigned, engine.CodeInvalidAction)
	noVersion := start
	noVersion.Version = 0
	tg.refused(noVersion, engine.CodeInvalidAction)
	byOther := start
	byOther.Signature = tg.signed(1, engine.Action{Kind: engine.ActStart}).Signature
	tg.refusedBy(byOther, engine.CodeBadSignature, checks.ActionSignature, "")
	// A signature made for another version, replayed at this one with its
	// version changed: the version is signed.
	old := start
	old.Version--
	require.NoError(t, tg.seats[0].Sign(&old))
	old.Version++
	tg.refusedBy(old, engine.CodeBadSignature, checks.ActionSignature, "")
	// A join signed by a key other than the one it brings.
	s, err := tg.seats[0].Join(engine.ClassScout, false, tg.g.Public.Version)
	require.NoError(t, err)
	s.Actor, s.Seat = "p4", 3
	tg.refusedBy(s, engine.CodeBadSignature, checks.ActionSignature, "") // signed as p1 at seat 0
	// An actor with no seat signs nothing (the engine cannot check it).
	stranger := engine.Action{Kind: engine.ActStart, Actor: "p9", Version: tg.g.Public.Version, Signature: start.Signature}
	tg.refused(stranger, engine.CodeInvalidAction)
	tg.must(start)
}

// TestTrustlessCreateChecks: the chain must cover the ruleset's worst
// case; the deadline is bounded; a trustless game takes no seed.
func TestTrustlessCreateChecks(t *testing.T) {
	eng := newTrustless(t, 0).eng
	need := eng.Rules().MaxRandomActions()
	require.Equal(t, 8912, need, "1 + 40*6*(1+3+2+1+30) + 1 + 5*3*2")
	for name, a := range map[string]engine.Action{
		"chain too short":    {ChainLength: need - 1},
		"chain too long":     {ChainLength: trustless.MaxChainLength + 1},
		"deadline too short": {DeadlineMs: engine.MinDeadlineMs - 1},
		"deadline too long":  {DeadlineMs: engine.MaxDeadlineMs + 1},
		"a seed":             {Seed: "x"},
		"a server seed":      {ServerSeed: strings.Repeat("ab", 32)},
		"openings":           {Openings: true},
	} {
		a.Kind, a.Actor, a.GameID, a.Mode = engine.ActCreate, "p1", "g", "trustless"
		var g engine.Game
		_, err := eng.Dispatch(&g, &a, nil, nil)
		require.ErrorIs(t, err, engine.CodeInvalidAction, name)
	}
	var g engine.Game
	_, err := eng.Dispatch(&g, &engine.Action{Kind: engine.ActCreate, Actor: "p1", GameID: "g", Mode: "trustless"}, nil, nil)
	require.NoError(t, err)
	require.Equal(t, uint32(trustless.DefaultChainLength), g.Public.Trustless.ChainLength)
	require.Equal(t, int64(engine.DefaultDeadlineMs), g.Public.Trustless.DeadlineMs)
	// A chain length in any other mode.
	var f engine.Game
	_, err = eng.Dispatch(&f, &engine.Action{Kind: engine.ActCreate, Actor: "p1", GameID: "g", Mode: "seeded", Seed: "s", ChainLength: 9000}, nil, nil)
	require.ErrorIs(t, err, engine.CodeInvalidAction)
}

// TestTrustlessJoinChecks: a trustless join brings a chain head and a key.
func TestTrustlessJoinChecks(t *testing.T) {
	tg := newTrustless(t, 1)
	ok, err := tg.seats[0].Join(engine.ClassMonk, false, tg.g.Public.Version)
	require.NoError(t, err)
	ok.Actor, ok.Seat = "p2", 1 // re-signed below
	for name, edit := range map[string]func(a *engine.Action){
		"no head":  func(a *engine.Action) { a.ChainHead = "" },
		"bad head": func(a *engine.Action) { a.ChainHead = "12" },
		"no key":   func(a *engine.Action) { a.PublicKey = "" },
	} {
		a := ok
		edit(&a)
		_, err := tg.do(a)
		require.Error(t, err, name)
	}
}

// TestTrustlessChainExhausted: a game whose next action needs an index
// past the chains ends as aborted (the state is edited to a chain of one
// link, which only the start can use).
func TestTrustlessChainExhausted(t *testing.T) {
	tg := newTrustless(t, 2)
	tg.g.Public.Trustless.ChainLength = 1
	for _, s := range tg.seats { // their replicas are edited alike
		s.Follower().Game().Public.Trustless.ChainLength = 1
	}
	tg.start()
	p := &tg.g.Public
	for p.Trustless.Pending == nil && p.Phase == engine.PhasePlaying {
		_, i := p.Player(p.Awaiting)
		a := engine.Action{Kind: engine.ActMove}
		switch p.Step {
		case engine.StepManage:
			a.Kind = engine.ActEndManage
		case engine.StepPreDuel:
			a.Kind = engine.ActSkipDuel
		}
		ev, err := tg.do(tg.signed(i, a))
		require.NoError(t, err)
		if a.Kind == engine.ActMove {
			require.Equal(t, engine.EvGameAborted, ev[0].Type)
			require.Equal(t, engine.AbortChainExhausted, ev[0].Trust.Reason)
			require.Equal(t, uint32(2), ev[0].Trust.Index)
			require.Equal(t, engine.ActMove, ev[0].Trust.Action.Kind)
			requireAbortedWithoutDraw(t, tg, ev)
			return
		}
	}
	t.Fatal("no move was made")
}
