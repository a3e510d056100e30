package sim

import (
	"context"
	"fmt"
	"io"
	"runtime"
	"testing"

	"github.com/fairboard/fairboard/games/dungeon/engine"
	"github.com/fairboard/fairboard/games/dungeon/tools/bot"
)

// benchPipeline runs b.N default 4-player games through the whole
// pipeline (seeding, bot play, tallying, the results) on the given
// workers, audit off, with players.csv written to perGame if not nil, by
// the bots named (the heuristic pair if none).
func benchPipeline(b *testing.B, workers int, perGame io.Writer, bots ...string) {
	cfg := testConfig(int64(b.N), workers)
	cfg.PerGame = perGame
	if len(bots) > 0 {
		cfg.Bots = bots
	}
	b.ReportAllocs()
	b.ResetTimer()
	cpu0 := cpuTime()
	o, err := Run(context.Background(), cfg, nil)
	if err != nil {
		b.Fatal(err)
	}
	NewResults(cfg, o, nil)
	cpu := cpuTime() - cpu0
	b.StopTimer()
	if o.FailedGames > 0 {
		b.Fatalf("%d games failed: %+v", o.FailedGames, o.Failures[0])
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "games/s")
	if cpu > 0 {
		// CPU time does not swing with the machine's load as wall time
		// does: games/s on W idle cores is about W / (cpu-µs/game) · 10⁶.
		b.ReportMetric(float64(cpu.Microseconds())/float64(b.N), "cpu-µs/game")
	}
}

// BenchmarkSimPipeline measures the whole pipeline of `gamectl sim` on
// every core. One op is one game; games/s is the throughput and
// cpu-µs/game its cost (target: 60,000 games/s on 2 idle cores, about 33
// µs of CPU per game; sweeps and sensitivity analyses stand on it).
func BenchmarkSimPipeline(b *testing.B) { benchPipeline(b, runtime.GOMAXPROCS(0), nil) }

// BenchmarkSimPipelineOneWorker is the same on one goroutine: the per-core
// cost of a game in the pipeline.
func BenchmarkSimPipelineOneWorker(b *testing.B) { benchPipeline(b, 1, nil) }

// BenchmarkSimPipelinePlayersCSV adds players.csv (written to io.Discard),
// as "gamectl sim --out" does: the cost of the per-game rows and of putting
// them in game order.
func BenchmarkSimPipelinePlayersCSV(b *testing.B) {
	benchPipeline(b, runtime.GOMAXPROCS(0), io.Discard)
}

// BenchmarkSimPipelineSearch is the pipeline with the search bot in every
// seat, at mcts:25, mcts:100 and mcts:200 (the levels of the by-skill
// example and of the speed figure): one op is one game (games/s,
// cpu-µs/game, what a tuning or by-skill run costs a game at that level).
// Its baseline is BenchmarkSimPipeline, the heuristic pair, in the same
// run. A game costs about a second of CPU at mcts:200, so give a fixed
// count (-benchtime 20x): the default one second plays a single game.
//
// The value model's fit, once per ruleset and number of players in a
// process (bot.BenchmarkValueFit), is done before the runs, so every run
// times games only, the first as the fifth.
func BenchmarkSimPipelineSearch(b *testing.B) {
	bot.PrepareSearch(engine.DefaultRules(), 4)
	for _, n := range []int{25, 100, 200} {
		b.Run(fmt.Sprintf("mcts:%d", n), func(b *testing.B) {
			benchPipeline(b, runtime.GOMAXPROCS(0), nil, fmt.Sprintf("mcts:%d", n))
		})
	}
}
