package sim

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"sync"
	"sync/atomic"

	"github.com/fairboard/fairboard/games/dungeon/engine"
	"github.com/fairboard/fairboard/games/dungeon/tools/bot"
)

// maxFailures is how many failed games a run lists (it counts them all).
const maxFailures = 20

// Failure is a game that could not be played to its end (a policy that
// loops, a rejected bot action: a bug to report with its seed).
type Failure struct {
	Index int64  `json:"index"`
	Seed  string `json:"seed"`
	Error string `json:"error"`
}

// Notable is a game worth replaying, with its seed.
type Notable struct {
	Index  int64  `json:"index"`
	Seed   string `json:"seed"`
	Rounds int64  `json:"rounds"`
}

// Outcome is what a run produced: tallies of the games finished (a prefix
// of the shard's range if the run was stopped early), failures, notable
// games and, when comparing, the paired per-game differences B - A.
type Outcome struct {
	Lo, Done int64 // the games [Lo, Lo+Done) were played
	// Hi ends the run's range: the configured range's end, or the batch
	// at which a run to a precision was precise enough.
	Hi          int64
	Partial     bool // stopped before Hi
	A, B        *Tally
	Paired      map[string]*Moments `json:"paired,omitempty"`
	Failures    []Failure
	FailedGames int64
	Shortest    *Notable
	Longest     *Notable
}

// Run plays the configured shard's games on cfg.Workers goroutines and
// returns the aggregate. Results do not depend on the number of workers.
// If ctx is cancelled, workers finish the game they are playing and stop;
// the games played are then exactly a prefix of the range and the outcome
// is marked Partial. progress may be nil.
//
// With cfg.PerGame (PerGameB) set, players.csv is written there as the
// games finish, in game order; a write error stops the run early (the
// outcome is then Partial) and is returned with the outcome.
func Run(ctx context.Context, cfg *Config, progress *Progress) (*Outcome, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	lo, hi := cfg.Range()
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var sinkA, sinkB *orderedSink
	if cfg.PerGame != nil {
		sinkA = newOrderedSink(cfg.PerGame, PlayersHeader(cfg.A.Rules), lo, cancel)
	}
	if cfg.PerGameB != nil && cfg.B != nil {
		sinkB = newOrderedSink(cfg.PerGameB, PlayersHeader(cfg.B.Rules), lo, cancel)
	}
	workers := make([]*worker, cfg.Workers)
	for w := range workers {
		workers[w] = newWorker(cfg)
		workers[w].sinkA, workers[w].sinkB = sinkA, sinkB
	}
	total := newOutcome(cfg)
	total.Lo, total.Hi = lo, hi
	for at := lo; at < hi && ctx.Err() == nil; {
		end := hi
		if cfg.Precision > 0 {
			end = min(hi, at+PrecisionBatch)
		}
		playBatch(ctx, cfg, workers, at, end, progress, total)
		at = lo + total.Done
		if at == end && at < hi && cfg.Precision > 0 && total.precise(cfg) {
			total.Hi = at // precise enough: the run is these games
		}
		if total.Hi == at {
			break
		}
	}
	total.Partial = lo+total.Done < total.Hi
	errA, errB := sinkA.flush(), sinkB.flush()
	if errA != nil {
		return total, fmt.Errorf("writing players.csv: %w", errA)
	}
	if errB != nil {
		return total, fmt.Errorf("writing players_b.csv: %w", errB)
	}
	return total, nil
}

// playBatch plays the games [lo, hi) on the workers and adds them to
// total: all of them, or a prefix if ctx is cancelled.
func playBatch(ctx context.Context, cfg *Config, workers []*worker, lo, hi int64, progress *Progress, total *Outcome) {
	var next atomic.Int64
	next.Store(lo)
	parts := make([]*Outcome, len(workers))
	var wg sync.WaitGroup
	for w, wk := range workers {
		parts[w] = newOutcome(cfg)
		wg.Add(1)
		go func(o *Outcome) {
			defer wg.Done()
			wk.loop(ctx, o, &next, hi, progress)
		}(parts[w])
	}
	wg.Wait()
	for _, p := range parts {
		total.merge(p)
	}
}

func newOutcome(cfg *Config) *Outcome {
	o := &Outcome{A: NewTally()}
	if cfg.B != nil {
		o.B = NewTally()
		o.Paired = map[string]*Moments{}
		for id := range pairedIDs {
			o.Paired[id] = &Moments{}
		}
	}
	return o
}

// worker owns one runner and one scan per ruleset, and reusable buffers.
type worker struct {
	cfg          *Config
	ra, rb       *bot.Runner
	scanA, scanB *gameScan
	seats        []bot.Seat
	names        []string
	classes      []engine.Class
	sinkA, sinkB *orderedSink
	rowsA, rowsB []byte
	pool         policyPool // the seats' search bots
	search       bool       // some bot of the run is a search bot
}

func newWorker(cfg *Config) *worker {
	w := &worker{cfg: cfg, scanA: newScan(cfg.A.Rules), pool: policyPool{}, search: searchers(cfg.Bots)}
	w.ra = newRunner(cfg, cfg.A.Rules)
	if cfg.B != nil {
		w.rb = newRunner(cfg, cfg.B.Rules)
		w.scanB = newScan(cfg.B.Rules)
	}
	return w
}

// newRunner returns a bot runner on the ruleset, lean unless cfg.Full.
func newRunner(cfg *Config, r *engine.Ruleset) *bot.Runner {
	rn := bot.NewRunner(engine.NewReference(r))
	if !cfg.Full {
		rn.Lean(scanned)
	}
	return rn
}

