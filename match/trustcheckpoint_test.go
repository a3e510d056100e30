package match_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/games/pig"
	"github.com/fairboard/fairboard/match"
)

// A follower resumed from the checkpoint of one that checked the first k
// moves (match.ResumeTrustless, no move before k replayed), given the
// last view of a long trustless Pig game cut after k or whole, reaches
// the protocol state, game state and checkpoint of a follower checking
// the whole last view from the first move, for k along the game.
func TestResumeFromCheckpointAsFromFirst(t *testing.T) {
	snaps := playTrustlessPig(t)
	last := snaps[len(snaps)-1]
	whole, _ := trustRecord(last, 0)
	fresh, err := match.FollowTrustless(pig.Def, whole)
	require.NoError(t, err)
	want, err := fresh.Checkpoint()
	require.NoError(t, err)
	resumed := 0
	for i := 0; i < len(snaps); i += 7 {
		r0, _ := trustRecord(snaps[i], 0)
		at, err := match.FollowTrustless(pig.Def, r0)
		require.NoError(t, err)
		k := at.Checked()
		if k == 0 {
			continue
		}
		cp, err := at.Checkpoint()
		require.NoError(t, err)
		require.Equal(t, k, cp.Checked)
		for _, after := range []int{k, 0} {
			r, base := trustRecord(last, after)
			g, err := match.ResumeTrustless(pig.Def, cp, base, r)
			require.NoError(t, err, "view %d, from move %d", i, after+1)
			require.Equal(t, fresh.Checked(), g.Checked())
			require.Equal(t, fresh.Transcript, g.Transcript)
			require.Equal(t, fresh.Next, g.Next)
			require.Equal(t, fresh.Last, g.Last)
			require.Equal(t, fresh.Version, g.Version)
			// The game's state as its parts say it, not its scratch: Pig's
			// draw context holds the turn of its last roll, which a state
			// restored from a snapshot after that roll has not set.
			require.Equal(t, stateParts(fresh.Match.State(), len(fresh.Last)), stateParts(g.Match.State(), len(g.Last)))
			require.True(t, g.Match.Over())
			got, err := g.Checkpoint()
			require.NoError(t, err)
			require.Equal(t, want, got, "view %d, from move %d", i, after+1)
		}
		resumed++
	}
	require.Greater(t, resumed, 5)
}

// stateParts are a state's public, secret and per-seat parts, as the
// game writes them.
func stateParts(s game.State, seats int) []string {
	out := []string{string(s.AppendPublic(nil)), string(s.AppendSecret(nil))}
	for i := range seats {
		out = append(out, string(s.AppendPrivate(nil, i)))
	}
	return out
}
