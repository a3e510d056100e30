package table_test

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/games/kuhn"
	"github.com/fairboard/fairboard/games/leduc"
	"github.com/fairboard/fairboard/games/pig"
	"github.com/fairboard/fairboard/rng"
	"github.com/fairboard/fairboard/table"
	"github.com/fairboard/fairboard/table/trustseat"
)

// tableGames are the games the functions serve as tables (every
// registered game but the dungeon, which keeps its own path).
var tableGames = []game.Definition{pig.Def, kuhn.Def, leduc.Def}

// oldLayout returns data without its snapshot: a table as saved before
// snapshots.
func oldLayout(t *testing.T, data []byte) []byte {
	t.Helper()
	var m map[string]json.RawMessage
	require.NoError(t, json.Unmarshal(data, &m))
	delete(m, "snapshot")
	b, err := json.Marshal(m)
	require.NoError(t, err)
	return b
}

// everything is what every reader, every seat alone and the server see
// of tb, and its saved bytes.
func everything(t *testing.T, tb *table.Table) string {
	t.Helper()
	var parts []any
	for _, u := range []string{"", uid(0), uid(1), uid(2), uid(9)} {
		parts = append(parts, tb.View(u))
	}
	for i := range tb.Seats() {
		parts = append(parts, tb.SeatPart(i))
	}
	data, err := tb.Save()
	require.NoError(t, err)
	b, err := json.Marshal(parts)
	require.NoError(t, err)
	return string(b) + "\n" + string(tb.StateBytes()) + "\n" + string(data)
}

// three restores data from its snapshot, by replay, and from the old
// layout (its snapshot dropped), checks that the three show and save
// byte-identical (the saved bytes: data again, the old layout's with its
// snapshot made), and returns them.
func three(t *testing.T, def game.Definition, data []byte, hasSnapshot bool) [3]*table.Table {
	t.Helper()
	if hasSnapshot {
		require.Contains(t, string(data), `"snapshot":{`)
	}
	a, err := table.Restore(def, data)
	require.NoError(t, err)
	b, err := table.RestoreReplay(def, data)
	require.NoError(t, err)
	c, err := table.Restore(def, oldLayout(t, data))
	require.NoError(t, err)
	want := everything(t, a)
	require.Equal(t, want, everything(t, b))
	require.Equal(t, want, everything(t, c))
	again, err := a.Save()
	require.NoError(t, err)
	require.Equal(t, string(data), string(again))
	return [3]*table.Table{a, b, c}
}

// A table restored from its snapshot goes on byte-identical to the same
// table restored by replay and to one saved in the old layout (no
// snapshot), over whole games of every table game in seeded, fair and
// crypto modes, saved and restored after every action: every action's
// result, every reader's view, every seat's part and the saved bytes are
// the same. Seeded and fair tables also stay byte-identical to a
// reference table never saved (the stream goes on where it was); a
// crypto table's snapshot-restored path is checked against its replay at
// every step (its draws after a restore come from a new crypto stream).
func TestSnapshotGoesOnAsReplay(t *testing.T) {
	for _, def := range tableGames {
		for _, mode := range []rng.Mode{rng.ModeSeeded, rng.ModeFair, rng.ModeCrypto} {
			for g := range 3 {
				t.Run(fmt.Sprintf("%s/%s/%d", def.Name(), mode, g), func(t *testing.T) {
					actions := snapshotGame(t, def, mode, g)
					require.Greater(t, actions, 3)
				})
			}
		}
	}
}

