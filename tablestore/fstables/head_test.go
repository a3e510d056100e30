package fstables_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/games/kuhn"
	"github.com/fairboard/fairboard/games/pig"
	"github.com/fairboard/fairboard/games/registry"
	"github.com/fairboard/fairboard/match"
	"github.com/fairboard/fairboard/rng"
	"github.com/fairboard/fairboard/table"
	"github.com/fairboard/fairboard/tablestore"
	"github.com/fairboard/fairboard/tablestore/fstables"
	"github.com/fairboard/fairboard/tablestore/storetest"
)

// chunkedStore is newStore with the head's chunk size n.
func chunkedStore(t *testing.T, n int) *fstables.Store {
	t.Helper()
	emu.Require(t)
	emu.Reset(t)
	return fstables.NewChunked(emu.Client(t), registry.Lookup, n)
}

// The contract suite on a store that seals every few events: a game
// played through many chunks ends as match says, refusals write
// nothing, creates retry.
func TestFirestoreChunkedContract(t *testing.T) {
	s := chunkedStore(t, 32)
	storetest.CheckAgainstMatch(t, s, pig.Def, "fs-ch-pig", 2)
	s = fstables.NewChunked(emu.Client(t), registry.Lookup, 2)
	storetest.CheckRefusals(t, s, pig.Def, "fs-ch-refusals")
	storetest.CheckCreate(t, s, pig.Def, "fs-ch-create")
	n, err := emu.Client(t).Collection("games/fs-ch-pig/private").Documents(context.Background()).GetAll()
	require.NoError(t, err)
	chunks := 0
	for _, d := range n {
		if strings.HasPrefix(d.Ref.ID, "c-") {
			chunks++
		}
	}
	require.GreaterOrEqual(t, chunks, 3)
}

// privateDocs returns the table g's private documents by id, their
// saved text.
func privateDocs(t *testing.T, g string) map[string]string {
	t.Helper()
	snaps, err := emu.Client(t).Collection("games/" + g + "/private").Documents(context.Background()).GetAll()
	require.NoError(t, err)
	out := map[string]string{}
	for _, sn := range snaps {
		out[sn.Ref.ID] = sn.Data()["saved"].(string)
	}
	return out
}

// twin plays the same actions on the in-memory store and on Firestore,
// which must answer the same.
type twin struct {
	t   *testing.T
	mem tablestore.Store
	fs  *fstables.Store
	g   string
}

func (w *twin) do(a table.Action) *table.Result {
	w.t.Helper()
	ctx := context.Background()
	want, werr := w.mem.Do(ctx, w.g, a)
	got, gerr := w.fs.Do(ctx, w.g, a)
	require.Equal(w.t, werr, gerr)
	require.NoError(w.t, gerr)
	require.Equal(w.t, want, got)
	return got
}

// views checks every reader's view on Firestore against the in-memory
// store's: whole (View), and after afterSeq (ViewAfter: its log holds
// every event after it).
func (w *twin) views(afterSeq uint64) {
	w.t.Helper()
	ctx := context.Background()
	for _, u := range []string{"", storetest.UID(0), storetest.UID(1), "stranger"} {
		want, _, err := w.mem.View(ctx, w.g, u)
		require.NoError(w.t, err)
		got, _, err := w.fs.View(ctx, w.g, u)
		require.NoError(w.t, err)
		require.Equal(w.t, want, got)
		after, _, err := tablestore.ViewAfter(ctx, w.fs, w.g, u, tablestore.After{Seq: afterSeq})
		require.NoError(w.t, err)
		cut := func(v *table.View) []table.Event {
			var out []table.Event
			for _, e := range v.Log {
				if uint64(e.Seq) > afterSeq {
					out = append(out, e)
				}
			}
			return out
		}
		require.Equal(w.t, cut(want), cut(after))
		after.Log = want.Log
		require.Equal(w.t, want, after)
	}
}

