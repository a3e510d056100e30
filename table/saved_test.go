package table_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/games/dungeon"
	"github.com/fairboard/fairboard/games/pig"
	"github.com/fairboard/fairboard/match"
	"github.com/fairboard/fairboard/rng"
	"github.com/fairboard/fairboard/table"
)

// seen is everything readers and the server see of t.
func seen(t *testing.T, tb *table.Table) string {
	t.Helper()
	var b strings.Builder
	for _, u := range []string{"", uid(0), uid(1), uid(2), uid(3), uid(9)} {
		v := tb.View(u)
		o := v.Outcome
		v.Outcome = nil
		fmt.Fprintf(&b, "%+v %+v\n", *v, o)
	}
	b.Write(tb.StateBytes())
	return b.String()
}

// roundTrip saves tb, restores it and checks that the restored table
// shows and saves the same; it returns the restored table.
func roundTrip(t *testing.T, def game.Definition, tb *table.Table) *table.Table {
	t.Helper()
	data, err := tb.Save()
	require.NoError(t, err)
	r, err := table.Restore(def, data)
	require.NoError(t, err)
	again, err := r.Save()
	require.NoError(t, err)
	require.Equal(t, string(data), string(again))
	require.Equal(t, seen(t, tb), seen(t, r))
	return r
}

// A table saved and restored after every action (every seventh of the
// dungeon's, and at the end) goes on as if it never
// were: a seeded game ends in match's state on the same seed and moves,
// a crypto game ends; every stored result is answered again after.
func TestSaveRestoreEveryAction(t *testing.T) {
	for _, c := range []struct {
		def   game.Definition
		mode  rng.Mode
		seed  string
		seats int
		every int // restore after every action of this many
	}{
		{pig.Def, rng.ModeSeeded, "saved", 3, 1},
		{pig.Def, rng.ModeCrypto, "", 2, 1},
		{dungeon.Def, rng.ModeSeeded, "saved", 2, 7}, // a replay of the dungeon costs more
		{dungeon.Def, rng.ModeCrypto, "", 2, 7},
	} {
		tb, _, err := table.Create(c.def, table.CreateRequest{Actor: uid(0), ActionID: "c", Mode: c.mode, Seed: c.seed, Seats: c.seats})
		require.NoError(t, err)
		tb = roundTrip(t, c.def, tb)
		var sent []table.Action
		var results []*table.Result
		do := func(a table.Action) {
			res, err := tb.Do(a)
			require.NoError(t, err)
			sent, results = append(sent, a), append(results, res)
			if len(sent)%c.every == 0 || tb.Phase() == table.PhaseFinished {
				tb = roundTrip(t, c.def, tb)
			}
		}
		for i := range c.seats {
			do(table.Action{Actor: uid(i), ActionID: "j", Version: tb.Version(), Kind: table.KindJoin, Seat: i})
		}
		do(table.Action{Actor: uid(0), ActionID: "s", Version: tb.Version(), Kind: table.KindStart})
		bots, err := rng.NewSeeded("saved/bots")
		require.NoError(t, err)
		bot := match.NewRandom(bots)
		var moves []game.Move
		for n := 0; tb.Phase() == table.PhasePlaying; n++ {
			require.Less(t, n, 3000)
			pub := tb.Public()
			v := tb.View(pub.Seats[pub.ToMove].UID)
			mv := bot.Choose(nil, v.Seat, v.Legal)
			moves = append(moves, mv)
			do(table.Action{Actor: uid(v.Seat), ActionID: fmt.Sprintf("m%d", n), Version: v.Version, Kind: table.KindMove,
				Move: game.AppendMoveJSON(nil, c.def.Kinds(), mv)})
		}
		for i, a := range sent {
			res, err := tb.Do(a)
			require.NoError(t, err)
			require.True(t, res.Replayed)
			res.Replayed = false
			require.Equal(t, results[i], res)
		}
		if c.mode == rng.ModeSeeded {
			m, err := match.New(c.def, match.Config{Mode: c.mode, Seed: c.seed, Seats: make([]game.Seat, c.seats)})
			require.NoError(t, err)
			for _, mv := range moves {
				_, err := m.Apply(mv)
				require.NoError(t, err)
			}
			require.Equal(t, match.StateBytes(m.State()), tb.StateBytes())
		}
		require.Greater(t, len(moves), 10)
	}
}

