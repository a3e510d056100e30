package sim

import (
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/fairboard/fairboard/games/dungeon/engine"
	"github.com/fairboard/fairboard/ntbea"
)

// The tuner (gamectl sim tune) looks for values of some numbers of a
// ruleset that meet a balance target, such as "every class wins within its
// fair share ± 2 pp". It minimises the noise-corrected sum of squared class
// edges (ClassMoments.Objective) with an N-tuple bandit evolutionary
// algorithm (NTBEA: Lucas, Liu and Perez-Liebana 2018, as the TAG
// framework tunes its agents), in generations of a few candidates each
// evaluated on the same games, then confirms the best candidate on games
// of its own, with a budget set aside for it from the start.
//
// A run lives in a directory: state.json (everything needed to go on),
// base.json (the ruleset tuned), the parts of the generation being played
// (gen-<g>/part-<k>-of-<n>.json), and the outputs: tune.csv, rules.json,
// report.html. Every decision is a function of the state and of the games'
// results, never of the time or of how the games were split, so a run
// stopped and resumed, or played as the tasks of a Cloud Run job, makes
// the same decisions.

// TuneFormat names the layout of state.json.
const TuneFormat = "fairboard-tune/1"

// TuneFiles are the outputs a tuning run writes into its directory.
var TuneFiles = []string{"tune.csv", "rules.json", "report.html"}

// The tuner's fixed choices.
const (
	tuneBatch      = 8    // candidates per generation
	tuneTargetGens = 20   // generations the plan aims at
	tuneMaxPerEval = 2000 // games of one evaluation, at most
	tuneGridPoints = 16   // values of a dimension's grid, at most
	tuneExhaustive = 64   // a grid this small is searched whole
	tuneNeighbours = 64   // mutants NTBEA scores per generation
	tuneConfirmPct = 20   // per cent of the budget set aside to confirm
	tuneUCB        = 1.0  // NTBEA's exploration, in spreads of the fitness
)

// TuneParam is one number tuned: its path, base value, range and the grid
// of values the search moves on. A real-valued number (a weight) is
// searched as a real and written rounded to a whole number, as the
// ruleset's validation requires of weights.
type TuneParam struct {
	Path   string    `json:"path"`
	Base   float64   `json:"base"`
	Lo     float64   `json:"lo"`
	Hi     float64   `json:"hi"`
	Real   bool      `json:"real,omitempty"`
	Ranged bool      `json:"ranged,omitempty"` // the range was given (else validation's)
	Values []float64 `json:"values"`
}

// TuneTarget is the band every class's win rate must lie in: the fair
// share ± Half (Fair), or Center ± Half; fractions.
type TuneTarget struct {
	Spec   string  `json:"spec"`
	Fair   bool    `json:"fair"`
	Center float64 `json:"center,omitempty"`
	Half   float64 `json:"half"`
}

// DefaultTarget is every class within its fair share ± 2 pp.
const DefaultTarget = "fair±2"

// ParseTarget reads --target: "fair±P" (or "fair+-P", "±P", "+-P"), the
// fair share ± P percentage points; "C±P" (or "C+-P"), C% ± P pp; or
// "LO:HI", a band of win rates in per cent.
func ParseTarget(spec string) (TuneTarget, error) {
	t := TuneTarget{Spec: spec}
	bad := func(why string) (TuneTarget, error) {
		return t, fmt.Errorf("--target %q: %s (want fair±P, C±P or LO:HI, in per cent)", spec, why)
	}
	s := strings.ReplaceAll(strings.TrimSpace(spec), "+-", "±")
	num := func(x string) (float64, bool) {
		v, err := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(x), "%"), 64)
		return v, err == nil && !math.IsNaN(v) && !math.IsInf(v, 0)
	}
	if lo, hi, ok := strings.Cut(s, ":"); ok {
		l, ok1 := num(lo)
		h, ok2 := num(hi)
		if !ok1 || !ok2 {
			return bad("LO and HI must be numbers")
		}
		if !(0 <= l && l < h && h <= 100) {
			return bad("want 0 <= LO < HI <= 100")
		}
		t.Center, t.Half = (l+h)/200, (h-l)/200
		return t, nil
	}
	c, p, ok := strings.Cut(s, "±")
	if !ok {
		return bad("no ± and no :")
	}
	half, okh := num(p)
	if !okh || !(half > 0 && half < 50) {
		return bad("the ± half-width must be above 0 and below 50 pp")
	}
	t.Half = half / 100
	switch c = strings.TrimSpace(c); c {
	case "", "fair":
		t.Fair = true
	default:
		v, okc := num(c)
		if !okc || !(v > 0 && v < 100) {
			return bad("the centre must be fair or a per cent above 0 and below 100")
		}
		t.Center = v / 100
	}
	return t, nil
}

