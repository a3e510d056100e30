package table_test

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/games/pig"
	"github.com/fairboard/fairboard/match"
	"github.com/fairboard/fairboard/rng"
	"github.com/fairboard/fairboard/table"
	"github.com/fairboard/fairboard/table/trustseat"
)

// memSrv is a trustseat.Server over one game of a table.Memory.
type memSrv struct {
	m *table.Memory
	g string
}

func (s memSrv) Do(a table.Action) (*table.Result, error) { return s.m.Do(s.g, a) }
func (s memSrv) View(uid string) (*table.View, error)     { return s.m.View(s.g, uid) }

// trustLobby creates the trustless Pig table g of n seats (chain length
// chain, 0 for the default), joins one trustseat.Seat per seat and
// starts it.
func trustLobby(t *testing.T, m *table.Memory, g string, n int, chain uint32) []*trustseat.Seat {
	t.Helper()
	_, err := m.Create(g, pig.Def, table.CreateRequest{Actor: uid(0), ActionID: "create", Mode: rng.ModeTrustless, Seats: n, ChainLength: chain})
	require.NoError(t, err)
	v, err := m.View(g, "")
	require.NoError(t, err)
	seats := make([]*trustseat.Seat, n)
	for i := range seats {
		seats[i], err = trustseat.New(pig.Def, g, uid(i), i, v.Trustless.ChainLength)
		require.NoError(t, err)
		res, err := m.Do(g, seats[i].Join("join", uint64(1+i), nil, nil))
		require.NoError(t, err)
		require.Equal(t, uint64(2+i), res.Version)
	}
	_, err = m.Do(g, table.Action{Actor: uid(0), ActionID: "start", Version: uint64(1 + n), Kind: table.KindStart})
	require.NoError(t, err)
	return seats
}

// holdSome is a bot: it holds once its turn total is at least 12 (read
// from the log: its rolls since its turn began), else rolls.
func holdSome(v *table.View) game.Move {
	turn := int64(0)
	for _, e := range v.Log {
		switch {
		case e.Game && e.Type == pig.EventRolled:
			turn = e.Vals[2]
		case e.Game && (e.Type == pig.EventBusted || e.Type == pig.EventHeld):
			turn = 0
		}
	}
	for _, mv := range v.Legal {
		if mv.Kind == pig.KindHold && turn >= 12 {
			return mv
		}
	}
	return game.Move{Kind: pig.KindRoll}
}

// Whole trustless Pig games of 2 and 4 players through table.Do, each
// checked against an independent replay: every round's randomness
// computed here from the spec's definitions over the revealed links (not
// by rng/trustless), and Pig's own rules applied with the spec's
// ChaCha20 stream keyed by it; and the record verifies.
func TestTrustlessPigThroughTableDo(t *testing.T) {
	for _, n := range []int{2, 4} {
		t.Run(fmt.Sprint(n, " players"), func(t *testing.T) {
			m := table.NewMemory()
			g := fmt.Sprintf("tl-pig-%d", n)
			seats := trustLobby(t, m, g, n, 0)
			end, err := trustseat.Play(memSrv{m, g}, seats, holdSome, nil, 20000)
			require.NoError(t, err)
			require.Equal(t, table.PhaseFinished, end.Phase)
			require.False(t, end.Outcome.Abandoned)
			require.Nil(t, end.Trustless.Pending)

			rec, err := m.Record(g, uid(0))
			require.NoError(t, err)
			div, err := match.CheckRecord(pig.Def, rec)
			require.NoError(t, err)
			require.NoError(t, div)

			log, winners := independentReplay(t, g, n, rec)
			var tableLog []string
			for _, e := range end.Log {
				if e.Game {
					tableLog = append(tableLog, fmt.Sprint(e.Type, e.Vals))
				}
			}
			require.Equal(t, log, tableLog)
			require.Equal(t, winners, end.Outcome.Winners)
			rounds := 0
			for _, mv := range rec.Trustless.Moves {
				if mv.Index > 0 {
					rounds++
					require.Equal(t, uint32(rounds), mv.Index)
				}
			}
			require.Greater(t, rounds, 5)
			t.Logf("%d moves, %d rounds", len(rec.Moves), rounds)
		})
	}
}

func field(b []byte) []byte { return append(binary.BigEndian.AppendUint32(nil, uint32(len(b))), b...) }

// independentReplay plays rec's moves with Pig's rules, each round's
// stream keyed by R_v computed from docs/fairness.md's definitions
// (the action's canonical bytes, its digest, R_v) over the record's
// links; it returns the events and the winners.
func independentReplay(t *testing.T, g string, n int, rec *match.Record) ([]string, []int) {
	t.Helper()
	st, ev, err := pig.Def.Setup(pig.Def.DefaultRuleset(), make([]game.Seat, n), nil, nil)
	require.NoError(t, err)
	var log []string
	for i, s := range rec.Moves {
		var seat int
		var kind string
		_, err := fmt.Sscanf(s, `{"seat":%d,"kind":%q}`, &seat, &kind)
		require.NoError(t, err, s)
		pm := rec.Trustless.Moves[i]
		var rnd game.Rand = game.FromStream(rng.NewRefusing(rng.ModeTrustless))
		if pm.Index > 0 {
			canon := field([]byte("fairboard/table-action/v1"))
			canon = append(canon, field([]byte("move"))...)
			canon = append(canon, field([]byte(uid(seat)))...)
			canon = binary.BigEndian.AppendUint64(canon, pm.Version)
			canon = append(canon, field([]byte(s))...)
			canon = append(canon, field(nil)...)
			canon = append(canon, field(nil)...)
			pre := append(field([]byte("fairboard/action-digest/v1")), field([]byte(g))...)
			digest := sha256.Sum256(append(pre, field(canon)...))
			in := append(field([]byte("fairboard/trustless/v1")), field([]byte(g))...)
			in = binary.BigEndian.AppendUint32(in, pm.Index)
			in = append(in, field(digest[:])...)
			for _, r := range pm.Reveals {
				l, err := hex.DecodeString(r.Link)
				require.NoError(t, err)
				in = append(in, l...)
			}
			rv := sha256.Sum256(in)
			rnd = game.FromStream(rng.NewTrustless(rv))
		}
		ev, err = st.Apply(game.Move{Seat: seat, Kind: kind}, rnd, ev)
		require.NoError(t, err, "move %d", i+1)
	}
	for _, e := range ev {
		log = append(log, fmt.Sprint(e.Type, e.Vals))
	}
	return log, st.Outcome().Winners
}
