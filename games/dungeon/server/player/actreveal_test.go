package player_test

import (
	"crypto/ed25519"
	"encoding/hex"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/games/dungeon/engine"
	"github.com/fairboard/fairboard/games/dungeon/server/player"
	"github.com/fairboard/fairboard/internal/checks"
)

// closeStart has both seats reveal the pending start, so that the game
// awaits a decision, and the seats follow.
func (s *server) closeStart() {
	s.t.Helper()
	for _, seat := range s.seats {
		a, err := seat.Reveal(&s.g.Public, 1)
		require.NoError(s.t, err)
		s.apply(a)
	}
	for _, seat := range s.seats {
		require.NoError(s.t, seat.Follow(s.log))
	}
}

// awaited is the index of the seat the game awaits.
func (s *server) awaited() int {
	for i, seat := range s.seats {
		if seat.UID() == s.g.Public.Awaiting {
			return i
		}
	}
	s.t.Fatalf("the game awaits %q", s.g.Public.Awaiting)
	return -1
}

// plain is the step's action that draws nothing: endManage, or skipDuel.
func (s *server) plain() engine.ActionKind {
	if s.g.Public.Step == engine.StepManage {
		return engine.ActEndManage
	}
	return engine.ActSkipDuel
}

// toMove plays the awaited seats' plain actions up to a move, and the
// seats follow.
func (s *server) toMove() {
	s.t.Helper()
	for s.g.Public.Step != engine.StepMoveOrSleep {
		s.apply(s.signed(s.awaited(), s.plain()))
	}
	for _, seat := range s.seats {
		require.NoError(s.t, seat.Follow(s.log))
	}
}

// signed is seat i's action of kind k against the game's version.
func (s *server) signed(i int, k engine.ActionKind) engine.Action {
	s.t.Helper()
	a := engine.Action{Kind: k, Actor: s.seats[i].UID(), Version: s.g.Public.Version}
	require.NoError(s.t, s.seats[i].Sign(&a))
	return a
}

// TestActRevealOnlyForAnActionThatDraws: a seat's reveal goes with its own
// action only when the action draws (the replica, applying it, holds it
// pending): none for a step's plain action, the next index's link for a
// move, signed over the pending action the server then holds, recorded
// in the secrets first. The same action again gets the same reveal; none
// for an action the rules refuse, for an index revealed for another
// action (the index serves that action or none), nor past the next.
func TestActRevealOnlyForAnActionThatDraws(t *testing.T) {
	s := newServer(t)
	s.closeStart()
	x := s.awaited()
	seat := s.seats[x]
	end := s.signed(x, s.plain())
	_, draws, err := seat.ActReveal(&end)
	require.NoError(t, err)
	require.False(t, draws, "%s draws nothing", end.Kind)
	require.Equal(t, uint32(1), seat.Secrets().Revealed, "nothing recorded")
	bad := s.signed(x, engine.ActMove) // a move before its step: refused
	_, draws, err = seat.ActReveal(&bad)
	require.Error(t, err)
	require.False(t, draws)
	s.apply(end)
	s.toMove()
	x = s.awaited()
	seat = s.seats[x]
	move := s.signed(x, engine.ActMove)
	rv, draws, err := seat.ActReveal(&move)
	require.NoError(t, err)
	require.True(t, draws, "a move draws")
	require.Equal(t, uint32(2), rv.Index)
	require.Equal(t, uint32(2), seat.Secrets().Revealed, "recorded before it is sent")
	again, draws, err := seat.ActReveal(&move)
	require.NoError(t, err)
	require.True(t, draws)
	require.Equal(t, rv, again, "the same action: the same reveal")
	other := s.signed(x, engine.ActSleep) // another action at that index
	_, _, err = seat.ActReveal(&other)
	require.NoError(t, err, "a sleep draws nothing: no reveal, no error")
	other = s.signed(x, engine.ActMove)
	other.Version-- // another digest, that the rules refuse (stale)
	require.NoError(t, seat.Sign(&other))
	_, draws, err = seat.ActReveal(&other)
	require.Error(t, err)
	require.False(t, draws)

	for name, set := range map[string]func(sec *player.Secrets){
		"a revealed index serves that action or none": func(sec *player.Secrets) { sec.Digest = engine.Hash32{0xde, 0xad} },
		"not the next after 0":                        func(sec *player.Secrets) { sec.Revealed = 0 },
	} {
		sec := seat.Secrets()
		set(&sec)
		r, err := player.RestoreSeat(engine.DefaultRules(), sec)
		require.NoError(t, err)
		require.NoError(t, r.Follow(s.log))
		_, draws, err := r.ActReveal(&move)
		require.ErrorContains(t, err, name)
		require.False(t, draws)
	}

	// The server applies the move, then the reveal that came with it: the
	// engine takes it, signed over the pending action it holds.
	s.apply(move)
	rv.At = move.At
	s.apply(rv)
	pd := s.g.Public.Trustless.Pending
	require.NotNil(t, pd)
	require.Len(t, pd.Reveals, 1)
	require.Equal(t, seat.UID(), pd.Reveals[0].UID)
}

