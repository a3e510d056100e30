package match

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"sort"
	"strconv"

	"github.com/fairboard/fairboard/game"
)

// GridFormat names the layout of a saved grid run.
const GridFormat = "fairboard-game-grid/1"

// GridBatch is how many candidates of the grid a step plays (GridRun.Next).
const GridBatch = 8

// GridParam is a number of a grid run: its range and its grid's values.
type GridParam struct {
	Path   string    `json:"path"`
	Lo     float64   `json:"lo"`
	Hi     float64   `json:"hi"`
	Values []float64 `json:"values"`
}

// GridCandidate is a point of the grid, in grid order, and its games on
// the search's seeds (nil before they are played).
type GridCandidate struct {
	Values []float64  `json:"values"`
	Result *SimResult `json:"result,omitempty"`
}

// GridRun is Tune's grid search as a run saved between steps: the
// candidates played in batches of GridBatch in grid order, then the best
// confirmed; it ends with the very TuneResult Tune returns (Result). JSON
// to save and resume (JSON, LoadGrid).
type GridRun struct {
	Format     string          `json:"format"`
	Game       string          `json:"game"`
	Rules      string          `json:"rules"` // the base ruleset, canonical JSON
	Seed       string          `json:"seed"`
	Games      int64           `json:"games"`
	Seats      int             `json:"seats"`
	Bots       []string        `json:"bots"`
	Target     float64         `json:"target"`
	Levels     int             `json:"levels"`
	Params     []GridParam     `json:"params"`
	Candidates []GridCandidate `json:"candidates"`
	Played     int             `json:"played"`            // candidates played, in grid order
	Confirm    *SimResult      `json:"confirm,omitempty"` // the best's games on fresh seeds
	Chosen     int             `json:"chosen"`            // the candidate confirmed, in grid order
	Met        bool            `json:"met"`

	sim SimConfig
	res *TuneResult // the candidates' rulesets, in grid order
}

// NewGrid checks a grid run as Tune does (the same errors, before any
// game) and returns it before any game.
func NewGrid(cfg TuneConfig) (*GridRun, error) {
	res, err := cfg.grid()
	if err != nil {
		return nil, err
	}
	if err := cfg.Sim.check(); err != nil {
		return nil, err
	}
	levels := cfg.Levels
	if levels == 0 {
		levels = DefaultTuneLevels
	}
	st := &GridRun{Format: GridFormat, Game: res.Def, Rules: string(cfg.Sim.Rules.CanonicalJSON()), Seed: cfg.Sim.Seed, Games: cfg.Sim.Games,
		Seats: cfg.Sim.Seats, Bots: cfg.Sim.Bots, Target: res.Target, Levels: levels, sim: cfg.Sim, res: res}
	for k, p := range res.Params {
		gp := GridParam{Path: p.Path, Lo: p.Lo, Hi: p.Hi}
		for _, c := range res.Candidates {
			if !slices.Contains(gp.Values, c.Values[k]) {
				gp.Values = append(gp.Values, c.Values[k])
			}
		}
		st.Params = append(st.Params, gp)
	}
	for _, c := range res.Candidates {
		st.Candidates = append(st.Candidates, GridCandidate{Values: c.Values})
	}
	return st, nil
}

// Done reports whether the run has its verdict.
func (st *GridRun) Done() bool { return st.Confirm != nil }

// order returns the played candidates' indexes by score, best first (ties:
// grid order), as Tune sorts them.
func (st *GridRun) order() []int {
	idx := make([]int, st.Played)
	for c := range idx {
		idx[c] = c
	}
	sort.SliceStable(idx, func(a, b int) bool {
		return TuneScore(st.Candidates[idx[a]].Result) < TuneScore(st.Candidates[idx[b]].Result)
	})
	return idx
}

// Next returns the run's next step (nil once done): batch b, the next
// GridBatch candidates in grid order on Games games of seed Seed +
// "/search", or, once every candidate is played, the best confirmed on
// Games games of Seed + "/confirm".
func (st *GridRun) Next() (*TuneWork, error) {
	switch {
	case st.Done():
		return nil, nil
	case st.Played < len(st.Candidates):
		from, to := st.Played, min(st.Played+GridBatch, len(st.Candidates))
		w := &TuneWork{Name: "batch-" + strconv.Itoa(from/GridBatch+1), Seed: st.Seed + "/search", Games: st.Games, sim: st.sim}
		for c := from; c < to; c++ {
			w.Values, w.rules = append(w.Values, st.Candidates[c].Values), append(w.rules, st.res.Candidates[c].Rules)
		}
		w.fold = func(res []*SimResult) error {
			for k, r := range res {
				st.Candidates[from+k].Result = r
			}
			st.Played = to
			return nil
		}
		return w, nil
	}
	best := st.order()[0]
	return &TuneWork{Name: "confirm", Seed: st.Seed + "/confirm", Games: st.Games, sim: st.sim,
		Values: [][]float64{st.Candidates[best].Values}, rules: []game.Ruleset{st.res.Candidates[best].Rules},
		fold: func(res []*SimResult) error {
			st.Confirm, st.Chosen, st.Met = res[0], best, TuneMet(res[0], st.Target)
			return nil
		}}, nil
}

// Batches returns the batches the grid takes.
func (st *GridRun) Batches() int { return (len(st.Candidates) + GridBatch - 1) / GridBatch }

