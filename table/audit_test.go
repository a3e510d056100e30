package table_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/audit"
	"github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/games/pig"
	"github.com/fairboard/fairboard/match"
	"github.com/fairboard/fairboard/rng"
	"github.com/fairboard/fairboard/table"
)

// The times the audit tests stamp their actions with: the start's, and
// move i's startAt+1+i.
const startAt = 1_000_000

// auditedPig makes a 2-seat seeded Pig table g in s (goal goal, audit as
// asked), starts it at startAt and plays it to its end, or for at most
// max moves, sending move i at startAt+1+i: each seat rolls three times
// in its turn, then holds (a bust ends the turn). It returns the moves.
func auditedPig(t *testing.T, s *table.Memory, g, seed string, goal int, on bool, max int) []game.Move {
	t.Helper()
	_, err := s.Create(g, pig.Def, table.CreateRequest{Actor: uid(0), ActionID: "create", Mode: rng.ModeSeeded, Seed: seed,
		Rules: []byte(fmt.Sprintf(`{"goal":%d,"dieSides":6}`, goal)), Audit: on})
	require.NoError(t, err)
	v := uint64(1)
	for i := range 2 {
		res, err := s.Do(g, table.Action{Actor: uid(i), ActionID: "join", Version: v, Kind: table.KindJoin, Seat: i, At: startAt - 10})
		require.NoError(t, err)
		v = res.Version
	}
	res, err := s.Do(g, table.Action{Actor: uid(0), ActionID: "start", Version: v, Kind: table.KindStart, At: startAt})
	require.NoError(t, err)
	v = res.Version
	var moves []game.Move
	rolls, last := 0, -1
	for len(moves) < max {
		pub, err := s.View(g, "")
		require.NoError(t, err)
		if pub.Phase == table.PhaseFinished {
			break
		}
		if pub.ToMove != last {
			rolls, last = 0, pub.ToMove
		}
		mv := game.Move{Seat: pub.ToMove, Kind: pig.KindRoll}
		if rolls == 3 {
			mv.Kind = pig.KindHold
		}
		rolls++
		res, err := s.Do(g, table.Action{Actor: uid(mv.Seat), ActionID: fmt.Sprintf("m%d", len(moves)), Version: v,
			Kind: table.KindMove, Move: game.AppendMoveJSON(nil, pig.Def.Kinds(), mv), At: startAt + 1 + int64(len(moves))})
		require.NoError(t, err)
		v = res.Version
		moves = append(moves, mv)
	}
	return moves
}

// replayAudit plays moves again on a match of its own (match.New on the
// same seed, goal and seats: not the table) and returns every audit
// entry it draws, stamped with the time auditedPig sent the action that
// drew it.
func replayAudit(t *testing.T, seed string, goal int, moves []game.Move) []audit.Entry {
	t.Helper()
	var out []audit.Entry
	at := int64(startAt)
	rules, err := pig.Def.DecodeRuleset([]byte(fmt.Sprintf(`{"goal":%d,"dieSides":6}`, goal)))
	require.NoError(t, err)
	m, err := match.New(pig.Def, match.Config{Mode: rng.ModeSeeded, Seed: seed, Seats: make([]game.Seat, 2), Rules: rules,
		Auditor: rng.AuditorFunc(func(e rng.Entry) { out = append(out, audit.Entry{Entry: e, TS: at}) })})
	require.NoError(t, err)
	for i, mv := range moves {
		at = startAt + 1 + int64(i)
		_, err := m.Apply(mv)
		require.NoError(t, err)
	}
	return out
}

// A seeded Pig table with audit on keeps the ring of its draws: each
// entry (seq, tag, context, kind, die and value, and the time of the
// action that drew it) is the one a match of its own draws on the same
// seed and moves, and each roll's value is the one the table's Rolled
// event shows. A long game (over 500 rolls) wraps the ring: it holds
// exactly the last audit.RingSize (500, pinned) entries.
func TestAuditRingIsTheDraws(t *testing.T) {
	require.Equal(t, 500, audit.RingSize, "the spec's ring of the last 500 entries")
	s := table.NewMemory()
	const seed, goal = "audit-ring", 2000
	moves := auditedPig(t, s, "ring", seed, goal, true, 5000)
	want := replayAudit(t, seed, goal, moves)
	require.Greater(t, len(want), audit.RingSize+50, "a game long enough to wrap the ring")
	ring, err := s.Audit("ring")
	require.NoError(t, err)
	require.Len(t, ring, audit.RingSize)
	require.Equal(t, want[len(want)-audit.RingSize:], ring)
	require.Equal(t, uint64(len(want)), ring[len(ring)-1].Seq)
	for _, e := range ring {
		require.Equal(t, pig.TagRoll, e.Tag)
		require.Equal(t, rng.KindDice, e.Kind)
		require.Equal(t, 6, e.Data.Sides)
	}

	// The rolls as the log shows them: one Rolled event a roll (a 1
	// too, before its Busted).
	pub, err := s.View("ring", "")
	require.NoError(t, err)
	var rolled []int64
	for _, e := range pub.Log {
		if e.Game && e.Type == pig.EventRolled {
			rolled = append(rolled, e.Vals[1])
		}
	}
	require.Equal(t, len(want), len(rolled))
	for i, e := range ring {
		require.Equal(t, rolled[len(rolled)-audit.RingSize+i], e.Data.Value, "entry %d", e.Seq)
	}
}

