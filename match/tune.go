package match

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"sort"
	"strings"

	"github.com/fairboard/fairboard/game"
)

// DefaultTuneLevels is the tuner's grid: values a number takes.
const DefaultTuneLevels = 5

// MaxTuneCandidates bounds the tuner's grid (the product of the numbers'
// levels).
const MaxTuneCandidates = 200

// TuneParam is a number to tune over [Lo, Hi], within its Param's range
// (Lo = Hi = 0: the whole range).
type TuneParam struct {
	Path   string
	Lo, Hi float64
}

// TuneConfig is a tuning run: a grid search over Params, each taking
// Levels values (0: DefaultTuneLevels) evenly spread over its [Lo, Hi]
// (whole numbers rounded, repeats dropped), every candidate of the grid
// (at most MaxTuneCandidates) played on the same Sim.Games games of seed
// Sim.Seed + "/search", then the best confirmed on Sim.Games fresh games
// of Sim.Seed + "/confirm". Target is the band, in rate, around the fair
// share 1/seats that every cell's Wilson 95% interval must lie in (0:
// 0.02). Sim.Rules is the base ruleset (nil: the default).
type TuneConfig struct {
	Sim    SimConfig
	Params []TuneParam
	Levels int
	Target float64
}

// TuneCandidate is one point of the grid and its search run.
type TuneCandidate struct {
	Values []float64 // by Params
	Result *SimResult
	Score  float64 // the noise-corrected sum of squared edges (Tune)
	Rules  game.Ruleset
}

// TuneResult is a tuning run: the candidates by score, best first (ties:
// grid order), the best's confirmation and the verdict.
type TuneResult struct {
	Def        string
	Params     []TuneParam
	Target     float64
	Candidates []TuneCandidate
	Confirm    *SimResult
	Met        bool
}

// TuneCells names the tuner's cells: the seat options' values for a game
// with seat options, the seat positions otherwise.
func tuneCells(r *SimResult) (k, n []int64) {
	if len(r.Options) == 0 {
		for _, w := range r.Wins {
			k, n = append(k, w), append(n, r.Games)
		}
		return k, n
	}
	for _, t := range r.Options {
		k, n = append(k, t.Wins...), append(n, t.Games...)
	}
	return k, n
}

// TuneScore is a simulation's imbalance as the tuner measures it: over the
// cells (the seat options' values for a game with options, else the seat
// positions), the sum of e^2 - p(1-p)/n, e = p - 1/seats the edge of a
// cell's rate p over its n seat-games: the noise-corrected squared edge
// (the expected square of an estimate is the squared edge plus the
// estimate's variance p(1-p)/n), so that the score of a fair game is near 0
// whatever the games.
func TuneScore(r *SimResult) float64 {
	s, _ := tuneScore(r)
	return s
}

// TuneScoreSE returns an upper bound on the standard error of
// TuneScore(r): over the cells, the sum of the standard deviations of a
// squared normal estimate of the edge, sqrt(4 e^2 v + 2 v^2), e the cell's
// edge and v = p(1-p)/n its estimate's variance (a sum of standard
// deviations bounds the standard deviation of a sum, whatever the cells'
// correlation: in two seats the edges are opposite, their squares equal).
func TuneScoreSE(r *SimResult) float64 {
	_, se := tuneScore(r)
	return se
}

// tuneScore returns TuneScore(r) and TuneScoreSE(r).
func tuneScore(r *SimResult) (s, se float64) {
	fair := 1 / float64(r.Seats)
	ks, ns := tuneCells(r)
	for c, k := range ks {
		if ns[c] == 0 {
			continue
		}
		p := float64(k) / float64(ns[c])
		e, v := p-fair, p*(1-p)/float64(ns[c])
		s += e*e - v
		se += math.Sqrt(4*e*e*v + 2*v*v)
	}
	return s, se
}

// TuneMet reports whether every cell's Wilson 95% interval lies within
// fair +/- target.
func TuneMet(r *SimResult, target float64) bool {
	fair := 1 / float64(r.Seats)
	ks, ns := tuneCells(r)
	for c, k := range ks {
		lo, hi := Wilson(k, ns[c])
		if lo < fair-target || hi > fair+target {
			return false
		}
	}
	return true
}

