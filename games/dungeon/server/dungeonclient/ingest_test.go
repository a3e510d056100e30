package dungeonclient

import (
	"context"
	"errors"
	"testing"

	"github.com/fairboard/fairboard/client"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/games/dungeon/engine"
	"github.com/fairboard/fairboard/games/dungeon/server/player"
	"github.com/fairboard/fairboard/games/dungeon/server/session"
	"github.com/fairboard/fairboard/games/dungeon/server/store"
)

// honest is a trustless game "g" played in process: p1 and p2 joined,
// p1's start pending; log is its public log, seats the players' seats.
func honest(t *testing.T) (g *engine.Game, log []engine.Event, seats []*player.Seat) {
	t.Helper()
	rules := engine.DefaultRules()
	eng := engine.NewReference(rules)
	g = &engine.Game{}
	do := func(a engine.Action) {
		t.Helper()
		s, err := session.StreamFor(g, &a)
		if a.Kind == engine.ActCreate {
			s, err = nil, nil
		}
		require.NoError(t, err)
		ev, err := eng.Dispatch(g, &a, s, nil)
		require.NoError(t, err, "%s by %s", a.Kind, a.Actor)
		log = append(log, ev...)
	}
	do(engine.Action{Kind: engine.ActCreate, Actor: "p1", GameID: "g", Mode: "trustless", ChainLength: rules.MaxRandomActions()})
	for i, uid := range []string{"p1", "p2"} {
		s, err := player.NewSeat(rules, "g", uid, i, uint32(rules.MaxRandomActions()))
		require.NoError(t, err)
		seats = append(seats, s)
		a, err := s.Join(engine.ClassMonk, false, g.Public.Version)
		require.NoError(t, err)
		do(a)
	}
	a := engine.Action{Kind: engine.ActStart, Actor: "p1", Version: g.Public.Version}
	require.NoError(t, seats[0].Sign(&a))
	do(a)
	return g, log, seats
}

// seated is p2's client of the game, fed nothing yet (no watcher, no
// functions: ingest is called directly).
func seated(t *testing.T, seat *player.Seat) *Client {
	c := newClient(Config{UID: "p2", GameID: "g"})
	r, err := player.RestoreSeat(c.rules, seat.Secrets())
	require.NoError(t, err)
	c.seat = r
	return c
}

func requireLie(t *testing.T, err error, want string) {
	t.Helper()
	var l *client.Lie
	require.True(t, errors.As(err, &l), "%v", err)
	require.Contains(t, l.What, want)
}

// TestIngestChecksEveryEventShown: the log is taken in seq order, any
// part of it shown again must be unchanged, and the game document is
// checked once the log has caught up with it. An event without a seq, a
// seq skipped, a past event changed, an event the replay does not make,
// a document or a marker that is not the replay's: each is a lie, kept.
func TestIngestChecksEveryEventShown(t *testing.T) {
	g, log, seats := honest(t)
	pub := g.Public
	n := len(log)

	c := seated(t, seats[1])
	require.NoError(t, c.ingest(&Update{Events: log[:3]}))
	require.False(t, c.Consistent(), "no document shown yet")
	require.NoError(t, c.ingest(&Update{State: &pub, Events: log}), "the first three again, unchanged, and the rest")
	require.True(t, c.Consistent())
	require.NoError(t, c.ingest(&Update{State: &pub, Events: log[1:]}), "all again")
	require.Equal(t, uint64(n), c.Game().Public.LogSeq)

	changed := append([]engine.Event(nil), log...)
	changed[2].Class = engine.ClassScout
	requireLie(t, c.ingest(&Update{Events: changed[2:3]}), "event 3 was {")
	requireLie(t, c.ingest(&Update{Events: changed[2:3]}), "(a past event changed)")
	require.Error(t, c.Err())
	require.Equal(t, c.Err(), c.Sync(context.Background()), "the lie is kept")

	for name, c2 := range map[string]struct {
		events []engine.Event
		want   string
	}{
		"no seq":    {[]engine.Event{{Type: engine.EvPlayerJoined}}, "an event without a seq: {"},
		"a skip":    {log[1:], "the log skips from seq 0 to 2"},
		"a skip on": {append(append([]engine.Event(nil), log[:2]...), log[3:]...), "the log skips from seq 2 to 4"},
		"a new lie": {changed, "the game diverges at event 3"},
	} {
		t.Run(name, func(t *testing.T) {
			c := seated(t, seats[1])
			requireLie(t, c.ingest(&Update{Events: c2.events}), c2.want)
		})
	}

	// The document and the markers, once the log has caught up.
	c = seated(t, seats[1])
	lied := *g.Clone()
	lied.Public.Trustless.Pending.Index = 2
	requireLie(t, c.ingest(&Update{State: &lied.Public, Events: log}), "the server asks for index 2")
	c = seated(t, seats[1])
	require.NoError(t, seats[0].Follow(log))
	rv, err := seats[0].Reveal(&pub, 5)
	require.NoError(t, err)
	m := store.MarkOf(&rv)
	m.Signature = m.Signature[2:] + "00"
	requireLie(t, c.ingest(&Update{State: &pub, Events: log, Marks: []store.Mark{m}}), "that its key did not sign")
}

// TestRevealedReadsTheRoundShown: the client counts its reveal of an
// index shown by its marker, or applied into the pending round with its
// action; another seat's, another index's, or none is not its own.
func TestRevealedReadsTheRoundShown(t *testing.T) {
	c := newClient(Config{UID: "p2", GameID: "g"})
	require.False(t, c.revealed(3), "nothing shown")
	c.marks = []store.Mark{{UID: "p1", Index: 3}, {UID: "p2", Index: 2}}
	require.False(t, c.revealed(3), "p1's marker, and p2's of index 2")
	require.True(t, c.revealed(2))
	c.marks = nil
	c.shown = &engine.Public{}
	require.False(t, c.revealed(3), "not a trustless game")
	c.shown.Trustless = &engine.Trustless{}
	require.False(t, c.revealed(3), "nothing pending")
	c.shown.Trustless.Pending = &engine.Pending{Index: 3, Reveals: []engine.RevealMark{{UID: "p1"}}}
	require.False(t, c.revealed(3), "p1's reveal applied")
	c.shown.Trustless.Pending.Reveals = append(c.shown.Trustless.Pending.Reveals, engine.RevealMark{UID: "p2", Seat: 1})
	require.True(t, c.revealed(3), "p2's reveal applied with its action")
	require.False(t, c.revealed(4), "another index pending")
	c.marks = []store.Mark{{UID: "p2", Index: 4}}
	require.True(t, c.revealed(4), "its marker")
}
