package sim

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/fairboard/fairboard/games/dungeon/engine"
	"github.com/fairboard/fairboard/ntbea"
	"github.com/fairboard/fairboard/rng"
)

// The files of a run directory.
const (
	tuneStateFile = "state.json"
	tuneBaseFile  = "base.json"
)

// LoadTune reads the run in dir.
func LoadTune(dir string) (*TuneState, error) {
	b, err := os.ReadFile(filepath.Join(dir, tuneStateFile))
	if err != nil {
		return nil, err
	}
	st := &TuneState{}
	if err := json.Unmarshal(b, st); err != nil {
		return nil, fmt.Errorf("%s: %w", filepath.Join(dir, tuneStateFile), err)
	}
	if st.Format != TuneFormat {
		return nil, fmt.Errorf("%s: format %q, want %q", filepath.Join(dir, tuneStateFile), st.Format, TuneFormat)
	}
	if st.rules, err = os.ReadFile(filepath.Join(dir, tuneBaseFile)); err != nil {
		return nil, err
	}
	r, err := engine.LoadRules(st.rules)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", filepath.Join(dir, tuneBaseFile), err)
	}
	if r.Hash() != st.RulesHash {
		return nil, fmt.Errorf("%s is not the ruleset this run tunes (hash %s, want %s)", filepath.Join(dir, tuneBaseFile), r.Hash(), st.RulesHash)
	}
	if _, err := rng.Restore(st.RNG, "", rng.WithSeq(st.RNGSeq)); err != nil {
		return nil, fmt.Errorf("%s: the tuner's stream: %w", filepath.Join(dir, tuneStateFile), err)
	}
	if st.Tuples == nil {
		st.Tuples = map[string]*ntbea.Stat{}
	}
	if st.Pending == nil && !st.Done() {
		return nil, fmt.Errorf("%s: no generation pending and no result", filepath.Join(dir, tuneStateFile))
	}
	return st, nil
}

// Save writes state.json and base.json into dir (atomically each).
func (st *TuneState) Save(dir string) error {
	b, err := json.MarshalIndent(st, "", " ")
	if err != nil {
		return err
	}
	if err := writeFileAtomic(filepath.Join(dir, tuneBaseFile), st.rules); err != nil {
		return err
	}
	return writeFileAtomic(filepath.Join(dir, tuneStateFile), append(b, '\n'))
}

// SameRun reports why a run's flags do not match the state in its
// directory ("" when they do): a run resumes only with its own settings.
func (st *TuneState) SameRun(o *TuneState) string {
	switch {
	case st.Seed != o.Seed:
		return fmt.Sprintf("--seed %q, the run in the directory has %q", o.Seed, st.Seed)
	case st.Games != o.Games:
		return fmt.Sprintf("--games %d, the run in the directory has %d", o.Games, st.Games)
	case !slices.Equal(st.Bots, o.Bots):
		return fmt.Sprintf("--bots %s, the run in the directory has %s", strings.Join(o.Bots, ","), strings.Join(st.Bots, ","))
	case st.Players != o.Players:
		return fmt.Sprintf("--players %d, the run in the directory has %d", o.Players, st.Players)
	case st.RulesHash != o.RulesHash:
		return "another ruleset than the run in the directory's"
	case st.Target.Spec != o.Target.Spec:
		return fmt.Sprintf("--target %q, the run in the directory has %q", o.Target.Spec, st.Target.Spec)
	case len(st.Params) != len(o.Params):
		return fmt.Sprintf("%d --param, the run in the directory has %d", len(o.Params), len(st.Params))
	}
	for i := range st.Params {
		a, b := st.Params[i], o.Params[i]
		if a.Path != b.Path || a.Lo != b.Lo || a.Hi != b.Hi {
			return fmt.Sprintf("--param %s=%s:%s, the run in the directory has %s=%s:%s", b.Path, FormatNumber(b.Lo), FormatNumber(b.Hi),
				a.Path, FormatNumber(a.Lo), FormatNumber(a.Hi))
		}
	}
	return ""
}

// tunePart is the result of one task's slice of a generation.
type tunePart struct {
	Generation int    `json:"generation"`
	Proposal   string `json:"proposal"` // the generation's candidates, to match
	Task       int    `json:"task"`
	Tasks      int    `json:"tasks"`
	Units      [2]int64
	// Records holds, per candidate of the generation (in its order), the
	// records of the games of the slice, from game From.
	Slices []tuneSlice `json:"slices"`
}

type tuneSlice struct {
	From    int64        `json:"from"`
	Records []GameRecord `json:"records"`
	Failed  int64        `json:"failed"`
}

func (g *TuneGeneration) proposal() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d:%s:%d:", g.Number, g.Seed, g.Games)
	for _, c := range g.Candidates {
		b.WriteString(strconv.Itoa(c) + ",")
	}
	return b.String()
}

func partPath(dir string, gen, task, tasks int) string {
	return filepath.Join(genDir(dir, gen), fmt.Sprintf("part-%d-of-%d.json", task, tasks))
}

