package fstables_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/functest"
	"github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/games/pig"
	"github.com/fairboard/fairboard/games/registry"
	"github.com/fairboard/fairboard/table"
	"github.com/fairboard/fairboard/table/trustseat"
	"github.com/fairboard/fairboard/tablestore"
	"github.com/fairboard/fairboard/tablestore/storetest"
)

// trustTwin is a trustseat.Server over a trustless table played on the
// in-memory store and on Firestore (twin: the same answers) and on a
// table kept whole in memory (old, for the old layout); its seats read
// Firestore's view. Every action's head size is kept in heads, and the
// largest head just after a seal in sealed.
type trustTwin struct {
	w      *twin
	old    *table.Table
	prefix string
	heads  []int
	sealed int
	chunks int
}

func (s *trustTwin) Do(a table.Action) (*table.Result, error) {
	a.ActionID = s.prefix + a.ActionID
	_, err := s.old.Do(a)
	require.NoError(s.w.t, err)
	res := s.w.do(a)
	docs := privateDocs(s.w.t, s.w.g)
	s.heads = append(s.heads, len(docs["table"]))
	if n := countPrefix(docs, "c-"); n > s.chunks {
		s.chunks, s.sealed = n, max(s.sealed, len(docs["table"]))
	}
	if len(s.heads)%7 == 0 {
		pub := s.old.Public()
		s.w.views(uint64(pub.Log[len(pub.Log)-1].Seq)) // a client polling after the last seq it read
	}
	return res, nil
}

func (s *trustTwin) View(uid string) (*table.View, error) {
	v, _, err := s.w.fs.View(context.Background(), s.w.g, uid)
	return v, err
}

// A trustless Pig table on a store that seals every 4 events plays as on
// the in-memory store, its seats' clients following its protocol from
// Firestore's views: the same results, and the same views whole and
// after a recent seq (ViewAfter, for a reader that sends no checkpoint,
// reads a trustless table whose head sealed moves whole: such a client
// checks every move from the first; TestFirestoreTrustlessViewFromCheckpoint
// has the readers that send one).
// Midway its private documents are replaced by the table saved whole
// before snapshots (fairboard-table/v1, no snapshot), which restores by
// replay and plays on. Its applied moves' signatures and rounds' links
// are sealed with its moves: the head stays under a bound that does not
// grow with the game (its positive control: the table saved whole is
// past it), and the record, read through the chunks, is the in-memory
// store's and passes functest.CheckTrustlessRecord (match.CheckRecord
// and an independent replay).
func TestFirestoreTrustlessHead(t *testing.T) {
	const chunk, g = 4, "fs-tl-head"
	ctx := context.Background()
	fs := chunkedStore(t, chunk)
	w := &twin{t: t, mem: tablestore.NewMemory(registry.Lookup), fs: fs, g: g}
	req := table.CreateRequest{Actor: storetest.UID(0), ActionID: "c", Mode: "trustless", Rules: []byte(`{"goal":60,"dieSides":6}`)}
	want, err := w.mem.Create(ctx, g, "pig", req)
	require.NoError(t, err)
	got, err := fs.Create(ctx, g, "pig", req)
	require.NoError(t, err)
	require.Equal(t, want, got)
	req.GameID = g
	old, _, err := table.Create(pig.Def, req)
	require.NoError(t, err)
	srv := &trustTwin{w: w, old: old}
	seats := make([]*trustseat.Seat, 2)
	for i := range seats {
		seats[i], err = trustseat.New(pig.Def, g, storetest.UID(i), i, old.View("").Trustless.ChainLength)
		require.NoError(t, err)
		_, err = srv.Do(seats[i].Join("join", uint64(1+i), nil, nil))
		require.NoError(t, err)
	}
	_, err = srv.Do(table.Action{Actor: storetest.UID(0), ActionID: "start", Version: 3, Kind: table.KindStart})
	require.NoError(t, err)
	_, err = trustseat.Play(srv, seats, holdTwelve, func(v *table.View) bool {
		return len(v.Trustless.Moves) >= 12 && v.Trustless.Pending == nil
	}, 20000)
	require.NoError(t, err)
	require.Greater(t, countPrefix(privateDocs(t, g), "c-"), 2)

	// The old layout: the table saved whole, without its snapshot.
	saved, err := old.Save()
	require.NoError(t, err)
	var m map[string]json.RawMessage
	require.NoError(t, json.Unmarshal(saved, &m))
	delete(m, "snapshot")
	saved, err = json.Marshal(m)
	require.NoError(t, err)
	fc := emu.Client(t)
	for id := range privateDocs(t, g) {
		_, err := fc.Doc("games/" + g + "/private/" + id).Delete(ctx)
		require.NoError(t, err)
	}
	_, err = fc.Doc("games/"+g+"/private/table").Set(ctx, map[string]any{"game": "pig", "saved": string(saved)})
	require.NoError(t, err)
	w.views(0)

	srv.prefix, srv.heads, srv.sealed, srv.chunks = "b", nil, 0, 0
	end, err := trustseat.Play(srv, seats, holdTwelve, nil, 20000)
	require.NoError(t, err)
	require.Equal(t, table.PhaseFinished, end.Phase)
	require.False(t, end.Outcome.Abandoned)
	w.views(0)
	docs := privateDocs(t, g)
	require.GreaterOrEqual(t, countPrefix(docs, "c-"), 4)
	require.Contains(t, docs["table"], `"format":"fairboard-table/v2"`)

	// The bound (TestFirestoreHeadAgainstMemory's): fewer than chunk log
	// events, moves and moves' protocol in the head's open tail, so at
	// most the largest head just sealed plus chunk-1 of the longest of
	// each, with its comma.
	whole, err := fs.Saved(ctx, g)
	require.NoError(t, err)
	var all struct {
		Log, Moves []json.RawMessage
		Trustless  struct{ Moves []json.RawMessage }
	}
	require.NoError(t, json.Unmarshal(whole, &all))
	require.Len(t, all.Trustless.Moves, len(all.Moves))
	longest := func(xs []json.RawMessage) int {
		n := 0
		for _, x := range xs {
			n = max(n, len(x))
		}
		return n
	}
	bound := srv.sealed + (chunk-1)*(longest(all.Log)+1+longest(all.Moves)+1+longest(all.Trustless.Moves)+1)
	for i, n := range srv.heads {
		require.LessOrEqual(t, n, bound, "the head after action %d", i)
	}
	require.Greater(t, len(whole), bound) // the positive control
	_, err = table.RestoreReplay(pig.Def, whole)
	require.NoError(t, err)

	wr, err := w.mem.Record(ctx, g, storetest.UID(1))
	require.NoError(t, err)
	gr, err := fs.Record(ctx, g, storetest.UID(1))
	require.NoError(t, err)
	require.Equal(t, wr, gr)
	rec, err := old.Record(storetest.UID(1))
	require.NoError(t, err)
	require.Equal(t, rec, gr)
	require.NoError(t, functest.CheckTrustlessRecord(pig.Def, gr, end.Outcome.Winners))
}

// holdTwelve is a bot: it holds once its turn total is at least 12 (read
// from the log), else rolls.
func holdTwelve(v *table.View) game.Move {
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
