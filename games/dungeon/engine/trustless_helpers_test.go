package engine_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/games/dungeon/engine"
	"github.com/fairboard/fairboard/games/dungeon/server/player"
	"github.com/fairboard/fairboard/games/dungeon/server/session"
	"github.com/fairboard/fairboard/internal/checks"
	"github.com/fairboard/fairboard/rng/trustless"
)

// tgame is a trustless game played by hand in a test: the server's game
// and one player.Seat per seat, each following the public log.
type tgame struct {
	t      *testing.T
	eng    *engine.Engine
	g      engine.Game
	seats  []*player.Seat
	now    int64
	events []engine.Event
	// noFollow: do not feed the seats (a test whose engine plays other
	// rules than the seats' replicas).
	noFollow bool
}

// testChain is the chain length of the tests' games: the least the
// default ruleset allows (building it is quicker than the default's).
var testChain = engine.DefaultRules().MaxRandomActions()

// newTrustless creates a trustless game "tg" owned by p1 and seats n
// players p1..pn, each with its own chain and key; not started.
func newTrustless(t *testing.T, n int) *tgame {
	t.Helper()
	tg := &tgame{t: t, eng: engine.NewReference(engine.DefaultRules()), now: 1_000_000}
	tg.must(engine.Action{Kind: engine.ActCreate, Actor: "p1", GameID: "tg", Mode: "trustless", ChainLength: testChain})
	for i := range n {
		uid := "p" + string(rune('1'+i))
		s, err := player.NewSeat(tg.eng.Rules(), "tg", uid, i, uint32(testChain))
		require.NoError(t, err)
		require.NoError(t, s.Follow(tg.events))
		tg.seats = append(tg.seats, s)
		a, err := s.Join(engine.Classes[i%4], false, tg.g.Public.Version)
		require.NoError(t, err)
		tg.must(a)
	}
	return tg
}

// do applies a as a server does (session.StreamFor, then Dispatch) at
// the test's clock (a.At if set), and feeds the events to every seat.
func (tg *tgame) do(a engine.Action) ([]engine.Event, error) {
	tg.t.Helper()
	if a.At == 0 {
		tg.now += 1000
		a.At = tg.now
	}
	var ev []engine.Event
	var err error
	if a.Kind == engine.ActCreate {
		ev, err = tg.eng.Dispatch(&tg.g, &a, nil, nil)
	} else {
		s, serr := session.StreamFor(&tg.g, &a)
		require.NoError(tg.t, serr)
		ev, err = tg.eng.Dispatch(&tg.g, &a, s, nil)
	}
	if err != nil {
		return nil, err
	}
	tg.events = append(tg.events, ev...)
	if tg.noFollow {
		return ev, nil
	}
	for _, s := range tg.seats {
		require.NoError(tg.t, s.Follow(ev), "seat %s", s.UID())
	}
	return ev, nil
}

func (tg *tgame) must(a engine.Action) []engine.Event {
	tg.t.Helper()
	ev, err := tg.do(a)
	require.NoError(tg.t, err, "%s by %s", a.Kind, a.Actor)
	return ev
}

// signed returns seat i's action a, signed against the current version.
func (tg *tgame) signed(i int, a engine.Action) engine.Action {
	tg.t.Helper()
	a.Actor = tg.seats[i].UID()
	a.Version = tg.g.Public.Version
	require.NoError(tg.t, tg.seats[i].Sign(&a))
	return a
}

// reveal returns seat i's reveal of the pending index, checked by its
// client.
func (tg *tgame) reveal(i int) engine.Action {
	tg.t.Helper()
	a, err := tg.seats[i].Reveal(&tg.g.Public, 0)
	require.NoError(tg.t, err)
	return a
}

// refused applies a, requires the rejection code, and requires the game,
// the clock aside, to be exactly as it was.
func (tg *tgame) refused(a engine.Action, code engine.Code) {
	tg.t.Helper()
	before, err := tg.g.CanonicalJSON()
	require.NoError(tg.t, err)
	_, err = tg.do(a)
	require.Error(tg.t, err, "%s by %s was accepted; want %s", a.Kind, a.Actor, code)
	var rej *engine.Error
	require.True(tg.t, errors.As(err, &rej), "%v", err)
	require.Equal(tg.t, code, rej.Code, "%v", err)
	after, _ := tg.g.CanonicalJSON()
	require.True(tg.t, bytes.Equal(before, after), "a refused %s changed the game", a.Kind)
}

// refusedBy is refused, with its positive control: with check, the
// engine's check that refuses a with code, switched off, the same action
// on a copy of the game is accepted (then is "") or refused by a later
// check with then. So the refusal is that check's doing.
func (tg *tgame) refusedBy(a engine.Action, code engine.Code, check checks.Check, then engine.Code) {
	tg.t.Helper()
	tg.refused(a, code)
	tg.t.Run(fmt.Sprintf("%s without %s", code, check), func(t *testing.T) {
		checks.Off(t, check)
		g := tg.g.Clone()
		if a.At == 0 {
			a.At = tg.now
		}
		s, err := session.StreamFor(g, &a)
		require.NoError(t, err)
		_, err = tg.eng.Dispatch(g, &a, s, nil)
		if then == "" {
			require.NoError(t, err, "with %s off, %s by %s is accepted", check, a.Kind, a.Actor)
			return
		}
		require.ErrorIs(t, err, then, "with %s off, %s by %s is refused by a later check", check, a.Kind, a.Actor)
	})
}

// closeRound has every seat that has not yet revealed reveal, in seat
// order.
func (tg *tgame) closeRound() []engine.Event {
	tg.t.Helper()
	var all []engine.Event
	for i, s := range tg.seats {
		a, err := s.Reveal(&tg.g.Public, 0)
		if errors.Is(err, player.ErrNothingToReveal) {
			continue
		}
		require.NoError(tg.t, err, "seat %d", i)
		all = append(all, tg.must(a)...)
	}
	require.Nil(tg.t, tg.g.Public.Trustless.Pending)
	return all
}

// start starts the game and closes round 1.
func (tg *tgame) start() {
	tg.t.Helper()
	tg.must(tg.signed(0, engine.Action{Kind: engine.ActStart}))
	tg.closeRound()
	require.Equal(tg.t, engine.PhasePlaying, tg.g.Public.Phase)
}

// publicJSON is everything a player can read of the game: Public and
// every event so far.
func (tg *tgame) publicJSON() []byte {
	b, err := json.Marshal(tg.g.Public)
	require.NoError(tg.t, err)
	for i := range tg.events {
		b = append(b, '\n')
		b = tg.events[i].AppendJSON(b)
	}
	return b
}

// link returns seat i's link for index v (the test peeks into the seat's
// chain through its secrets).
func (tg *tgame) link(i int, v uint32) engine.Hash32 {
	sec := tg.seats[i].Secrets()
	c, err := trustless.NewChain(sec.GameID, uint32(sec.Seat), sec.ChainLength, [32]byte(sec.ChainSecret))
	require.NoError(tg.t, err)
	l, err := c.Link(v)
	require.NoError(tg.t, err)
	return engine.Hash32(l)
}