// Audit off: no ring, nothing of it in the saved table; on or off, the
// table draws the same.
func TestAuditOffKeepsNoRing(t *testing.T) {
	s := table.NewMemory()
	off := auditedPig(t, s, "off", "audit-off", 100, false, 60)
	on := auditedPig(t, s, "on", "audit-off", 100, true, 60)
	require.Equal(t, off, on)
	ring, err := s.Audit("off")
	require.NoError(t, err)
	require.Nil(t, ring)
	ring, err = s.Audit("on")
	require.NoError(t, err)
	require.NotEmpty(t, ring)
	a, err := s.StateBytes("off")
	require.NoError(t, err)
	b, err := s.StateBytes("on")
	require.NoError(t, err)
	require.Equal(t, a, b)
	_, err = s.Audit("nope")
	require.ErrorIs(t, err, table.CodeNotCreated)
}

// A failure encoding an entry drops that action's entries and nothing
// else: the move is applied (its version, its events), the ring goes on
// with the next action's entries, numbered past the dropped ones, and
// the drop is counted with its reason.
func TestAuditFailureNeverBlocksTheMove(t *testing.T) {
	const seed = "audit-fail"
	calls, failAt := 0, 5
	defer table.SetAuditEncoder(func(e audit.Entry) ([]byte, error) {
		calls++
		if calls == failAt {
			return nil, errors.New("injected")
		}
		return e.MarshalJSON()
	})()
	_, tb, err := headTable(t, seed)
	require.NoError(t, err)
	var held []uint64
	var dropped *table.Head
	for i := range 8 {
		v := tb.Version()
		res, err := tb.Do(table.Action{Actor: uid(tb.Public().ToMove), ActionID: fmt.Sprintf("m%d", i), Version: v,
			Kind: table.KindMove, Move: []byte(`{"kind":"roll"}`), At: startAt + 1 + int64(i)})
		require.NoError(t, err, "move %d", i)
		require.Equal(t, v+1, res.Version, "move %d applied", i)
		h, err := tb.SaveHead(64)
		require.NoError(t, err)
		if calls == failAt && dropped == nil {
			dropped = h
			n, why := tb.AuditDropped()
			require.Equal(t, uint64(1), n)
			require.Contains(t, why, "injected")
		}
		tb, err = table.Restore(pig.Def, h.Saved)
		require.NoError(t, err)
		for _, e := range h.Audit {
			held = append(held, e.Seq)
		}
	}
	require.NotNil(t, dropped, "the failure was injected")
	require.Empty(t, dropped.Audit, "the failed action's entries are dropped")
	require.Equal(t, []uint64{1, 2, 3, 4, 6, 7, 8}, held, "entry 5 dropped, the rest numbered on")
	n, _ := tb.AuditDropped()
	require.Equal(t, uint64(1), n, "the count is saved")
}

// headTable is a started 2-seat Pig table with audit on in mode seeded
// (seed) or crypto (seed ""), restored from its head.
func headTable(t *testing.T, seed string) (*table.Head, *table.Table, error) {
	t.Helper()
	mode := rng.ModeSeeded
	if seed == "" {
		mode = rng.ModeCrypto
	}
	tb, _, err := table.Create(pig.Def, table.CreateRequest{Actor: uid(0), ActionID: "c", Mode: mode, Seed: seed, Audit: true})
	require.NoError(t, err)
	for i := range 2 {
		_, err := tb.Do(table.Action{Actor: uid(i), ActionID: "j", Version: tb.Version(), Kind: table.KindJoin, Seat: i})
		require.NoError(t, err)
	}
	_, err = tb.Do(table.Action{Actor: uid(0), ActionID: "s", Version: tb.Version(), Kind: table.KindStart, At: startAt})
	require.NoError(t, err)
	h, err := tb.SaveHead(64)
	require.NoError(t, err)
	tb, err = table.Restore(pig.Def, h.Saved)
	return h, tb, err
}

