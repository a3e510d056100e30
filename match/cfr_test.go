package match_test

import (
	"errors"
	"fmt"
	"math"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/games/pig"

	"github.com/fairboard/fairboard/games/kuhn"
	"github.com/fairboard/fairboard/match"
)

// The solver on Kuhn poker, against the game's known equilibrium (Kuhn,
// 1950; OpenSpiel's kuhn_poker tests use its value): seat 0's value is
// -1/18; in every equilibrium seat 0 bets K three times as often as it
// bluffs J (alpha and 3 alpha, alpha in [0, 1/3]), checks Q, and calls a
// bet after checking with Q with probability alpha + 1/3; seat 1 always
// calls with K and folds J, bets K after a check, bluffs J after a check
// with probability 1/3, and calls with Q with probability 1/3.
func TestSolveCFRKuhn(t *testing.T) {
	few, err := match.SolveCFR(kuhn.Def, nil, 2, 20)
	require.NoError(t, err)
	sol, err := match.SolveCFR(kuhn.Def, nil, 2, 2000)
	require.NoError(t, err)
	t.Logf("20 iterations: value %.6f exploitability %.6f; 2000: value %.9f exploitability %.9f",
		few.Value[0], few.Exploitability, sol.Value[0], sol.Exploitability)
	require.Equal(t, 6, sol.Deals)
	require.Equal(t, kuhn.Def.DefaultRuleset().Hash(), sol.RulesHash)
	require.Len(t, sol.Infos, 12)
	require.LessOrEqual(t, math.Abs(sol.Value[0]+1.0/18), 2*sol.Exploitability)
	require.InDelta(t, 0, sol.Value[0]+sol.Value[1], 1e-12)
	require.Less(t, sol.Exploitability, 0.001)
	require.Less(t, sol.Exploitability, few.Exploitability)
	require.InDelta(t, sol.BestResponse[0]+sol.BestResponse[1], sol.NashConv, 1e-12) // zero-sum
	require.InDelta(t, sol.NashConv/2, sol.Exploitability, 1e-15)
	for s := range 2 {
		require.GreaterOrEqual(t, sol.BestResponse[s], sol.Value[s]-1e-12)
	}

	p := func(seat int, key, kind string) float64 {
		is, ok := sol.Strategy(seat, key)
		require.True(t, ok, key)
		return is.Prob(kind)
	}
	const tol = 0.02
	alpha := p(0, "J", kuhn.KindBet)
	require.LessOrEqual(t, alpha, 1.0/3+tol)
	require.InDelta(t, 3*alpha, p(0, "K", kuhn.KindBet), tol)
	require.InDelta(t, 0, p(0, "Q", kuhn.KindBet), tol)
	require.InDelta(t, alpha+1.0/3, p(0, "Qpb", kuhn.KindBet), tol)
	require.InDelta(t, 0, p(0, "Jpb", kuhn.KindBet), tol)
	require.InDelta(t, 1, p(0, "Kpb", kuhn.KindBet), tol)
	require.InDelta(t, 1, p(1, "Kb", kuhn.KindBet), tol)
	require.InDelta(t, 0, p(1, "Jb", kuhn.KindBet), tol)
	require.InDelta(t, 1.0/3, p(1, "Qb", kuhn.KindBet), tol)
	require.InDelta(t, 1, p(1, "Kp", kuhn.KindBet), tol)
	require.InDelta(t, 1.0/3, p(1, "Jp", kuhn.KindBet), tol)
	require.InDelta(t, 0, p(1, "Qp", kuhn.KindBet), tol)
}

// The uniform policy's figures, worked by hand from Kuhn's rules: under
// uniform play seat 0 expects +1/8 (the card comparisons cancel over the
// deals; a fold after a bet gives the bettor 1/4 x 1/2, a fold of seat 0
// after pass-bet costs it 1/4 x 1/2); seat 0's best response (bet or call
// K, bet Q and call with it, bet J and fold it) gets (3/2 + 1/2 - 1/2)/3 =
// 1/2; seat 1's (call K and Q, fold J; bet K, Q and J after a check) gets
// (7/4 + 1/4 - 3/4)/3 = 5/12. NashConv is the sum of the gains, 3/8 +
// 13/24 = 11/12, and the exploitability half of it, 11/24: OpenSpiel's
// figures for the uniform policy (exploitability_test.py). The solver's
// average before any iteration is uniform, and gives the same.
func TestEvaluatePolicyKuhnUniform(t *testing.T) {
	pv, err := match.EvaluatePolicy(kuhn.Def, nil, 2, match.UniformPolicy)
	require.NoError(t, err)
	s, err := match.NewSolver(kuhn.Def, nil, 2)
	require.NoError(t, err)
	for _, got := range []match.PolicyValue{pv, s.Evaluate()} {
		require.InDelta(t, 1.0/8, got.Value[0], 1e-12)
		require.InDelta(t, -1.0/8, got.Value[1], 1e-12)
		require.InDelta(t, 1.0/2, got.BestResponse[0], 1e-12)
		require.InDelta(t, 5.0/12, got.BestResponse[1], 1e-12)
		require.InDelta(t, 11.0/12, got.NashConv, 1e-12)
		require.InDelta(t, 11.0/24, got.Exploitability, 1e-12)
	}
}

