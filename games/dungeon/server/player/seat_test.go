package player_test

import (
	"crypto/ed25519"
	"encoding/hex"
	"errors"
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/games/dungeon/engine"
	"github.com/fairboard/fairboard/games/dungeon/server/player"
	"github.com/fairboard/fairboard/games/dungeon/server/session"
	"github.com/fairboard/fairboard/internal/checks"
)

// server is an honest server in process, and the log it has published.
type server struct {
	t     *testing.T
	eng   *engine.Engine
	g     engine.Game
	log   []engine.Event
	seats []*player.Seat
}

func (s *server) apply(a engine.Action) []engine.Event {
	s.t.Helper()
	var ev []engine.Event
	var err error
	if a.Kind == engine.ActCreate {
		ev, err = s.eng.Dispatch(&s.g, &a, nil, nil)
	} else {
		str, serr := session.StreamFor(&s.g, &a)
		require.NoError(s.t, serr)
		ev, err = s.eng.Dispatch(&s.g, &a, str, nil)
	}
	require.NoError(s.t, err, "%s by %s", a.Kind, a.Actor)
	s.log = append(s.log, ev...)
	return ev
}

// newServer has two seats join a trustless game and p1 start it: the
// start is pending (index 1), and the seats have followed the log.
func newServer(t *testing.T) *server { return newServerOf(t, 2) }

// newServerOf is newServer with n seats (p1..pn, n at most 9).
func newServerOf(t *testing.T, n int) *server {
	rules := engine.DefaultRules()
	s := &server{t: t, eng: engine.NewReference(rules)}
	s.apply(engine.Action{Kind: engine.ActCreate, Actor: "p1", GameID: "ps", Mode: "trustless", ChainLength: rules.MaxRandomActions()})
	for i := range n {
		seat, err := player.NewSeat(rules, "ps", "p"+strconv.Itoa(i+1), i, uint32(rules.MaxRandomActions()))
		require.NoError(t, err)
		s.seats = append(s.seats, seat)
		a, err := seat.Join(engine.ClassMonk, false, s.g.Public.Version)
		require.NoError(t, err)
		s.apply(a)
	}
	a := engine.Action{Kind: engine.ActStart, Actor: "p1", Version: s.g.Public.Version}
	require.NoError(t, s.seats[0].Sign(&a))
	s.apply(a)
	for _, seat := range s.seats {
		require.NoError(t, seat.Follow(s.log))
	}
	return s
}

// TestSeatRevealsWhatItChecked: an honest server's pending action is
// revealed once; the round closes; the seat will not reveal the index
// again.
func TestSeatRevealsWhatItChecked(t *testing.T) {
	s := newServer(t)
	a, err := s.seats[1].Reveal(&s.g.Public, 5)
	require.NoError(t, err)
	require.Equal(t, uint32(1), a.Index)
	_, err = s.seats[1].Reveal(&s.g.Public, 6)
	require.ErrorIs(t, err, player.ErrNothingToReveal, "revealed already, though the server has not shown it")
	s.apply(a)
	_, err = s.seats[1].Reveal(&s.g.Public, 7)
	require.ErrorIs(t, err, player.ErrNothingToReveal)
	b, err := s.seats[0].Reveal(&s.g.Public, 8)
	require.NoError(t, err)
	ev := s.apply(b)
	for _, seat := range s.seats {
		require.NoError(t, seat.Follow(ev))
		require.Equal(t, s.g.Public.Trustless.Transcript, seat.Follower().Game().Public.Trustless.Transcript)
		_, err := seat.Reveal(&s.g.Public, 9)
		require.ErrorIs(t, err, player.ErrNothingToReveal, "nothing pending")
	}
	require.Equal(t, uint32(1), s.seats[0].Secrets().Revealed)
}

