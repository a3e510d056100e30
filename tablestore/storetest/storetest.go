// Package storetest checks a tablestore.Store against the machinery: a
// seeded game played through the store by its uids ends as match.New and
// Apply end on the same seed and moves; every refusal leaves the table as
// it was; retries get the first result. It takes the game to play as a
// definition (the tests pass Pig), so it imports no game.
package storetest

import (
	"context"
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/match"
	"github.com/fairboard/fairboard/rng"
	"github.com/fairboard/fairboard/table"
	"github.com/fairboard/fairboard/tablestore"
)

// Saver is a Store that can show a table's saved bytes (fstables), so
// that a refusal can be checked to have written nothing.
type Saver interface {
	Saved(ctx context.Context, gameID string) ([]byte, error)
}

// UID is the uid of seat i in these tests.
func UID(i int) string { return fmt.Sprintf("u%d", i) }

// Lobby creates the table g of def in s with n seats in seeded mode (seed),
// joined by UID(0)..UID(n-1) and started by the owner UID(0).
func Lobby(t testing.TB, s tablestore.Store, def game.Definition, g, seed string, n int) {
	t.Helper()
	ctx := context.Background()
	_, err := s.Create(ctx, g, def.Name(), table.CreateRequest{Actor: UID(0), ActionID: "create", Mode: rng.ModeSeeded, Seed: seed, Seats: n})
	require.NoError(t, err)
	v := uint64(1)
	for i := range n {
		res, err := s.Do(ctx, g, table.Action{Actor: UID(i), ActionID: "join", Version: v, Kind: table.KindJoin, Seat: i})
		require.NoError(t, err)
		v = res.Version
	}
	_, err = s.Do(ctx, g, table.Action{Actor: UID(0), ActionID: "start", Version: v, Kind: table.KindStart})
	require.NoError(t, err)
}

// PlayOut plays the table g to its end (at most max moves): the uid of
// the awaited seat picks uniformly among its view's legal moves (match's
// random bot on bots) and sends it as JSON. It returns the moves.
func PlayOut(t testing.TB, s tablestore.Store, def game.Definition, g string, bots *rng.Stream, max int) []game.Move {
	t.Helper()
	ctx := context.Background()
	bot := match.NewRandom(bots)
	var moves []game.Move
	for range max {
		pub, _, err := s.View(ctx, g, "")
		require.NoError(t, err)
		if pub.Phase == table.PhaseFinished {
			return moves
		}
		who := pub.Seats[pub.ToMove].UID
		v, _, err := s.View(ctx, g, who)
		require.NoError(t, err)
		require.NotEmpty(t, v.Legal)
		mv := bot.Choose(nil, v.Seat, v.Legal)
		res, err := s.Do(ctx, g, table.Action{Actor: who, ActionID: fmt.Sprintf("m%d", len(moves)), Version: v.Version,
			Kind: table.KindMove, Move: game.AppendMoveJSON(nil, def.Kinds(), mv)})
		require.NoError(t, err)
		require.Equal(t, v.Version+1, res.Version)
		moves = append(moves, mv)
	}
	t.Fatalf("no end in %d moves", max)
	return nil
}

// CheckAgainstMatch plays a seeded game of def at n seats (no seat
// options) through s and checks it ends in match's public part, public
// log and outcome for the same seed and moves.
func CheckAgainstMatch(t *testing.T, s tablestore.Store, def game.Definition, g string, n int) {
	seed := "tablestore-" + g
	Lobby(t, s, def, g, seed, n)
	bots, err := rng.NewSeeded(seed + "/bots")
	require.NoError(t, err)
	moves := PlayOut(t, s, def, g, bots, 2000)
	require.Greater(t, len(moves), 10)

	m, err := match.New(def, match.Config{Mode: rng.ModeSeeded, Seed: seed, Seats: make([]game.Seat, n)})
	require.NoError(t, err)
	for _, mv := range moves {
		_, err := m.Apply(mv)
		require.NoError(t, err)
	}
	require.True(t, m.Over())
	pub, _, err := s.View(context.Background(), g, "")
	require.NoError(t, err)
	require.Equal(t, string(m.State().AppendPublic(nil)), string(pub.State))
	require.Equal(t, PublicEvents(m), GameEvents(pub.Log))
	o := m.State().Outcome()
	require.Equal(t, &table.Outcome{Winners: o.Winners, Payoffs: o.Payoffs}, pub.Outcome)
	require.Equal(t, uint64(1+n+1+len(moves)), pub.Version)
}

// snapshot is everything a reader or the server can see of a table.
type snapshot struct {
	views []*table.View
	saved []byte
}

func snap(t *testing.T, s tablestore.Store, g string, n int) snapshot {
	t.Helper()
	ctx := context.Background()
	var out snapshot
	for _, u := range append([]string{""}, uidsOf(n+1)...) {
		v, _, err := s.View(ctx, g, u)
		require.NoError(t, err)
		out.views = append(out.views, v)
	}
	if sv, ok := s.(Saver); ok {
		b, err := sv.Saved(ctx, g)
		require.NoError(t, err)
		out.saved = b
	}
	return out
}

func uidsOf(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = UID(i)
	}
	return out
}

