package match

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"sort"

	"github.com/fairboard/fairboard/game"
)

// A game's tuning run played as the steps of a Cloud Run job ("gamectl sim
// tune step --game NAME"): each step (a generation, a batch of the grid,
// the confirmation) is split into the contiguous slices of its games that
// the job's tasks play, each task writing its part to a file; the task
// that finds every part written tallies the games in game order, exactly
// as Simulate does, and folds them into the run, which therefore ends as
// the same run played in one go, byte for byte.

// TuneWork is a step of a tuning run: each ruleset of Values played on
// Games games of Seed (game i on seed Seed#i), then folded into the run.
type TuneWork struct {
	Name   string      // "gen-<g>", "batch-<b>" or "confirm": its parts' directory
	Seed   string      // the games' seed
	Games  int64       // games per ruleset
	Values [][]float64 // each ruleset's values of the run's numbers
	rules  []game.Ruleset
	sim    SimConfig // the run's game, seats, bots and workers
	fold   func([]*SimResult) error
}

// Fold moves the run on with the step's results, one per ruleset in
// order, each of Games games played in full (a run stopped early is
// refused).
func (w *TuneWork) Fold(results []*SimResult) error {
	if len(results) != len(w.rules) {
		return fmt.Errorf("%s: %d results for %d rulesets", w.Name, len(results), len(w.rules))
	}
	for _, r := range results {
		if r == nil || r.Games+r.Failed != w.Games {
			return fmt.Errorf("%s: a ruleset's games are not all played", w.Name)
		}
	}
	return w.fold(results)
}

// Play plays the whole step here, each ruleset's games in one
// simulation, and returns its results for Fold. It stops with ctx's
// error when ctx is done.
func (w *TuneWork) Play(ctx context.Context) ([]*SimResult, error) {
	results := make([]*SimResult, len(w.rules))
	for k, r := range w.rules {
		sc := w.sim
		sc.Games, sc.Rules, sc.Seed = w.Games, r, w.Seed
		var err error
		if results[k], err = simulateAll(ctx, sc); err != nil {
			return nil, err
		}
	}
	return results, nil
}

// TunePartFormat names the layout of a part's file.
const TunePartFormat = "fairboard-game-tune-part/1"

// TuneStepID names the run a part belongs to: its game, its seed, and a
// digest of the saved state the step was proposed from (so that a part of
// another run, or of the run before its state moved on, is refused).
type TuneStepID struct {
	Game  string `json:"game"`
	Seed  string `json:"seed"`
	State string `json:"state"`
}

// PartGame is one game of a part: the seats' positions (0-based), wins
// and payoffs, the seat options' value indexes (by option, then seat) and
// the moves, or the failure of a game not played to its end.
type PartGame struct {
	Pos     []int     `json:"pos,omitempty"`
	Won     []bool    `json:"won,omitempty"`
	Payoff  []float64 `json:"payoff,omitempty"`
	Opts    [][]int   `json:"opts,omitempty"`
	Moves   int64     `json:"moves,omitempty"`
	Failure string    `json:"failure,omitempty"`
}

// TunePart is task Task of Tasks of a step: the games of units
// Units[0] to Units[1]-1, unit u being game u % Games of ruleset u / Games.
type TunePart struct {
	Format string `json:"format"`
	TuneStepID
	Step   string      `json:"step"`
	Task   int         `json:"task"`
	Tasks  int         `json:"tasks"`
	Units  [2]int64    `json:"units"`
	Values [][]float64 `json:"values"`
	Games  []PartGame  `json:"games"`
}

// PartPath is the file of task task of tasks of step w in dir:
// dir/<w.Name>/part-<task>-of-<tasks>.json.
func (w *TuneWork) PartPath(dir string, task, tasks int) string {
	return filepath.Join(dir, w.Name, fmt.Sprintf("part-%d-of-%d.json", task, tasks))
}

// units returns task's slice of the step's units [lo, hi).
func (w *TuneWork) units(task, tasks int) (int64, int64) {
	n := int64(len(w.rules)) * w.Games
	return n * int64(task) / int64(tasks), n * int64(task+1) / int64(tasks)
}

