package trustseat_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/games/pig"
	"github.com/fairboard/fairboard/table"
	"github.com/fairboard/fairboard/table/trustseat"
)

// tailSrv is a trustless table in memory whose seats read only the moves
// after their own checkpoint (table.TrustlessView.After(Checked()): what
// getView with checkedMoves answers). Before each move or reveal reaches
// the table, two twins of its seat make the same action: one restored
// from its secrets without their checkpoint (an old-style blob: it checks
// from the first move, reading the whole view), and one restored from
// the secrets the seat exported at its previous action (kept, as the page
// keeps them: a restart mid-game), reading only the moves after the
// checkpoint they hold (acts counts the actions; tails the views that
// left out moves; resumed the restored twins that checked moves after
// their checkpoint).
type tailSrv struct {
	t       *testing.T
	m       *table.Memory
	g       string
	seats   []*trustseat.Seat
	kept    map[string][]byte
	acts    int
	tails   int
	resumed int
}

func (s *tailSrv) seat(uid string) *trustseat.Seat {
	for _, x := range s.seats {
		if x.UID() == uid {
			return x
		}
	}
	return nil
}

func (s *tailSrv) View(uid string) (*table.View, error) {
	v, err := s.m.View(s.g, uid)
	if err != nil || v.Trustless == nil {
		return v, err
	}
	if x := s.seat(uid); x != nil {
		v.Trustless.After(x.Checked())
		if v.Trustless.MovesBase > 0 {
			s.tails++
		}
	}
	return v, nil
}

// act makes a's action again in twin against v.
func (s *tailSrv) act(twin *trustseat.Seat, a table.Action, v *table.View) table.Action {
	var b table.Action
	var err error
	if a.Kind == table.KindMove {
		mv, derr := game.DecodeMove(pig.Def.Kinds(), twin.Index(), a.Move)
		require.NoError(s.t, derr)
		b, err = twin.Move(a.ActionID, v, mv)
	} else {
		b, err = twin.Reveal(a.ActionID, v)
	}
	require.NoError(s.t, err)
	return b
}

func (s *tailSrv) Do(a table.Action) (*table.Result, error) {
	if x := s.seat(a.Actor); x != nil && (a.Kind == table.KindMove || a.Kind == table.KindReveal) {
		bare, err := trustseat.WithoutCheckpoint(x.Export())
		require.NoError(s.t, err)
		twin, err := trustseat.Restore(pig.Def, s.g, x.UID(), x.Index(), bare)
		require.NoError(s.t, err)
		require.Zero(s.t, twin.Checked())
		whole, err := s.m.View(s.g, x.UID())
		require.NoError(s.t, err)
		require.Equal(s.t, a, s.act(twin, a, whole), "action %d: the seat checking from its checkpoint and its twin checking from the first move", s.acts)
		require.Equal(s.t, x.Checked(), twin.Checked(), "action %d", s.acts)
		require.Equal(s.t, whole.Trustless.Played(), x.Checked(), "action %d", s.acts)
		require.Equal(s.t, string(x.Export()), string(twin.Export()), "action %d: the same secrets and checkpoint", s.acts)
		if blob := s.kept[a.Actor]; blob != nil {
			back, err := trustseat.Restore(pig.Def, s.g, x.UID(), x.Index(), blob)
			require.NoError(s.t, err)
			tail, err := s.m.View(s.g, x.UID())
			require.NoError(s.t, err)
			tail.Trustless.After(back.Checked())
			require.Equal(s.t, back.Checked(), tail.Trustless.MovesBase)
			if back.Checked() > 0 && len(tail.Trustless.Moves) > 0 {
				s.resumed++
			}
			require.Equal(s.t, a, s.act(back, a, tail), "action %d: the seat that kept running and its twin restored from its last secrets", s.acts)
			require.Equal(s.t, x.Checked(), back.Checked(), "action %d", s.acts)
			require.Equal(s.t, string(x.Export()), string(back.Export()), "action %d: the same secrets and checkpoint", s.acts)
		}
		s.kept[a.Actor] = x.Export()
		s.acts++
	}
	return s.m.Do(s.g, a)
}