// loop claims game indices in order until the range is done or ctx is
// cancelled; a claimed game is always finished, so the games played form a
// prefix of the range.
func (w *worker) loop(ctx context.Context, o *Outcome, next *atomic.Int64, hi int64, progress *Progress) {
	const batch = 64
	pending := int64(0)
	defer func() { progress.Add(pending) }()
	for ctx.Err() == nil {
		i := next.Add(1) - 1
		if i >= hi {
			return
		}
		w.play(i, o)
		o.Done++
		if pending++; pending == batch {
			progress.Add(pending)
			pending = 0
		}
	}
}

// play plays game i under A (and B), folds it into o and hands its
// players.csv rows to the sinks (none for a game that failed).
func (w *worker) play(i int64, o *Outcome) {
	var rowsA, rowsB []byte
	defer func() {
		w.rowsA = w.sinkA.put(i, rowsA)
		w.rowsB = w.sinkB.put(i, rowsB)
	}()
	seed := GameSeed(w.cfg.Seed, i)
	w.seats, w.names = w.cfg.seating(i, w.seats, w.names, w.pool)
	if w.search {
		w.ra.BotSeed = BotSeed(w.cfg.Seed, i)
		if w.rb != nil {
			w.rb.BotSeed = w.ra.BotSeed // the same bots' draws under both rulesets
		}
	}
	w.classes = w.classes[:0]
	for _, s := range w.seats {
		w.classes = append(w.classes, s.Class)
	}
	gA, evA, err := w.ra.Play(seed, w.seats, nil)
	if err != nil {
		o.fail(i, seed, err)
		w.failed(i)
		return
	}
	gsA, err := o.A.AddGame(evA, w.classes, w.names, w.scanA)
	if err != nil {
		o.fail(i, seed, err)
		w.failed(i)
		return
	}
	o.note(i, seed, gsA.Rounds)
	if w.cfg.Records != nil {
		w.record(i)
	}
	if w.sinkA != nil {
		rowsA = w.scanA.appendRows(w.rowsA[:0], i, seed, w.classes, w.names, gA)
	}
	if w.rb == nil {
		return
	}
	gB, evB, err := w.rb.Play(seed, w.seats, nil)
	if err != nil {
		o.fail(i, seed, err)
		return
	}
	gsB, err := o.B.AddGame(evB, w.classes, w.names, w.scanB)
	if err != nil {
		o.fail(i, seed, err)
		return
	}
	if w.sinkB != nil {
		rowsB = w.scanB.appendRows(w.rowsB[:0], i, seed, w.classes, w.names, gB)
	}
	for id, f := range pairedIDs {
		o.Paired[id].Add(f(gsB) - f(gsA))
	}
}

func (o *Outcome) fail(i int64, seed string, err error) {
	o.FailedGames++
	if len(o.Failures) < maxFailures {
		o.Failures = append(o.Failures, Failure{Index: i, Seed: seed, Error: err.Error()})
	}
}

// note keeps the shortest and longest games (ties: the lowest index), so
// that the choice does not depend on which worker played what.
func (o *Outcome) note(i int64, seed string, rounds int64) {
	n := Notable{Index: i, Seed: seed, Rounds: rounds}
	if o.Shortest == nil || better(n, *o.Shortest, true) {
		s := n
		o.Shortest = &s
	}
	if o.Longest == nil || better(n, *o.Longest, false) {
		l := n
		o.Longest = &l
	}
}

func better(n, cur Notable, shorter bool) bool {
	if n.Rounds != cur.Rounds {
		return (n.Rounds < cur.Rounds) == shorter
	}
	return n.Index < cur.Index
}

// merge adds another outcome (of disjoint games) to o.
func (o *Outcome) merge(p *Outcome) {
	o.Done += p.Done
	o.A.Merge(p.A)
	if o.B != nil && p.B != nil {
		o.B.Merge(p.B)
		for id, m := range p.Paired {
			o.Paired[id].Merge(*m)
		}
	}
	o.FailedGames += p.FailedGames
	o.Failures = append(o.Failures, p.Failures...)
	sort.Slice(o.Failures, func(a, b int) bool { return o.Failures[a].Index < o.Failures[b].Index })
	if len(o.Failures) > maxFailures {
		o.Failures = o.Failures[:maxFailures]
	}
	if p.Shortest != nil {
		o.note(p.Shortest.Index, p.Shortest.Seed, p.Shortest.Rounds)
	}
	if p.Longest != nil {
		l := *p.Longest
		if o.Longest == nil || better(l, *o.Longest, false) {
			o.Longest = &l
		}
	}
}

// record fills in Records[i] from the scan of game i under ruleset A.
func (w *worker) record(i int64) {
	sc := w.scanA
	r := GameRecord{Rounds: int32(sc.rounds), WinnerClass: -1, WinnerPos: -1}
	for _, c := range w.classes {
		if k := slices.Index(engine.Classes, c); k >= 0 {
			r.ClassSeats[k]++
		}
	}
	if j := sc.winner; j >= 0 {
		r.WinnerClass = int8(slices.Index(engine.Classes, w.classes[j]))
		r.WinnerPos = int8(sc.pos[j])
	}
	w.cfg.Records[i] = r
}

// failed marks game i failed in Records.
func (w *worker) failed(i int64) {
	if w.cfg.Records != nil {
		w.cfg.Records[i] = GameRecord{Failed: true, WinnerClass: -1, WinnerPos: -1}
	}
}