// A seeded Pig table on a store that seals every 4 events plays as on
// the in-memory store: the same results, views (whole, and after a
// recent seq from the head alone) and record, which checks; a retry
// after its result moved out of the head gets it again, a reused id is
// refused; the head stays under a bound that does not grow with the
// game, one result document per action.
func TestFirestoreHeadAgainstMemory(t *testing.T) {
	const chunk = 4
	ctx := context.Background()
	w := &twin{t: t, mem: tablestore.NewMemory(registry.Lookup), fs: chunkedStore(t, chunk), g: "fs-head"}
	req := table.CreateRequest{Actor: storetest.UID(0), ActionID: "c", Mode: rng.ModeSeeded, Seed: "head", Rules: []byte(`{"goal":40,"dieSides":6}`)}
	want, err := w.mem.Create(ctx, w.g, "pig", req)
	require.NoError(t, err)
	got, err := w.fs.Create(ctx, w.g, "pig", req)
	require.NoError(t, err)
	require.Equal(t, want, got)
	v := uint64(1)
	firstJoin := table.Action{Actor: storetest.UID(0), ActionID: "j", Version: v, Kind: table.KindJoin, Seat: 0}
	joined := w.do(firstJoin)
	v = w.do(table.Action{Actor: storetest.UID(1), ActionID: "j", Version: joined.Version, Kind: table.KindJoin, Seat: 1}).Version
	v = w.do(table.Action{Actor: storetest.UID(0), ActionID: "s", Version: v, Kind: table.KindStart}).Version

	var heads []int // the head's size after each action
	sealedHeads := 0
	prevChunks := 0
	actions := 4
	for k := 0; ; k++ {
		pub, _, err := w.mem.View(ctx, w.g, "")
		require.NoError(t, err)
		if pub.Phase == table.PhaseFinished {
			break
		}
		mine, _, err := w.mem.View(ctx, w.g, storetest.UID(pub.ToMove))
		require.NoError(t, err)
		a := table.Action{Actor: storetest.UID(pub.ToMove), ActionID: fmt.Sprintf("m%d", k), Version: v, Kind: table.KindMove,
			Move: game.AppendMoveJSON(nil, pig.Def.Kinds(), mine.Legal[k%3%len(mine.Legal)])}
		v = w.do(a).Version
		actions++
		docs := privateDocs(t, w.g)
		heads = append(heads, len(docs["table"]))
		if n := countPrefix(docs, "c-"); n > prevChunks {
			prevChunks, sealedHeads = n, max(sealedHeads, len(docs["table"]))
		}
		if k%5 == 0 {
			w.views(uint64(len(pub.Log)))
		}
	}
	w.views(0)
	docs := privateDocs(t, w.g)
	require.GreaterOrEqual(t, countPrefix(docs, "c-"), 5)
	require.Equal(t, actions, countPrefix(docs, "r-"))

	// The bound: a save leaves fewer than chunk log events and fewer than
	// chunk moves in the head's open tail (it seals them all once either
	// reaches chunk), so a head is at most the largest one with an empty
	// tail (just sealed) plus chunk-1 of the longest event and move, each
	// with its comma.
	whole, err := w.fs.Saved(ctx, w.g)
	require.NoError(t, err)
	var all struct{ Log, Moves []json.RawMessage }
	require.NoError(t, json.Unmarshal(whole, &all))
	longest := func(xs []json.RawMessage) int {
		n := 0
		for _, x := range xs {
			n = max(n, len(x))
		}
		return n
	}
	bound := sealedHeads + (chunk-1)*(longest(all.Log)+1+longest(all.Moves)+1)
	for i, n := range heads {
		require.LessOrEqual(t, n, bound, "the head after action %d", i)
	}
	// Positive control: the table saved whole is past the bound.
	require.Greater(t, len(whole), bound)

	// The first join's result is in its own document; the head and the
	// chunks no longer hold its events' seqs in any open tail.
	again := w.do(firstJoin)
	require.True(t, again.Replayed)
	require.Equal(t, joined.Events, again.Events)
	reused := firstJoin
	reused.Seat = 1
	_, err = w.fs.Do(ctx, w.g, reused)
	require.ErrorIs(t, err, table.CodeActionIDReused)
	_, err = w.fs.Create(ctx, w.g, "pig", req)
	require.NoError(t, err)

	wr, err := w.mem.Record(ctx, w.g, storetest.UID(1))
	require.NoError(t, err)
	gr, err := w.fs.Record(ctx, w.g, storetest.UID(1))
	require.NoError(t, err)
	require.Equal(t, wr, gr)
	div, err := match.CheckRecord(pig.Def, gr)
	require.NoError(t, err)
	require.NoError(t, div)

	// Nobody's client reads a chunk or a stored result.
	_, tok, err := emu.Auth().SignInAnonymously(ctx)
	require.NoError(t, err)
	rid := "r-" + table.ResultID(storetest.UID(0), "j")
	for _, p := range []string{"c-000000", rid} {
		code, _, err := emu.Firestore().REST(ctx, http.MethodGet, "/games/"+w.g+"/private/"+p, tok, nil)
		require.NoError(t, err)
		require.Equal(t, http.StatusForbidden, code, p)
	}
	weak := emu.Weakened(t, []string{"/private/{doc}"}, "games/"+w.g+"/private/c-000000", "games/"+w.g+"/private/"+rid)
	for _, p := range []string{"c-000000", rid} {
		code, _, err := weak.REST(ctx, http.MethodGet, "/games/"+w.g+"/private/"+p, tok, nil)
		require.NoError(t, err)
		require.Equal(t, http.StatusOK, code, p) // the positive control
	}
}