// snapshotGame plays one game for TestSnapshotGoesOnAsReplay and
// returns how many actions it took.
func snapshotGame(t *testing.T, def game.Definition, mode rng.Mode, g int) int {
	req := table.CreateRequest{Actor: uid(0), ActionID: "c", Mode: mode}
	switch mode {
	case rng.ModeSeeded:
		req.Seed = fmt.Sprintf("snap-%d", g)
	case rng.ModeFair:
		req.ServerSeed = serverSeed
	}
	ref, _, err := table.Create(def, req)
	require.NoError(t, err)
	data, err := ref.Save()
	require.NoError(t, err)
	bots, err := rng.NewSeeded(fmt.Sprintf("snap-bots-%s-%d", def.Name(), g))
	require.NoError(t, err)
	do := func(a table.Action) {
		tabs := three(t, def, data, ref.Phase() != table.PhaseLobby)
		var res [3]*table.Result
		for i, tb := range tabs {
			res[i], err = tb.Do(a)
			require.NoError(t, err)
		}
		if mode != rng.ModeCrypto {
			r, err := ref.Do(a)
			require.NoError(t, err)
			require.Equal(t, r, res[0])
			require.Equal(t, res[0], res[1])
			require.Equal(t, res[0], res[2])
			require.Equal(t, everything(t, ref), everything(t, tabs[0]))
			require.Equal(t, everything(t, tabs[0]), everything(t, tabs[1]))
			require.Equal(t, everything(t, tabs[0]), everything(t, tabs[2]))
		} else {
			ref = tabs[0]
		}
		data, err = tabs[0].Save()
		require.NoError(t, err)
	}
	n := ref.Seats()
	for i := range n {
		a := table.Action{Actor: uid(i), ActionID: "j", Version: ref.Version(), Kind: table.KindJoin, Seat: i}
		if mode == rng.ModeFair {
			a.Entropy = fmt.Sprintf("%02x", i+g)
		}
		do(a)
	}
	do(table.Action{Actor: uid(0), ActionID: "s", Version: ref.Version(), Kind: table.KindStart})
	actions := n + 1
	for k := 0; ref.Phase() == table.PhasePlaying; k++ {
		require.Less(t, k, 5000, "no end")
		pub := ref.Public()
		who := pub.Seats[pub.ToMove].UID
		v := ref.View(who)
		pick, err := bots.UniformInt(0, int64(len(v.Legal)-1), "test.bot", nil)
		require.NoError(t, err)
		do(table.Action{Actor: who, ActionID: fmt.Sprintf("m%d", k), Version: v.Version, Kind: table.KindMove,
			Move: game.AppendMoveJSON(nil, def.Kinds(), v.Legal[pick])})
		actions++
	}
	three(t, def, data, true) // the finished table too
	return actions
}

// savedSrv is a trustseat.Server over a table kept as its saved bytes:
// every request restores it from its snapshot and, for an action, also
// by replay and from the old layout, applies the action to the three
// and checks that they answer and save the same.
type savedSrv struct {
	t       *testing.T
	data    []byte
	started bool
}

func (s *savedSrv) Do(a table.Action) (*table.Result, error) {
	tabs := three(s.t, pig.Def, s.data, s.started)
	res, err := tabs[0].Do(a)
	for _, tb := range tabs[1:] {
		r, e := tb.Do(a)
		require.Equal(s.t, fmt.Sprint(err), fmt.Sprint(e))
		require.Equal(s.t, res, r)
		require.Equal(s.t, everything(s.t, tabs[0]), everything(s.t, tb))
	}
	if err != nil {
		return nil, err
	}
	s.data, err = tabs[0].Save()
	require.NoError(s.t, err)
	return res, nil
}

func (s *savedSrv) View(uid string) (*table.View, error) {
	tb, err := table.Restore(pig.Def, s.data)
	require.NoError(s.t, err)
	return tb.View(uid), nil
}

// A trustless Pig table restored from its snapshot at every request (its
// rounds' reveals included) goes on as by replay and from the old
// layout, to the end of a whole game.
func TestSnapshotTrustlessPig(t *testing.T) {
	const g = "tl-snap"
	tb, _, err := table.Create(pig.Def, table.CreateRequest{Actor: uid(0), ActionID: "create", Mode: rng.ModeTrustless, GameID: g, Seats: 2})
	require.NoError(t, err)
	data, err := tb.Save()
	require.NoError(t, err)
	srv := &savedSrv{t: t, data: data}
	seats := make([]*trustseat.Seat, 2)
	for i := range seats {
		seats[i], err = trustseat.New(pig.Def, g, uid(i), i, tb.View("").Trustless.ChainLength)
		require.NoError(t, err)
		_, err = srv.Do(seats[i].Join("join", uint64(1+i), nil, nil))
		require.NoError(t, err)
	}
	_, err = srv.Do(table.Action{Actor: uid(0), ActionID: "start", Version: 3, Kind: table.KindStart})
	require.NoError(t, err)
	srv.started = true
	end, err := trustseat.Play(srv, seats, holdSome, nil, 20000)
	require.NoError(t, err)
	require.Equal(t, table.PhaseFinished, end.Phase)
	require.False(t, end.Outcome.Abandoned)
	require.Greater(t, len(end.Trustless.Moves), 10)
}

