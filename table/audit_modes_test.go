package table_test

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/audit"
	"github.com/fairboard/fairboard/games/pig"
	"github.com/fairboard/fairboard/match"
	"github.com/fairboard/fairboard/rng"
	"github.com/fairboard/fairboard/table"
	"github.com/fairboard/fairboard/table/trustseat"
)

// headSrv keeps one table as a store that saves it in parts does: after
// each applied action it saves the head (sealing every 4 events), rings
// the head's audit entries in a ring of its own, and restores the table
// from the head alone; its views are of the head joined with its chunks.
// Action i is applied at time i (unix ms).
type headSrv struct {
	t      *testing.T
	tb     *table.Table
	saved  []byte
	chunks [][]byte
	ring   *audit.Ring
	at     int64
}

func (s *headSrv) Do(a table.Action) (*table.Result, error) {
	s.at++
	a.At = s.at
	res, err := s.tb.Do(a)
	if err != nil || res.Replayed {
		return res, err
	}
	h, err := s.tb.SaveHead(4)
	require.NoError(s.t, err)
	if h.Chunk != nil {
		require.Equal(s.t, len(s.chunks), h.ChunkIndex)
		s.chunks = append(s.chunks, h.Chunk)
	}
	for _, e := range h.Audit {
		var x audit.Entry
		require.NoError(s.t, json.Unmarshal(e.JSON, &x))
		require.Equal(s.t, s.at, x.TS, "an entry is stamped with its action's time")
		s.ring.Put(x)
	}
	s.saved = h.Saved
	s.tb, err = table.Restore(pig.Def, h.Saved)
	require.NoError(s.t, err)
	return res, nil
}

func (s *headSrv) whole() *table.Table {
	b, err := table.JoinHead(s.saved, s.chunks)
	require.NoError(s.t, err)
	tb, err := table.Restore(pig.Def, b)
	require.NoError(s.t, err)
	return tb
}

func (s *headSrv) View(uid string) (*table.View, error) { return s.whole().View(uid), nil }

// In every mode whose stream draws at the server (seeded, fair,
// trustless: each round's), a Pig table with audit on, saved in parts
// and restored from its head after every action, rings the audit
// entries the finished game's record (match.Record: its replay, from the
// seed, the fair protocol's reveal or the rounds' revealed links) holds.
func TestAuditRingIsTheRecordsInEveryMode(t *testing.T) {
	for _, mode := range []rng.Mode{rng.ModeSeeded, rng.ModeFair, rng.ModeTrustless} {
		t.Run(string(mode), func(t *testing.T) {
			g := "audit-" + string(mode)
			req := table.CreateRequest{Actor: uid(0), ActionID: "create", Mode: mode, Seats: 2, GameID: g, Audit: true}
			switch mode {
			case rng.ModeSeeded:
				req.Seed = g
			case rng.ModeFair:
				req.ServerSeed = serverSeed
			}
			tb, _, err := table.Create(pig.Def, req)
			require.NoError(t, err)
			h, err := tb.SaveHead(4)
			require.NoError(t, err)
			s := &headSrv{t: t, tb: tb, saved: h.Saved, ring: audit.NewRing(audit.RingSize)}
			if mode == rng.ModeTrustless {
				seats := make([]*trustseat.Seat, 2)
				for i := range seats {
					seats[i], err = trustseat.New(pig.Def, g, uid(i), i, tb.Public().Trustless.ChainLength)
					require.NoError(t, err)
					_, err := s.Do(seats[i].Join("join", uint64(1+i), nil, nil))
					require.NoError(t, err)
				}
				_, err = s.Do(table.Action{Actor: uid(0), ActionID: "start", Version: 3, Kind: table.KindStart})
				require.NoError(t, err)
				_, err = trustseat.Play(s, seats, holdSome, nil, 20000)
				require.NoError(t, err)
			} else {
				entropy := "" // a fair seat's contribution
				if mode == rng.ModeFair {
					entropy = "ab"
				}
				for i := range 2 {
					_, err := s.Do(table.Action{Actor: uid(i), ActionID: "join", Version: uint64(1 + i), Kind: table.KindJoin, Seat: i, Entropy: entropy})
					require.NoError(t, err)
				}
				_, err = s.Do(table.Action{Actor: uid(0), ActionID: "start", Version: 3, Kind: table.KindStart})
				require.NoError(t, err)
				for i := 0; s.tb.Phase() != table.PhaseFinished; i++ {
					v := s.whole().View(uid(s.tb.Public().ToMove))
					_, err := s.Do(table.Action{Actor: uid(v.Seat), ActionID: fmt.Sprintf("m%d", i), Version: v.Version, Kind: table.KindMove,
						Move: []byte(`{"kind":"` + holdSome(v).Kind + `"}`)})
					require.NoError(t, err)
				}
			}
			tbw := s.whole()
			require.Equal(t, table.PhaseFinished, tbw.Phase())
			rec, err := tbw.Record(uid(0))
			require.NoError(t, err)
			div, err := match.CheckRecord(pig.Def, rec)
			require.NoError(t, err)
			require.NoError(t, div)
			var want []rng.Entry
			for _, b := range rec.Audit {
				var e rng.Entry
				require.NoError(t, json.Unmarshal(b, &e))
				want = append(want, e)
			}
			require.Greater(t, len(want), 5)
			var got []rng.Entry
			for _, e := range s.ring.Entries() {
				got = append(got, e.Entry)
			}
			require.Equal(t, want[max(0, len(want)-audit.RingSize):], got)
		})
	}
}
