package table_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/games/pig"
	"github.com/fairboard/fairboard/match"
	"github.com/fairboard/fairboard/table"
)

// A trustless table is due from its pending round's deadline (DueAt),
// which Memory.Due finds (not before it; a table without a round never);
// the sweep's abort (SweepActionID by ServerActor) ends it naming the
// seat that did not reveal, a second one answers the same result
// (Replayed), and the finished table is due no more.
func TestDueAndTheSweepsAbort(t *testing.T) {
	m := table.NewMemory()
	seats := trustLobby(t, m, "due", 2, 0)
	trustLobby(t, m, "idle", 2, 0) // started, no round pending
	require.Empty(t, m.Due(1<<62, 0))
	v, err := m.View("due", uid(0))
	require.NoError(t, err)
	roll, err := seats[0].Move("roll", v, game.Move{Kind: pig.KindRoll})
	require.NoError(t, err)
	roll.At = 1_000
	_, err = m.Do("due", roll)
	require.NoError(t, err)
	v, err = m.View("due", "")
	require.NoError(t, err)
	deadline := v.Trustless.Pending.Deadline
	require.Equal(t, int64(1_000+table.DefaultDeadlineMs), deadline)
	require.Empty(t, m.Due(deadline-1, 0))
	require.Equal(t, []string{"due"}, m.Due(deadline, 0))

	abort := table.Action{Actor: table.ServerActor, ActionID: table.SweepActionID, Kind: table.KindAbort, At: deadline}
	_, err = m.Do("due", abort)
	require.ErrorIs(t, err, table.CodeDeadlineNotPassed)
	abort.At = deadline + 1
	first, err := m.Do("due", abort)
	require.NoError(t, err)
	require.False(t, first.Replayed)
	again, err := m.Do("due", abort)
	require.NoError(t, err)
	require.True(t, again.Replayed)
	require.Equal(t, first.Events, again.Events)
	require.Empty(t, m.Due(1<<62, 0))
	end, err := m.View("due", "")
	require.NoError(t, err)
	require.Equal(t, match.AbortDeadline, end.Outcome.Reason)
	require.Equal(t, []int{1}, end.Outcome.Missing)
}