// PlayPart plays task's slice of the step (0 <= task < tasks) on the
// run's game, seats, bots and workers, and returns the part. It stops
// with ctx's error when ctx is done.
func (w *TuneWork) PlayPart(ctx context.Context, id TuneStepID, task, tasks int) (*TunePart, error) {
	if tasks < 1 || task < 0 || task >= tasks {
		return nil, fmt.Errorf("task %d of %d: want 0 <= task < tasks", task, tasks)
	}
	lo, hi := w.units(task, tasks)
	part := &TunePart{Format: TunePartFormat, TuneStepID: id, Step: w.Name, Task: task, Tasks: tasks, Units: [2]int64{lo, hi},
		Values: w.Values, Games: []PartGame{}}
	for k, r := range w.rules {
		a, b := max(lo, int64(k)*w.Games), min(hi, int64(k+1)*w.Games)
		if a >= b {
			continue
		}
		cfg := w.sim
		cfg.Rules, cfg.Seed, cfg.Games, cfg.Players = r, w.Seed, w.Games, nil
		games, err := playGames(ctx, cfg, a-int64(k)*w.Games, b-int64(k)*w.Games)
		if err != nil {
			return nil, err
		}
		part.Games = append(part.Games, games...)
	}
	return part, nil
}

// playGames plays games [from, to) of cfg on cfg.Workers goroutines, in
// batches as Simulate does.
func playGames(ctx context.Context, cfg SimConfig, from, to int64) ([]PartGame, error) {
	if err := cfg.check(); err != nil {
		return nil, err
	}
	if cfg.MaxMoves == 0 {
		cfg.MaxMoves = DefaultMaxMoves
	}
	out := make([]PartGame, 0, to-from)
	batch := make([]gameResult, simBatch)
	workers := make([]*Match, cfg.Workers)
	for lo := from; lo < to; lo += simBatch {
		if err := ctx.Err(); err != nil {
			return nil, fmt.Errorf("interrupted: %w", err)
		}
		hi := min(to, lo+simBatch)
		playBatch(&cfg, workers, batch, lo, hi)
		for i := lo; i < hi; i++ {
			r := &batch[i-lo]
			if r.err != nil {
				out = append(out, PartGame{Failure: failureOf(cfg.Seed, i, r.err)})
				continue
			}
			g := PartGame{Pos: slices.Clone(r.pos), Won: slices.Clone(r.won), Payoff: slices.Clone(r.payoff), Moves: r.moves}
			for _, o := range r.opts {
				g.Opts = append(g.Opts, slices.Clone(o))
			}
			for _, p := range g.Payoff {
				if math.IsNaN(p) || math.IsInf(p, 0) {
					return nil, fmt.Errorf("%s#%d: a payoff of %g cannot be saved in a part", cfg.Seed, i, p)
				}
			}
			out = append(out, g)
		}
	}
	return out, nil
}

// WritePart writes the part to its path under dir atomically (a file
// beside it, then renamed), creating its step's directory.
func (w *TuneWork) WritePart(dir string, p *TunePart) error {
	path := w.PartPath(dir, p.Task, p.Tasks)
	data, err := json.Marshal(p)
	if err != nil {
		return err
	}
	return WriteFileAtomic(path, append(data, '\n'))
}

// WriteFileAtomic writes data to path through a temporary file of its own
// beside it, renamed into place: a reader sees the old file or the new
// one, and two writers of the same bytes leave those bytes.
func WriteFileAtomic(path string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(f.Name(), 0o644)
	}
	if err == nil {
		err = os.Rename(f.Name(), path)
	}
	if err != nil {
		os.Remove(f.Name())
	}
	return err
}

// Collect reads the step's parts in dir and, once a whole set of them is
// written (every task of some count, the smallest if several), returns
// the step's results, tallied in game order as Simulate tallies them; nil while a part is missing. Errors, each
// naming the file: a part that cannot be read or is not a part (corrupt),
// a part of another run, of another step or of another state of the run,
// one that does not fit the step.
func (w *TuneWork) Collect(dir string, id TuneStepID) ([]*SimResult, error) {
	paths, err := filepath.Glob(filepath.Join(dir, w.Name, "part-*-of-*.json"))
	if err != nil {
		return nil, err
	}
	byTasks := map[int]map[int]*TunePart{}
	for _, path := range paths {
		p, err := w.readPart(path, id)
		if err != nil {
			return nil, err
		}
		if byTasks[p.Tasks] == nil {
			byTasks[p.Tasks] = map[int]*TunePart{}
		}
		byTasks[p.Tasks][p.Task] = p
	}
	counts := make([]int, 0, len(byTasks))
	for n := range byTasks {
		counts = append(counts, n)
	}
	sort.Ints(counts)
	for _, n := range counts {
		if len(byTasks[n]) != n {
			continue
		}
		var games []PartGame
		for t := range n {
			games = append(games, byTasks[n][t].Games...)
		}
		return w.tally(games)
	}
	return nil, nil
}