// CheckRefusals forces the store's refusals on a started two-seat table
// of def (whose first kind takes no arguments, as Pig's roll): each
// leaves every view (and the saved bytes, for a Saver) as it was; a retry
// gets the first result; a reused action id is refused.
func CheckRefusals(t *testing.T, s tablestore.Store, def game.Definition, g string) {
	ctx := context.Background()
	Lobby(t, s, def, g, "refusals-"+g, 2)
	kind := def.Kinds()[0].Name
	mv := []byte(`{"kind":"` + kind + `"}`)
	move := func(actor, id string, version uint64, m []byte) table.Action {
		return table.Action{Actor: actor, ActionID: id, Version: version, Kind: table.KindMove, Move: m}
	}
	pub, _, err := s.View(ctx, g, "")
	require.NoError(t, err)
	ver := pub.Version
	first, other := UID(pub.ToMove), UID(1-pub.ToMove)
	before := snap(t, s, g, 2)
	for _, c := range []struct {
		name string
		a    table.Action
		code table.Code
	}{
		{"unknown move kind", move(first, "a1", ver, []byte(`{"kind":"fly"}`)), table.CodeInvalidAction},
		{"unknown field", move(first, "a2", ver, []byte(`{"kind":"`+kind+`","x":1}`)), table.CodeInvalidAction},
		{"not your turn", move(other, "a3", ver, mv), table.CodeNotYourTurn},
		{"stale version", move(first, "a4", ver-1, mv), table.CodeStaleVersion},
		{"not seated", move("stranger", "a5", ver, mv), table.CodeNotSeated},
		{"join once started", table.Action{Actor: "stranger", ActionID: "a6", Version: ver, Kind: table.KindJoin, Seat: 0}, table.CodeAlreadyStarted},
		{"start again", table.Action{Actor: UID(0), ActionID: "a7", Version: ver, Kind: table.KindStart}, table.CodeAlreadyStarted},
		{"abandon by another", table.Action{Actor: UID(1), ActionID: "a8", Version: ver, Kind: table.KindAbandon}, table.CodeNotOwner},
		{"bad action id", move(first, "bad id", ver, mv), table.CodeBadActionID},
	} {
		_, err := s.Do(ctx, g, c.a)
		require.ErrorIs(t, err, c.code, c.name)
		require.Equal(t, before, snap(t, s, g, 2), "%s changed the table", c.name)
	}
	_, err = s.Do(ctx, "nope", move(first, "a9", ver, mv))
	require.ErrorIs(t, err, table.CodeNotCreated)

	res, err := s.Do(ctx, g, move(first, "a1", ver, mv)) // a refused action's id stays free
	require.NoError(t, err)
	require.False(t, res.Replayed)
	after := snap(t, s, g, 2)
	again, err := s.Do(ctx, g, move(first, "a1", ver, mv))
	require.NoError(t, err)
	require.True(t, again.Replayed)
	again.Replayed = false
	require.Equal(t, res, again)
	require.Equal(t, after, snap(t, s, g, 2), "a retry changed the table")
	_, err = s.Do(ctx, g, move(first, "a1", ver+1, mv))
	require.ErrorIs(t, err, table.CodeActionIDReused)
	require.Equal(t, after, snap(t, s, g, 2), "a reused action id changed the table")
}

// CheckCreate forces create's refusals and its retry.
func CheckCreate(t *testing.T, s tablestore.Store, def game.Definition, g string) {
	ctx := context.Background()
	req := table.CreateRequest{Actor: UID(0), ActionID: "c", Mode: rng.ModeCrypto}
	_, err := s.Create(ctx, g, "no-such-game", req)
	require.ErrorIs(t, err, tablestore.ErrUnknownGame)
	_, err = s.Create(ctx, "bad id", def.Name(), req)
	require.ErrorIs(t, err, table.CodeBadGameID)
	_, err = s.Create(ctx, g, def.Name(), table.CreateRequest{Actor: UID(0), ActionID: "c", Mode: rng.ModeCrypto, Seats: 99})
	require.ErrorIs(t, err, table.CodeBadSetup)
	_, err = s.Game(ctx, g)
	require.ErrorIs(t, err, table.CodeNotCreated, "a refused create made the table")
	res, err := s.Create(ctx, g, def.Name(), req)
	require.NoError(t, err)
	require.Equal(t, uint64(1), res.Version)
	again, err := s.Create(ctx, g, def.Name(), req)
	require.NoError(t, err)
	require.True(t, again.Replayed)
	_, err = s.Create(ctx, g, def.Name(), table.CreateRequest{Actor: UID(0), ActionID: "c", Mode: rng.ModeCrypto, Seats: 3})
	require.ErrorIs(t, err, table.CodeActionIDReused)
	_, err = s.Create(ctx, g, def.Name(), table.CreateRequest{Actor: UID(1), ActionID: "c", Mode: rng.ModeCrypto})
	require.ErrorIs(t, err, table.CodeAlreadyCreated)
	name, err := s.Game(ctx, g)
	require.NoError(t, err)
	require.Equal(t, def.Name(), name)
}

// PublicEvents are the events of m's log that every seat reads
// (game.All), in order.
func PublicEvents(m *match.Match) []game.Event {
	var out []game.Event
	for _, e := range m.Events() {
		if e.To == game.All {
			out = append(out, e)
		}
	}
	return out
}

// GameEvents are the game's own events of a table's log (not the table's
// lobby events), as game.Events, in order.
func GameEvents(log []table.Event) []game.Event {
	var out []game.Event
	for _, e := range log {
		if e.Game {
			out = append(out, game.Event{To: e.To, Type: e.Type, Vals: e.Vals})
		}
	}
	return out
}