// Restore refuses what it cannot make the saved table from; RestoreReplay
// (the check by replay) also refuses draws that do not replay, which
// Restore, going on from the snapshot, does not read.
func TestRestoreRefusals(t *testing.T) {
	tb, _, err := table.Create(pig.Def, table.CreateRequest{Actor: uid(0), ActionID: "c", Mode: rng.ModeCrypto, Seats: 2})
	require.NoError(t, err)
	for i := range 2 {
		_, err := tb.Do(table.Action{Actor: uid(i), ActionID: "j", Version: tb.Version(), Kind: table.KindJoin, Seat: i})
		require.NoError(t, err)
	}
	_, err = tb.Do(table.Action{Actor: uid(0), ActionID: "s", Version: tb.Version(), Kind: table.KindStart})
	require.NoError(t, err)
	for n := 0; n < 6; n++ {
		pub := tb.Public()
		_, err := tb.Do(table.Action{Actor: pub.Seats[pub.ToMove].UID, ActionID: fmt.Sprintf("m%d", n), Version: tb.Version(),
			Kind: table.KindMove, Move: []byte(`{"kind":"roll"}`)})
		require.NoError(t, err)
	}
	data, err := tb.Save()
	require.NoError(t, err)
	good := string(data)
	i := strings.Index(good, `"draws":[`) + len(`"draws":[`)
	j := i + strings.IndexByte(good[i:], ',')
	k := i + strings.IndexByte(good[i:], ']')
	first := good[i:j]
	other := "1"
	if first == "1" {
		other = "2"
	}
	for _, c := range []struct {
		name, data, msg string
		replay          bool
	}{
		{"another format", strings.Replace(good, table.SavedFormat, "fairboard-table/v0", 1), "format", false},
		{"an unknown field", strings.Replace(good, `{"format"`, `{"x":1,"format"`, 1), "unknown field", false},
		{"another mode", strings.Replace(good, `"mode":"crypto"`, `"mode":"dice"`, 1), "mode", false},
		{"trustless without its protocol", strings.Replace(good, `"mode":"crypto"`, `"mode":"trustless"`, 1), "trustless protocol state", false},
		{"fair without its server seed", strings.Replace(good, `"mode":"crypto"`, `"mode":"fair"`, 1), "server's seed", false},
		{"another draw", good[:i] + other + good[j:], "move 2 (roll", true}, // a 1 where it was not, or not where it was
		{"another state hash", strings.Replace(good, `"stateHash":"`, `"stateHash":"0`, 1), "state hash", false},
		{"a draw too many", good[:k] + ",1" + good[k:], "1 of ", true},
		{"a snapshot of another state", strings.Replace(good, `"public":"{\"banked\":[`, `"public":"{\"banked\":[1`, 1), "state hash", false},
		{"a snapshot that does not decode", strings.Replace(good, `"public":"{`, `"public":"{{`, 1), "public part", false},
		{"a snapshot the moves do not reach", strings.Replace(good, `"public":"{\"banked\":[`, `"public":"{\"banked\":[1`, 1), "not its saved snapshot", true},
		{"a bad ruleset", strings.Replace(good, `"dieSides":6`, `"dieSides":1`, 1), "dieSides", false},
		{"a phase without its game", strings.Replace(good, `"phase":"playing"`, `"phase":"lobby"`, 1), "phase", false},
	} {
		restore := table.Restore
		if c.replay {
			restore = table.RestoreReplay
		}
		_, err := restore(pig.Def, []byte(c.data))
		require.ErrorContains(t, err, c.msg, c.name)
	}
	_, err = table.Restore(dungeon.Def, data)
	require.ErrorContains(t, err, "a table of pig, not dungeon")
	_, err = table.Restore(pig.Def, data)
	require.NoError(t, err)
}