// TuneGrid returns a number's grid: levels values evenly spread over
// [lo, hi] (whole numbers rounded to the nearest, repeats dropped; one
// value when lo = hi).
func TuneGrid(p game.Param, lo, hi float64, levels int) []float64 {
	var out []float64
	for l := range levels {
		v := lo
		if levels > 1 {
			v = lo + (hi-lo)*float64(l)/float64(levels-1)
		}
		if p.Integer {
			v = math.Round(v)
		}
		if len(out) == 0 || out[len(out)-1] != v {
			out = append(out, v)
		}
	}
	return out
}

// Tune plays the grid and confirms the best. Everything is checked before
// any game: an unknown path (the error lists the known ones), a number
// listed twice, a range outside the Param's or with Lo > Hi, levels below
// 1, a grid of more than MaxTuneCandidates, a target outside (0, 1), a
// ruleset the game refuses. It stops with ctx's error when ctx is done.
// Games that fail to finish are counted in their SimResult (Failed), not
// an error: the scores are over the games played.
func Tune(ctx context.Context, cfg TuneConfig) (*TuneResult, error) {
	res, err := cfg.grid()
	if err != nil {
		return nil, err
	}
	total := len(res.Candidates)
	for c := range total {
		sc := cfg.Sim
		sc.Rules, sc.Seed = res.Candidates[c].Rules, cfg.Sim.Seed+"/search"
		r, err := simulateAll(ctx, sc)
		if err != nil {
			return nil, err
		}
		res.Candidates[c].Result, res.Candidates[c].Score = r, TuneScore(r)
	}
	sort.SliceStable(res.Candidates, func(a, b int) bool { return res.Candidates[a].Score < res.Candidates[b].Score })
	sc := cfg.Sim
	sc.Rules, sc.Seed = res.Candidates[0].Rules, cfg.Sim.Seed+"/confirm"
	r, err := simulateAll(ctx, sc)
	if err != nil {
		return nil, err
	}
	res.Confirm, res.Met = r, TuneMet(r, res.Target)
	return res, nil
}

