package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/rng"
	"github.com/fairboard/fairboard/table"
	"github.com/fairboard/fairboard/table/trustseat"
)

type memSrv struct {
	m *table.Memory
	g string
}

func (s memSrv) Do(a table.Action) (*table.Result, error) { return s.m.Do(s.g, a) }
func (s memSrv) View(uid string) (*table.View, error)     { return s.m.View(s.g, uid) }

// gamectl verify checks a trustless table's record: every join, move and
// reveal signature and every link; a link changed is exit 1 naming it,
// the record as it was exit 0 (the control).
func TestVerifyTrustlessRecord(t *testing.T) {
	pigDef, err := registered("pig")
	require.NoError(t, err)
	m := table.NewMemory()
	_, err = m.Create("vt", pigDef, table.CreateRequest{Actor: "u0", ActionID: "c", Mode: rng.ModeTrustless, Seats: 2,
		Rules: []byte(`{"goal":30,"dieSides":6}`)})
	require.NoError(t, err)
	seats := make([]*trustseat.Seat, 2)
	for i, uid := range []string{"u0", "u1"} {
		seats[i], err = trustseat.New(pigDef, "vt", uid, i, 1<<16)
		require.NoError(t, err)
		_, err = m.Do("vt", seats[i].Join("j", uint64(1+i), nil, nil))
		require.NoError(t, err)
	}
	_, err = m.Do("vt", table.Action{Actor: "u0", ActionID: "s", Version: 3, Kind: table.KindStart})
	require.NoError(t, err)
	bots, err := rng.NewSeeded("vt")
	require.NoError(t, err)
	choose := func(v *table.View) game.Move {
		i, _ := bots.UniformInt(0, int64(len(v.Legal)-1), "test.bot", nil)
		return v.Legal[i]
	}
	_, err = trustseat.Play(memSrv{m, "vt"}, seats, choose, nil, 10000)
	require.NoError(t, err)
	rec, err := m.Record("vt", "u0")
	require.NoError(t, err)
	good, err := json.Marshal(rec)
	require.NoError(t, err)
	path := filepath.Join(t.TempDir(), "trustless.json")
	require.NoError(t, os.WriteFile(path, good, 0o644))
	code, out, errs := gamectl(t, "verify", path)
	require.Equal(t, 0, code, errs)
	require.Contains(t, out, "OK pig:")

	for i := range rec.Trustless.Moves {
		if rec.Trustless.Moves[i].Index > 0 {
			l := []byte(rec.Trustless.Moves[i].Reveals[0].Link)
			l[5] = map[bool]byte{true: 'a', false: 'b'}[l[5] != 'a']
			rec.Trustless.Moves[i].Reveals[0].Link = string(l)
			break
		}
	}
	bad, err := json.Marshal(rec)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(path, bad, 0o644))
	code, _, errs = gamectl(t, "verify", path)
	require.Equal(t, 1, code, errs)
	require.Contains(t, errs, "seat 0's link does not hash to its previous link")
}