// Band returns the band of win rates under a fair share.
func (t TuneTarget) Band(fair float64) (lo, hi float64) {
	c := t.Center
	if t.Fair {
		c = fair
	}
	return c - t.Half, c + t.Half
}

// String says the target in words.
func (t TuneTarget) String() string {
	if t.Fair {
		return fmt.Sprintf("every class within its fair share ± %s pp", FormatNumber(100*t.Half))
	}
	return fmt.Sprintf("every class within %s%% ± %s pp", FormatNumber(100*t.Center), FormatNumber(100*t.Half))
}

// ParseTuneParam reads --param PATH[=LO:HI].
func ParseTuneParam(s string) (path string, lo, hi float64, ranged bool, err error) {
	path, r, ranged := strings.Cut(s, "=")
	path = strings.TrimSpace(path)
	if path == "" {
		return "", 0, 0, false, fmt.Errorf("--param %q: no path", s)
	}
	if !ranged {
		return path, 0, 0, false, nil
	}
	a, b, ok := strings.Cut(r, ":")
	lo, err1 := strconv.ParseFloat(strings.TrimSpace(a), 64)
	hi, err2 := strconv.ParseFloat(strings.TrimSpace(b), 64)
	if !ok || err1 != nil || err2 != nil || math.IsNaN(lo) || math.IsNaN(hi) || math.IsInf(lo, 0) || math.IsInf(hi, 0) {
		return "", 0, 0, false, fmt.Errorf("--param %q: want PATH=LO:HI with LO and HI numbers", s)
	}
	if !(lo < hi) {
		return "", 0, 0, false, fmt.Errorf("--param %q: LO must be below HI", s)
	}
	return path, lo, hi, true, nil
}

// TuneSpec is a tuning run as given: the ruleset, the numbers and their
// ranges, the run's seed, budget, bots and target.
type TuneSpec struct {
	Base      Config // Seed, Games (the whole budget), Players, Bots, Classes, Workers, A
	RulesJSON []byte
	Params    []TuneParamSpec
	Target    TuneTarget
}

// TuneParamSpec is one --param.
type TuneParamSpec struct {
	Path   string
	Lo, Hi float64
	Ranged bool
}

// realParam reports whether the number at path is real-valued: the
// ruleset's weights (of composition options and loot outcomes) are its
// only real numbers.
func realParam(path string) bool { return strings.HasSuffix(path, ".weight") }

// probeCap bounds the range of a number its validation does not bound:
// it is searched up to twice its base value or its base value + 10,
// whichever is further (and as far below its base value).
func probeCap(base float64) float64 { return math.Max(math.Abs(base), 10) }

// accepts reports whether the ruleset accepts the number at path set to v
// (every other number at its base value), with the reason if not.
func accepts(rulesJSON []byte, path string, v float64, cfg *Config) error {
	r, err := WithParams(rulesJSON, Param{Path: path, Value: v})
	if err != nil {
		return err
	}
	c := *cfg
	c.A = Ruleset{Rules: r, Source: "probe"}
	return c.Validate()
}

// prepareParam works out a number's range and grid.
func prepareParam(rulesJSON []byte, ps TuneParamSpec, cfg *Config) (TuneParam, error) {
	base, err := ParamValue(rulesJSON, ps.Path)
	if err != nil {
		return TuneParam{}, fmt.Errorf("--param %s: %w", ps.Path, err)
	}
	p := TuneParam{Path: ps.Path, Base: base, Real: realParam(ps.Path), Ranged: ps.Ranged}
	if ps.Ranged {
		p.Lo, p.Hi = ps.Lo, ps.Hi
		if !p.Real && (p.Lo != math.Trunc(p.Lo) || p.Hi != math.Trunc(p.Hi)) {
			return p, fmt.Errorf("--param %s=%s:%s: this number is whole; give a whole range", ps.Path, FormatNumber(ps.Lo), FormatNumber(ps.Hi))
		}
		for _, v := range []float64{p.Lo, p.Hi} {
			if err := accepts(rulesJSON, p.Path, math.Round(v), cfg); err != nil {
				return p, fmt.Errorf("--param %s=%s:%s: %s is refused: %w", ps.Path, FormatNumber(ps.Lo), FormatNumber(ps.Hi), FormatNumber(v), err)
			}
		}
	} else {
		// The range validation allows, the other numbers at their base
		// values: from the base value outwards until a value is refused
		// (up to probeCap where validation sets no bound).
		if err := accepts(rulesJSON, p.Path, base, cfg); err != nil {
			return p, fmt.Errorf("--param %s: the base value %s is refused: %w", ps.Path, FormatNumber(base), err)
		}
		limit := probeCap(base)
		p.Lo, p.Hi = base, base
		for v := base - 1; v >= base-limit && accepts(rulesJSON, p.Path, v, cfg) == nil; v-- {
			p.Lo = v
		}
		for v := base + 1; v <= base+limit && accepts(rulesJSON, p.Path, v, cfg) == nil; v++ {
			p.Hi = v
		}
		if p.Lo == p.Hi {
			return p, fmt.Errorf("--param %s: the ruleset allows no other value than %s; nothing to tune", ps.Path, FormatNumber(base))
		}
	}
	p.Values = ntbea.Grid(p.Lo, p.Hi, p.Base, tuneGridPoints, p.Real, true) // weights rounded too: validation wants them whole
	return p, nil
}