// grid checks the grid search's configuration as Tune does and returns
// the run before any game: its candidates in grid order, each with its
// values and ruleset. It sets cfg.Sim.Rules to the default when nil.
func (cfg *TuneConfig) grid() (*TuneResult, error) {
	levels := cfg.Levels
	if levels == 0 {
		levels = DefaultTuneLevels
	}
	var levelsErr error
	if levels < 1 {
		levelsErr = fmt.Errorf("levels must be at least 1, not %d", cfg.Levels)
	}
	var grids [][]float64
	total := 1
	params, target, err := cfg.setup(levelsErr, func(p game.Param, tp TuneParam) error {
		grids = append(grids, TuneGrid(p, tp.Lo, tp.Hi, levels))
		total *= len(grids[len(grids)-1])
		if total > MaxTuneCandidates {
			return fmt.Errorf("the grid has more than %d candidates: fewer levels or numbers", MaxTuneCandidates)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	def := cfg.Sim.Def
	// The candidates in grid order (the first number turning slowest), each
	// ruleset checked before any game.
	res := &TuneResult{Def: def.Name(), Params: params, Target: target}
	for c := range total {
		vals := make([]float64, len(params))
		r := cfg.Sim.Rules
		rest := c
		for k := len(params) - 1; k >= 0; k-- {
			vals[k] = grids[k][rest%len(grids[k])]
			rest /= len(grids[k])
		}
		for k, tp := range params {
			var err error
			if r, err = game.WithNumber(def, r, tp.Path, vals[k]); err != nil {
				return nil, fmt.Errorf("candidate %v: %w", vals, err)
			}
		}
		res.Candidates = append(res.Candidates, TuneCandidate{Values: vals, Rules: r})
	}
	return res, nil
}

// setup checks what every tuner of a game checks, in this order: a game,
// no players.csv, at least one number, levelsErr (the caller's check of
// its own setting, nil if none), the target in (0, 1), then each number:
// known, listed once, its range (Lo = Hi = 0: the Param's whole range)
// low to high within the Param's, then each's own check (the grid counts
// its candidates there). It sets cfg.Sim.Rules to the default ruleset when
// nil, and returns the numbers with their ranges and the target (0: 0.02).
func (cfg *TuneConfig) setup(levelsErr error, each func(p game.Param, tp TuneParam) error) ([]TuneParam, float64, error) {
	def := cfg.Sim.Def
	if def == nil {
		return nil, 0, errors.New("a tuning run needs a game")
	}
	if cfg.Sim.Players != nil {
		return nil, 0, errors.New("a tuning run writes no players.csv")
	}
	if len(cfg.Params) == 0 {
		return nil, 0, fmt.Errorf("a tuning run needs at least one number (of %s)", strings.Join(paramPaths(def), ", "))
	}
	if levelsErr != nil {
		return nil, 0, levelsErr
	}
	target := cfg.Target
	if target == 0 {
		target = 0.02
	}
	if !(target > 0 && target < 1) {
		return nil, 0, fmt.Errorf("the target band must be above 0 and below 1 (a rate), not %g", cfg.Target)
	}
	if cfg.Sim.Rules == nil {
		cfg.Sim.Rules = def.DefaultRuleset()
	}
	params := append([]TuneParam(nil), cfg.Params...)
	seen := map[string]bool{}
	for k, tp := range params {
		p, err := game.ParamOf(def, tp.Path)
		if err != nil {
			return nil, 0, err
		}
		if seen[tp.Path] {
			return nil, 0, fmt.Errorf("%s is listed twice", tp.Path)
		}
		seen[tp.Path] = true
		if tp.Lo == 0 && tp.Hi == 0 {
			params[k].Lo, params[k].Hi = p.Min, p.Max
			tp = params[k]
		}
		if tp.Lo > tp.Hi || tp.Lo < p.Min || tp.Hi > p.Max || math.IsNaN(tp.Lo) || math.IsNaN(tp.Hi) {
			return nil, 0, fmt.Errorf("%s: the range %g:%g must lie within [%g, %g], low to high", tp.Path, tp.Lo, tp.Hi, p.Min, p.Max)
		}
		if err := each(p, tp); err != nil {
			return nil, 0, err
		}
	}
	return params, target, nil
}

func paramPaths(def game.Definition) []string {
	var out []string
	for _, p := range def.Params() {
		out = append(out, p.Path)
	}
	return out
}

// WriteReport writes the run: the best candidates (at most 10) with their
// scores and largest edges, then the confirmation's cells and the verdict.
func (r *TuneResult) WriteReport(w io.Writer) {
	c0 := r.Candidates[0].Result
	var names []string
	for _, p := range r.Params {
		names = append(names, fmt.Sprintf("%s in [%g, %g]", p.Path, p.Lo, p.Hi))
	}
	fmt.Fprintf(w, "%s: tuning %s, a grid of %d candidates, %d games each on seed %q, the best confirmed on %q; %d seats, bots %s\n",
		r.Def, strings.Join(names, ", "), len(r.Candidates), c0.Requested, c0.Seed, r.Confirm.Seed, c0.Seats, joinComma(c0.Bots))
	writeScoreLine(w, c0, r.Target)
	for k, c := range r.Candidates {
		if k == 10 {
			fmt.Fprintf(w, "  ... %d more\n", len(r.Candidates)-10)
			break
		}
		var vals []string
		for i, p := range r.Params {
			vals = append(vals, fmt.Sprintf("%s=%g", p.Path, c.Values[i]))
		}
		fmt.Fprintf(w, "  %2d. %-30s score %8.2f\n", k+1, strings.Join(vals, " "), 1e4*c.Score)
	}
	writeConfirm(w, r.Confirm, r.Met, "the grid")
}

// writeScoreLine says what the score is and the target.
func writeScoreLine(w io.Writer, r *SimResult, target float64) {
	cells := "seat position"
	if len(r.Options) > 0 {
		cells = "seat option value"
	}
	fmt.Fprintf(w, "score: the sum over each %s of its squared edge less its noise (pp^2; 0 is fair); target: every 95%% interval within fair +/- %.1f pp\n", cells, 100*target)
}

// writeConfirm writes a tuner's confirmation: its cells and the verdict
// ("not met within" where).
func writeConfirm(w io.Writer, c *SimResult, met bool, where string) {
	fmt.Fprintf(w, "confirmation of %s on %d fresh games:\n", c.Rules, c.Games)
	fair := 1 / float64(c.Seats)
	for p, k := range c.Wins {
		fmt.Fprintf(w, "  position %d  %s\n", p+1, rateCell(k, c.Games, fair))
	}
	for _, t := range c.Options {
		for v, name := range t.Values {
			fmt.Fprintf(w, "  %s=%-10s %s\n", t.Name, name, rateCell(t.Wins[v], t.Games[v], fair))
		}
	}
	if met {
		fmt.Fprintln(w, "verdict: met")
	} else {
		fmt.Fprintf(w, "verdict: not met within %s (the best candidate above is the closest found)\n", where)
	}
}
