package main

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/require"
)

// The interval's order statistics and coverage, worked by hand from the
// binomial distribution: P(Bin(10, 1/2) <= 1) = 11/1024, so k = 2 covers
// 1 - 22/1024 = 97.85%, and k = 3 would cover 1 - 2·56/1024 = 89.1%; for
// 12 pairs P(<= 2) = 79/4096: k = 3 covers 96.14%; for 6 pairs k = 1
// covers 1 - 2/64 = 96.9%.
func TestMedianInterval(t *testing.T) {
	xs := []float64{10, 1, 9, 2, 8, 3, 7, 4, 6, 5}
	lo, hi, c := medianInterval(xs)
	require.Equal(t, 2.0, lo)
	require.Equal(t, 9.0, hi)
	require.InDelta(t, 1-22.0/1024, c, 1e-12)
	twelve := []float64{12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1}
	lo, hi, c = medianInterval(twelve)
	require.Equal(t, []float64{3, 10}, []float64{lo, hi})
	require.InDelta(t, 1-2*79.0/4096, c, 1e-12)
	lo, hi, c = medianInterval([]float64{6, 5, 4, 3, 2, 1})
	require.Equal(t, []float64{1, 6}, []float64{lo, hi})
	require.InDelta(t, 1-2.0/64, c, 1e-12)
	require.InDelta(t, 11.0/1024, binomCDF(10, 1), 1e-15)
	require.InDelta(t, 1.0, binomCDF(10, 10), 1e-12)
	require.Equal(t, 5.5, median(xs))
	require.Equal(t, 5.0, median([]float64{9, 5, 1}))
}

func TestParse(t *testing.T) {
	m, line := parse([]byte("goos: linux\nBenchmarkSimPipelineOneWorker \t  2000\t  51234 ns/op\t  19519 games/s\t  50.1 cpu-µs/game\t 1234 B/op\t 12 allocs/op\nPASS\n"))
	require.Equal(t, map[string]float64{"ns/op": 51234, "games/s": 19519, "cpu-µs/game": 50.1, "B/op": 1234, "allocs/op": 12}, m)
	require.Contains(t, line, "BenchmarkSimPipelineOneWorker")
	m, _ = parse([]byte("PASS\n"))
	require.Nil(t, m)

	// Sub-benchmarks: each line's metrics under its name, the CPU suffix
	// dropped.
	m, line = parse([]byte("BenchmarkActionVsBare/audit=off-2 200 9691747 ns/op 1.025 ratio-p50\nBenchmarkActionVsBare/audit=on-2 200 11703255 ns/op 1.227 ratio-p50\nPASS\n"))
	require.Equal(t, map[string]float64{
		"BenchmarkActionVsBare/audit=off ns/op": 9691747, "BenchmarkActionVsBare/audit=off ratio-p50": 1.025,
		"BenchmarkActionVsBare/audit=on ns/op": 11703255, "BenchmarkActionVsBare/audit=on ratio-p50": 1.227}, m)
	require.Contains(t, line, "audit=on")
}

func TestFlags(t *testing.T) {
	for _, args := range [][]string{{}, {"-rev", "x", "-pkg", "sim", "-bench", "B"}, {"-rev", "x", "-pkg", "./sim", "-bench", "B", "-pairs", "5"}, {"-rev", "x", "-pkg", "./sim", "-bench", "B", "extra"}, {"-rev", "x", "-pkg", "./games/dungeon/tools/sim", "-base-pkg", "sim", "-bench", "B"}} {
		var out, errs bytes.Buffer
		require.Equal(t, 2, run(args, &out, &errs), "%v", args)
		require.NotEmpty(t, errs.String())
	}
}
