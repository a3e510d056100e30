package sim

import (
	"bytes"
	"context"
	"encoding/csv"
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"sort"
	"strconv"

	"github.com/fairboard/fairboard/games/dungeon/engine"
)

// SkillFiles are the files a --by-skill run writes (and removes from its
// --out directory before it starts).
var SkillFiles = []string{"skill.csv", "levels.csv", "report.html"}

// DefaultMargin is the margin within which a class's edge "holds" under
// skill: ±3 percentage points.
const DefaultMargin = 0.03

// SkillConfig is a balance-by-skill run: the same games (seeds, seats,
// classes by the balanced design) played at several skill levels, each
// level's tables homogeneous. Level 0 plays Base.Bots (the heuristic pair
// by default); level k plays mcts:Levels[k-1] in every seat.
type SkillConfig struct {
	Base   Config
	Levels []int   // N of each search level, in the order given
	Margin float64 // a fraction: 0.03 is ±3 pp
}

// SkillLevel is one level of a run: its bots and what it measured.
type SkillLevel struct {
	Name    string   // "cautious,aggressive", "mcts:200"
	Bots    []string // the design's list
	Results *Results
	records []GameRecord
}

// Verdicts of a class's edge under skill.
const (
	Holds        = "holds"
	Changes      = "changes"
	Inconclusive = "inconclusive"
)

// SkillEdge is one class's edge at one level, with its 95% interval.
type SkillEdge struct {
	Class, Level     string
	Edge, Lo, Hi     float64
	Rate, Fair       float64
	Games, PlayerGms int64
	level            int // index in Levels
}

// SkillDiff is the difference of one class's edge between a level and
// level 0, on the same games: its estimate, its 95% interval adjusted by
// Holm's method across the classes, the p-value of no difference (raw and
// Holm-adjusted), the verdict against the margin, and, when inconclusive,
// the games per level that would settle it at this estimate and spread
// (0 when no number of games would: the estimate sits on the margin).
type SkillDiff struct {
	Class, From, To string
	Diff, Lo, Hi    float64
	Z               float64 // the critical value used for the interval
	P, PHolm        float64
	Verdict         string
	Settle          int64
}

// Skill is a finished run.
type Skill struct {
	Levels  []SkillLevel
	Edges   []SkillEdge // by level, then class
	Diffs   []SkillDiff // by level (from 1), then class
	Margin  float64
	Games   int64
	Players int
	Seed    string
	Partial bool
}

// LevelBots returns the bots of each level of the run: Base.Bots, then
// mcts:N in every seat for each N.
func (sc *SkillConfig) LevelBots() [][]string {
	out := [][]string{sc.Base.Bots}
	for _, n := range sc.Levels {
		out = append(out, []string{"mcts:" + strconv.Itoa(n)})
	}
	return out
}

// Prepare checks the run: at least one level, each N within 1 and the
// search bot's maximum, none given twice, a margin above 0 and below 50
// pp, and a configuration every level accepts.
func (sc *SkillConfig) Prepare() error {
	if len(sc.Levels) == 0 {
		return fmt.Errorf("--by-skill names no level")
	}
	for i, n := range sc.Levels {
		if n < 1 || n > maxSearch {
			return fmt.Errorf("--by-skill: level %d is %d; N must be from 1 to %d simulations per decision", i+1, n, maxSearch)
		}
		if slices.Contains(sc.Levels[:i], n) {
			return fmt.Errorf("--by-skill: %d is given twice", n)
		}
	}
	if !(sc.Margin > 0 && sc.Margin < 0.5) {
		return fmt.Errorf("--margin must be above 0 and below 50 percentage points")
	}
	if sc.Base.B != nil || sc.Base.Shards > 1 || sc.Base.PerGame != nil || sc.Base.Precision > 0 || sc.Base.From != 0 {
		return fmt.Errorf("--by-skill plays every level on the same games itself: no --compare, --shard or --precision")
	}
	for _, bots := range sc.LevelBots() {
		cfg := sc.Base
		cfg.Bots = bots
		if err := cfg.Validate(); err != nil {
			return err
		}
	}
	return nil
}

// RunSkill plays every level on the same games and compares the classes'
// edges across levels. progress counts games over all levels. If ctx is
// cancelled, the levels played so far are returned, the run marked
// Partial (a level cut short is left out).
func RunSkill(ctx context.Context, sc *SkillConfig, progress *Progress) (*Skill, error) {
	if err := sc.Prepare(); err != nil {
		return nil, err
	}
	s := &Skill{Margin: sc.Margin, Games: sc.Base.Games, Players: sc.Base.Players, Seed: sc.Base.Seed}
	for _, bots := range sc.LevelBots() {
		cfg := sc.Base
		cfg.Bots = bots
		cfg.Records = make([]GameRecord, cfg.Games)
		o, err := Run(ctx, &cfg, progress)
		if err != nil {
			return s, err
		}
		if o.Partial {
			s.Partial = true
			break
		}
		s.Levels = append(s.Levels, SkillLevel{Name: joinBots(bots), Bots: bots, Results: NewResults(&cfg, o, nil), records: cfg.Records})
	}
	s.compare()
	return s, nil
}