// A pure policy worked by hand: both seats always bet (bet first, call a
// bet). Every hand is bet-call, a showdown for 2 chips: seat 0's value is
// 0 over the six deals. Seat 0's best response against it: with K bet
// (+2); with Q bet (+2 against J, -2 against K: 0; a pass is bet at and
// a fold loses 1); with J pass and fold (-1, betting loses 2): (2 + 0 -
// 1)/3 = 1/3. Seat 1's, facing a bet every hand: call with K (+2), call
// with Q (0, a fold loses 1), fold J (-1): 1/3. NashConv 2/3, the
// exploitability 1/3.
func TestEvaluatePolicyKuhnAlwaysBet(t *testing.T) {
	bet := func(_ int, _ string, legal []game.Move) ([]float64, error) {
		p := make([]float64, len(legal))
		for i, m := range legal {
			if m.Kind == kuhn.KindBet {
				p[i] = 1
			}
		}
		return p, nil
	}
	pv, err := match.EvaluatePolicy(kuhn.Def, nil, 2, bet)
	require.NoError(t, err)
	require.InDelta(t, 0, pv.Value[0], 1e-12)
	require.InDelta(t, 1.0/3, pv.BestResponse[0], 1e-12)
	require.InDelta(t, 1.0/3, pv.BestResponse[1], 1e-12)
	require.InDelta(t, 2.0/3, pv.NashConv, 1e-12)
	require.InDelta(t, 1.0/3, pv.Exploitability, 1e-12)
}

// A policy that is not a distribution, or fails, stops the evaluation
// with the seat and key named.
func TestEvaluatePolicyRefusals(t *testing.T) {
	for _, c := range []struct {
		name string
		p    []float64
		err  error
		want string
	}{
		{"too few", []float64{1}, nil, "1 probabilities for 2 legal moves"},
		{"negative", []float64{1.5, -0.5}, nil, "probability 1 is -0.5"},
		{"NaN", []float64{math.NaN(), 1}, nil, "probability 0 is NaN"},
		{"sum", []float64{0.5, 0.6}, nil, "sum to 1.1"},
		{"error", nil, errors.New("no idea"), "no idea"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := match.EvaluatePolicy(kuhn.Def, nil, 2, func(int, string, []game.Move) ([]float64, error) { return c.p, c.err })
			require.ErrorContains(t, err, c.want)
			require.Regexp(t, `^seat [01] at "[JQK][pb]*": `, err.Error())
		})
	}
	_, err := match.EvaluatePolicy(pig.Def, nil, 3, match.UniformPolicy)
	require.ErrorIs(t, err, match.ErrUnsolvable)
}

// The hot path allocates nothing: one CFR+ iteration (both walks and
// the strategy updates) over flat arrays.
func TestSolverIterationAllocatesNothing(t *testing.T) {
	s, err := match.NewSolver(kuhn.Def, nil, 2)
	require.NoError(t, err)
	require.Zero(t, match.IterateAllocs(s, 100))
}

// coin is a test game for the solver's refusals: seat 0 draws a coin at
// setup (and, with dependent, a second coin when the first is on), then
// tosses a die of 2 (its ChanceOutcomes listed unless unlisted) or
// stops; seat 0 wins the coins plus the die from seat 1.
type coin struct {
	dependent, unlisted bool
	on                  int64 // with dependent, the first coin's value that draws the second
	seats               int
}

type coinRules struct{}

func (coinRules) Game() string          { return "coin" }
func (coinRules) CanonicalJSON() []byte { return []byte(`{}`) }
func (coinRules) Hash() string          { return game.HashJSON([]byte(`{}`)) }

func (coin) Name() string                               { return "coin" }
func (coin) DefaultRuleset() game.Ruleset               { return coinRules{} }
func (coin) DecodeRuleset([]byte) (game.Ruleset, error) { return coinRules{}, nil }
func (coin) Params() []game.Param                       { return nil }
func (c coin) Seats() game.Seats {
	n := max(c.seats, 2)
	return game.Seats{Min: n, Max: n, Default: n}
}
func (coin) Kinds() []game.KindSpec {
	return []game.KindSpec{{Name: "toss"}, {Name: "stop"}}
}
func (coin) EventTypes() []game.EventSpec { return nil }
func (coin) Styles() []game.Style         { return nil }
func (c coin) Setup(_ game.Ruleset, seats []game.Seat, rnd game.Rand, ev []game.Event) (game.State, []game.Event, error) {
	s := &coinState{cfg: c, n: len(seats)}
	v, _ := rnd.UniformInt(0, 1, "coin.a", nil)
	s.sum = int(v)
	if c.dependent && v == c.on {
		w, _ := rnd.UniformInt(0, 1, "coin.b", nil)
		s.sum += int(w)
	}
	return s, ev, nil
}

