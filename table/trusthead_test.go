package table_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/games/kuhn"
	"github.com/fairboard/fairboard/games/pig"
	"github.com/fairboard/fairboard/match"
	"github.com/fairboard/fairboard/rng"
	"github.com/fairboard/fairboard/table"
	"github.com/fairboard/fairboard/table/trustseat"
)

// dualSrv is a trustseat.Server over one trustless table kept twice:
// whole in memory (ref, never saved) and in parts (p: restored from its
// head alone at every action, as fstables does). Every action goes to
// both, which must answer the same and show the same (sameHead); the
// seats read the parted table joined whole (what fstables' ViewAfter
// serves a trustless table whose head sealed moves).
type dualSrv struct {
	t   *testing.T
	ref *table.Table
	p   *parted
	// prefix goes before each action's id (a second trustseat.Play
	// numbers its actions from a0 again).
	prefix string
}

func (s *dualSrv) Do(a table.Action) (*table.Result, error) {
	a.ActionID = s.prefix + a.ActionID
	want, werr := s.ref.Do(a)
	got, gerr := s.p.do(s.t, a)
	require.Equal(s.t, fmt.Sprint(werr), fmt.Sprint(gerr))
	require.Equal(s.t, want, got)
	sameHead(s.t, s.ref, s.p)
	if s.ref.Public().Phase != table.PhaseLobby && s.p.def == pig.Def {
		headBounded(s.t, s.p.head, s.p.chunk)
	}
	return want, werr
}

func (s *dualSrv) View(uid string) (*table.View, error) { return s.p.whole(s.t).View(uid), nil }

// sameHead checks that the parted table shows what ref shows: joined
// whole, every reader's view and every seat's part are ref's; its head
// alone, the same views but for the log (its open tail: the events after
// SealedSeqs) and a trustless table's applied moves (those after
// MovesBase, which is SealedMoves).
func sameHead(t *testing.T, ref *table.Table, p *parted) {
	t.Helper()
	head, err := table.Restore(p.def, p.head)
	require.NoError(t, err)
	whole := p.whole(t)
	for _, u := range []string{"", uid(0), uid(1), uid(7)} {
		want := ref.View(u)
		require.Equal(t, want, whole.View(u))
		got := head.View(u)
		require.Equal(t, want.Log[head.SealedSeqs():], got.Log)
		got.Log = want.Log
		if tv := got.Trustless; tv != nil {
			require.Equal(t, head.SealedMoves(), tv.MovesBase)
			require.Equal(t, want.Trustless.Moves[tv.MovesBase:], tv.Moves)
			tv.Moves, tv.MovesBase = want.Trustless.Moves, 0
		}
		require.Equal(t, want, got)
	}
	for i := range ref.Seats() {
		require.Equal(t, ref.SeatPart(i), head.SeatPart(i))
		require.Equal(t, ref.SeatPart(i), whole.SeatPart(i))
	}
}

// trustParted creates the trustless table g of def (2 seats) whole and
// in parts with chunks of chunk, joins a trustseat.Seat per seat and
// starts it, through a dualSrv.
func trustParted(t *testing.T, def game.Definition, g string, chunk int) (*dualSrv, []*trustseat.Seat) {
	t.Helper()
	req := table.CreateRequest{Actor: uid(0), ActionID: "create", Mode: rng.ModeTrustless, GameID: g, Seats: 2}
	ref, _, err := table.Create(def, req)
	require.NoError(t, err)
	tb, _, err := table.Create(def, req)
	require.NoError(t, err)
	p := &parted{def: def, chunk: chunk, results: map[string][]byte{}}
	p.keep(t, tb)
	srv := &dualSrv{t: t, ref: ref, p: p}
	seats := make([]*trustseat.Seat, 2)
	for i := range seats {
		seats[i], err = trustseat.New(def, g, uid(i), i, ref.View("").Trustless.ChainLength)
		require.NoError(t, err)
		_, err = srv.Do(seats[i].Join("join", uint64(1+i), nil, nil))
		require.NoError(t, err)
	}
	_, err = srv.Do(table.Action{Actor: uid(0), ActionID: "start", Version: 3, Kind: table.KindStart})
	require.NoError(t, err)
	return srv, seats
}

// joined is the parted table's head and chunks joined whole.
func joined(t *testing.T, p *parted) []byte {
	t.Helper()
	data, err := table.JoinHead(p.head, p.chunks)
	require.NoError(t, err)
	return data
}

