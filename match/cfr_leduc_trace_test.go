package match_test

import (
	"bufio"
	"math"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/games/registry"
	"github.com/fairboard/fairboard/match"
)

// The solver's iterates on Leduc are a second implementation's: the
// exploitability of the average strategy after each iteration listed in
// testdata/leduc_cfrplus.txt, which testdata/leduc_cfrplus.py (CFR+ in
// plain Python, written from OpenSpiel's rules and the algorithm, not
// from this package) printed. The two agree to 1e-8 through iteration
// 130 (float rounding differs and CFR+'s flooring at 0 amplifies it
// later: by iteration 200 they differ by 1%, so the file stops at 130).
// Both first reach 0.01 at iteration 129, which the issue expected near
// 115: the crossing is the algorithm's, not this code's.
func TestSolveLeducAgainstSecondImplementation(t *testing.T) {
	want := readTrace(t, "testdata/leduc_cfrplus.txt")
	require.NotEmpty(t, want)
	def, err := registry.Lookup("leduc")
	require.NoError(t, err)
	s, err := match.NewSolver(def, nil, 2)
	require.NoError(t, err)
	first := 0 // the first listed iteration at or below 0.01
	for _, w := range want {
		require.NoError(t, s.Run(w.iter-s.Iterations()))
		e := s.Evaluate().Exploitability
		require.InDeltaf(t, w.e, e, 1e-8, "iteration %d", w.iter)
		if first == 0 && e <= 0.01 {
			first = w.iter
		}
	}
	require.Equal(t, 129, first, "the first iteration at or below 0.01")
}

type tracePoint struct {
	iter int
	e    float64
}

// readTrace reads "iteration exploitability" lines, ascending, skipping
// lines that start with #.
func readTrace(t *testing.T, path string) []tracePoint {
	t.Helper()
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	var out []tracePoint
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		fs := strings.Fields(line)
		require.Len(t, fs, 2, line)
		it, err := strconv.Atoi(fs[0])
		require.NoError(t, err, line)
		e, err := strconv.ParseFloat(fs[1], 64)
		require.NoError(t, err, line)
		require.False(t, math.IsNaN(e), line)
		require.True(t, len(out) == 0 || it > out[len(out)-1].iter, "iterations ascend: %s", line)
		out = append(out, tracePoint{it, e})
	}
	require.NoError(t, sc.Err())
	return out
}
