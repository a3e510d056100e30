package table_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/games/kuhn"
	"github.com/fairboard/fairboard/games/leduc"
	"github.com/fairboard/fairboard/games/pig"
	"github.com/fairboard/fairboard/match"
	"github.com/fairboard/fairboard/rng"
	"github.com/fairboard/fairboard/table"
	"github.com/fairboard/fairboard/table/trustseat"
)

// noDeal is a definition with Leduc's private parts that does not say
// it deals them through a private deck (no game.MaxLoss).
type noDeal struct{ game.Definition }

// A game with private parts that it does not deal through a private deck
// is refused a trustless table, by name and reason; Pig (all public),
// Kuhn and Leduc (which deal by mental poker) are not.
func TestTrustlessRefusesPrivateGames(t *testing.T) {
	m := table.NewMemory()
	_, err := m.Create("k", kuhn.Def, table.CreateRequest{Actor: uid(0), ActionID: "c", Mode: rng.ModeTrustless})
	require.NoError(t, err, "Kuhn deals its private deck by mental poker (game.Deal, game.MaxLoss)")
	_, err = m.Create("l", leduc.Def, table.CreateRequest{Actor: uid(0), ActionID: "c", Mode: rng.ModeTrustless})
	require.NoError(t, err, "Leduc deals by mental poker too")
	_, err = m.Create("n", noDeal{leduc.Def}, table.CreateRequest{Actor: uid(0), ActionID: "c", Mode: rng.ModeTrustless})
	require.ErrorIs(t, err, table.CodeBadSetup)
	require.ErrorContains(t, err, "leduc has private parts")
	require.ErrorContains(t, err, "does not deal them through a private deck")
	req := table.CreateRequest{Actor: uid(0), ActionID: "c", Mode: rng.ModeTrustless}
	_, err = m.Create("p", pig.Def, req)
	require.NoError(t, err)
	res, err := m.Create("p", pig.Def, req) // a retry, its defaults filled the first time
	require.NoError(t, err)
	require.True(t, res.Replayed)
	req.DeadlineMs = 2000
	_, err = m.Create("p", pig.Def, req)
	require.ErrorIs(t, err, table.CodeActionIDReused)
}

// stopAtPending stops the play at the first pending round with its
// actor's reveal only.
func stopAtPending(v *table.View) bool {
	return v.Trustless.Pending != nil && len(v.Trustless.Pending.Reveals) == 1
}

// A seat that never reveals: at the deadline the server's abort ends the
// game with Pig's AbortPayoffs, naming the staller; the record verifies
// and says so, and a record that names another seat is caught.
func TestTrustlessStallerAbortedAtDeadline(t *testing.T) {
	m := table.NewMemory()
	seats := trustLobby(t, m, "st", 3, 0)
	v, err := trustseat.Play(memSrv{m, "st"}, seats, holdSome, stopAtPending, 100)
	require.NoError(t, err)
	p := v.Trustless.Pending
	// seat (p's actor + 1) reveals, the third stalls.
	actor := p.Reveals[0].Seat
	revealer, staller := (actor+1)%3, (actor+2)%3
	rv, err := m.View("st", uid(revealer))
	require.NoError(t, err)
	a, err := seats[revealer].Reveal("r", rv)
	require.NoError(t, err)
	a.At = p.Deadline
	_, err = m.Do("st", a)
	require.NoError(t, err)

	_, err = m.Do("st", table.Action{Actor: table.ServerActor, ActionID: "abort", Kind: table.KindAbort, At: p.Deadline})
	require.ErrorIs(t, err, table.CodeDeadlineNotPassed)
	_, err = m.Do("st", table.Action{Actor: table.ServerActor, ActionID: "abort", Kind: table.KindAbort, At: p.Deadline + 1})
	require.NoError(t, err)
	end, err := m.View("st", "")
	require.NoError(t, err)
	require.Equal(t, table.PhaseFinished, end.Phase)
	require.Equal(t, &table.Outcome{Abandoned: true, Payoffs: []float64{0, 0, 0}, Reason: match.AbortDeadline, Missing: []int{staller}}, end.Outcome)
	last := end.Log[len(end.Log)-1]
	require.Equal(t, "Aborted", last.Type)
	require.Equal(t, []string{match.AbortDeadline, uid(staller)}, last.Options)
	require.Equal(t, int64(p.Index), last.Vals[0])
	// The links that came are published at the end, never the staller's.
	require.NotNil(t, end.Trustless.RecordTrustless.Pending)
	require.Len(t, end.Trustless.RecordTrustless.Pending.Reveals, 2)

	rec, err := m.Record("st", uid(0))
	require.NoError(t, err)
	div, err := match.CheckRecord(pig.Def, rec)
	require.NoError(t, err)
	require.NoError(t, div)
	rec.Trustless.Abort.Missing = []int{revealer}
	div, err = match.CheckRecord(pig.Def, rec)
	require.NoError(t, err)
	require.ErrorContains(t, div, "the abort names seats")
}

// A game that needs more rounds than its chains have ends as aborted,
// chainExhausted, and its record verifies.
func TestTrustlessChainExhausted(t *testing.T) {
	m := table.NewMemory()
	seats := trustLobby(t, m, "ce", 2, 3)
	end, err := trustseat.Play(memSrv{m, "ce"}, seats, holdSome, nil, 1000)
	require.NoError(t, err)
	require.True(t, end.Outcome.Abandoned)
	require.Equal(t, match.AbortChainExhausted, end.Outcome.Reason)
	rounds := 0
	for _, mv := range end.Trustless.Moves {
		if mv.Index > 0 {
			rounds++
		}
	}
	require.Equal(t, 3, rounds)
	rec, err := m.Record("ce", uid(1))
	require.NoError(t, err)
	div, err := match.CheckRecord(pig.Def, rec)
	require.NoError(t, err)
	require.NoError(t, div)
	require.Equal(t, uint32(4), rec.Trustless.Pending.Index)
}

