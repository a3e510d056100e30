package pig_test

import (
	"context"
	"math"
	"runtime"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/games/pig"
	"github.com/fairboard/fairboard/match"
)

// holdProb is a policy for the exact solver: the probability that the
// mover holds with banked i, the opponent's banked j and turn total k > 0.
type holdProb func(i, j, k int) float64

// randomPolicy is the uniform-random bot: roll or hold, one half each
// (it must roll at a turn total of 0, which the solver does).
func randomPolicy(_, _, _ int) float64 { return 0.5 }

// holdAtPolicy is the hold-at-n style.
func holdAtPolicy(n, goal int) holdProb {
	return func(i, _, k int) float64 {
		if k >= n || i+k >= goal {
			return 1
		}
		return 0
	}
}

// exactFirstSeat returns the probability that the first seat wins
// two-player Pig with the goal and a die of the sides when both seats
// play policy, computed from the rules alone, not the engine.
//
// V[i][j] is the probability that the seat to move at the start of its
// turn, with banked i against the opponent's j, wins. Within the turn,
// with turn total k, a roll of 1 (probability 1/sides) passes the turn
// with nothing banked, giving 1 - V[j][i]; a face f >= 2 wins at once if
// i+k+f reaches the goal, else continues at k+f; a hold (only at k > 0)
// gives 1 - V[j][i+k]. The turn's states form a chain in k, but turns
// recur: V[i][j] needs V[j][i] and V[j][i+k] (k > 0). The pairs are
// taken in decreasing order of i+j, so V[j][i+k] is known, and each pair
// {V[i][j], V[j][i]} is iterated to convergence (change below 1e-12;
// each step contracts by the product of the two bust probabilities).
func exactFirstSeat(goal, sides int, policy holdProb) float64 {
	V := make([][]float64, goal)
	for i := range V {
		V[i] = make([]float64, goal)
	}
	T := make([]float64, goal+sides)
	d := float64(sides)
	turn := func(i, j int, bust float64) float64 { // bust: V[j][i]
		for k := goal - 1 - i; k >= 0; k-- {
			roll := (1 - bust) / d
			for f := 2; f <= sides; f++ {
				if i+k+f >= goal {
					roll += 1 / d
				} else {
					roll += T[k+f] / d
				}
			}
			if k == 0 {
				T[k] = roll
				continue
			}
			h := policy(i, j, k)
			T[k] = h*(1-V[j][i+k]) + (1-h)*roll
		}
		return T[0]
	}
	for s := 2 * (goal - 1); s >= 0; s-- {
		for i := max(0, s-(goal-1)); i <= s/2; i++ {
			j := s - i
			a, b := 0.5, 0.5
			for {
				a2 := turn(i, j, b)
				b2 := a2
				if i != j {
					b2 = turn(j, i, a2)
				}
				done := math.Abs(a2-a) < 1e-12 && math.Abs(b2-b) < 1e-12
				a, b = a2, b2
				if done {
					break
				}
			}
			V[i][j], V[j][i] = a, b
		}
	}
	return V[0][0]
}

// The solver against values worked out by hand: with a goal of 1 the
// first roll wins unless it is a 1 (P = 5/6 + 1/6 (1 - P), so P = 6/7);
// with a goal of 2 and a two-sided die P = 1/2 + 1/2 (1 - P) = 2/3.
func TestExactSolverByHand(t *testing.T) {
	require.InDelta(t, 6.0/7, exactFirstSeat(1, 6, randomPolicy), 1e-12)
	require.InDelta(t, 2.0/3, exactFirstSeat(2, 2, randomPolicy), 1e-12)
	require.InDelta(t, 2.0/3, exactFirstSeat(2, 2, holdAtPolicy(20, 2)), 1e-12)
	// Goal 3, d2, hold at 1: a 2 from 0 is held at once, a 2 from 2 wins.
	// V(2,2) = 1/2 + 1/2 (1 - V(2,2)) = 2/3; V(2,0) = 1/2 + 1/2 (1 - V(0,2));
	// V(0,2) = 1/2 (1 - V(2,0)) + 1/2 (1 - V(2,2)) = 2/3 - V(2,0)/2, so
	// V(2,0) = 8/9 and V(0,2) = 2/9; V(0,0) = 1/2 (1 - V(0,0)) + 1/2 (7/9),
	// so 3/2 V(0,0) = 1/2 + 7/18 = 8/9 and V(0,0) = 16/27.
	require.InDelta(t, 16.0/27, exactFirstSeat(3, 2, holdAtPolicy(1, 3)), 1e-12)
}

// exactGames is the games of each exact test: at 100,000 the standard
// error is 0.16 points, so 4 of them (0.63) keep a 1-point error out
// unless the sample strays by more than 2.3 standard errors the other way.
const exactGames = 100_000

// simulateFirstSeat plays two-player Pig (goal 100, d6) with the bot at
// both seats and returns the first seat's wins and games.
func simulateFirstSeat(t *testing.T, bot string, games int64) (int64, int64) {
	t.Helper()
	start := time.Now()
	res, err := match.Simulate(context.Background(), match.SimConfig{Def: pig.Def, Games: games, Seed: "exact-" + bot,
		Seats: 2, Bots: []string{bot}, Workers: runtime.GOMAXPROCS(0)})
	require.NoError(t, err)
	require.Zero(t, res.Failed)
	t.Logf("%s: %d games, %.1f moves a game, %v", bot, res.Games, float64(res.Moves)/float64(res.Games), time.Since(start))
	return res.Wins[0], res.Games
}

// checkExact asserts |simulated - exact| within 4 standard errors, and
// that a 1-point error in the exact value would be outside them.
func checkExact(t *testing.T, exact float64, k, n int64) {
	t.Helper()
	p := float64(k) / float64(n)
	se := math.Sqrt(exact * (1 - exact) / float64(n))
	t.Logf("exact %.10f, simulated %.6f (%d/%d), difference %+.5f = %+.2f standard errors (se %.5f)", exact, p, k, n, p-exact, (p-exact)/se, se)
	require.Less(t, math.Abs(p-exact), 4*se, "the simulation disagrees with the exact value")
	require.Greater(t, math.Abs(p-(exact+0.01)), 4*se, "the test cannot tell a 1-point error")
	require.Greater(t, math.Abs(p-(exact-0.01)), 4*se, "the test cannot tell a 1-point error")
}

// The uniform-random bot's first-seat win rate against the exact value.
func TestExactRandom(t *testing.T) {
	start := time.Now()
	exact := exactFirstSeat(100, 6, randomPolicy)
	t.Logf("value iteration: %v", time.Since(start))
	k, n := simulateFirstSeat(t, "random", exactGames)
	checkExact(t, exact, k, n)
}

// Hold-at-20 against itself.
func TestExactHoldAt20(t *testing.T) {
	start := time.Now()
	exact := exactFirstSeat(100, 6, holdAtPolicy(20, 100))
	t.Logf("value iteration: %v", time.Since(start))
	k, n := simulateFirstSeat(t, "hold:20", exactGames)
	checkExact(t, exact, k, n)
}
