package client_test

import (
	"context"
	"crypto/ed25519"
	"errors"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/client"
	"github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/internal/checks"
	"github.com/fairboard/fairboard/match"
	"github.com/fairboard/fairboard/table"
	"github.com/fairboard/fairboard/table/trustdeal"
	"github.com/fairboard/fairboard/table/trustseat"
)

// frame is how a dropStore lies once it has dropped a pass: every view
// shows the hand ended naming the pass's seat a cheat in the deal, with
// the pass as the evidence (hide: without it), and the forfeit's payoffs
// (Kuhn's most a seat can lose, 2 chips, written here).
type frame struct{ hide bool }

func (f *frame) of(v *table.View, hit *table.Action) *table.View {
	named := slices.IndexFunc(v.Seats, func(s table.SeatInfo) bool { return s.UID == hit.Actor })
	pay := []float64{2, 2}
	pay[named] = -2
	out := *v
	out.Phase, out.ToMove, out.Legal = table.PhaseFinished, game.Nobody, nil
	out.Outcome = &table.Outcome{Abandoned: true, Payoffs: pay, Reason: match.ForfeitCheat, Missing: []int{named}}
	tv := *v.Trustless
	dv := *tv.Deal
	dv.Phase, dv.NextSeat, dv.Payoffs = trustdeal.PhaseDone, -1, pay
	dv.Forfeit = &match.DealForfeit{Reason: match.ForfeitCheat, Seats: []int{named}}
	if !f.hide {
		dv.Refused = hit.Deal.Pass
	}
	tv.Deal = &dv
	out.Trustless = &tv
	return &out
}

// View is the store's view, framed (frame) once the store has dropped
// its action.
func (s *dropStore) View(ctx context.Context, gameID, uid string) (*table.View, game.Definition, error) {
	v, def, err := s.Store.View(ctx, gameID, uid)
	s.mu.Lock()
	hit := s.hit
	s.mu.Unlock()
	if err != nil || s.frame == nil || hit == nil {
		return v, def, err
	}
	return s.frame.of(v, hit), def, nil
}

// cheatingP1 is the players' side with p1's client cheating: its second
// pass's batch proof garbled, signed again with p1's key.
type cheatingP1 struct {
	*client.TrustTable
	seat *trustseat.Seat
}

func (c cheatingP1) Do(a table.Action) (*table.Result, error) {
	if p1Pass2(&a) {
		m := *a.Deal.Pass
		m.Proof = slices.Clone(m.Proof)
		m.Proof[40] ^= 1
		c.seat.Resign(&m)
		a.Deal = &table.DealMessage{Pass: &m, Keys: a.Deal.Keys}
	}
	return c.TrustTable.Do(a)
}