// A trustless Pig table kept in parts (chunks of 4: its applied moves'
// signatures and rounds' reveals sealed with its moves, its head keeping
// the transcript, the next round, the last links and the pending round)
// plays as the table kept whole, restored from its head alone at every
// action: the same results, views and seat parts. Mid-game, with a round
// pending, the joined table restored by replay (its moves, its rounds'
// randomness from their links, its protocol state from the start) is the
// one restored from its snapshot, and so is its head restored alone. At
// the end the joined table's record is the whole table's, and it passes
// match.CheckRecord and an independent replay (independentReplay: the
// rounds' randomness from the spec's definitions, Pig's rules).
func TestTrustlessHeadPlaysAsWhole(t *testing.T) {
	const g = "tl-head"
	srv, seats := trustParted(t, pig.Def, g, 4)
	p := srv.p
	mid := func(v *table.View) bool { return v.Trustless.Pending != nil && len(p.chunks) >= 6 }
	v, err := trustseat.Play(srv, seats, holdSome, mid, 20000)
	require.NoError(t, err)
	require.NotNil(t, v.Trustless.Pending)
	head, err := table.Restore(pig.Def, p.head)
	require.NoError(t, err)
	require.Greater(t, head.SealedMoves(), 0)
	replayed, err := table.RestoreReplay(pig.Def, joined(t, p))
	require.NoError(t, err)
	fromSnapshot, err := table.Restore(pig.Def, joined(t, p))
	require.NoError(t, err)
	require.Equal(t, everything(t, fromSnapshot), everything(t, replayed))
	for _, u := range []string{"", uid(0), uid(1)} {
		require.Equal(t, srv.ref.View(u), replayed.View(u))
	}
	require.Equal(t, replayed.StateBytes(), head.StateBytes())

	srv.prefix = "b"
	end, err := trustseat.Play(srv, seats, holdSome, nil, 20000)
	require.NoError(t, err)
	require.Equal(t, table.PhaseFinished, end.Phase)
	require.False(t, end.Outcome.Abandoned)
	require.GreaterOrEqual(t, len(p.chunks), 10)
	whole := p.whole(t)
	want, err := srv.ref.Record(uid(0))
	require.NoError(t, err)
	rec, err := whole.Record(uid(0))
	require.NoError(t, err)
	require.Equal(t, want, rec)
	div, err := match.CheckRecord(pig.Def, rec)
	require.NoError(t, err)
	require.NoError(t, div)
	log, winners := independentReplay(t, g, 2, rec)
	var tableLog []string
	for _, e := range end.Log {
		if e.Game {
			tableLog = append(tableLog, fmt.Sprint(e.Type, e.Vals))
		}
	}
	require.Equal(t, log, tableLog)
	require.Equal(t, winners, end.Outcome.Winners)
	replayed, err = table.RestoreReplay(pig.Def, joined(t, p))
	require.NoError(t, err)
	require.Equal(t, everything(t, whole), everything(t, replayed))
	_, err = head.Record(uid(0))
	require.Error(t, err) // a head alone has no record: JoinHead first
	// The export checks the protocol state too: a finished table whose
	// saved transcript is not its moves' restores (from its snapshot)
	// but gives no record (the untouched one did, above).
	bad, err := table.Restore(pig.Def, editJSON(t, joined(t, p), func(m map[string]any) {
		m["trustless"].(map[string]any)["transcript"] = "00000000000000000000000000000000000000000000000000000000000000aa"
	}))
	require.NoError(t, err)
	_, err = bad.Record(uid(0))
	require.ErrorContains(t, err, "saved transcript")
}

// A trustless Kuhn hand kept in parts (chunks of 2) plays as the hand
// kept whole. Its lobby's log seals; once dealt, its head seals nothing
// (a dealing table has no snapshot: the hand, bounded, stays in the
// head, restored from its deal's log), and its record, joined, is the
// whole table's and passes match.CheckRecord.
func TestTrustlessHeadKuhnHand(t *testing.T) {
	srv, seats := trustParted(t, kuhn.Def, "tl-head-kuhn", 2)
	p := srv.p
	sealedAtStart := len(p.chunks)
	require.Greater(t, sealedAtStart, 0)
	r := randomPicker(t, "tl-head-kuhn")
	end, err := trustseat.Play(srv, seats, func(v *table.View) game.Move { return r(v.Legal) }, nil, 60)
	require.NoError(t, err)
	require.Equal(t, table.PhaseFinished, end.Phase)
	require.Equal(t, sealedAtStart, len(p.chunks))
	head, err := table.Restore(kuhn.Def, p.head)
	require.NoError(t, err)
	require.Equal(t, 0, head.SealedMoves())
	want, err := srv.ref.Record(uid(1))
	require.NoError(t, err)
	rec, err := p.whole(t).Record(uid(1))
	require.NoError(t, err)
	require.Equal(t, want, rec)
	require.NotNil(t, rec.Trustless.Deal)
	div, err := match.CheckRecord(kuhn.Def, rec)
	require.NoError(t, err)
	require.NoError(t, div)
	_, err = table.RestoreReplay(kuhn.Def, joined(t, p))
	require.NoError(t, err)
}