// Outputs writes tune.csv, rules.json (the recommended candidate, or the
// confirmed one) and report.html into dir.
func (st *TuneState) Outputs(dir string) error {
	best := st.recommend()
	if st.Result != nil {
		best = st.Result.Candidate
	}
	data, err := ParamsJSON(st.rules, st.set(st.Candidates[best].Values)...)
	if err != nil {
		return err
	}
	if err := writeFileAtomic(filepath.Join(dir, "rules.json"), data); err != nil {
		return err
	}
	if err := writeFileAtomic(filepath.Join(dir, "tune.csv"), st.CSV()); err != nil {
		return err
	}
	return writeFileAtomic(filepath.Join(dir, "report.html"), st.reportHTML())
}

// CSV returns tune.csv: one row per candidate played (its values, games,
// objective with its interval, and each class's win rate with its
// interval), then the confirmation's row.
func (st *TuneState) CSV() []byte {
	var b strings.Builder
	head := []string{"candidate", "phase", "first_generation", "evaluations", "games"}
	for _, p := range st.Params {
		head = append(head, p.Path)
	}
	head = append(head, "objective", "objective_lo", "objective_hi", "rms_edge", "fair_share")
	for _, c := range engine.Classes {
		head = append(head, "rate_"+string(c), "lo_"+string(c), "hi_"+string(c))
	}
	writeCSVRow(&b, head)
	row := func(i int, phase string, evals int, m *ClassMoments) {
		c := &st.Candidates[i]
		r := []string{strconv.Itoa(i), phase, strconv.Itoa(c.FirstGen), strconv.Itoa(evals), strconv.FormatInt(m.N, 10)}
		for _, v := range c.Values {
			r = append(r, FormatNumber(v))
		}
		obj, lo, hi := m.Objective()
		r = append(r, ff(obj), ff(lo), ff(hi), ff(math.Sqrt(math.Max(obj, 0)/numClasses)), ff(m.Fair()))
		for k := range numClasses {
			if !m.Played(k) {
				r = append(r, "", "", "")
				continue
			}
			iv := Wilson(m.Sum[k], m.Sum[numClasses+k])
			r = append(r, ff(m.Rate(k)), ff(iv.Lo), ff(iv.Hi))
		}
		writeCSVRow(&b, r)
	}
	for i := range st.Candidates {
		if st.Candidates[i].Moments.N > 0 {
			row(i, "tuning", len(st.Candidates[i].Evals), &st.Candidates[i].Moments)
		}
	}
	if st.Result != nil {
		row(st.Result.Candidate, "confirmation", 1, &st.Result.Moments)
	}
	return []byte(b.String())
}

func writeCSVRow(b *strings.Builder, fields []string) {
	for i, f := range fields {
		if i > 0 {
			b.WriteByte(',')
		}
		b.Write(appendCSVField(nil, f))
	}
	b.WriteByte('\n')
}

// TuneDirFiles are what a tuning run keeps in its directory besides the
// outputs: PrepareTuneDir removes a previous run's parts only with them.
var tuneDirFiles = []string{tuneStateFile, tuneBaseFile}

// ClearTuneDir removes a finished or abandoned run's files from dir (its
// state, base, parts and outputs), leaving other files.
func ClearTuneDir(dir string) error {
	for _, f := range append(append([]string{}, tuneDirFiles...), TuneFiles...) {
		if err := os.Remove(filepath.Join(dir, f)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
	}
	gens, _ := filepath.Glob(filepath.Join(dir, "gen-*"))
	for _, g := range gens {
		if err := os.RemoveAll(g); err != nil {
			return err
		}
	}
	return nil
}