// genDir is the directory of generation gen's parts.
func genDir(dir string, gen int) string { return filepath.Join(dir, "gen-"+strconv.Itoa(gen)) }

// PlayPart plays task `task` of `tasks` of the pending generation (its
// contiguous slice of the candidates' games) with the base configuration's
// workers, and writes the part. If ctx is cancelled, nothing is written
// and the part is played again by the next call.
func (st *TuneState) PlayPart(ctx context.Context, dir string, task, tasks, workers int, progress *Progress) error {
	gen := st.Pending
	if gen == nil {
		return nil
	}
	path := partPath(dir, gen.Number, task, tasks)
	if _, err := os.Stat(path); err == nil {
		return nil // played already
	}
	units := int64(len(gen.Candidates)) * gen.Games
	lo, hi := units*int64(task)/int64(tasks), units*int64(task+1)/int64(tasks)
	part := tunePart{Generation: gen.Number, Proposal: gen.proposal(), Task: task, Tasks: tasks, Units: [2]int64{lo, hi}}
	for k, c := range gen.Candidates {
		a, b := max(lo, int64(k)*gen.Games), min(hi, int64(k+1)*gen.Games)
		if a >= b {
			continue
		}
		from, to := a-int64(k)*gen.Games, b-int64(k)*gen.Games
		r, err := st.Rules(c)
		if err != nil {
			return err
		}
		cfg := st.config(r, gen.Seed, to, workers)
		cfg.From = from
		cfg.Records = make([]GameRecord, to)
		o, err := Run(ctx, cfg, progress)
		if err != nil {
			return err
		}
		if o.Partial {
			return ctx.Err()
		}
		part.Slices = append(part.Slices, tuneSlice{From: from, Records: cfg.Records[from:to], Failed: o.FailedGames})
	}
	b, err := json.Marshal(part)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return writeFileAtomic(path, b)
}

// config returns the run configuration of games under r.
func (st *TuneState) config(r *engine.Ruleset, seed string, games int64, workers int) *Config {
	cfg := &Config{Games: games, Seed: seed, Players: st.Players, Bots: st.Bots, Workers: max(workers, 1), Shards: 1,
		A: Ruleset{Rules: r, Source: "tune candidate"}}
	for _, c := range st.Classes {
		cfg.Classes = append(cfg.Classes, engine.Class(c))
	}
	return cfg
}

// collect returns the records of every candidate of the pending generation
// from a complete set of parts in dir, or nil if none is complete.
func (st *TuneState) collect(dir string) ([][]GameRecord, int64, error) {
	gen := st.Pending
	paths, err := filepath.Glob(filepath.Join(genDir(dir, gen.Number), "part-*-of-*.json"))
	if err != nil {
		return nil, 0, err
	}
	byTasks := map[int]map[int]*tunePart{}
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			return nil, 0, err
		}
		var part tunePart
		if err := json.Unmarshal(b, &part); err != nil {
			return nil, 0, fmt.Errorf("%s: %w", p, err)
		}
		if part.Generation != gen.Number || part.Proposal != gen.proposal() || part.Tasks < 1 {
			return nil, 0, fmt.Errorf("%s belongs to another generation than the one pending (%d)", p, gen.Number)
		}
		if byTasks[part.Tasks] == nil {
			byTasks[part.Tasks] = map[int]*tunePart{}
		}
		byTasks[part.Tasks][part.Task] = &part
	}
	counts := make([]int, 0, len(byTasks))
	for n := range byTasks {
		counts = append(counts, n)
	}
	slices.Sort(counts)
	for _, n := range counts {
		if len(byTasks[n]) != n {
			continue
		}
		recs := make([][]GameRecord, len(gen.Candidates))
		for k := range recs {
			recs[k] = make([]GameRecord, gen.Games)
		}
		var failed int64
		for t := range n {
			part := byTasks[n][t]
			lo := part.Units[0]
			for _, sl := range part.Slices {
				k := int((lo) / gen.Games)
				if k >= len(recs) || sl.From+int64(len(sl.Records)) > gen.Games {
					return nil, 0, fmt.Errorf("part %d of %d does not fit the generation", t, n)
				}
				copy(recs[k][sl.From:], sl.Records)
				lo = (int64(k) + 1) * gen.Games
				failed += sl.Failed
			}
		}
		return recs, failed, nil
	}
	return nil, 0, nil
}