// readPart reads and checks the part at path.
func (w *TuneWork) readPart(path string, id TuneStepID) (*TunePart, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	p := &TunePart{}
	if err := json.Unmarshal(data, p); err != nil {
		return nil, fmt.Errorf("%s: not a part of a tuning run (corrupt?): %v", path, err)
	}
	lo, hi := int64(-1), int64(-1)
	if p.Tasks >= 1 && p.Task >= 0 && p.Task < p.Tasks {
		lo, hi = w.units(p.Task, p.Tasks)
	}
	switch {
	case p.Format != TunePartFormat:
		return nil, fmt.Errorf("%s: format %q, want %q", path, p.Format, TunePartFormat)
	case p.Game != id.Game || p.Seed != id.Seed:
		return nil, fmt.Errorf("%s is a part of another run (%s, seed %q; this run is %s, seed %q): remove it", path, p.Game, p.Seed, id.Game, id.Seed)
	case p.Step != w.Name:
		return nil, fmt.Errorf("%s is a part of %s, not of %s, the step pending: remove it", path, p.Step, w.Name)
	case p.State != id.State:
		return nil, fmt.Errorf("%s was played from another state than the run's state.json (another run's, or one before it moved on): remove it", path)
	case lo < 0 || filepath.Base(path) != fmt.Sprintf("part-%d-of-%d.json", p.Task, p.Tasks):
		return nil, fmt.Errorf("%s: task %d of %d does not match its file's name", path, p.Task, p.Tasks)
	case p.Units != [2]int64{lo, hi} || int64(len(p.Games)) != hi-lo || !slices.EqualFunc(p.Values, w.Values, slices.Equal):
		return nil, fmt.Errorf("%s does not fit %s (its rulesets or its slice of the games differ)", path, w.Name)
	}
	return p, nil
}

// tally returns each ruleset's result from the step's games in unit
// order, each game checked against the seats and options first.
func (w *TuneWork) tally(games []PartGame) ([]*SimResult, error) {
	opts := w.sim.Def.Seats().Options
	out := make([]*SimResult, len(w.rules))
	for k, rules := range w.rules {
		cfg := w.sim
		cfg.Rules, cfg.Seed, cfg.Games = rules, w.Seed, w.Games
		res := newSimResult(&cfg)
		for i := range w.Games {
			g := games[int64(k)*w.Games+i]
			r := &gameResult{pos: g.Pos, won: g.Won, payoff: g.Payoff, opts: g.Opts, moves: g.Moves}
			if g.Failure == "" {
				if err := checkPartGame(g, cfg.Seats, opts); err != nil {
					return nil, fmt.Errorf("%s, game %s#%d: %w", w.Name, w.Seed, i, err)
				}
			}
			res.tally(&cfg, i, r, g.Failure)
		}
		out[k] = res
	}
	return out, nil
}

// checkPartGame refuses a game whose record does not fit the seats and
// the seat options (a corrupt or forged part), before it is tallied.
func checkPartGame(g PartGame, seats int, opts []game.SeatOption) error {
	bad := errors.New("the part's record of it does not fit the game's seats (corrupt?)")
	if len(g.Pos) != seats || len(g.Won) != seats || len(g.Payoff) != seats || len(g.Opts) != len(opts) || g.Moves < 0 {
		return bad
	}
	for _, p := range g.Pos {
		if p < 0 || p >= seats {
			return bad
		}
	}
	for o, idx := range g.Opts {
		if len(idx) != seats {
			return bad
		}
		for _, v := range idx {
			if v < 0 || v >= len(opts[o].Values) {
				return bad
			}
		}
	}
	return nil
}
