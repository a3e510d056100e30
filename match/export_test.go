package match

import (
	"testing"

	"github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/rng"
)

// NewPeekingMCTS is a deliberately broken search bot, a positive control
// for the hidden-information test: it searches the true state (hidden
// parts and all) instead of samples of it.
func NewPeekingMCTS(n int, s *rng.Stream) *MCTS {
	b := NewMCTS(n, s)
	b.determinize = func(st game.State, _ int, _ game.Rand) game.State { return st.Clone() }
	return b
}

// IterateAllocs returns the allocations of one CFR+ iteration of s,
// averaged over runs (the solver's hot path allocates nothing).
func IterateAllocs(s *Solver, runs int) float64 {
	return testing.AllocsPerRun(runs, s.c.iterate)
}

// NewStyleBot is a style's bot over the policy p, as NewBot makes one
// for a definition's style (for tests of a policy no game ships).
func NewStyleBot(name string, p game.Policy) Bot { return styleBot{name: name, p: p} }

// SkipOverlap switches off TrustlessFollower.UpdateAfter's comparison of
// the moves it already checked until the test ends (a positive control;
// not for parallel tests).
func SkipOverlap(t testing.TB) {
	skipOverlap = true
	t.Cleanup(func() { skipOverlap = false })
}