// Fold adds the pending generation's games, once every part of it is in
// dir: the candidates' moments and the N-tuples' statistics, the pairing
// achieved, then the next generation (or the verdict after the
// confirmation). It reports whether it folded.
func (st *TuneState) Fold(dir string) (bool, error) {
	gen := st.Pending
	if gen == nil {
		return false, nil
	}
	recs, failed, err := st.collect(dir)
	if err != nil || recs == nil {
		return false, err
	}
	if failed > 0 {
		return false, fmt.Errorf("%d games of generation %d could not be played to their end (a bug of a bot or of the engine)", failed, gen.Number)
	}
	if gen.Confirm {
		st.confirm(gen, recs[0])
		st.Used += gen.Games
		st.Pending = nil
		return true, nil
	}
	terms := make([][][numClasses]float64, len(recs))
	for k, c := range gen.Candidates {
		m := momentsOf(recs[k], nil, st.Players)
		cand := &st.Candidates[c]
		cand.Moments.Merge(m)
		obj, _, _ := m.Objective()
		cand.Evals = append(cand.Evals, obj)
		fit := -1e4 * obj // pp², higher is better
		st.Fitness = append(st.Fitness, fit)
		ntbea.Add(st.Tuples, cand.Index, fit)
		terms[k] = m.edgeTerms(recs[k])
	}
	st.Used += int64(len(gen.Candidates)) * gen.Games
	pairing, pairs := pairingOf(terms)
	st.Current = st.recommend()
	obj, _ := st.Candidates[st.Current].estimate()
	st.History = append(st.History, GenSummary{Number: gen.Number, Games: st.Used, Best: st.Current, BestObj: obj, Pairing: pairing, Pairs: pairs})
	st.Pending = nil
	return true, st.propose()
}

// pairingOf returns the mean, over pairs of candidates and classes, of the
// correlation of their per-game class terms on the same games: how much
// the common seeds tie the candidates' games together (1: the same
// outcomes; 0: no more than independent games).
func pairingOf(terms [][][numClasses]float64) (float64, int) {
	var sum float64
	n := 0
	for a := range terms {
		for b := a + 1; b < len(terms); b++ {
			for c := range numClasses {
				if r, ok := correlation(terms[a], terms[b], c); ok {
					sum += r
					n++
				}
			}
		}
	}
	if n == 0 {
		return 0, 0
	}
	return sum / float64(n), n
}

func correlation(x, y [][numClasses]float64, c int) (float64, bool) {
	var sx, sy, sxx, syy, sxy, n float64
	for g := range x {
		a, b := x[g][c], y[g][c]
		sx, sy, sxx, syy, sxy, n = sx+a, sy+b, sxx+a*a, syy+b*b, sxy+a*b, n+1
	}
	vx, vy := sxx-sx*sx/n, syy-sy*sy/n
	if n < 3 || vx <= 0 || vy <= 0 {
		return 0, false
	}
	return (sxy - sx*sy/n) / math.Sqrt(vx*vy), true
}

// confirm judges the confirmation games of the candidate: met when every
// class's 95% interval lies inside the band; else not met within budget,
// or infeasible when an exhaustive grid shows every point missing it.
func (st *TuneState) confirm(gen *TuneGeneration, recs []GameRecord) {
	m := momentsOf(recs, nil, st.Players)
	res := &TuneResult{Candidate: gen.Candidates[0], Games: m.N, Moments: *m, Fair: m.Fair()}
	res.Lo, res.Hi = st.Target.Band(res.Fair)
	res.Met = true
	for c := range numClasses {
		if !m.Played(c) {
			continue
		}
		iv := Wilson(m.Sum[c], m.Sum[numClasses+c])
		o := ClassOutcome{Class: string(engine.Classes[c]), Rate: m.Rate(c), Lo: iv.Lo, Hi: iv.Hi}
		o.Inside = iv.Lo >= res.Lo && iv.Hi <= res.Hi
		o.Outside = iv.Hi < res.Lo || iv.Lo > res.Hi
		res.Met = res.Met && o.Inside
		res.Classes = append(res.Classes, o)
	}
	switch {
	case res.Met:
		res.Verdict = "met: " + st.Target.String() + ", every class's 95% interval inside the band"
	case st.gridShowsInfeasible():
		res.Infeasible = true
		res.Verdict = fmt.Sprintf("infeasible: the whole grid (%d value combinations) was played and every combination has a class whose 95%% interval lies outside the band", st.Plan.Grid)
	default:
		res.Verdict = "not met within budget: the closest candidate and its intervals are below"
	}
	st.Result = res
}

// gridShowsInfeasible reports whether the grid was searched whole and
// every point of it has a class whose interval lies wholly outside the
// band (under that point's own fair share).
func (st *TuneState) gridShowsInfeasible() bool {
	if !st.Plan.Exhaustive {
		return false
	}
	seen := int64(0)
	for i := range st.Candidates {
		c := &st.Candidates[i]
		if c.Moments.N == 0 {
			if c.Infeasible != "" {
				seen++ // the ruleset refuses it: it cannot meet anything
			}
			continue
		}
		seen++
		lo, hi := st.Target.Band(c.Moments.Fair())
		out := false
		for k := range numClasses {
			if c.Moments.Played(k) {
				iv := Wilson(c.Moments.Sum[k], c.Moments.Sum[numClasses+k])
				out = out || iv.Hi < lo || iv.Lo > hi
			}
		}
		if !out {
			return false
		}
	}
	return seen == st.Plan.Grid
}