func countPrefix(docs map[string]string, p string) int {
	n := 0
	for id := range docs {
		if strings.HasPrefix(id, p) {
			n++
		}
	}
	return n
}

// A table saved whole before heads (fairboard-table/v1, its every stored
// result inline) restores, retries its inline results, plays on (its
// head seals its old log into its first chunk, its new results go to
// their documents, its old ones stay inline), and its record checks; a
// Kuhn table's addressed events keep their seat documents whole.
func TestFirestoreOldLayoutPlaysOn(t *testing.T) {
	for _, c := range []struct {
		def   game.Definition
		rules string
		g     string
	}{{pig.Def, `{"goal":40,"dieSides":6}`, "fs-old-pig"}, {kuhn.Def, ``, "fs-old-kuhn"}} {
		ctx := context.Background()
		s := chunkedStore(t, 3)
		req := table.CreateRequest{Actor: storetest.UID(0), ActionID: "c", Mode: rng.ModeSeeded, Seed: "old"}
		if c.rules != "" {
			req.Rules = []byte(c.rules)
		}
		w := &twin{t: t, mem: tablestore.NewMemory(registry.Lookup), fs: s, g: c.g}
		_, err := w.mem.Create(ctx, c.g, c.def.Name(), req)
		require.NoError(t, err)
		_, err = s.Create(ctx, c.g, c.def.Name(), req)
		require.NoError(t, err)
		old, _, err := table.Create(c.def, req)
		require.NoError(t, err)
		// The same actions on the old table and both stores.
		both := func(a table.Action) uint64 {
			r, err := old.Do(a)
			require.NoError(t, err)
			w.do(a)
			return r.Version
		}
		v := both(table.Action{Actor: storetest.UID(0), ActionID: "j", Version: 1, Kind: table.KindJoin, Seat: 0})
		v = both(table.Action{Actor: storetest.UID(1), ActionID: "j", Version: v, Kind: table.KindJoin, Seat: 1})
		v = both(table.Action{Actor: storetest.UID(0), ActionID: "s", Version: v, Kind: table.KindStart})
		move := func(k int) table.Action {
			pub := old.Public()
			lg := old.View(storetest.UID(pub.ToMove)).Legal
			return table.Action{Actor: storetest.UID(pub.ToMove), ActionID: fmt.Sprintf("m%d", k), Version: v, Kind: table.KindMove,
				Move: game.AppendMoveJSON(nil, c.def.Kinds(), lg[k%len(lg)])}
		}
		v = both(move(0))
		// Its private documents as the old layout had them: the table
		// saved whole, nothing beside it.
		saved, err := old.Save()
		require.NoError(t, err)
		require.Contains(t, string(saved), `"format":"fairboard-table/v1"`)
		fc := emu.Client(t)
		for id := range privateDocs(t, c.g) {
			_, err := fc.Doc("games/" + c.g + "/private/" + id).Delete(ctx)
			require.NoError(t, err)
		}
		_, err = fc.Doc("games/"+c.g+"/private/table").Set(ctx, map[string]any{"game": c.def.Name(), "saved": string(saved)})
		require.NoError(t, err)
		w.views(0)

		// Its inline results retry; it plays on to its end.
		again := w.do(table.Action{Actor: storetest.UID(1), ActionID: "j", Version: 2, Kind: table.KindJoin, Seat: 1})
		require.True(t, again.Replayed)
		for k := 1; ; k++ {
			pub, _, err := w.mem.View(ctx, c.g, "")
			require.NoError(t, err)
			if pub.Phase == table.PhaseFinished {
				break
			}
			v = both(move(k))
		}
		w.views(0)
		docs := privateDocs(t, c.g)
		require.GreaterOrEqual(t, countPrefix(docs, "c-"), 1, c.g)
		require.Contains(t, docs["table"], `"format":"fairboard-table/v2"`)
		require.Contains(t, docs["table"], `"actionId":"j"`) // its old results stay inline
		for i := range 2 {
			sn, err := emu.Client(t).Doc(fmt.Sprintf("games/%s/seats/%d", c.g, i)).Get(ctx)
			if c.def == kuhn.Def {
				require.NoError(t, err)
				var evs []any
				for _, e := range old.SeatPart(i).Events {
					evs = append(evs, int64(e.Seq))
				}
				var seqs []any
				for _, e := range sn.Data()["events"].([]any) {
					seqs = append(seqs, e.(map[string]any)["seq"])
				}
				require.Equal(t, evs, seqs)
			}
		}
		gr, err := s.Record(ctx, c.g, storetest.UID(0))
		require.NoError(t, err)
		wr, err := w.mem.Record(ctx, c.g, storetest.UID(0))
		require.NoError(t, err)
		require.Equal(t, wr, gr)
		div, err := match.CheckRecord(c.def, gr)
		require.NoError(t, err)
		require.NoError(t, div)
	}
}
