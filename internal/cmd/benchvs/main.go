// Command benchvs compares one benchmark of this tree against another
// revision, alternating runs so that both see the same machine: it builds
// the package's test binary at REV (in a temporary git worktree) and in the
// working tree, then runs the benchmark -pairs times each, in the order
// base, candidate, base, candidate, ..., one -test.count=1 run at a time,
// and prints every run's figures, the ratio of the medians (candidate over
// base) of each metric, and the median of the pairs' ratios with its
// distribution-free 95% interval (order statistics of the pair ratios: the
// sign test's interval for a median):
//
//	go run ./internal/cmd/benchvs -rev 658ca0c -pkg ./games/dungeon/tools/sim -base-pkg ./sim \
//	    -bench 'BenchmarkSimPipelineOneWorker$' -pairs 10
//
// (-base-pkg: the package's path at -rev, for a package that has moved.)
// `make bench-vs REV=... PKG=... BENCH=...` runs it. Exit status 2 for bad
// flags, 1 when a build or a run fails.
package main

import (
	"bufio"
	"bytes"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("benchvs", flag.ContinueOnError)
	fs.SetOutput(stderr)
	rev := fs.String("rev", "", "the base revision (required)")
	pkg := fs.String("pkg", "", "the package, as ./path (required)")
	basePkg := fs.String("base-pkg", "", "the package's path at -rev, as ./path, when it has moved since (default: -pkg)")
	bench := fs.String("bench", "", "the benchmark's -test.bench regexp (required)")
	pairs := fs.Int("pairs", 10, "alternating pairs of runs, 6 to 1000")
	benchtime := fs.String("benchtime", "", "-test.benchtime of each run (default: go test's)")
	cpu := fs.String("cpu", "", "-test.cpu of each run (default: go test's)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	switch {
	case *rev == "" || *pkg == "" || *bench == "":
		fmt.Fprintln(stderr, "benchvs: -rev, -pkg and -bench are required")
		return 2
	case !strings.HasPrefix(*pkg, "./"):
		fmt.Fprintf(stderr, "benchvs: -pkg %q: give the package as ./path\n", *pkg)
		return 2
	case *basePkg != "" && !strings.HasPrefix(*basePkg, "./"):
		fmt.Fprintf(stderr, "benchvs: -base-pkg %q: give the package as ./path\n", *basePkg)
		return 2
	case *pairs < 6 || *pairs > 1000:
		fmt.Fprintf(stderr, "benchvs: -pairs %d: want 6 to 1000 (fewer gives no 95%% interval)\n", *pairs)
		return 2
	case fs.NArg() > 0:
		fmt.Fprintf(stderr, "benchvs: unexpected arguments %q\n", fs.Args())
		return 2
	}
	tmp, err := os.MkdirTemp("", "benchvs-")
	if err != nil {
		fmt.Fprintln(stderr, "benchvs:", err)
		return 1
	}
	defer os.RemoveAll(tmp)
	wt := filepath.Join(tmp, "base")
	if out, err := exec.Command("git", "worktree", "add", "--detach", wt, *rev).CombinedOutput(); err != nil {
		fmt.Fprintf(stderr, "benchvs: git worktree add %s: %v\n%s", *rev, err, out)
		return 1
	}
	defer exec.Command("git", "worktree", "remove", "--force", wt).Run()
	// The base worktree shares this tree's npm packages (the emulator
	// benchmarks start the Auth emulator from node_modules).
	if abs, err := filepath.Abs("node_modules"); err == nil {
		if _, err := os.Stat(abs); err == nil {
			if err := os.Symlink(abs, filepath.Join(wt, "node_modules")); err != nil {
				fmt.Fprintln(stderr, "benchvs: linking node_modules into the base worktree:", err)
				return 1
			}
		}
	}
	bins := [2]string{filepath.Join(tmp, "base.test"), filepath.Join(tmp, "head.test")}
	pkgs := [2]string{*basePkg, *pkg}
	if pkgs[0] == "" {
		pkgs[0] = *pkg
	}
	for i, dir := range []string{wt, "."} {
		cmd := exec.Command("go", "test", "-c", "-o", bins[i], pkgs[i])
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			fmt.Fprintf(stderr, "benchvs: building %s in %s: %v\n%s", pkgs[i], dir, err, out)
			return 1
		}
	}
	runArgs := []string{"-test.run", "^$", "-test.bench", *bench, "-test.count", "1", "-test.benchmem"}
	if *benchtime != "" {
		runArgs = append(runArgs, "-test.benchtime", *benchtime)
	}
	if *cpu != "" {
		runArgs = append(runArgs, "-test.cpu", *cpu)
	}
	var runs [2][]map[string]float64
	for p := range *pairs {
		for i, name := range []string{"base", "head"} {
			cmd := exec.Command(bins[i], runArgs...)
			cmd.Dir = filepath.Join(map[int]string{0: wt, 1: "."}[i], pkgs[i])
			out, err := cmd.CombinedOutput()
			if err != nil {
				fmt.Fprintf(stderr, "benchvs: %s run %d: %v\n%s", name, p+1, err, out)
				return 1
			}
			m, line := parse(out)
			if m == nil {
				fmt.Fprintf(stderr, "benchvs: %s run %d printed no benchmark line for %q:\n%s", name, p+1, *bench, out)
				return 1
			}
			fmt.Fprintf(stdout, "%s %2d  %s\n", name, p+1, line)
			runs[i] = append(runs[i], m)
		}
	}
	fmt.Fprintln(stdout)
	report(stdout, runs)
	return 0
}

