package table_test

import (
	"encoding/json"
	"fmt"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/games/kuhn"
	"github.com/fairboard/fairboard/games/leduc"
	"github.com/fairboard/fairboard/games/pig"
	"github.com/fairboard/fairboard/match"
	"github.com/fairboard/fairboard/rng"
	"github.com/fairboard/fairboard/table"
)

// parted is a table kept as a store keeps it in parts: its head, its
// sealed chunks and its stored results by ResultID.
type parted struct {
	def     game.Definition
	chunk   int
	head    []byte
	chunks  [][]byte
	results map[string][]byte
}

func (p *parted) keep(t *testing.T, tb *table.Table) {
	t.Helper()
	h, err := tb.SaveHead(p.chunk)
	require.NoError(t, err)
	// When a head seals: the moment its open log, moves or draws reach
	// the chunk size (a table that can seal: not trustless, in its lobby
	// or with a snapshot), never sooner, never later.
	var hd, ch struct {
		Log          []json.RawMessage `json:"log"`
		Moves, Draws []json.RawMessage
		Started      bool            `json:"started"`
		Snapshot     json.RawMessage `json:"snapshot"`
		Trustless    json.RawMessage `json:"trustless"`
	}
	require.NoError(t, json.Unmarshal(h.Saved, &hd))
	if hd.Trustless == nil && (!hd.Started || hd.Snapshot != nil) {
		require.Less(t, max(len(hd.Log), len(hd.Moves), len(hd.Draws)), p.chunk, "an open tail of a full chunk's worth is sealed")
	}
	if h.Chunk != nil {
		require.NoError(t, json.Unmarshal(h.Chunk, &ch))
		require.GreaterOrEqual(t, max(len(ch.Log), len(ch.Moves), len(ch.Draws)), p.chunk, "a chunk is sealed full, not sooner")
	}
	if h.Chunk != nil {
		require.Equal(t, len(p.chunks), h.ChunkIndex)
		p.chunks = append(p.chunks, h.Chunk)
	}
	for _, r := range h.Results {
		id := table.ResultID(r.Actor, r.ActionID)
		require.NotContains(t, p.results, id)
		p.results[id] = r.Data
	}
	p.head = h.Saved
}

// do restores the head alone with the action's stored result, applies
// a and keeps what changed (nothing on a refusal or a retry).
func (p *parted) do(t *testing.T, a table.Action) (*table.Result, error) {
	t.Helper()
	tb, err := table.Restore(p.def, p.head)
	require.NoError(t, err)
	if d, ok := p.results[table.ResultID(a.Actor, a.ActionID)]; ok {
		require.NoError(t, tb.AddResult(d))
	}
	res, err := tb.Do(a)
	if err == nil && !res.Replayed {
		p.keep(t, tb)
	}
	return res, err
}

func (p *parted) whole(t *testing.T) *table.Table {
	t.Helper()
	data, err := table.JoinHead(p.head, p.chunks)
	require.NoError(t, err)
	tb, err := table.Restore(p.def, data)
	require.NoError(t, err)
	return tb
}

// playParted plays a seeded table of def to its end (each seat's first
// legal move) twice: whole in memory, and in parts with chunks of
// chunkSize; every result, view and seat's part must be the same.
func playParted(t *testing.T, def game.Definition, mode rng.Mode, rules string, chunkSize int) (*table.Table, *parted) {
	t.Helper()
	req := table.CreateRequest{Actor: uid(0), ActionID: "c", Mode: mode, Rules: []byte(rules)}
	if mode == rng.ModeSeeded {
		req.Seed = "parts"
	}
	ref, _, err := table.Create(def, req)
	require.NoError(t, err)
	tb, _, err := table.Create(def, req)
	require.NoError(t, err)
	p := &parted{def: def, chunk: chunkSize, results: map[string][]byte{}}
	p.keep(t, tb)
	step := func(a table.Action) {
		want, werr := ref.Do(a)
		got, gerr := p.do(t, a)
		require.Equal(t, werr, gerr)
		if mode == rng.ModeSeeded {
			require.Equal(t, want, got)
		}
	}
	for i := range 2 {
		step(table.Action{Actor: uid(i), ActionID: "j", Version: ref.Version(), Kind: table.KindJoin, Seat: i})
	}
	step(table.Action{Actor: uid(0), ActionID: "s", Version: ref.Version(), Kind: table.KindStart})
	for k := 0; ; k++ {
		cur := p.whole(t)
		if cur.Public().Phase == table.PhaseFinished {
			break
		}
		s := cur.Public().ToMove
		mv := cur.View(uid(s)).Legal[k%len(cur.View(uid(s)).Legal)]
		a := table.Action{Actor: uid(s), ActionID: fmt.Sprintf("m%d", k), Version: cur.Version(), Kind: table.KindMove,
			Move: game.AppendMoveJSON(nil, def.Kinds(), mv)}
		if mode == rng.ModeSeeded {
			step(a)
			continue
		}
		_, err := p.do(t, a)
		require.NoError(t, err)
	}
	return ref, p
}

