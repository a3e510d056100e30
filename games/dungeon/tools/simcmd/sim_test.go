package simcmd

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/games/dungeon/tools/sim"
	"github.com/fairboard/fairboard/internal/cli"
)

// TestRunStatus: a run stopped early exits 130, one with failed games 1.
func TestRunStatus(t *testing.T) {
	require.NoError(t, runStatus(&sim.Results{Done: 10, Range: [2]int64{0, 10}}))
	err := runStatus(&sim.Results{Done: 4, Range: [2]int64{0, 10}, Partial: true})
	var ee cli.ExitError
	require.ErrorAs(t, err, &ee)
	require.Equal(t, 130, ee.Code)
	require.Contains(t, err.Error(), "interrupted after 4 of 10 games")
	err = runStatus(&sim.Results{Done: 10, Range: [2]int64{0, 10}, FailedGames: 2,
		Failures: []sim.Failure{{Index: 3, Seed: "s#3", Error: "bot: game did not finish"}}})
	require.ErrorAs(t, err, &ee)
	require.Equal(t, 1, ee.Code, "failed games: the run found a problem")
	require.Contains(t, err.Error(), "2 of 10 games could not be played to their end (first: s#3")
}