func joinBots(bots []string) string {
	var b bytes.Buffer
	for i, x := range bots {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(x)
	}
	return b.String()
}

// compare computes each class's edge at each level and the differences
// with level 0, over the games no level failed.
func (s *Skill) compare() {
	s.Edges, s.Diffs = nil, nil
	if len(s.Levels) == 0 {
		return
	}
	n := len(s.Levels[0].records)
	failed := make([]GameRecord, n)
	for _, l := range s.Levels {
		for g := range l.records {
			failed[g].Failed = failed[g].Failed || l.records[g].Failed
		}
	}
	byLevel := make([]*ClassMoments, len(s.Levels))
	terms := make([][][numClasses]float64, len(s.Levels))
	for i, l := range s.Levels {
		byLevel[i] = momentsOf(l.records, failed, s.Players)
		terms[i] = byLevel[i].edgeTerms(l.records)
		for c := range numClasses {
			if !byLevel[i].Played(c) {
				continue
			}
			e, v := byLevel[i].Edge(c)
			h := z975 * math.Sqrt(v)
			s.Edges = append(s.Edges, SkillEdge{Class: string(engine.Classes[c]), Level: l.Name, Edge: e, Lo: e - h, Hi: e + h,
				Rate: byLevel[i].Rate(c), Fair: byLevel[i].Fair(), Games: byLevel[i].N, PlayerGms: byLevel[i].Sum[numClasses+c], level: i})
		}
	}
	for i := 1; i < len(s.Levels); i++ {
		var ds []SkillDiff
		var ses []float64
		for c := range numClasses {
			if !byLevel[0].Played(c) || !byLevel[i].Played(c) {
				continue
			}
			var d moments
			for g := range terms[i] {
				if !failed[g].Failed {
					d.add(terms[i][g][c] - terms[0][g][c])
				}
			}
			e1, _ := byLevel[i].Edge(c)
			e0, _ := byLevel[0].Edge(c)
			diff := e1 - e0
			se := math.Sqrt(d.variance() / math.Max(d.n, 1))
			p := 1.0
			if se > 0 {
				p = 2 * normalSF(math.Abs(diff)/se)
			} else if diff != 0 {
				p = 0
			}
			ds = append(ds, SkillDiff{Class: string(engine.Classes[c]), From: s.Levels[0].Name, To: s.Levels[i].Name, Diff: diff, P: p})
			ses = append(ses, se)
		}
		holmIntervals(ds, ses)
		for k := range ds {
			ds[k].judge(s.Margin, ses[k], byLevel[i].N)
		}
		s.Diffs = append(s.Diffs, ds...)
	}
}

// variance returns the sample variance of the terms added (0 for fewer
// than two).
func (m *moments) variance() float64 {
	if m.n < 2 {
		return 0
	}
	return m.m2 / (m.n - 1)
}

// holmIntervals adjusts the p-values of the classes' differences by Holm's
// method and gives each difference the interval of the level at which
// Holm's step-down tests it: the class with the j-th smallest p-value of m
// gets the two-sided interval at level 1 − 0.05/(m − j + 1), so the most
// significant class gets Bonferroni's width and the least its unadjusted
// one. A difference is significant after the adjustment exactly when its
// interval excludes 0 (and Holm's p is below 0.05).
func holmIntervals(ds []SkillDiff, ses []float64) {
	m := len(ds)
	order := make([]int, m)
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return ds[order[a]].P < ds[order[b]].P })
	running := 0.0
	for j, i := range order {
		adj := math.Min(1, float64(m-j)*ds[i].P)
		running = math.Max(running, adj)
		ds[i].PHolm = running
		z := normalQuantile(1 - 0.05/(2*float64(m-j)))
		ds[i].Z = z
		ds[i].Lo, ds[i].Hi = ds[i].Diff-z*ses[i], ds[i].Diff+z*ses[i]
	}
}

// judge gives the verdict against the margin M: holds when the interval
// lies inside (−M, M), changes when it lies outside [−M, M], inconclusive
// otherwise; then Settle is the games per level that would shrink the
// interval enough to decide, the estimate and the spread staying as they
// are (the interval narrows as 1/sqrt(games)).
func (d *SkillDiff) judge(margin, se float64, games int64) {
	switch {
	case d.Lo > -margin && d.Hi < margin:
		d.Verdict = Holds
	case d.Lo > margin || d.Hi < -margin:
		d.Verdict = Changes
	default:
		d.Verdict = Inconclusive
		room := math.Abs(margin - math.Abs(d.Diff)) // what the half-width must shrink to
		half := d.Z * se
		if room > 0 && half > 0 {
			need := float64(games) * (half / room) * (half / room)
			if need < 1e12 {
				d.Settle = int64(math.Ceil(need - 1e-9))
			}
		}
	}
}