// TestSeatRefusesAHostileServer: a seat does not reveal when the game the
// server shows is not the one its replica of the public log makes: a
// pending action the log never recorded, another index, another digest,
// another transcript (a client shown another game). Each lie names the
// seat's check that refuses it; with that check switched off (the
// positive control), the seat reveals its link for the lie.
func TestSeatRefusesAHostileServer(t *testing.T) {
	for _, tc := range []struct {
		name  string
		lie   func(p *engine.Public)
		check checks.Check
	}{
		{"an index out of turn", func(p *engine.Public) { p.Trustless.Pending.Index = 2 }, checks.SeatIndex},
		{"another digest", func(p *engine.Public) { p.Trustless.Pending.Digest[0] ^= 1 }, checks.SeatDigest},
		{"another transcript", func(p *engine.Public) { p.Trustless.Pending.Transcript[5] ^= 1 }, checks.SeatTranscript},
		{"an unrecorded pending", func(p *engine.Public) {}, checks.SeatRecorded},
	} {
		name := tc.name
		// lied returns the honest server, the game document it shows, and
		// a seat that has followed its log.
		lied := func(t *testing.T) (*server, *engine.Game, *player.Seat) {
			s := newServer(t)
			shown := s.g.Clone()
			tc.lie(&shown.Public)
			seat := s.seats[1]
			if name == "an unrecorded pending" {
				var err error
				seat, err = player.RestoreSeat(engine.DefaultRules(), seat.Secrets())
				require.NoError(t, err)
				require.NoError(t, seat.Follow(s.log[:len(s.log)-1]), "the log up to the pending record")
			}
			return s, shown, seat
		}
		t.Run(name, func(t *testing.T) {
			s, shown, seat := lied(t)
			_, err := seat.Reveal(&shown.Public, 1)
			require.Error(t, err, name)
			require.False(t, errors.Is(err, player.ErrNothingToReveal), name)
			require.Zero(t, seat.Secrets().Revealed, "%s: nothing was revealed", name)
			// The honest game, shown as it is, is revealed.
			if name != "an unrecorded pending" {
				_, err = seat.Reveal(&s.g.Public, 1)
				require.NoError(t, err, name)
			}
		})
		t.Run(name+" control", func(t *testing.T) {
			checks.Off(t, tc.check)
			_, shown, seat := lied(t)
			a, err := seat.Reveal(&shown.Public, 1)
			require.NoError(t, err, "with %s off, the seat reveals for the lie", tc.check)
			require.Equal(t, uint32(1), a.Index)
			require.Equal(t, uint32(1), seat.Secrets().Revealed)
		})
	}
}

// TestFollowerCatchesAChangedOutcome: a log whose die differs from the
// one the round's links make is a divergence, and the seat then refuses
// to reveal anything.
func TestFollowerCatchesAChangedOutcome(t *testing.T) {
	s := newServer(t)
	for _, seat := range s.seats {
		a, err := seat.Reveal(&s.g.Public, 1)
		require.NoError(t, err)
		s.apply(a)
	}
	start := len(s.log)
	for i := len(s.log) - 1; i >= 0 && s.log[i].Type != engine.EvRoundRevealed; i-- {
		start = i
	}
	ev := append([]engine.Event{}, s.log[start-1:]...)
	for i := range ev {
		if ev[i].Type == engine.EvTurnOrderRolled {
			ev[i].Value = ev[i].Value%6 + 1
			break
		}
	}
	honest := s.seats[0]
	require.NoError(t, honest.Follow(s.log), "the honest log")
	lied := s.seats[1]
	err := lied.Follow(ev)
	var d *player.Divergence
	require.True(t, errors.As(err, &d), "%v", err)
	require.Contains(t, d.What, "TurnOrderRolled")
	_, err = lied.Reveal(&s.g.Public, 1)
	require.ErrorAs(t, err, &d, "a seat that saw a lie reveals nothing more")

	// The positive control: without the replay's comparison, a seat takes
	// the changed die.
	t.Run("control", func(t *testing.T) {
		checks.Off(t, checks.ReplaySame)
		blind, err := player.RestoreSeat(engine.DefaultRules(), s.seats[1].Secrets())
		require.NoError(t, err)
		require.NoError(t, blind.Follow(s.log[:start-1]))
		require.NoError(t, blind.Follow(ev), "with ReplaySame off, the changed die goes unseen")
	})
}

