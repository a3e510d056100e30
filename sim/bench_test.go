package sim

import (
	"context"
	"runtime"
	"testing"
)

// BenchmarkSimPipeline measures the whole pipeline of `gamectl sim`: seeding,
// bot play, tallying and the results, on every core, audit off. One op is
// one default 4-player game; games/s is the throughput (target: 10,000 on 2
// cores, a million-game sweep in under two minutes).
func BenchmarkSimPipeline(b *testing.B) {
	cfg := testConfig(int64(b.N), runtime.GOMAXPROCS(0))
	b.ReportAllocs()
	b.ResetTimer()
	o, err := Run(context.Background(), cfg, nil)
	if err != nil {
		b.Fatal(err)
	}
	NewResults(cfg, o, nil)
	b.StopTimer()
	if o.FailedGames > 0 {
		b.Fatalf("%d games failed: %+v", o.FailedGames, o.Failures[0])
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "games/s")
}

// BenchmarkSimPipelineOneWorker is the same on one goroutine: the per-core
// cost of a game in the pipeline.
func BenchmarkSimPipelineOneWorker(b *testing.B) {
	cfg := testConfig(int64(b.N), 1)
	b.ReportAllocs()
	b.ResetTimer()
	o, err := Run(context.Background(), cfg, nil)
	if err != nil {
		b.Fatal(err)
	}
	b.StopTimer()
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "games/s")
	_ = o
}