// normalQuantile is the standard normal quantile function (Acklam's
// rational approximation, relative error below 1.2e-9, refined by one
// Newton step on math.Erfc).
func normalQuantile(p float64) float64 {
	if p <= 0 {
		return math.Inf(-1)
	}
	if p >= 1 {
		return math.Inf(1)
	}
	a := [...]float64{-3.969683028665376e+01, 2.209460984245205e+02, -2.759285104469687e+02, 1.383577518672690e+02, -3.066479806614716e+01, 2.506628277459239e+00}
	b := [...]float64{-5.447609879822406e+01, 1.615858368580409e+02, -1.556989798598866e+02, 6.680131188771972e+01, -1.328068155288572e+01}
	c := [...]float64{-7.784894002430293e-03, -3.223964580411365e-01, -2.400758277161838e+00, -2.549732539343734e+00, 4.374664141464968e+00, 2.938163982698783e+00}
	d := [...]float64{7.784695709041462e-03, 3.224671290700398e-01, 2.445134137142996e+00, 3.754408661907416e+00}
	const lo = 0.02425
	var x float64
	switch {
	case p < lo:
		q := math.Sqrt(-2 * math.Log(p))
		x = (((((c[0]*q+c[1])*q+c[2])*q+c[3])*q+c[4])*q + c[5]) / ((((d[0]*q+d[1])*q+d[2])*q+d[3])*q + 1)
	case p <= 1-lo:
		q := p - 0.5
		r := q * q
		x = (((((a[0]*r+a[1])*r+a[2])*r+a[3])*r+a[4])*r + a[5]) * q / (((((b[0]*r+b[1])*r+b[2])*r+b[3])*r+b[4])*r + 1)
	default:
		q := math.Sqrt(-2 * math.Log(1-p))
		x = -(((((c[0]*q+c[1])*q+c[2])*q+c[3])*q+c[4])*q + c[5]) / ((((d[0]*q+d[1])*q+d[2])*q+d[3])*q + 1)
	}
	// One Newton step: Φ(x) − p = 0.5·erfc(−x/√2) − p.
	e := 0.5*math.Erfc(-x/math.Sqrt2) - p
	u := e * math.Sqrt(2*math.Pi) * math.Exp(x*x/2)
	return x - u/(1+x*u/2)
}

// CSV returns skill.csv: one row per class and level with its edge and,
// for levels after the first, the difference from the first with the
// verdict: class, level, games, rate, fair_share, edge, edge_lo, edge_hi,
// diff, diff_lo, diff_hi, p, p_holm, verdict, settle_games (fractions, as
// in measures.csv).
func (s *Skill) CSV() []byte {
	var buf bytes.Buffer
	w := csv.NewWriter(&buf)
	w.Write([]string{"class", "level", "games", "rate", "fair_share", "edge", "edge_lo", "edge_hi", "diff", "diff_lo", "diff_hi", "p", "p_holm", "verdict", "settle_games"})
	for _, e := range s.Edges {
		row := []string{e.Class, e.Level, strconv.FormatInt(e.Games, 10), ff(e.Rate), ff(e.Fair), ff(e.Edge), ff(e.Lo), ff(e.Hi), "", "", "", "", "", "", ""}
		if d := s.diff(e.Class, e.Level); d != nil {
			row[8], row[9], row[10], row[11], row[12], row[13] = ff(d.Diff), ff(d.Lo), ff(d.Hi), ff(d.P), ff(d.PHolm), d.Verdict
			if d.Settle > 0 {
				row[14] = strconv.FormatInt(d.Settle, 10)
			}
		}
		w.Write(row)
	}
	w.Flush()
	return buf.Bytes()
}

// diff returns the difference of the class at the level from level 0.
func (s *Skill) diff(class, level string) *SkillDiff {
	for i := range s.Diffs {
		if s.Diffs[i].Class == class && s.Diffs[i].To == level {
			return &s.Diffs[i]
		}
	}
	return nil
}

// LevelsCSV returns levels.csv: every measure of every level, one row per
// level and measure: level, id, estimate, ci_lo, ci_hi (as sweep.csv).
func (s *Skill) LevelsCSV() []byte {
	var buf bytes.Buffer
	w := csv.NewWriter(&buf)
	w.Write([]string{"level", "id", "estimate", "ci_lo", "ci_hi"})
	for _, l := range s.Levels {
		for _, m := range l.Results.Measures {
			lo, hi := "", ""
			if m.CI != nil {
				lo, hi = ff(m.CI.Lo), ff(m.CI.Hi)
			}
			w.Write([]string{l.Name, m.ID, ff(m.Value), lo, hi})
		}
	}
	w.Flush()
	return buf.Bytes()
}

// Write writes skill.csv, levels.csv and report.html into dir.
func (s *Skill) Write(dir string) error {
	if err := writeFileAtomic(filepath.Join(dir, "skill.csv"), s.CSV()); err != nil {
		return err
	}
	if err := writeFileAtomic(filepath.Join(dir, "levels.csv"), s.LevelsCSV()); err != nil {
		return err
	}
	return writeFileAtomic(filepath.Join(dir, "report.html"), s.reportHTML())
}
