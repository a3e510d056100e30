package match_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/games/pig"
	"github.com/fairboard/fairboard/match"
	"github.com/fairboard/fairboard/rng"
	"github.com/fairboard/fairboard/table"
	"github.com/fairboard/fairboard/table/trustseat"
)

// snapSrv is a trustless table in memory whose public view is kept after
// every action (snaps): the views a client polling it would read.
type snapSrv struct {
	m     *table.Memory
	g     string
	snaps []*table.View
}

func (s *snapSrv) Do(a table.Action) (*table.Result, error) {
	r, err := s.m.Do(s.g, a)
	if err == nil {
		v, verr := s.m.View(s.g, "")
		if verr != nil {
			return nil, verr
		}
		s.snaps = append(s.snaps, v)
	}
	return r, err
}

func (s *snapSrv) View(uid string) (*table.View, error) { return s.m.View(s.g, uid) }

// playTrustlessPig plays a 2-seat trustless Pig game to 100 on a table in
// memory (each seat rolls until it has rolled thrice in its turn) and
// returns every public view after the start.
func playTrustlessPig(t *testing.T) []*table.View {
	t.Helper()
	m, g := table.NewMemory(), "tf"
	uid := func(i int) string { return fmt.Sprintf("u%d", i) }
	_, err := m.Create(g, pig.Def, table.CreateRequest{Actor: uid(0), ActionID: "c", Mode: rng.ModeTrustless, Seats: 2,
		ChainLength: 512, Rules: []byte(`{"goal":100,"dieSides":6}`)})
	require.NoError(t, err)
	srv := &snapSrv{m: m, g: g}
	seats := make([]*trustseat.Seat, 2)
	for i := range seats {
		seats[i], err = trustseat.New(pig.Def, g, uid(i), i, 512)
		require.NoError(t, err)
		_, err = srv.Do(seats[i].Join("j", uint64(1+i), nil, nil))
		require.NoError(t, err)
	}
	_, err = srv.Do(table.Action{Actor: uid(0), ActionID: "s", Version: 3, Kind: table.KindStart})
	require.NoError(t, err)
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
	return srv.snaps[3:]
}

// trustRecord is the record a client follows from v's protocol, its
// moves cut to those after the first k (table.TrustlessView.After).
func trustRecord(v *table.View, k int) (*match.Record, int) {
	tv := *v.Trustless
	tv.After(k)
	r := &match.Record{Game: v.Game, Mode: rng.ModeTrustless, Seats: len(v.Seats), Rules: v.Rules, Trustless: &tv.RecordTrustless}
	for _, m := range tv.Moves {
		r.Moves = append(r.Moves, m.Move)
	}
	return r, tv.MovesBase
}

// A follower updated from views of the moves after its own checkpoint
// reaches, after every action of a long trustless Pig game, the same
// protocol state (transcript, next index, each seat's last link, moves
// checked) and game state as one checking each whole view from the
// first move.
func TestFollowAfterCheckpointAsFromFirst(t *testing.T) {
	snaps := playTrustlessPig(t)
	require.Greater(t, snaps[len(snaps)-1].Trustless.Played(), 20)
	r0, _ := trustRecord(snaps[0], 0)
	inc, err := match.FollowTrustless(pig.Def, r0)
	require.NoError(t, err)
	for i, v := range snaps {
		r, base := trustRecord(v, inc.Checked())
		require.Equal(t, inc.Checked(), base, "view %d: the view starts at the checkpoint", i)
		require.NoError(t, inc.UpdateAfter(base, r), "view %d", i)
		whole, _ := trustRecord(v, 0)
		fresh, err := match.FollowTrustless(pig.Def, whole)
		require.NoError(t, err, "view %d", i)
		require.Equal(t, v.Trustless.Played(), inc.Checked(), "view %d", i)
		require.Equal(t, fresh.Checked(), inc.Checked(), "view %d", i)
		require.Equal(t, fresh.Transcript, inc.Transcript, "view %d", i)
		require.Equal(t, fresh.Next, inc.Next, "view %d", i)
		require.Equal(t, fresh.Last, inc.Last, "view %d", i)
		require.Equal(t, fresh.Match.Moves(), inc.Match.Moves(), "view %d", i)
		require.Equal(t, fresh.Match.State(), inc.Match.State(), "view %d", i)
		require.Equal(t, fresh.Match.Events(), inc.Match.Events(), "view %d", i)
	}
	require.True(t, inc.Match.Over())
}

