package match_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/games/dungeon"
	"github.com/fairboard/fairboard/games/pig"
	"github.com/fairboard/fairboard/match"
	"github.com/fairboard/fairboard/match/matchtest"
)

// A step's games played as the parts of k tasks and tallied from them
// are the results of the step played in one simulation (Simulate's
// tallies, a path that shares only playing a game with the parts'): on a
// game with a seat option (the dungeon's class, its tallies by value), and
// on Pig with a legal list that adds a move Apply refuses, so that some
// games fail (their count and first failures, in game order). The step
// is not complete while a part is missing.
func TestTuneStepPartsAreOneSimulation(t *testing.T) {
	for _, c := range []struct {
		name string
		cfg  match.TuneConfig
	}{
		{"dungeon", match.TuneConfig{Sim: match.SimConfig{Def: dungeon.Def, Games: 30, Seed: "parts", Seats: 4, Bots: []string{"random"}, Workers: 2},
			Params: []match.TuneParam{{Path: "startHp", Lo: 4, Hi: 10}}, Levels: 2}},
		{"broken pig", match.TuneConfig{Sim: match.SimConfig{Def: matchtest.Add(pig.Definition{}), Games: 200, Seed: "parts", Seats: 3, Bots: []string{"random"}, Workers: 2},
			Params: []match.TuneParam{{Path: "goal", Lo: 10, Hi: 30}}, Levels: 3}},
	} {
		run, err := match.NewGrid(c.cfg)
		require.NoError(t, err, c.name)
		w, err := run.Next()
		require.NoError(t, err)
		want, err := w.Play(context.Background())
		require.NoError(t, err)
		if c.name == "broken pig" {
			require.Positive(t, want[0].Failed, "the control: some games fail")
			require.Positive(t, want[0].Games)
		} else {
			require.NotEmpty(t, want[0].Options)
		}
		id := match.TuneStepID{Game: run.Game, Seed: run.Seed, State: "s"}
		for k := 1; k <= 4; k++ {
			dir := t.TempDir()
			for task := range k {
				got, err := w.Collect(dir, id)
				require.NoError(t, err)
				require.Nil(t, got, "%s: %d of %d parts written", c.name, task, k)
				p, err := w.PlayPart(context.Background(), id, task, k)
				require.NoError(t, err)
				require.NoError(t, w.WritePart(dir, p))
			}
			got, err := w.Collect(dir, id)
			require.NoError(t, err)
			require.Equal(t, want, got, "%s, %d tasks", c.name, k)
		}
	}
}