// Over a long trustless Pig game, seats that read only the moves after
// their own checkpoint make every action (each move's signature, each
// reveal with its round's digest and transcript) exactly as a twin that
// checks the whole protocol from the first move (restored from an
// old-style blob, without a checkpoint) and as a twin restored from the
// secrets the seat kept at its previous action (with its checkpoint),
// reading only the moves after it; all three have checked as many moves
// and export the same secrets.
func TestSeatFromCheckpointDecidesAsFromFirst(t *testing.T) {
	m := table.NewMemory()
	seats := lobby(t, m, "cp")
	srv := &tailSrv{t: t, m: m, g: "cp", seats: seats, kept: map[string][]byte{}}
	rolls := 0
	choose := func(v *table.View) game.Move {
		for _, mv := range v.Legal {
			if mv.Kind == pig.KindHold && rolls >= 3 {
				rolls = 0
				return mv
			}
		}
		rolls++
		return game.Move{Kind: pig.KindRoll}
	}
	end, err := trustseat.Play(srv, seats, choose, nil, 20000)
	require.NoError(t, err)
	require.Equal(t, table.PhaseFinished, end.Phase)
	require.Greater(t, srv.acts, 30)
	require.Greater(t, srv.tails, srv.acts/2, "the seats read tails")
	require.Greater(t, srv.resumed, srv.acts/2, "the restored twins checked moves after their checkpoint")
	verified(t, m, pig.Def, "cp")
}

// A seat checks a view of the moves after its checkpoint from that
// checkpoint only: a view that starts after it, or a tail shown to a
// seat that has checked nothing (a fresh or restored one, or one just
// refused), is refused by name; the view cut at its checkpoint is taken
// (the control), and a seat refused takes the whole view again.
func TestSeatRefusesTailPastCheckpoint(t *testing.T) {
	m := table.NewMemory()
	seats := lobby(t, m, "cq")
	srv := memSrv{m, "cq"}
	_, err := trustseat.Play(srv, seats, roll, func(v *table.View) bool {
		return len(v.Trustless.Moves) >= 12 && v.Trustless.Pending == nil
	}, 1000)
	require.NoError(t, err)
	// Two copies of one seat check the table as it stands (k moves).
	u := seats[0]
	w, err := m.View("cq", u.UID())
	require.NoError(t, err)
	k := w.Trustless.Played()
	// move checks v as a copy's move does (its action never sent; when
	// the game awaits the other seat the move itself is refused after the
	// check, which Checked shows passed).
	move := func(s *trustseat.Seat, v *table.View) error {
		s.Forget(v.Trustless.NextIndex)
		_, err := s.Move("m", v, game.Move{Kind: pig.KindRoll})
		return err
	}
	var a, b *trustseat.Seat
	for _, x := range []**trustseat.Seat{&a, &b} {
		bare, err := trustseat.WithoutCheckpoint(u.Export()) // restored without a checkpoint: checks from the first move
		require.NoError(t, err)
		*x, err = trustseat.Restore(pig.Def, "cq", u.UID(), u.Index(), bare)
		require.NoError(t, err)
		_ = move(*x, w)
		require.Equal(t, k, (*x).Checked())
	}
	// Two more moves, which the copies have not seen.
	_, err = trustseat.Play(prefixed{srv, "b"}, seats, roll, func(v *table.View) bool {
		return len(v.Trustless.Moves) >= k+2 && v.Trustless.Pending == nil
	}, 1000)
	require.NoError(t, err)
	view := func(after int) *table.View {
		v, err := m.View("cq", u.UID())
		require.NoError(t, err)
		v.Trustless.After(after)
		return v
	}
	require.ErrorContains(t, move(a, view(k+1)), "the moves shown start at move")
	require.Zero(t, a.Checked(), "a seat refused checks from the first move again")
	require.ErrorContains(t, move(a, view(k)), "the seat has checked none")
	_ = move(b, view(k))
	require.Equal(t, view(0).Trustless.Played(), b.Checked(), "the control: the view cut at the checkpoint")
	_ = move(a, view(0))
	require.Equal(t, b.Checked(), a.Checked(), "the control: the whole view")
}