// The snapshot is what Restore goes on from (a positive control for
// TestSnapshotGoesOnAsReplay): a seeded table whose snapshot names
// another stream position restores (the state is the saved one) but
// rolls other dice than its replay, and RestoreReplay, the check by
// replay, refuses it.
func TestSnapshotStreamIsRead(t *testing.T) {
	tb, _, err := table.Create(pig.Def, table.CreateRequest{Actor: uid(0), ActionID: "c", Mode: rng.ModeSeeded, Seed: "control"})
	require.NoError(t, err)
	for i := range 2 {
		_, err := tb.Do(table.Action{Actor: uid(i), ActionID: "j", Version: tb.Version(), Kind: table.KindJoin, Seat: i})
		require.NoError(t, err)
	}
	_, err = tb.Do(table.Action{Actor: uid(0), ActionID: "s", Version: tb.Version(), Kind: table.KindStart})
	require.NoError(t, err)
	data, err := tb.Save()
	require.NoError(t, err)
	other, err := rng.NewSeeded("another stream")
	require.NoError(t, err)
	st, err := other.State()
	require.NoError(t, err)
	var m map[string]json.RawMessage
	require.NoError(t, json.Unmarshal(data, &m))
	var snap map[string]any
	require.NoError(t, json.Unmarshal(m["snapshot"], &snap))
	require.Contains(t, snap["stream"], "sfc32:")
	snap["stream"] = st
	m["snapshot"], err = json.Marshal(snap)
	require.NoError(t, err)
	tampered, err := json.Marshal(m)
	require.NoError(t, err)

	_, err = table.RestoreReplay(pig.Def, tampered)
	require.ErrorContains(t, err, "not its saved snapshot")
	a, err := table.Restore(pig.Def, tampered)
	require.NoError(t, err)
	b, err := table.Restore(pig.Def, oldLayout(t, data))
	require.NoError(t, err)
	differ := false
	for k := 0; k < 20 && !differ && a.Phase() == table.PhasePlaying; k++ {
		roll := table.Action{Actor: uid(a.Public().ToMove), ActionID: fmt.Sprintf("r%d", k), Version: a.Version(), Kind: table.KindMove, Move: []byte(`{"kind":"roll"}`)}
		ra, err := a.Do(roll)
		require.NoError(t, err)
		rb, err := b.Do(roll)
		require.NoError(t, err)
		differ = fmt.Sprint(ra.Events) != fmt.Sprint(rb.Events)
		if differ {
			break
		}
	}
	require.True(t, differ, "twenty rolls from another stream position gave the same dice")
}

// A snapshot saved with a table in its lobby (no game to restore) is
// refused.
func TestSnapshotInTheLobbyRefused(t *testing.T) {
	tb, _, err := table.Create(pig.Def, table.CreateRequest{Actor: uid(0), ActionID: "c", Mode: rng.ModeSeeded, Seed: "lobby"})
	require.NoError(t, err)
	data, err := tb.Save()
	require.NoError(t, err)
	_, err = table.Restore(pig.Def, data)
	require.NoError(t, err)
	var m map[string]json.RawMessage
	require.NoError(t, json.Unmarshal(data, &m))
	m["snapshot"] = json.RawMessage(`{"public":"{}","private":["",""],"secret":""}`)
	bad, err := json.Marshal(m)
	require.NoError(t, err)
	_, err = table.Restore(pig.Def, bad)
	require.ErrorContains(t, err, "phase")
}