// TestCheckShownTakesTheRevealsAppliedWithTheirAction: the game document
// of a round whose actor revealed with its action shows that reveal (and
// one version more) where the log, until the round closes, does not: the
// other seat's replica takes it once its signature is checked, and
// reveals. A shown reveal its seat's key did not sign, of a player not
// seated there, or shown twice is named (the positive controls).
func TestCheckShownTakesTheRevealsAppliedWithTheirAction(t *testing.T) {
	s := newServer(t)
	s.closeStart()
	x := s.awaited()
	s.toMove()
	x = s.awaited()
	y := 1 - x
	move := s.signed(x, engine.ActMove)
	rv, _, err := s.seats[x].ActReveal(&move)
	require.NoError(t, err)
	s.apply(move)
	mine := s.seats[y]
	require.NoError(t, mine.Follow(s.log))
	require.NoError(t, player.CheckShown(mine.Follower().Game().Public, s.g.Public), "before the actor's reveal")
	s.apply(rv)
	shown := s.g.Public
	require.NoError(t, player.CheckShown(mine.Follower().Game().Public, shown), "the actor's reveal, applied with its action")
	a, err := mine.Reveal(&shown, 9)
	require.NoError(t, err, "the other seat reveals")
	require.Equal(t, rv.Index, a.Index)

	for _, tc := range []struct {
		name  string
		lie   func(p *engine.Public)
		check checks.Check
	}{
		{"a signature its key did not make", func(p *engine.Public) {
			sig, _ := hex.DecodeString(p.Trustless.Pending.Reveals[0].Signature)
			sig[3] ^= 1
			p.Trustless.Pending.Reveals[0].Signature = hex.EncodeToString(sig)
		}, checks.AppliedSignature},
		{"a player not seated there", func(p *engine.Public) { p.Trustless.Pending.Reveals[0].Seat = y }, checks.AppliedSeat},
		{"a seat shown twice", func(p *engine.Public) {
			p.Trustless.Pending.Reveals = append(p.Trustless.Pending.Reveals, p.Trustless.Pending.Reveals[0])
			p.Version++
		}, checks.AppliedOnce},
	} {
		g := s.g.Clone()
		tc.lie(&g.Public)
		err := player.CheckShown(mine.Follower().Game().Public, g.Public)
		require.Error(t, err, tc.name)
		require.Contains(t, err.Error(), "the server shows", tc.name)
		// The positive control: with the check that names it off, the
		// replica takes the lie.
		t.Run(tc.name+" control", func(t *testing.T) {
			checks.Off(t, tc.check)
			require.NoError(t, player.CheckShown(mine.Follower().Game().Public, g.Public), "with %s off", tc.check)
		})
	}
	// One version fewer than the reveals shown: the document is not the
	// replay's.
	g := s.g.Clone()
	g.Public.Version--
	require.Error(t, player.CheckShown(mine.Follower().Game().Public, g.Public))
}

// TestExternalSeatPreparesActReveal: a seat whose key is held elsewhere
// gives the reveal for its action without a signature and the bytes to
// sign; signed by an independent Ed25519 (crypto/ed25519 on the seat's
// seed), it is the reveal the seat holding its key makes, and the index
// is recorded.
func TestExternalSeatPreparesActReveal(t *testing.T) {
	s := newServer(t)
	s.closeStart()
	s.toMove()
	x := s.awaited()
	sec := s.seats[x].Secrets()
	f := player.NewFollower(engine.DefaultRules())
	require.NoError(t, f.Follow(s.log))
	ext, err := player.ExternalSeat(sec, s.seats[x].PublicKey(), f)
	require.NoError(t, err)
	move := s.signed(x, engine.ActMove)
	_, _, err = ext.ActReveal(&move)
	require.ErrorIs(t, err, player.ErrKeyElsewhere)
	rv, msg, draws, err := ext.PrepareActReveal(&move)
	require.NoError(t, err)
	require.True(t, draws)
	require.Empty(t, rv.Signature)
	rv.Signature = hex.EncodeToString(ed25519.Sign(ed25519.NewKeyFromSeed(sec.KeySeed[:]), msg))
	want, _, err := s.seats[x].ActReveal(&move)
	require.NoError(t, err)
	require.Equal(t, want, rv, "the same reveal, signed by the key holder")
	require.Equal(t, rv.Index, ext.Secrets().Revealed, "the index is recorded")
	end := s.signed(x, engine.ActSleep)
	_, _, draws, err = ext.PrepareActReveal(&end)
	require.NoError(t, err)
	require.False(t, draws, "a sleep draws nothing")
}
