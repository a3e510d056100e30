package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/match"
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

// gamectl verify checks the evidence of a cheat named in a trustless
// hand's deal: a Kuhn table whose seat 0 sends its first pass with a card
// dropped, signed, ends naming it a cheat, and the record verifies (exit
// 0); the same record with the pass the seat made before dropping the
// card as the evidence (a server naming an honest pass a cheat) is
// refused, naming seat 0's pass 1 (exit 2, as every deal that does not
// verify: not a replayable record).
func TestVerifyFalseCheat(t *testing.T) {
	kuhnDef, err := registered("kuhn")
	require.NoError(t, err)
	m := table.NewMemory()
	_, err = m.Create("vc", kuhnDef, table.CreateRequest{Actor: "u0", ActionID: "c", Mode: rng.ModeTrustless, Seats: 2})
	require.NoError(t, err)
	seats := make([]*trustseat.Seat, 2)
	for i, uid := range []string{"u0", "u1"} {
		seats[i], err = trustseat.New(kuhnDef, "vc", uid, i, 16)
		require.NoError(t, err)
		_, err = m.Do("vc", seats[i].Join("j", uint64(1+i), nil, nil))
		require.NoError(t, err)
	}
	_, err = m.Do("vc", table.Action{Actor: "u0", ActionID: "s", Version: 3, Kind: table.KindStart})
	require.NoError(t, err)
	v, err := m.View("vc", "u0")
	require.NoError(t, err)
	a, err := seats[0].DealTo("p", v)
	require.NoError(t, err)
	honest, dropped := *a.Deal.Pass, *a.Deal.Pass
	dropped.Deck = dropped.Deck[:2:2]
	seats[0].Resign(&dropped)
	a.Deal.Pass = &dropped
	_, err = m.Do("vc", *a)
	require.NoError(t, err, "the drop is applied as the seat's forfeit")

	path := filepath.Join(t.TempDir(), "cheat.json")
	write := func(rec *match.Record) {
		b, err := json.Marshal(rec)
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(path, b, 0o644))
	}
	rec, err := m.Record("vc", "u0")
	require.NoError(t, err)
	write(rec)
	code, out, errs := gamectl(t, "verify", path)
	require.Equal(t, 0, code, errs)
	require.Contains(t, out, "OK kuhn:")

	rec.Trustless.Deal.Refused = &honest
	write(rec)
	code, _, errs = gamectl(t, "verify", path)
	require.Equal(t, 2, code, errs)
	require.Contains(t, errs, "names seat 0, but its refused pass 1 verifies (signature, deck and proofs): an honest pass named a cheat")
}