// Result returns the finished run as Tune returns it (nil before the
// verdict).
func (st *GridRun) Result() *TuneResult {
	if !st.Done() {
		return nil
	}
	res := &TuneResult{Def: st.Game, Params: st.res.Params, Target: st.Target, Confirm: st.Confirm, Met: st.Met}
	for _, c := range st.order() {
		tc := st.res.Candidates[c]
		tc.Result, tc.Score = st.Candidates[c].Result, TuneScore(st.Candidates[c].Result)
		res.Candidates = append(res.Candidates, tc)
	}
	return res
}

// WriteReport writes the finished run's report (TuneResult's), or where
// a run not finished stands.
func (st *GridRun) WriteReport(w io.Writer) {
	if r := st.Result(); r != nil {
		r.WriteReport(w)
		return
	}
	fmt.Fprintf(w, "%s: a grid of %d candidates, %d played (batch %d of %d); the same command resumes\n",
		st.Game, len(st.Candidates), st.Played, (st.Played+GridBatch-1)/GridBatch, st.Batches())
}

// JSON returns the run as saved, to resume with LoadGrid.
func (st *GridRun) JSON() ([]byte, error) {
	b, err := json.MarshalIndent(st, "", " ")
	return append(b, '\n'), err
}

// ResumeGrid reads a grid run saved as JSON to resume it as fresh, the
// same run as NewGrid builds it again (the workers may differ). Errors:
// not a saved run, another format, another run (the setting that
// differs is named), a state that does not hold together.
func ResumeGrid(data []byte, fresh *GridRun) (*GridRun, error) {
	saved := &GridRun{}
	if err := json.Unmarshal(data, saved); err != nil {
		return nil, err
	}
	if saved.Format != GridFormat {
		return nil, fmt.Errorf("format %q, want %q", saved.Format, GridFormat)
	}
	if why := saved.sameRun(fresh); why != "" {
		return nil, fmt.Errorf("another tuning run: %s", why)
	}
	n := len(saved.Candidates)
	bad := fmt.Errorf("the run's state does not hold together")
	if saved.Played < 0 || saved.Played > n || (saved.Done() && (saved.Played < n || saved.Chosen < 0 || saved.Chosen >= n)) {
		return nil, bad
	}
	for c, cand := range saved.Candidates {
		if !slices.Equal(cand.Values, fresh.Candidates[c].Values) || (cand.Result == nil) != (c >= saved.Played) {
			return nil, bad
		}
		if cand.Result != nil && !fitsRun(cand.Result, fresh) {
			return nil, bad
		}
	}
	if saved.Confirm != nil && !fitsRun(saved.Confirm, fresh) {
		return nil, bad
	}
	saved.sim, saved.res = fresh.sim, fresh.res
	return saved, nil
}

// sameRun says which setting of o differs from the run's ("" if none).
func (st *GridRun) sameRun(o *GridRun) string {
	mine := runSettings{st.Game, st.Rules, st.Seed, st.Games, st.Seats, st.Bots, st.Target}
	if d := mine.differ(runSettings{o.Game, o.Rules, o.Seed, o.Games, o.Seats, o.Bots, o.Target}); d != "" {
		return d
	}
	switch {
	case st.Levels != o.Levels:
		return fmt.Sprintf("%d levels, the run's are %d", o.Levels, st.Levels)
	case len(st.Params) != len(o.Params):
		return fmt.Sprintf("%d numbers, the run has %d", len(o.Params), len(st.Params))
	}
	for d, p := range st.Params {
		q := o.Params[d]
		if p.Path != q.Path || p.Lo != q.Lo || p.Hi != q.Hi {
			return fmt.Sprintf("%s=%g:%g, the run has %s=%g:%g", q.Path, q.Lo, q.Hi, p.Path, p.Lo, p.Hi)
		}
		if !slices.Equal(p.Values, q.Values) {
			return fmt.Sprintf("%s: the grid's values %v, the run's are %v", p.Path, q.Values, p.Values)
		}
	}
	if len(st.Candidates) != len(o.Candidates) {
		return "another grid" // follows from the above; a hand-edited file
	}
	return ""
}

// LoadGrid reads a grid run of def saved as JSON and resumes it with its
// own settings on workers goroutines (as LoadNTBEA).
func LoadGrid(data []byte, def game.Definition, workers int) (*GridRun, error) {
	var saved GridRun
	if err := json.Unmarshal(data, &saved); err != nil {
		return nil, fmt.Errorf("not a saved tuning run (corrupt?): %v", err)
	}
	s := runSettings{saved.Game, saved.Rules, saved.Seed, saved.Games, saved.Seats, saved.Bots, saved.Target}
	tc, err := s.config(def, saved.Format, GridFormat, workers)
	if err != nil {
		return nil, err
	}
	tc.Levels = saved.Levels
	for _, p := range saved.Params {
		tc.Params = append(tc.Params, TuneParam{Path: p.Path, Lo: p.Lo, Hi: p.Hi})
	}
	fresh, err := NewGrid(tc)
	if err != nil {
		return nil, fmt.Errorf("the run's settings: %w", err)
	}
	return ResumeGrid(data, fresh)
}

// fitsRun reports whether a saved result has the run's games and the
// shape of its seats and seat options (what the report reads).
func fitsRun(r *SimResult, st *GridRun) bool {
	opts := st.sim.Def.Seats().Options
	if r.Games < 0 || r.Failed < 0 || r.Games+r.Failed != st.Games || len(r.Wins) != st.Seats || len(r.Payoff) != st.Seats ||
		len(r.Payoff2) != st.Seats || len(r.Options) != len(opts) {
		return false
	}
	for o, t := range r.Options {
		n := len(opts[o].Values)
		if len(t.Values) != n || len(t.Games) != n || len(t.Wins) != n || len(t.Payoff) != n {
			return false
		}
	}
	return true
}