// followTo is a follower that checked the first k moves of the last view
// (from the first move).
func followTo(t *testing.T, v *table.View, k int) *match.TrustlessFollower {
	t.Helper()
	r, _ := trustRecord(v, 0)
	r.Moves, r.Trustless.Moves = r.Moves[:k], r.Trustless.Moves[:k]
	f, err := match.FollowTrustless(pig.Def, r)
	require.NoError(t, err)
	require.Equal(t, k, f.Checked())
	return f
}

// A view that starts before the follower's checkpoint with a move it
// checked altered (its signature, its round's link, its bytes) is
// refused by name; with the comparison switched off the same view is
// taken (the positive control: nothing else would catch it, the follower
// never checks a move twice); the view unaltered is taken.
func TestFollowAfterCheckpointOverlapAltered(t *testing.T) {
	snaps := playTrustlessPig(t)
	last := snaps[len(snaps)-1]
	const k = 20
	var rolled int // a move of the overlap that opened a round
	for i := k - 4; i < k; i++ {
		if last.Trustless.Moves[i].Index > 0 {
			rolled = i
		}
	}
	require.NotZero(t, rolled)
	flip := func(h string) string { return map[bool]string{true: "1", false: "0"}[h[0] == '0'] + h[1:] }
	alter := map[string]func(r *match.Record, i int){
		"signature": func(r *match.Record, i int) { r.Trustless.Moves[i].Signature = flip(r.Trustless.Moves[i].Signature) },
		"link": func(r *match.Record, i int) {
			m := &r.Trustless.Moves[i]
			m.Reveals = slices.Clone(m.Reveals) // never the view's own
			m.Reveals[1].Link = flip(m.Reveals[1].Link)
		},
		"move": func(r *match.Record, i int) {
			r.Moves[i] = r.Moves[i][:len(r.Moves[i])-1] + " }"
			r.Trustless.Moves[i].Move = r.Moves[i]
		},
	}
	for name, edit := range alter {
		for _, skip := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/skip=%v", name, skip), func(t *testing.T) {
				if skip {
					match.SkipOverlap(t)
				}
				f := followTo(t, last, k)
				r, base := trustRecord(last, k-4)
				require.Equal(t, k-4, base)
				edit(r, rolled-base)
				err := f.UpdateAfter(base, r)
				if skip {
					require.NoError(t, err, "the control: without the comparison the altered move goes unseen")
					require.Equal(t, last.Trustless.Played(), f.Checked())
					return
				}
				require.ErrorContains(t, err, fmt.Sprintf("move %d changed since it was checked", rolled+1))
			})
		}
	}
	f := followTo(t, last, k)
	r, base := trustRecord(last, k-4)
	require.NoError(t, f.UpdateAfter(base, r))
	require.Equal(t, last.Trustless.Played(), f.Checked())
}

// A tail inconsistent with the follower's checkpoint is refused: one that
// starts after it (a gap), one that leaves out the move after it, one
// that starts at it but says it starts earlier; the same tail as served
// honestly is taken (the control).
func TestFollowAfterCheckpointTailInconsistent(t *testing.T) {
	snaps := playTrustlessPig(t)
	last := snaps[len(snaps)-1]
	k := 20
	for last.Trustless.Moves[k].Index == 0 { // the move after the checkpoint opens a round
		k++
	}
	f := followTo(t, last, k)
	r, base := trustRecord(last, k+1)
	require.ErrorContains(t, f.UpdateAfter(base, r), fmt.Sprintf("the moves shown start at move %d; %d were checked", k+2, k))

	f = followTo(t, last, k)
	r, _ = trustRecord(last, k+1)
	require.Error(t, f.UpdateAfter(k, r), "the move after the checkpoint left out")

	f = followTo(t, last, k)
	r, _ = trustRecord(last, k)
	require.ErrorContains(t, f.UpdateAfter(k-1, r), "changed since it was checked")

	match.SkipOverlap(t) // the mislabelled tail is caught by the protocol or the replay too: it leaves out a move
	f = followTo(t, last, k)
	r, _ = trustRecord(last, k)
	require.Error(t, f.UpdateAfter(k-1, r))

	f = followTo(t, last, k)
	r, base = trustRecord(last, k)
	require.NoError(t, f.UpdateAfter(base, r), "the control: the tail served honestly")
	require.Equal(t, last.Trustless.Played(), f.Checked())
}
