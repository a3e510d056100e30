package table_test

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/games/pig"
	"github.com/fairboard/fairboard/match"
	"github.com/fairboard/fairboard/rng"
	"github.com/fairboard/fairboard/table"
	"github.com/fairboard/fairboard/table/trustseat"
)

// editJSON returns data with edit applied to its decoded JSON object.
func editJSON(t *testing.T, data []byte, edit func(m map[string]any)) []byte {
	t.Helper()
	var m map[string]any
	require.NoError(t, json.Unmarshal(data, &m))
	edit(m)
	b, err := json.Marshal(m)
	require.NoError(t, err)
	return b
}

// headBounded checks that a started trustless table's head holds fewer
// than chunk log events, moves and moves' protocol: whatever the game's
// length, the rest is sealed.
func headBounded(t *testing.T, head []byte, chunk int) {
	t.Helper()
	var h struct {
		Log       []json.RawMessage
		Moves     []json.RawMessage
		Trustless struct{ Moves []json.RawMessage }
	}
	require.NoError(t, json.Unmarshal(head, &h))
	require.Less(t, len(h.Log), chunk)
	require.Less(t, len(h.Moves), chunk)
	require.Len(t, h.Trustless.Moves, len(h.Moves))
}

// A trustless table's protocol state, which its head goes on from, is
// checked by the replay (RestoreReplay of the joined table): a snapshot
// with another stream position, a transcript, a next round or a seat's
// last link other than the applied moves give, or a sealed round's link
// altered in its chunk, is refused by the replay, while Restore (from
// the snapshot and the head's state, no replay) takes each: the check is
// what catches them (the positive control; and the untouched table
// replays).
func TestTrustlessHeadTamperCaught(t *testing.T) {
	srv, seats := trustParted(t, pig.Def, "tl-tamper", 4)
	p := srv.p
	_, err := trustseat.Play(srv, seats, holdSome, func(v *table.View) bool {
		return v.Trustless.Pending != nil && len(p.chunks) >= 5
	}, 20000)
	require.NoError(t, err)
	headBounded(t, p.head, 4)
	data := joined(t, p)
	_, err = table.RestoreReplay(pig.Def, data)
	require.NoError(t, err) // the control: the table as it was replays

	trust := func(m map[string]any) map[string]any { return m["trustless"].(map[string]any) }
	other := "00000000000000000000000000000000000000000000000000000000000000aa"
	// a chunk's round with its links: the first move's of chunk 1 or after
	ci := -1
	for i := 1; i < len(p.chunks) && ci < 0; i++ {
		var c struct{ Trust []struct{ Index int } }
		require.NoError(t, json.Unmarshal(p.chunks[i], &c))
		if len(c.Trust) > 0 && c.Trust[0].Index > 0 {
			ci = i
		}
	}
	require.GreaterOrEqual(t, ci, 1)
	for _, c := range []struct {
		name string
		data []byte
		want string
	}{
		{"snapshot seq", editJSON(t, data, func(m map[string]any) {
			sn := m["snapshot"].(map[string]any)
			sn["seq"] = sn["seq"].(float64) + 1
		}), "snapshot"},
		{"transcript", editJSON(t, data, func(m map[string]any) { trust(m)["transcript"] = other }), "saved transcript"},
		{"next", editJSON(t, data, func(m map[string]any) { trust(m)["next"] = trust(m)["next"].(float64) + 1 }), "saved next round"},
		{"last link", editJSON(t, data, func(m map[string]any) {
			s0 := trust(m)["seats"].([]any)[0].(map[string]any)
			s0["last"] = s0["head"]
		}), "last link"},
		{"sealed link", func() []byte {
			chunks := append([][]byte{}, p.chunks...)
			chunks[ci] = editJSON(t, chunks[ci], func(m map[string]any) {
				m["trust"].([]any)[0].(map[string]any)["reveals"].([]any)[0].(map[string]any)["link"] = other
			})
			b, err := table.JoinHead(p.head, chunks)
			require.NoError(t, err)
			return b
		}(), "table: restore: "}, // its round's randomness, its transcript
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := table.Restore(pig.Def, c.data)
			require.NoError(t, err)
			_, err = table.RestoreReplay(pig.Def, c.data)
			require.ErrorContains(t, err, c.want)
		})
	}
	// A chunk whose moves' protocol is one short of its moves is refused
	// by JoinHead (the chunks as they are join: the control above).
	chunks := append([][]byte{}, p.chunks...)
	chunks[ci] = editJSON(t, chunks[ci], func(m map[string]any) { m["trust"] = m["trust"].([]any)[1:] })
	_, err = table.JoinHead(p.head, chunks)
	require.ErrorContains(t, err, "trustless protocol")
}