// TestRestoreSeat: a seat rebuilt from its secrets (after a restart) makes
// the same links and signatures, and still refuses to reveal an index
// twice.
func TestRestoreSeat(t *testing.T) {
	s := newServer(t)
	a, err := s.seats[1].Reveal(&s.g.Public, 5)
	require.NoError(t, err)
	r, err := player.RestoreSeat(engine.DefaultRules(), s.seats[1].Secrets())
	require.NoError(t, err)
	require.Equal(t, s.seats[1].Head(), r.Head())
	require.Equal(t, s.seats[1].PublicKey(), r.PublicKey())
	require.NoError(t, r.Follow(s.log))
	_, err = r.Reveal(&s.g.Public, 6)
	require.ErrorIs(t, err, player.ErrNothingToReveal, "the restored seat knows it revealed index 1")
	s.apply(a)
}

// TestSeatRevealsAnIndexForOneActionOnly: a seat that revealed index 1 for
// one action refuses to reveal it for another (a replaced pending action).
func TestSeatRevealsAnIndexForOneActionOnly(t *testing.T) {
	s := newServer(t)
	sec := s.seats[1].Secrets()
	sec.Revealed, sec.Digest = 1, engine.Hash32{0xde, 0xad}
	seat, err := player.RestoreSeat(engine.DefaultRules(), sec)
	require.NoError(t, err)
	require.NoError(t, seat.Follow(s.log))
	_, err = seat.Reveal(&s.g.Public, 1)
	require.ErrorContains(t, err, "a revealed index serves that action or none")
}

// TestExternalSeat: a seat whose key is held elsewhere (a browser's
// WebCrypto key) gives the bytes to sign; signed with the seat's key by
// an independent Ed25519 (crypto/ed25519 on the seed), they are the
// signatures the seat holding its key makes, and the server accepts the
// reveal. It signs nothing itself.
func TestExternalSeat(t *testing.T) {
	s := newServer(t)
	sec := s.seats[1].Secrets()
	f := player.NewFollower(engine.DefaultRules())
	require.NoError(t, f.Follow(s.log))
	ext, err := player.ExternalSeat(sec, s.seats[1].PublicKey(), f)
	require.NoError(t, err)
	require.Equal(t, s.seats[1].Head(), ext.Head())
	require.Equal(t, s.seats[1].PublicKey(), ext.PublicKey())
	require.Zero(t, ext.Secrets().KeySeed, "the seed is not kept")

	key := ed25519.NewKeyFromSeed(sec.KeySeed[:])
	a, msg, err := ext.PrepareReveal(&s.g.Public, 5)
	require.NoError(t, err)
	require.Empty(t, a.Signature)
	a.Signature = hex.EncodeToString(ed25519.Sign(key, msg))
	want, err := s.seats[1].Reveal(&s.g.Public, 5)
	require.NoError(t, err)
	require.Equal(t, want, a, "the same reveal, signed by the key holder")
	_, _, err = ext.PrepareReveal(&s.g.Public, 6)
	require.ErrorIs(t, err, player.ErrNothingToReveal, "the index is recorded")
	s.apply(a)

	move := engine.Action{Kind: engine.ActMove, Actor: "p2", Version: 9}
	require.ErrorIs(t, ext.Sign(&move), player.ErrKeyElsewhere)
	m, err := ext.SignMessage(&move)
	require.NoError(t, err)
	want2 := move
	require.NoError(t, s.seats[1].Sign(&want2))
	require.Equal(t, want2.Signature, hex.EncodeToString(ed25519.Sign(key, m)))
	_, err = ext.SignMessage(&engine.Action{Kind: engine.ActMove, Actor: "p1", Version: 9})
	require.Error(t, err, "another player's action")
}
