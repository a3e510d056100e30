package match_test

import (
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/games/kuhn"
	"github.com/fairboard/fairboard/games/pig"
	"github.com/fairboard/fairboard/match"
	"github.com/fairboard/fairboard/match/matchtest"
	"github.com/fairboard/fairboard/rng"
)

// pigConfigs are lean seeded Pig games of 2 to 4 seats, every third to
// a goal of 30.
func pigConfigs(t *testing.T, n int) []match.Config {
	short, err := game.WithNumber(pig.Def, pig.Def.DefaultRuleset(), "goal", 30)
	require.NoError(t, err)
	var cfgs []match.Config
	for i := range n {
		cfg := match.Config{Mode: rng.ModeSeeded, Seed: "reset#" + strconv.Itoa(i), Seats: make([]game.Seat, 2+i%3), Lean: true}
		if i%3 == 0 {
			cfg.Rules = short
		}
		cfgs = append(cfgs, cfg)
	}
	return cfgs
}

// Reset on a game that is no game.Resetter sets each game up anew: the
// games are New's, move for move.
func TestResetPlaysAsNewPig(t *testing.T) {
	require.NoError(t, matchtest.CheckReset(pig.Def, pigConfigs(t, 8), "hold:20", nil))
	require.NoError(t, matchtest.CheckReset(pig.Def, pigConfigs(t, 4), "random", nil))
}

// The positive control: a SetupAgain one draw off is caught.
func TestCheckResetCatchesASkewedSetup(t *testing.T) {
	err := matchtest.CheckReset(matchtest.SkewReset(pig.Def), pigConfigs(t, 3), "random", nil)
	require.Error(t, err)
	require.Contains(t, err.Error(), "game 1")
}

// Reset's refusals, each named; a match refused goes on after a good
// Reset.
func TestResetRefusals(t *testing.T) {
	lean := match.Config{Mode: rng.ModeSeeded, Seed: "r", Seats: make([]game.Seat, 2), Lean: true}
	full := lean
	full.Lean = false
	m, err := match.New(pig.Def, full)
	require.NoError(t, err)
	require.ErrorContains(t, m.Reset(lean), "lean")
	m, err = match.New(pig.Def, lean)
	require.NoError(t, err)
	for _, c := range []struct {
		cfg  func(match.Config) match.Config
		want string
	}{
		{func(c match.Config) match.Config { c.Lean = false; return c }, "lean"},
		{func(c match.Config) match.Config { c.Mode, c.Seed = rng.ModeTrustless, ""; return c }, "trustless"},
		{func(c match.Config) match.Config { c.Seed = ""; return c }, "needs a seed"},
		{func(c match.Config) match.Config { c.Mode = "dice"; return c }, `mode "dice"`},
		{func(c match.Config) match.Config { c.Mode = rng.ModeFair; return c }, "64 lower-case hex"},
		{func(c match.Config) match.Config { c.Rules = kuhn.Def.DefaultRuleset(); return c }, "a kuhn ruleset for a game of pig"},
		{func(c match.Config) match.Config { c.Seats = make([]game.Seat, 9); return c }, "bad_setup"},
	} {
		require.ErrorContains(t, m.Reset(c.cfg(lean)), c.want)
	}
	require.NoError(t, m.Reset(lean))
	fresh, err := match.New(pig.Def, lean)
	require.NoError(t, err)
	require.Equal(t, fresh.State().AppendPublic(nil), m.State().AppendPublic(nil))
	require.Equal(t, fresh.State().ToMove(), m.State().ToMove())
}
