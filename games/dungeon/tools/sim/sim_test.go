package sim

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/games/dungeon/engine"
)

func testConfig(games int64, workers int) *Config {
	return &Config{Games: games, Seed: "sim-test", Players: 4, Bots: []string{"cautious", "aggressive"},
		Workers: workers, Shards: 1, A: Ruleset{Rules: engine.DefaultRules(), Source: DefaultSource}}
}

// comparable strips what legitimately differs between equivalent runs (the
// command line and the informational worker count) and returns the JSON.
func comparable(t *testing.T, r *Results) string {
	t.Helper()
	c := *r
	c.Command, c.Config.Workers = nil, 0
	b, err := json.Marshal(&c)
	require.NoError(t, err)
	return string(b)
}

// weakScout returns the default ruleset without the scout's movement perk.
func weakScout(t *testing.T) *engine.Ruleset {
	t.Helper()
	var raw map[string]any
	require.NoError(t, json.Unmarshal(engine.DefaultRulesJSON(), &raw))
	classes, ok := raw["classes"].(map[string]any)
	require.True(t, ok, "the default ruleset has a classes object")
	require.Contains(t, classes, "scoutMove", "the default ruleset names the scout's move bonus")
	classes["scoutMove"] = 0
	b, err := json.Marshal(raw)
	require.NoError(t, err)
	weak, err := engine.LoadRules(b)
	require.NoError(t, err)
	return weak
}

func run(t *testing.T, cfg *Config) *Results {
	t.Helper()
	o, err := Run(context.Background(), cfg, nil)
	require.NoError(t, err)
	return NewResults(cfg, o, []string{"test"})
}

func TestResultsDoNotDependOnWorkers(t *testing.T) {
	one := run(t, testConfig(300, 1))
	three := run(t, testConfig(300, 3))
	require.Equal(t, comparable(t, one), comparable(t, three))
	require.EqualValues(t, 300, one.Done)
	require.False(t, one.Partial)
	require.Zero(t, one.FailedGames)
	require.EqualValues(t, 300, one.Tally.Games)
}

func TestShardsMergeToTheUnshardedRun(t *testing.T) {
	whole := run(t, testConfig(250, 2))
	var parts []*Results
	for i := 2; i >= 0; i-- { // out of order on purpose
		cfg := testConfig(250, 1+i%2)
		cfg.Shard, cfg.Shards = i, 3
		parts = append(parts, run(t, cfg))
	}
	merged, err := Merge(parts)
	require.NoError(t, err)
	require.Equal(t, comparable(t, whole), comparable(t, merged))

	_, err = Merge(parts[:2])
	require.ErrorContains(t, err, "cover")
	_, err = Merge(append(parts, parts[0]))
	require.ErrorContains(t, err, "exactly once")
	other := testConfig(250, 1)
	other.Seed, other.Shard, other.Shards = "another", 1, 3
	_, err = Merge([]*Results{parts[0], run(t, other), parts[2]})
	require.ErrorContains(t, err, "different runs")
}

func TestShardRanges(t *testing.T) {
	cfg := testConfig(10, 1)
	cfg.Shards = 3
	var got [][2]int64
	for i := 0; i < 3; i++ {
		cfg.Shard = i
		lo, hi := cfg.Range()
		got = append(got, [2]int64{lo, hi})
	}
	require.Equal(t, [][2]int64{{0, 3}, {3, 6}, {6, 10}}, got)
}

func TestCompareSameRulesetFindsNothing(t *testing.T) {
	cfg := testConfig(200, 2)
	cfg.B = &Ruleset{Rules: engine.DefaultRules(), Source: "copy"}
	r := run(t, cfg)
	require.NotEmpty(t, r.Comparisons)
	for _, c := range r.Comparisons {
		require.Zerof(t, c.Delta, "%s", c.ID)
		require.Falsef(t, c.Significant, "%s", c.ID)
	}
}

// A designer removes the scout's movement perk: the scout's win rate must
// drop significantly on the same seeds, and the change must be visible in
// the paired game length.
func TestCompareDetectsAWeakenedClass(t *testing.T) {
	cfg := testConfig(600, 2)
	cfg.B = &Ruleset{Rules: weakScout(t), Source: "weak-scout.json"}
	r := run(t, cfg)
	var found bool
	for _, c := range r.Comparisons {
		if c.ID == "win.class.scout" {
			found = true
			require.Less(t, c.Delta, 0.0)
			require.True(t, c.Significant, "%+v %v", c.Test, *c.PHolm)
		}
	}
	require.True(t, found)
}

func TestCancelledRunIsAPrefixMarkedPartial(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cfg := testConfig(1_000_000, 2)
	p := NewProgress(nil, cfg.Games)
	go func() {
		for {
			p.mu.Lock()
			done := p.done
			p.mu.Unlock()
			if done > 0 {
				cancel()
				return
			}
		}
	}()
	p.on = true // count without drawing: w is nil, so draw nothing
	p.w = discard{}
	o, err := Run(ctx, cfg, p)
	require.NoError(t, err)
	require.True(t, o.Partial)
	require.Greater(t, o.Done, int64(0))
	require.Less(t, o.Done, cfg.Games)
	require.Equal(t, o.Done, o.A.Games+o.FailedGames)

	// The games played are exactly games 0..Done-1: a fresh run of that many
	// games gives the same tally.
	again := run(t, testConfig(o.Done, 1))
	a, _ := json.Marshal(o.A)
	b, _ := json.Marshal(again.Tally)
	require.JSONEq(t, string(b), string(a))
}

type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }

// Memory stays flat: nothing is kept per game, so the results of 10 and of
// 400 games have the same shape and nearly the same size.
func TestResultsSizeDoesNotGrowWithGames(t *testing.T) {
	small, err := json.Marshal(run(t, testConfig(10, 1)).Tally)
	require.NoError(t, err)
	big, err := json.Marshal(run(t, testConfig(400, 1)).Tally)
	require.NoError(t, err)
	require.Less(t, len(big), len(small)*3/2, "tally grew from %d to %d bytes", len(small), len(big))
}

func TestValidate(t *testing.T) {
	for name, mut := range map[string]func(*Config){
		"games":   func(c *Config) { c.Games = 0 },
		"players": func(c *Config) { c.Players = 1 },
		"classes": func(c *Config) { c.Classes = []engine.Class{"warrior"} },
		"class":   func(c *Config) { c.Classes = []engine.Class{"warrior", "monk", "duelist", "wizard"} },
		"bots":    func(c *Config) { c.Bots = nil },
		"bot":     func(c *Config) { c.Bots = []string{"reckless"} },
		"workers": func(c *Config) { c.Workers = 0 },
		"shard":   func(c *Config) { c.Shard, c.Shards = 3, 3 },
		"empty":   func(c *Config) { c.Games, c.Shard, c.Shards = 3, 2, 5 },
		"seed":    func(c *Config) { c.Seed = "\xff" },
	} {
		cfg := testConfig(10, 1)
		mut(cfg)
		require.Errorf(t, cfg.Validate(), "%s", name)
	}
	require.NoError(t, testConfig(10, 1).Validate())
}
