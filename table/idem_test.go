package table_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/games/pig"
	"github.com/fairboard/fairboard/rng"
	"github.com/fairboard/fairboard/table"
)

// A retry (the same actor, action id and content) gets the stored result
// again and applies nothing, whatever happened since; other content
// under the id is action_id_reused; a refused action stores nothing.
func TestIdempotency(t *testing.T) {
	s := table.NewMemory()
	create := table.CreateRequest{Actor: uid(0), ActionID: "create", Mode: rng.ModeSeeded, Seed: "idem", Seats: 3}
	first, err := s.Create("p", pig.Def, create)
	require.NoError(t, err)
	require.False(t, first.Replayed)
	again, err := s.Create("p", pig.Def, create)
	require.NoError(t, err)
	require.True(t, again.Replayed)
	again.Replayed = false
	require.Equal(t, first, again)
	other := create
	other.Seed = "other"
	_, err = s.Create("p", pig.Def, other)
	require.ErrorIs(t, err, table.CodeActionIDReused)

	// A join sent twice: the same result, the table as after once.
	join := table.Action{Actor: uid(0), ActionID: "join", Version: 1, Kind: table.KindJoin, Seat: 0}
	res1, err := s.Do("p", join)
	require.NoError(t, err)
	require.Equal(t, uint64(2), res1.Version)
	require.Len(t, res1.Events, 1)
	once := snapshot(t, s, "p")
	res2, err := s.Do("p", join)
	require.NoError(t, err)
	require.True(t, res2.Replayed)
	res2.Replayed = false
	require.Equal(t, res1, res2)
	require.Equal(t, once, snapshot(t, s, "p"))

	// Another actor's id is its own: u1 uses "join" too.
	_, err = s.Do("p", table.Action{Actor: uid(1), ActionID: "join", Version: 2, Kind: table.KindJoin, Seat: 1})
	require.NoError(t, err)

	// A refusal stores nothing: the id is free for the next try.
	_, err = s.Do("p", table.Action{Actor: uid(2), ActionID: "x", Version: 3, Kind: table.KindJoin, Seat: 0})
	require.ErrorIs(t, err, table.CodeSeatTaken)
	_, err = s.Do("p", table.Action{Actor: uid(2), ActionID: "x", Version: 3, Kind: table.KindJoin, Seat: 2})
	require.NoError(t, err)

	// A retry after later actions still gets the stored result, and the
	// table stays at its version.
	before := snapshot(t, s, "p")
	res3, err := s.Do("p", join)
	require.NoError(t, err)
	require.True(t, res3.Replayed)
	require.Equal(t, uint64(2), res3.Version)
	require.Equal(t, res1.Events, res3.Events)
	require.Equal(t, before, snapshot(t, s, "p"))
	join.Version = 4
	_, err = s.Do("p", join)
	require.ErrorIs(t, err, table.CodeActionIDReused, "the same id at another version is other content")

	// Moves: start, then the mover's roll twice.
	_, err = s.Do("p", table.Action{Actor: uid(0), ActionID: "start", Version: 4, Kind: table.KindStart})
	require.NoError(t, err)
	pub, err := s.View("p", "")
	require.NoError(t, err)
	roll := table.Action{Actor: pub.Seats[pub.ToMove].UID, ActionID: "r1", Version: pub.Version, Kind: table.KindMove, Move: []byte(`{"kind":"roll"}`)}
	r1, err := s.Do("p", roll)
	require.NoError(t, err)
	after := snapshot(t, s, "p")
	r2, err := s.Do("p", roll)
	require.NoError(t, err)
	require.True(t, r2.Replayed)
	r2.Replayed = false
	require.Equal(t, r1, r2)
	require.Equal(t, after, snapshot(t, s, "p"), "a retried roll rolls nothing")
	roll.Move = []byte(`{"kind":"hold"}`)
	_, err = s.Do("p", roll)
	require.ErrorIs(t, err, table.CodeActionIDReused)

	// Results are the actor's own: changing one changes nothing stored.
	r1.Events[0].Type = "Changed"
	r4, err := s.Do("p", table.Action{Actor: roll.Actor, ActionID: "r1", Version: pub.Version, Kind: table.KindMove, Move: []byte(`{"kind":"roll"}`)})
	require.NoError(t, err)
	require.NotEqual(t, "Changed", r4.Events[0].Type)
}