// A trustless Pig table saved whole before snapshots (no snapshot: its
// moves replay) restores and plays on kept in parts: its first head
// seals everything it had, and it goes on to the end as the same table
// kept whole does, its head bounded; its record, joined, checks.
func TestTrustlessOldSavedPlaysOnInParts(t *testing.T) {
	const g = "tl-old"
	tb, _, err := table.Create(pig.Def, table.CreateRequest{Actor: uid(0), ActionID: "c", Mode: rng.ModeTrustless, GameID: g})
	require.NoError(t, err)
	seats := make([]*trustseat.Seat, 2)
	for i := range seats {
		seats[i], err = trustseat.New(pig.Def, g, uid(i), i, 1<<16)
		require.NoError(t, err)
		_, err = tb.Do(seats[i].Join("join", uint64(1+i), nil, nil))
		require.NoError(t, err)
	}
	_, err = tb.Do(table.Action{Actor: uid(0), ActionID: "start", Version: 3, Kind: table.KindStart})
	require.NoError(t, err)
	_, err = trustseat.Play(tblSrv{tb}, seats, holdSome, func(v *table.View) bool { return len(v.Trustless.Moves) >= 10 }, 20000)
	require.NoError(t, err)
	data, err := tb.Save()
	require.NoError(t, err)
	old := oldLayout(t, data)
	require.NotContains(t, string(old), `"snapshot"`)

	ref, err := table.Restore(pig.Def, old)
	require.NoError(t, err)
	back, err := table.Restore(pig.Def, old)
	require.NoError(t, err)
	p := &parted{def: pig.Def, chunk: 4, results: map[string][]byte{}}
	p.keep(t, back)
	require.Len(t, p.chunks, 1)
	headBounded(t, p.head, 4)
	srv := &dualSrv{t: t, ref: ref, p: p, prefix: "b"}
	end, err := trustseat.Play(srv, seats, holdSome, nil, 20000)
	require.NoError(t, err)
	require.Equal(t, table.PhaseFinished, end.Phase)
	require.Greater(t, len(p.chunks), 2)
	headBounded(t, p.head, 4)
	rec, err := p.whole(t).Record(uid(1))
	require.NoError(t, err)
	want, err := ref.Record(uid(1))
	require.NoError(t, err)
	require.Equal(t, want, rec)
	div, err := match.CheckRecord(pig.Def, rec)
	require.NoError(t, err)
	require.NoError(t, div)
}

// measSrv is a trustseat.Server over a table kept whole (tb, which the
// seats read) and in parts (p, restored from its head at every action),
// keeping the largest head.
type measSrv struct {
	t       *testing.T
	tb      *table.Table
	p       *parted
	maxHead int
	prefix  string
}

func (s *measSrv) Do(a table.Action) (*table.Result, error) {
	a.ActionID = s.prefix + a.ActionID
	r, err := s.tb.Do(a)
	if err == nil {
		_, err = s.p.do(s.t, a)
		require.NoError(s.t, err)
		s.maxHead = max(s.maxHead, len(s.p.head))
	}
	return r, err
}

func (s *measSrv) View(uid string) (*table.View, error) { return s.tb.View(uid), nil }

// A long trustless Pig game (goal 1,000) kept in parts with the store's
// chunks of 64: its head stays small (the numbers docs/store.md quotes,
// logged), where the head that kept every move's protocol (the same
// table's SaveHead with a chunk size it never reaches) grows with the
// game toward Firestore's 1 MiB.
func TestTrustlessHeadLongGame(t *testing.T) {
	const g = "tl-long"
	req := table.CreateRequest{Actor: uid(0), ActionID: "c", Mode: rng.ModeTrustless, GameID: g, Rules: []byte(`{"goal":1000,"dieSides":6}`)}
	tb, _, err := table.Create(pig.Def, req)
	require.NoError(t, err)
	parts, _, err := table.Create(pig.Def, req)
	require.NoError(t, err)
	p := &parted{def: pig.Def, chunk: 64, results: map[string][]byte{}}
	p.keep(t, parts)
	s := &measSrv{t: t, tb: tb, p: p}
	seats := make([]*trustseat.Seat, 2)
	for i := range seats {
		seats[i], err = trustseat.New(pig.Def, g, uid(i), i, 1<<16)
		require.NoError(t, err)
		_, err = s.Do(seats[i].Join("join", uint64(1+i), nil, nil))
		require.NoError(t, err)
	}
	_, err = s.Do(table.Action{Actor: uid(0), ActionID: "start", Version: 3, Kind: table.KindStart})
	require.NoError(t, err)
	var unsealed int
	for _, n := range []int{10, 100, 100000} {
		s.prefix = fmt.Sprint(n)
		v, err := trustseat.Play(s, seats, holdSome, func(v *table.View) bool {
			return len(v.Trustless.Moves) >= n && v.Trustless.Pending == nil
		}, 100000)
		require.NoError(t, err)
		data, err := tb.Save()
		require.NoError(t, err)
		all, err := p.whole(t).SaveHead(1 << 30)
		require.NoError(t, err)
		unsealed = len(all.Saved)
		t.Logf("%d moves: head %d bytes (largest so far %d), the head keeping every move's protocol %d, the table saved whole %d, %d chunks",
			len(v.Trustless.Moves), len(p.head), s.maxHead, unsealed, len(data), len(p.chunks))
	}
	require.Less(t, s.maxHead*20, unsealed)
}
