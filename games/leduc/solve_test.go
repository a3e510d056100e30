package leduc_test

import (
	"math"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/games/leduc"
	"github.com/fairboard/fairboard/match"
)

// vStar is Leduc's value for the first player at an equilibrium, from
// OpenSpiel's sequence-form linear program test (leduc_poker).
const vStar = -0.085606424078

// SolveCFR on Leduc: the average strategy's value V for seat 0 is within
// 2E of v*, E the solver's exploitability of that strategy (at an
// equilibrium V = v*; in a zero-sum game |V - v*| is at most the NashConv,
// whether E is the NashConv or half of it). The bound means something
// only if E is small: 3,000 iterations of the vanilla CFR of today's
// solver bring the NashConv to about 0.04 (measured: 0.040), so E must be
// below 0.06. The solver's tree holds the 30 deals and the 936
// information states the tree walk counts.
func TestSolveCFR(t *testing.T) {
	t0 := time.Now()
	sol, err := match.SolveCFR(leduc.Def, nil, 2, 1000)
	require.NoError(t, err)
	e := sol.Exploitability
	t.Logf("1000 iterations in %v: V %.9f, E %.9f, |V - v*| %.6f", time.Since(t0), sol.Value[0], e, math.Abs(sol.Value[0]-vStar))
	require.Equal(t, 30, sol.Deals)
	require.Len(t, sol.Infos, 936)
	require.InDelta(t, 0, sol.Value[0]+sol.Value[1], 1e-9)
	require.Less(t, e, 0.001) // CFR+ reaches it by iteration 458
	require.LessOrEqual(t, math.Abs(sol.Value[0]-vStar), 2*e)
}

// The solver takes two-player games: three-seat Leduc is refused, with
// match.ErrUnsolvable (gamectl solve --players 3 exits 2, cmd/gamectl's
// TestSolveRefusals).
func TestSolverRefusesThreeSeats(t *testing.T) {
	_, err := match.NewSolver(leduc.Def, nil, 3)
	require.ErrorIs(t, err, match.ErrUnsolvable)
	require.ErrorContains(t, err, "the solver takes two-player games: leduc with 3 seats (it takes 2 to 10)")
	_, err = match.SolveCFR(leduc.Def, nil, 3, 10)
	require.ErrorIs(t, err, match.ErrUnsolvable)
}