// Every tampering of a trustless record is caught by name; the record
// itself verifies (the control), also after a JSON round trip.
func TestTrustlessRecordTampering(t *testing.T) {
	m := table.NewMemory()
	seats := trustLobby(t, m, "tr", 2, 0)
	_, err := trustseat.Play(memSrv{m, "tr"}, seats, holdSome, nil, 20000)
	require.NoError(t, err)
	rec, err := m.Record("tr", uid(0))
	require.NoError(t, err)
	b, err := json.Marshal(rec)
	require.NoError(t, err)
	back, err := match.ReadRecord(b)
	require.NoError(t, err)
	div, err := match.CheckRecord(pig.Def, back)
	require.NoError(t, err)
	require.NoError(t, div)

	first, last := -1, -1
	for i, mv := range rec.Trustless.Moves {
		if mv.Index > 0 {
			if first < 0 {
				first = i
			}
			last = i
		}
	}
	require.Greater(t, last, first)
	for _, c := range []struct {
		name string
		edit func(p *match.RecordTrustless)
		want string
	}{
		{"a link changed", func(p *match.RecordTrustless) {
			l := []byte(p.Moves[first].Reveals[1].Link)
			l[0] = map[bool]byte{true: '1', false: '0'}[l[0] == '0'] // another hex digit
			p.Moves[first].Reveals[1].Link = string(l)
		}, "seat 1's link does not hash to its previous link"},
		{"a move's signature changed", func(p *match.RecordTrustless) {
			p.Moves[first].Signature = strings.Repeat("0", 128)
		}, "its signature does not verify under seat"},
		{"a reveal signed by the other seat", func(p *match.RecordTrustless) {
			p.Moves[first].Reveals[1].Signature = p.Moves[first].Reveals[0].Signature
		}, "seat 1's reveal signature does not verify"},
		{"a reveal from the other seat in its place", func(p *match.RecordTrustless) {
			p.Moves[first].Reveals[1] = p.Moves[first].Reveals[0]
		}, "out of order or repeated"},
		{"a missing reveal", func(p *match.RecordTrustless) {
			p.Moves[first].Reveals = p.Moves[first].Reveals[:1]
		}, "has 1 reveals for 2 seats"},
		{"a join signature changed", func(p *match.RecordTrustless) {
			p.Seats[1].JoinSignature = p.Seats[0].JoinSignature
		}, "seat 1's join: its signature does not verify"},
		{"another chain head", func(p *match.RecordTrustless) {
			p.Seats[0].ChainHead = p.Seats[1].ChainHead
		}, "seat 0's join: its signature does not verify"},
		{"the last round dropped from its move", func(p *match.RecordTrustless) {
			p.Moves[last].Index, p.Moves[last].Reveals = 0, nil
		}, "draws: it needs its round's randomness"},
		{"a round dropped before others", func(p *match.RecordTrustless) {
			p.Moves[first].Index, p.Moves[first].Reveals = 0, nil
		}, "round 2, but the next index is 1"},
		{"a round renumbered", func(p *match.RecordTrustless) {
			p.Moves[first].Index = 2
		}, "round 2, but the next index is 1"},
	} {
		t.Run(c.name, func(t *testing.T) {
			r, err := match.ReadRecord(b)
			require.NoError(t, err)
			c.edit(r.Trustless)
			div, err := match.CheckRecord(pig.Def, r)
			if err == nil {
				err = div
			}
			require.ErrorContains(t, err, c.want)
		})
	}
}

// tblSrv is a trustseat.Server over one table.
type tblSrv struct{ t *table.Table }

func (s tblSrv) Do(a table.Action) (*table.Result, error) { return s.t.Do(a) }
func (s tblSrv) View(uid string) (*table.View, error)     { return s.t.View(uid), nil }

// A trustless table saved with a round pending (the actor's reveal in,
// its link secret in the saved bytes only) restores to the same bytes,
// and the restored table plays on to an end whose record verifies.
func TestTrustlessSaveRestoreMidRound(t *testing.T) {
	tbl, _, err := table.Create(pig.Def, table.CreateRequest{Actor: uid(0), ActionID: "c", Mode: rng.ModeTrustless, GameID: "sv"})
	require.NoError(t, err)
	seats := make([]*trustseat.Seat, 2)
	for i := range seats {
		seats[i], err = trustseat.New(pig.Def, "sv", uid(i), i, 1<<16)
		require.NoError(t, err)
		_, err = tbl.Do(seats[i].Join("join", uint64(1+i), nil, nil))
		require.NoError(t, err)
	}
	_, err = tbl.Do(table.Action{Actor: uid(0), ActionID: "start", Version: 3, Kind: table.KindStart})
	require.NoError(t, err)
	v, err := trustseat.Play(tblSrv{tbl}, seats, holdSome, stopAtPending, 100)
	require.NoError(t, err)
	require.NotNil(t, v.Trustless.Pending)
	data, err := tbl.Save()
	require.NoError(t, err)
	back, err := table.Restore(pig.Def, data)
	require.NoError(t, err)
	again, err := back.Save()
	require.NoError(t, err)
	require.Equal(t, string(data), string(again))
	end, err := trustseat.Play(tblSrv{back}, seats, holdSome, nil, 20000)
	require.NoError(t, err)
	require.False(t, end.Outcome.Abandoned)
	rec, err := back.Record(uid(1))
	require.NoError(t, err)
	div, err := match.CheckRecord(pig.Def, rec)
	require.NoError(t, err)
	require.NoError(t, div)
}