type coinState struct {
	cfg  coin
	n    int
	sum  int
	done bool
}

func (s *coinState) NumSeats() int { return s.n }
func (s *coinState) ToMove() int {
	if s.done {
		return game.Nobody
	}
	return 0
}
func (s *coinState) Legal(seat int, buf []game.Move) []game.Move {
	if s.done || seat != 0 {
		return buf[:0]
	}
	return append(buf[:0], game.Move{Kind: "toss"}, game.Move{Kind: "stop"})
}
func (s *coinState) Apply(m game.Move, rnd game.Rand, ev []game.Event) ([]game.Event, error) {
	if m.Kind == "toss" {
		d, _ := rnd.Dice(2, "coin.toss", nil)
		s.sum += d.Value
	}
	s.done = true
	return ev, nil
}
func (s *coinState) Outcome() game.Outcome {
	o := game.Outcome{Over: s.done, Payoffs: make([]float64, s.n)}
	if s.done {
		o.Payoffs[0], o.Payoffs[1] = float64(s.sum), -float64(s.sum)
	}
	return o
}
func (s *coinState) AbortPayoffs() []float64              { return make([]float64, s.n) }
func (s *coinState) Check() error                         { return nil }
func (s *coinState) Clone() game.State                    { c := *s; return &c }
func (s *coinState) AppendPublic(b []byte) []byte         { return fmt.Appendf(b, "%v", s.done) }
func (s *coinState) AppendPrivate(b []byte, _ int) []byte { return b }
func (s *coinState) AppendSecret(b []byte) []byte         { return fmt.Appendf(b, "%d", s.sum) }
func (s *coinState) AppendView(b []byte, _ int) []byte    { return s.AppendPublic(b) }
func (s *coinState) AppendInfoKey(b []byte, _ int) []byte { return s.AppendPublic(b) }
func (s *coinState) Sample(int, game.Rand) game.State     { return s.Clone() }
func (s *coinState) ChanceOutcomes(m game.Move) ([]game.Chance, bool) {
	switch {
	case m.Kind == "stop":
		return nil, true
	case s.cfg.unlisted:
		return nil, false
	}
	return []game.Chance{{Draws: []int64{1}, P: 0.5}, {Draws: []int64{2}, P: 0.5}}, true
}

// The coin game solves by hand: seat 0 tosses (+1.5 on average beats
// +0) over coins of 0 and 1: a best response's value of 0.5 + 1.5 = 2.
func TestSolveCFRCoin(t *testing.T) {
	sol, err := match.SolveCFR(coin{}, nil, 2, 50)
	require.NoError(t, err)
	require.Equal(t, 2, sol.Deals)
	require.InDelta(t, 2, sol.BestResponse[0], 1e-12)
	require.InDelta(t, 0.5*(sol.BestResponse[0]-sol.Value[0]), sol.Exploitability, 1e-12)
	require.InDelta(t, sol.Value[1], sol.BestResponse[1], 1e-12) // seat 1 has no move
	is, ok := sol.Strategy(0, "false")
	require.True(t, ok)
	require.Greater(t, is.Prob("toss"), 0.9)
}

func TestSolveCFRRefusals(t *testing.T) {
	pigRules, err := pig.Def.DecodeRuleset([]byte(`{"goal":1,"dieSides":2}`))
	require.NoError(t, err)
	for _, c := range []struct {
		name  string
		def   game.Definition
		r     game.Ruleset
		seats int
		want  string
	}{
		{"three seats", coin{seats: 3}, nil, 3, "two-player games: coin with 3 seats"},
		{"pig with three seats", pig.Def, nil, 3, "two-player games: pig with 3 seats"},
		{"unlisted chance", coin{unlisted: true}, nil, 2, "coin's ChanceOutcomes cannot list the outcomes of toss"},
		{"a setup that draws more than the probe", coin{dependent: true, on: 1}, nil, 2, "coin's setup calls depend on their values: game.Scripted: draw 2 (coin.b) past the end"},
		{"a setup that draws less than the probe", coin{dependent: true, on: 0}, nil, 2, "coin's setup calls depend on their values: the draws [1 0] make other calls"},
		{"an endless tree", pig.Def, pigRules, 2, "pig has a line of more than 1000 moves"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := match.SolveCFR(c.def, c.r, c.seats, 10)
			require.ErrorIs(t, err, match.ErrUnsolvable)
			require.ErrorContains(t, err, c.want)
		})
	}
	_, err = match.SolveCFR(kuhn.Def, nil, 2, 0)
	require.ErrorContains(t, err, "0 iterations")
}
