package sim

import (
	"bytes"
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/fairboard/fairboard/games/dungeon/engine"
)

// SweepFiles are the files a sweep writes (and removes from its --out
// directory before it starts).
var SweepFiles = []string{"sweep.csv", "report.html"}

// SweepConfig is a sweep: the base run (ruleset A, its JSON, and every
// other setting: games, seed, players, design, precision) played once per
// value of one ruleset number, or per pair of values of two (a grid), on
// the same seeds.
type SweepConfig struct {
	Base      Config
	RulesJSON []byte // the base ruleset's JSON, in which the paths are read
	Param     string
	Values    []float64
	Param2    string    // "" for a sweep of one number
	Values2   []float64 // the second number's values (a grid)
}

// SweepPoint is one run of a sweep: the values set and what it measured.
type SweepPoint struct {
	Value, Value2 float64
	Results       *Results
}

// Sweep is a finished sweep.
type Sweep struct {
	Param, Param2   string
	Values, Values2 []float64
	Base            float64 // the base ruleset's value of Param
	Base2           float64
	Players         int
	Seed            string
	Points          []SweepPoint // in value order, then value2 order (see At)
	Partial         bool
}

// At returns the point of the i-th value (and j-th value2).
func (s *Sweep) At(i, j int) *SweepPoint {
	if len(s.Values2) == 0 {
		return &s.Points[i]
	}
	return &s.Points[i*len(s.Values2)+j]
}

// Prepare checks the sweep and returns the ruleset of every point, in the
// order of Points: an unknown path, a path that names no number, a value
// the ruleset refuses or a configuration the run refuses is an error
// naming it. No game is played.
func (sc *SweepConfig) Prepare() ([]*engine.Ruleset, error) {
	if len(sc.Values) == 0 {
		return nil, fmt.Errorf("--values names no value")
	}
	if sc.Param2 != "" && len(sc.Values2) == 0 {
		return nil, fmt.Errorf("--values2 names no value for --param2 %s", sc.Param2)
	}
	if sc.Param2 == "" && len(sc.Values2) > 0 {
		return nil, fmt.Errorf("--values2 without --param2")
	}
	if sc.Param2 != "" && sc.Param2 == sc.Param {
		return nil, fmt.Errorf("--param2 %s is --param too", sc.Param2)
	}
	if sc.Base.B != nil || sc.Base.Shards > 1 || sc.Base.PerGame != nil {
		return nil, fmt.Errorf("a sweep compares its values itself: no --compare, --shard or players.csv")
	}
	for _, p := range []string{sc.Param, sc.Param2} {
		if p == "" {
			continue
		}
		if _, err := ParamValue(sc.RulesJSON, p); err != nil {
			return nil, err
		}
	}
	values2 := sc.Values2
	if sc.Param2 == "" {
		values2 = []float64{0}
	}
	var out []*engine.Ruleset
	for _, v := range sc.Values {
		for _, v2 := range values2 {
			set := []Param{{Path: sc.Param, Value: v}}
			if sc.Param2 != "" {
				set = append(set, Param{Path: sc.Param2, Value: v2})
			}
			r, err := WithParams(sc.RulesJSON, set...)
			if err != nil {
				return nil, err
			}
			cfg := sc.Base
			cfg.A = Ruleset{Rules: r, Source: sc.Base.A.Source}
			if err := cfg.Validate(); err != nil {
				return nil, fmt.Errorf("%s = %s: %w", sc.Param, FormatNumber(v), err)
			}
			out = append(out, r)
		}
	}
	return out, nil
}