// parse returns the metrics of out's benchmark lines ("value unit" pairs
// after the iteration count) and the lines. With one benchmark line the
// metrics are keyed by unit; with several (sub-benchmarks such as
// audit=off and audit=on), by the benchmark's name without its -N suffix,
// a space and the unit, so that each sub-benchmark is compared with
// itself.
func parse(out []byte) (map[string]float64, string) {
	type bench struct {
		name string
		m    map[string]float64
	}
	var found []bench
	var lines []string
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 1<<16), 1<<20)
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) < 4 || !strings.HasPrefix(f[0], "Benchmark") {
			continue
		}
		m := map[string]float64{}
		for i := 2; i+1 < len(f); i += 2 {
			v, err := strconv.ParseFloat(f[i], 64)
			if err != nil {
				break
			}
			m[f[i+1]] = v
		}
		name := f[0]
		if i := strings.LastIndex(name, "-"); i > 0 {
			if _, err := strconv.Atoi(name[i+1:]); err == nil {
				name = name[:i]
			}
		}
		found = append(found, bench{name, m})
		lines = append(lines, sc.Text())
	}
	switch len(found) {
	case 0:
		return nil, ""
	case 1:
		return found[0].m, lines[0]
	}
	all := map[string]float64{}
	for _, b := range found {
		for u, v := range b.m {
			all[b.name+" "+u] = v
		}
	}
	return all, strings.Join(lines, "\n       ")
}

// report prints, for every metric both sides have, the medians, their
// ratio, and the median of the pair ratios with its interval.
func report(w io.Writer, runs [2][]map[string]float64) {
	var units []string
	for u := range runs[0][0] {
		if _, ok := runs[1][0][u]; ok {
			units = append(units, u)
		}
	}
	sort.Strings(units)
	fmt.Fprintf(w, "%-14s %14s %14s %9s %9s  %s\n", "metric", "base median", "head median", "ratio", "pairs", "95% interval of the pairs' median ratio")
	for _, u := range units {
		var b, h, r []float64
		for p := range runs[0] {
			bv, hv := runs[0][p][u], runs[1][p][u]
			b, h = append(b, bv), append(h, hv)
			if bv != 0 {
				r = append(r, hv/bv)
			}
		}
		mb, mh := median(b), median(h)
		ratio := 0.0
		if mb != 0 {
			ratio = mh / mb
		}
		lo, hi, cover := medianInterval(r)
		fmt.Fprintf(w, "%-14s %14.4g %14.4g %9.4f %9.4f  [%.4f, %.4f] (coverage %.1f%%, %d pairs)\n", u, mb, mh, ratio, median(r), lo, hi, 100*cover, len(r))
	}
}

func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

// medianInterval returns the distribution-free interval [x(k), x(n-k+1)]
// for the median of xs (1-based order statistics), k the largest whose
// coverage 1 - 2·P(Binomial(n, 1/2) <= k-1) is at least 95%, and that
// coverage. With fewer than 6 values no k reaches 95%: it returns the
// range and its coverage.
func medianInterval(xs []float64) (lo, hi, coverage float64) {
	n := len(xs)
	if n == 0 {
		return 0, 0, 0
	}
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	k, cover := 1, 1-2*binomCDF(n, 0)
	for k+1 <= n/2 {
		c := 1 - 2*binomCDF(n, k)
		if c < 0.95 {
			break
		}
		k, cover = k+1, c
	}
	return s[k-1], s[n-k], cover
}

// binomCDF is P(Binomial(n, 1/2) <= j).
func binomCDF(n, j int) float64 {
	p, c := 0.0, 1.0 // c = C(n, i) / 2^n, built up without overflow
	for range n {
		c /= 2
	}
	for i := 0; i <= j; i++ {
		p += c
		c = c * float64(n-i) / float64(i+1)
	}
	return p
}