// TestTableFalseCheat: a server that takes p1's second mental-poker pass
// (honest, acknowledged and signed) and then shows the hand ended naming
// it a proven cheat is caught: p1's Table (its own pass, which it holds
// the acknowledgement of) and p0's Table (any reader: the evidence
// shown) stop with a *client.TableFalseCheat naming seat 1's pass 2,
// which verifies, a *Lie and a *match.FalseCheat. Where the server shows
// no evidence, p1 checks the pass it sent and p0 finds the evidence
// missing. Controls: with the check switched off (checks.NamedCheat)
// both take the end, and so does a Table that does not know the game
// (no Def); and a real cheat (p1's client garbling its pass's proof) is
// an end both take, with no blame.
func TestTableFalseCheat(t *testing.T) {
	_, key, err := ed25519.GenerateKey(nil)
	require.NoError(t, err)
	kuhn := defOf("kuhn")
	ctx := context.Background()

	t.Run("framed", func(t *testing.T) {
		ds := &dropStore{target: p1Pass2, frame: &frame{}}
		run, err := playUntilHit(t, kuhn, "fc-framed", key, ds)
		fc := falseCheatOf(t, err) // p0's view, read by Play
		require.False(t, fc.Own)
		p1 := run.tt.Tables["p1"]
		held := p1.LastAck()
		require.Equal(t, ds.hit.ActionID, held.Action.ActionID, "p1 holds the acknowledgement of its pass")
		_, err = p1.View(ctx, 0)
		own := falseCheatOf(t, err)
		require.True(t, own.Own)
		require.Equal(t, held, own.Ack)
		require.Contains(t, own.Error(), held.Server.Signature, "the error cites the server's signature")
		for _, e := range []*client.TableFalseCheat{fc, own} {
			require.Equal(t, 1, e.Seat)
			require.Equal(t, "p1", e.UID)
			require.Equal(t, 2, e.Pass)
			require.Equal(t, &match.FalseCheat{Seat: 1, Pass: 2}, e.Err, "the pass verifies")
		}
		t.Log(own.Error())
		_, again := p1.Send(ctx, table.Action{Actor: "p1", ActionID: "x", Kind: table.KindAbort})
		var lie *client.Lie
		require.ErrorAs(t, again, &lie, "p1's Table sends nothing more")

		blind, err := client.NewTable(devFunctions(run.url, "p0"), kuhn.Name(), run.id)
		require.NoError(t, err)
		v, err := blind.View(ctx, 0)
		require.NoError(t, err, "a Table that does not know the game does not check")
		require.Equal(t, "finished", v.Phase)
	})
	t.Run("framed without evidence", func(t *testing.T) {
		ds := &dropStore{target: p1Pass2, frame: &frame{hide: true}}
		run, err := playUntilHit(t, kuhn, "fc-hidden", key, ds)
		require.True(t, falseCheatOf(t, err).Err.(*match.FalseCheat).Missing, "p0 finds no evidence")
		_, err = run.tt.Tables["p1"].View(ctx, 0)
		own := falseCheatOf(t, err)
		require.True(t, own.Own, "p1 checks the pass it sent")
		require.Equal(t, &match.FalseCheat{Seat: 1, Pass: 2}, own.Err)
	})
	t.Run("framed without NamedCheat", func(t *testing.T) {
		checks.Off(t, checks.NamedCheat)
		ds := &dropStore{target: p1Pass2, frame: &frame{}}
		run, err := playUntilHit(t, kuhn, "fc-off", key, ds)
		require.NoError(t, err)
		for _, uid := range []string{"p0", "p1"} {
			v, err := run.tt.Tables[uid].View(ctx, 0)
			require.NoError(t, err, "with the check off, %s takes the end", uid)
			require.Equal(t, []int{1}, v.Outcome.Missing)
		}
	})
	t.Run("a real cheat", func(t *testing.T) {
		ds := &dropStore{target: p1Pass2, through: true,
			wrap: func(run *blameRun) trustseat.Server { return cheatingP1{run.tt, run.seats["p1"]} }}
		run, err := playUntilHit(t, kuhn, "fc-real", key, ds)
		require.NoError(t, err)
		held := run.tt.Tables["p1"].LastAck()
		require.Equal(t, ds.hit.ActionID, held.Action.ActionID, "p1 holds the acknowledgement of its garbled pass")
		for _, uid := range []string{"p0", "p1"} {
			v, err := run.tt.Tables[uid].View(ctx, 0)
			require.NoError(t, err, "%s takes a real cheat's end", uid)
			require.Equal(t, &client.TableOutcome{Abandoned: true, Winners: []int{}, Payoffs: []float64{2, -2}, Reason: match.ForfeitCheat, Missing: []int{1}}, v.Outcome)
			tv, err := v.TrustView(kuhn)
			require.NoError(t, err)
			require.Equal(t, held.Action.Deal.Pass, tv.Trustless.Deal.Refused, "the evidence shown is the pass p1 sent")
		}
	})
}

// falseCheatOf is err's *client.TableFalseCheat, which must be there,
// and must be a lie.
func falseCheatOf(t *testing.T, err error) *client.TableFalseCheat {
	t.Helper()
	var fc *client.TableFalseCheat
	require.True(t, errors.As(err, &fc), "want a TableFalseCheat, got %v", err)
	var lie *client.Lie
	require.ErrorAs(t, err, &lie, "a TableFalseCheat is a lie")
	var mfc *match.FalseCheat
	require.ErrorAs(t, err, &mfc)
	return fc
}