// RunSweep plays every point of the sweep on the base's seeds (common
// random numbers: game i has the same seed, seats, classes and bots under
// every value, so differences between points are the values' doing, not
// the dice's). progress counts games over all points (its total is the
// number of points times Base.Games). If ctx is cancelled, the points
// played so far are returned, the sweep marked Partial.
func RunSweep(ctx context.Context, sc *SweepConfig, progress *Progress) (*Sweep, error) {
	rules, err := sc.Prepare()
	if err != nil {
		return nil, err
	}
	s := &Sweep{Param: sc.Param, Param2: sc.Param2, Values: sc.Values, Values2: sc.Values2,
		Players: sc.Base.Players, Seed: sc.Base.Seed}
	s.Base, _ = ParamValue(sc.RulesJSON, sc.Param)
	if sc.Param2 != "" {
		s.Base2, _ = ParamValue(sc.RulesJSON, sc.Param2)
	}
	k := 0
	for _, v := range sc.Values {
		for j := 0; j < max(len(sc.Values2), 1); j++ {
			cfg := sc.Base
			cfg.A = Ruleset{Rules: rules[k], Source: sc.Base.A.Source}
			k++
			o, err := Run(ctx, &cfg, progress)
			if err != nil {
				return s, err
			}
			p := SweepPoint{Value: v, Results: NewResults(&cfg, o, nil)}
			if sc.Param2 != "" {
				p.Value2 = sc.Values2[j]
			}
			if o.Partial {
				s.Partial = true
				return s, nil
			}
			s.Points = append(s.Points, p)
		}
	}
	return s, nil
}

// CSV returns sweep.csv: one row per point and measure, with the columns
// param, value, id, estimate, ci_lo, ci_hi (ids and units as in
// measures.csv: rates as fractions; the interval is empty for a measure
// without one), then, for a grid, param2 and value2.
func (s *Sweep) CSV() []byte {
	var buf bytes.Buffer
	w := csv.NewWriter(&buf)
	head := []string{"param", "value", "id", "estimate", "ci_lo", "ci_hi"}
	if s.Param2 != "" {
		head = append(head, "param2", "value2")
	}
	w.Write(head)
	for _, p := range s.Points {
		for _, m := range p.Results.Measures {
			lo, hi := "", ""
			if m.CI != nil {
				lo, hi = ff(m.CI.Lo), ff(m.CI.Hi)
			}
			row := []string{s.Param, FormatNumber(p.Value), m.ID, ff(m.Value), lo, hi}
			if s.Param2 != "" {
				row = append(row, s.Param2, FormatNumber(p.Value2))
			}
			w.Write(row)
		}
	}
	w.Flush()
	return buf.Bytes()
}

// Write writes sweep.csv and report.html into dir.
func (s *Sweep) Write(dir string) error {
	if err := writeFileAtomic(filepath.Join(dir, "sweep.csv"), s.CSV()); err != nil {
		return err
	}
	return writeFileAtomic(filepath.Join(dir, "report.html"), s.reportHTML())
}

// PrepareDir makes dir ready for a tool's files before any game is played:
// it creates it if needed, checks that a file can be written there, and
// removes the given files a previous run left. Its error names the
// directory and the problem.
func PrepareDir(dir string, files []string) error {
	if st, err := os.Stat(dir); err == nil && !st.IsDir() {
		return fmt.Errorf("--out %s: exists and is not a directory", dir)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("--out %s: %w", dir, err)
	}
	f, err := os.CreateTemp(dir, ".probe.*.tmp")
	if err != nil {
		return fmt.Errorf("--out %s: cannot write there: %w", dir, err)
	}
	f.Close()
	os.Remove(f.Name())
	for _, name := range files {
		if err := os.Remove(filepath.Join(dir, name)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("--out %s: cannot remove the previous run's %s: %w", dir, name, err)
		}
	}
	return nil
}

// ParseValues parses a comma-separated list of the values of a ruleset
// number (flag names the flag, for errors): finite numbers, each once, at
// least one. An empty item ("1,,2"), a non-number, an infinity or a value
// given twice is an error naming it.
func ParseValues(flag, s string) ([]float64, error) {
	if strings.TrimSpace(s) == "" {
		return nil, fmt.Errorf("%s names no value", flag)
	}
	var out []float64
	for i, f := range strings.Split(s, ",") {
		f = strings.TrimSpace(f)
		if f == "" {
			return nil, fmt.Errorf("%s: value %d is empty", flag, i+1)
		}
		v, err := strconv.ParseFloat(f, 64)
		if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, fmt.Errorf("%s: %q is not a number", flag, f)
		}
		if slices.Contains(out, v) {
			return nil, fmt.Errorf("%s: %s is given twice", flag, f)
		}
		out = append(out, v)
	}
	return out, nil
}