// A table kept in parts plays as the table kept whole: the same results,
// the same views (a head's log is its open tail: the same events after
// its sealed ones), seat parts and record, sealed across several chunks;
// a retry after its result was kept apart and the head sealed gets the
// same result; a reused action id is refused; the head's format is v2.
func TestHeadPlaysAsWhole(t *testing.T) {
	for _, c := range []struct {
		def   game.Definition
		rules string
		chunk int
	}{{pig.Def, `{"goal":30,"dieSides":6}`, 4}, {kuhn.Def, ``, 2}, {leduc.Def, ``, 3}} {
		t.Run(c.def.Name(), func(t *testing.T) {
			rules := c.rules
			if rules == "" {
				rules = string(c.def.DefaultRuleset().CanonicalJSON())
			}
			ref, p := playParted(t, c.def, rng.ModeSeeded, rules, c.chunk)
			require.GreaterOrEqual(t, len(p.chunks), 2)
			head, err := table.Restore(c.def, p.head)
			require.NoError(t, err)
			whole := p.whole(t)
			require.Equal(t, len(p.chunks), head.SealedChunks())
			for _, u := range []string{"", uid(0), uid(1), uid(7)} {
				want := ref.View(u)
				require.Equal(t, want, whole.View(u))
				got := head.View(u)
				require.Equal(t, want.Log[head.SealedSeqs():], got.Log)
				got.Log = want.Log
				require.Equal(t, want, got)
			}
			for i := range ref.Seats() {
				require.Equal(t, ref.SeatPart(i), head.SeatPart(i))
				require.Equal(t, ref.SeatPart(i), whole.SeatPart(i))
			}
			wr, err := ref.Record(uid(0))
			require.NoError(t, err)
			gr, err := whole.Record(uid(0))
			require.NoError(t, err)
			require.Equal(t, wr, gr)
			_, err = head.Record(uid(0))
			require.Error(t, err)
			_, err = table.RestoreReplay(c.def, p.head)
			require.Error(t, err)

			var f struct{ Format string }
			require.NoError(t, json.Unmarshal(p.head, &f))
			require.Equal(t, table.HeadFormat, f.Format)
			// The join's first move, whose result a chunk no longer
			// holds the events of: its retry, and its id reused.
			first := table.Action{Actor: uid(0), ActionID: "j", Version: 1, Kind: table.KindJoin, Seat: 0}
			res, err := p.do(t, first)
			require.NoError(t, err)
			require.True(t, res.Replayed)
			want, err := ref.Do(first)
			require.NoError(t, err)
			require.Equal(t, want, res)
			first.Seat = 1
			_, err = p.do(t, first)
			require.ErrorIs(t, err, table.CodeActionIDReused)
		})
	}
}

// A crypto table's draws are sealed with its moves: its record, joined
// from the chunks, replays (match.CheckRecord).
func TestHeadCryptoRecordChecks(t *testing.T) {
	for _, def := range []game.Definition{pig.Def, leduc.Def} {
		rules := `{"goal":30,"dieSides":6}`
		if def != pig.Def {
			rules = string(def.DefaultRuleset().CanonicalJSON())
		}
		_, p := playParted(t, def, rng.ModeCrypto, rules, 3)
		require.GreaterOrEqual(t, len(p.chunks), 2, def.Name())
		r, err := p.whole(t).Record(uid(1))
		require.NoError(t, err)
		div, err := match.CheckRecord(def, r)
		require.NoError(t, err)
		require.NoError(t, div)
	}
}

// JoinHead refuses chunks missing, out of order or altered; a head is
// refused as SavedFormat.
func TestJoinHeadRefuses(t *testing.T) {
	_, p := playParted(t, pig.Def, rng.ModeSeeded, `{"goal":30,"dieSides":6}`, 4)
	require.GreaterOrEqual(t, len(p.chunks), 2)
	_, err := table.JoinHead(p.head, p.chunks[1:])
	require.Error(t, err)
	_, err = table.JoinHead(p.head, slices.Concat(p.chunks[1:2], p.chunks[:1], p.chunks[2:]))
	require.Error(t, err)
	var m map[string]any
	require.NoError(t, json.Unmarshal(p.head, &m))
	m["format"] = table.SavedFormat
	b, err := json.Marshal(m)
	require.NoError(t, err)
	_, err = table.Restore(pig.Def, b)
	require.Error(t, err)
	_, err = table.JoinHead(p.head, p.chunks)
	require.NoError(t, err) // the positive control
}