// A table saved in parts hands its store each action's entries
// (Head.Audit): a table restored from its head numbers on from the
// saved count, in crypto mode too (whose new stream after each restore
// counts from 0 again), each entry's slot its seq % 500 and its JSON
// the audit.Entry's, its value the roll the action's Rolled event
// shows.
func TestAuditHeadHandsEachActionsEntries(t *testing.T) {
	for _, seed := range []string{"audit-head", ""} {
		_, tb, err := headTable(t, seed)
		require.NoError(t, err)
		seq := uint64(0)
		for i := range 40 {
			n := len(tb.Public().Log)
			_, err := tb.Do(table.Action{Actor: uid(tb.Public().ToMove), ActionID: fmt.Sprintf("m%d", i), Version: tb.Version(),
				Kind: table.KindMove, Move: []byte(`{"kind":"roll"}`), At: startAt + 1 + int64(i)})
			require.NoError(t, err)
			h, err := tb.SaveHead(4)
			require.NoError(t, err)
			require.Len(t, h.Audit, 1, "one roll, one entry")
			seq++
			var e audit.Entry
			require.NoError(t, json.Unmarshal(h.Audit[0].JSON, &e))
			require.Equal(t, table.AuditEntry{Slot: int(seq % 500), Seq: seq, JSON: h.Audit[0].JSON}, h.Audit[0])
			require.Equal(t, seq, e.Seq)
			require.Equal(t, int64(startAt+1+i), e.TS)
			require.Equal(t, pig.TagRoll, e.Tag)
			ev := tb.Public().Log[n:][0]
			require.Equal(t, pig.EventRolled, ev.Type)
			require.Equal(t, ev.Vals[1], e.Data.Value)
			require.NotContains(t, string(h.Saved), string(h.Audit[0].JSON), "the head keeps no entry")
			tb, err = table.Restore(pig.Def, h.Saved)
			require.NoError(t, err)
		}
	}
}

// Nothing of the ring reaches a reader: no seat's view, the public part,
// the result of an action, nor a refusal's error holds an entry's JSON or
// its tag. Positive control: the same search finds them in the ring's
// own JSON.
func TestAuditRingReadByNoReader(t *testing.T) {
	s := table.NewMemory()
	auditedPig(t, s, "hidden", "audit-hidden", 100, true, 30)
	ring, err := s.Audit("hidden")
	require.NoError(t, err)
	require.NotEmpty(t, ring)
	holds := func(b []byte) bool {
		return strings.Contains(string(b), string(pig.TagRoll)) || strings.Contains(string(b), `"ctx"`)
	}
	raw, err := json.Marshal(ring)
	require.NoError(t, err)
	require.True(t, holds(raw), "positive control: the ring's JSON holds its entries")
	for _, who := range []string{"", uid(0), uid(1), "stranger"} {
		v, err := s.View("hidden", who)
		require.NoError(t, err)
		b, err := json.Marshal(v)
		require.NoError(t, err)
		require.False(t, holds(b), "%q's view", who)
	}
	pub, err := s.View("hidden", "")
	require.NoError(t, err)
	res, err := s.Do("hidden", table.Action{Actor: uid(pub.ToMove), ActionID: "last", Version: pub.Version, Kind: table.KindMove,
		Move: []byte(`{"kind":"roll"}`), At: startAt + 100})
	require.NoError(t, err)
	b, err := json.Marshal(res)
	require.NoError(t, err)
	require.False(t, holds(b), "a result")
	_, err = s.Do("hidden", table.Action{Actor: uid(pub.ToMove), ActionID: "stale", Version: pub.Version, Kind: table.KindMove,
		Move: []byte(`{"kind":"roll"}`)})
	require.ErrorIs(t, err, table.CodeStaleVersion)
	require.False(t, holds([]byte(err.Error())), "a refusal")
}

// A table never saved (as Memory keeps them) holds the encoded entries
// for a head of the last 500 only: after a game of over 500 rolls its
// head hands exactly the ring's entries.
func TestAuditHeadKeepsTheLast500(t *testing.T) {
	s := table.NewMemory()
	moves := auditedPig(t, s, "long", "audit-long", 2000, true, 5000)
	want := replayAudit(t, "audit-long", 2000, moves)
	require.Greater(t, len(want), audit.RingSize)
	tb, _, err := table.Create(pig.Def, table.CreateRequest{Actor: uid(0), ActionID: "create", Mode: rng.ModeSeeded, Seed: "audit-long",
		Rules: []byte(`{"goal":2000,"dieSides":6}`), Audit: true})
	require.NoError(t, err)
	for i := range 2 {
		_, err := tb.Do(table.Action{Actor: uid(i), ActionID: "join", Version: tb.Version(), Kind: table.KindJoin, Seat: i, At: startAt - 10})
		require.NoError(t, err)
	}
	_, err = tb.Do(table.Action{Actor: uid(0), ActionID: "start", Version: tb.Version(), Kind: table.KindStart, At: startAt})
	require.NoError(t, err)
	for i, mv := range moves {
		_, err := tb.Do(table.Action{Actor: uid(mv.Seat), ActionID: fmt.Sprintf("m%d", i), Version: tb.Version(), Kind: table.KindMove,
			Move: game.AppendMoveJSON(nil, pig.Def.Kinds(), mv), At: startAt + 1 + int64(i)})
		require.NoError(t, err)
	}
	h, err := tb.SaveHead(64)
	require.NoError(t, err)
	require.Len(t, h.Audit, audit.RingSize)
	for i, e := range h.Audit {
		var got audit.Entry
		require.NoError(t, json.Unmarshal(e.JSON, &got))
		require.Equal(t, want[len(want)-audit.RingSize+i], got)
	}
}
