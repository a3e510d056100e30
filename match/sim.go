package match

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/rng"
)

// PlayersHeader is players.csv's header: the columns every game has.
const PlayersHeader = "game,seed,seat,uid,bot,position,won,payoff"

// simBatch is how many games the workers play between two writes: the
// rows and the tallies are taken in game order, batch by batch, so that
// neither depends on the number of workers, and memory stays bounded.
const simBatch = 1024

// DefaultMaxMoves bounds a simulated game's moves: a game still going
// after them fails (a bot or a game that loops).
const DefaultMaxMoves = 1_000_000

// SimConfig is a simulation: Games seeded games of Def, game i on seed
// "SEED#i" (its random bots' stream on "SEED#i/bots", the search bot or
// the strategy bot of seat j on "SEED#i/bots/seat<j>"), seat j played by
// Bots[j % len(Bots)].
type SimConfig struct {
	Def      game.Definition
	Rules    game.Ruleset // nil: the default
	Games    int64
	Seed     string
	Seats    int
	Bots     []string
	Workers  int
	MaxMoves int       // 0: DefaultMaxMoves
	Players  io.Writer // players.csv, or nil

	// onGame, if set, sees each game played to its end, in game order,
	// on Simulate's goroutine (sensitivity's paired differences).
	onGame func(i int64, r *gameResult)
	// precision, if > 0, stops the run at the first look at which it is
	// precise enough (SimulatePrecise), Games being the ceiling.
	precision float64
}

// SimResult is what a simulation found, tallied in game order. A run
// stopped early (its context done) has Games + Failed < Requested: the
// games played are then the first ones, in order.
type SimResult struct {
	Def       string
	Rules     string // canonical JSON
	Requested int64  // the games asked for
	Games     int64  // played to their end
	Seed      string
	Seats     int
	Bots      []string
	Moves     int64     // over the games played
	Wins      []int64   // by position - 1
	Payoff    []float64 // sums, by position - 1
	// Payoff2 are the sums of the payoffs' squares, by position - 1 (for
	// the payoff's standard error: PayoffMean).
	Payoff2 []float64
	// ByPayoff is true when some seat's payoff was not its win (1 for a
	// winner, 0 otherwise): a game scored in chips or points, whose
	// balance is read in mean payoff rather than in win rate.
	ByPayoff bool
	Failed   int64
	Failures []string // the first few, with their seeds
	// Options are the seat options' results by value (none for a game
	// without seat options).
	Options []OptionTally
	// Precision is the half-width a run to a precision aimed at (a
	// fraction; 0 for a run of a fixed number of games) and MaxGames its
	// ceiling; Requested is then the games it decided on (SimulatePrecise).
	Precision float64
	MaxGames  int64
}

type gameResult struct {
	rows   []byte
	pos    []int // position - 1 by seat
	won    []bool
	payoff []float64
	opts   [][]int // value index by option, then seat
	moves  int64
	err    error
}

// check refuses a simulation Simulate would refuse (games below 1, no
// seed, workers below 1, no bot, seats out of the game's range, a bot the
// ruleset cannot seat), and sets a nil Rules to the game's default.
func (cfg *SimConfig) check() error {
	if cfg.Games < 1 || cfg.Seed == "" || cfg.Workers < 1 || len(cfg.Bots) == 0 {
		return errors.New("a simulation needs games >= 1, a seed, workers >= 1 and a bot")
	}
	seats := cfg.Def.Seats()
	if cfg.Seats < seats.Min || cfg.Seats > seats.Max {
		return fmt.Errorf("%s takes %d to %d seats, not %d", cfg.Def.Name(), seats.Min, seats.Max, cfg.Seats)
	}
	if cfg.Rules == nil {
		cfg.Rules = cfg.Def.DefaultRuleset()
	}
	for _, b := range cfg.Bots {
		if err := CheckBotRules(cfg.Def, cfg.Rules, b); err != nil {
			return err
		}
	}
	return nil
}

// Simulate plays the games on cfg.Workers goroutines; the results and
// players.csv do not depend on the number of workers. It stops early, with
// the games played so far, when ctx is done, and returns a write error of
// players.csv.
func Simulate(ctx context.Context, cfg SimConfig) (*SimResult, error) {
	if err := cfg.check(); err != nil {
		return nil, err
	}
	if cfg.MaxMoves == 0 {
		cfg.MaxMoves = DefaultMaxMoves
	}
	res := newSimResult(&cfg)
	var w *bufio.Writer
	if cfg.Players != nil {
		w = bufio.NewWriterSize(cfg.Players, 256<<10)
		w.WriteString(PlayersHeaderOf(cfg.Def) + "\n")
	}
	batch := make([]gameResult, simBatch)
	// workers[w] is worker w's match, which Reset carries from game to
	// game (nil until its first game, and after a failed set-up).
	workers := make([]*Match, cfg.Workers)
	if cfg.precision > 0 {
		res.Precision, res.MaxGames = cfg.precision, cfg.Games
	}
	for lo, hi := int64(0), int64(0); lo < res.Requested && ctx.Err() == nil; lo = hi {
		hi = min(res.Requested, lo+simBatch)
		if cfg.precision > 0 {
			hi = min(hi, (lo/PrecisionBatch+1)*PrecisionBatch) // a look at every PrecisionBatch games
		}
		playBatch(&cfg, workers, batch, lo, hi)
		for i := lo; i < hi; i++ {
			r := &batch[i-lo]
			res.tally(&cfg, i, r, failureOf(cfg.Seed, i, r.err))
			if r.err != nil {
				continue
			}
			if cfg.onGame != nil {
				cfg.onGame(i, r)
			}
			if w != nil {
				w.Write(r.rows)
			}
		}
		if cfg.precision > 0 && hi%PrecisionBatch == 0 && hi < res.Requested && res.Precise(cfg.precision) {
			res.Requested = hi // precise enough: the run is these games
		}
	}
	if w != nil {
		if err := w.Flush(); err != nil {
			return res, fmt.Errorf("writing players.csv: %w", err)
		}
	}
	return res, nil
}

// newSimResult is cfg's result before any game.
func newSimResult(cfg *SimConfig) *SimResult {
	return &SimResult{Def: cfg.Def.Name(), Rules: string(cfg.Rules.CanonicalJSON()), Requested: cfg.Games, Seed: cfg.Seed, Seats: cfg.Seats,
		Bots: cfg.Bots, Wins: make([]int64, cfg.Seats), Payoff: make([]float64, cfg.Seats), Payoff2: make([]float64, cfg.Seats), Options: newOptionTallies(cfg.Def.Seats().Options)}
}

// failureOf is how a result names game i's failure ("" if none).
func failureOf(seed string, i int64, err error) string {
	if err == nil {
		return ""
	}
	return fmt.Sprintf("%s#%d: %v", seed, i, err)
}

// tally adds game i, played into r, to the result: a failure (failure,
// not "") counted with the first few kept, else the game's positions,
// wins and payoffs. The games must come in game order (the sums are of
// floats), as Simulate and the tuner's steps (tunestep.go) take them.
func (res *SimResult) tally(cfg *SimConfig, i int64, r *gameResult, failure string) {
	if failure != "" {
		res.Failed++
		if len(res.Failures) < 10 {
			res.Failures = append(res.Failures, failure)
		}
		return
	}
	res.Games++
	res.Moves += r.moves
	for s := range cfg.Seats {
		if r.won[s] {
			res.Wins[r.pos[s]]++
		}
		res.Payoff[r.pos[s]] += r.payoff[s]
		res.Payoff2[r.pos[s]] += r.payoff[s] * r.payoff[s]
		win := 0.0
		if r.won[s] {
			win = 1
		}
		res.ByPayoff = res.ByPayoff || r.payoff[s] != win
		for o, idx := range r.opts {
			t := &res.Options[o]
			t.Games[idx[s]]++
			t.Payoff[idx[s]] += r.payoff[s]
			if r.won[s] {
				t.Wins[idx[s]]++
			}
		}
	}
}

// playBatch plays games [lo, hi) of cfg into batch[i-lo] on cfg.Workers
// goroutines, which take the games in turn; worker w carries its match
// (workers[w]) from game to game and leaves it there for the next batch.
func playBatch(cfg *SimConfig, workers []*Match, batch []gameResult, lo, hi int64) {
	var next atomic.Int64
	next.Store(lo)
	var wg sync.WaitGroup
	for w := range cfg.Workers {
		wg.Add(1)
		go func() {
			worker := workers[w]
			defer func() { workers[w] = worker }()
			defer wg.Done()
			for i := next.Add(1) - 1; i < hi; i = next.Add(1) - 1 {
				playOne(cfg, i, &batch[i-lo], &worker)
			}
		}()
	}
	wg.Wait()
}

// playOne plays game i into r (its players.csv rows anew), on the
// worker's match *m (Match.Reset) or a new one.
func playOne(cfg *SimConfig, i int64, r *gameResult, m **Match) {
	seed := cfg.Seed + "#" + strconv.FormatInt(i, 10)
	r.err, r.moves, r.rows = nil, 0, r.rows[:0]
	opts := cfg.Def.Seats().Options
	r.opts = dealIndexes(opts, i, cfg.Seats)
	seats := make([]game.Seat, cfg.Seats)
	for o, idx := range r.opts {
		for j := range seats {
			seats[j].Options = append(seats[j].Options, opts[o].Values[idx[j]])
		}
	}
	mc := Config{Mode: rng.ModeSeeded, Seed: seed, Seats: seats, Rules: cfg.Rules, Lean: true}
	var err error
	if *m == nil {
		*m, err = New(cfg.Def, mc)
	} else {
		err = (*m).Reset(mc)
	}
	if err != nil {
		r.err, *m = err, nil
		return
	}
	bots, _, err := dealBots(cfg.Def, cfg.Rules, cfg.Bots, cfg.Seats, func(sub string) (*rng.Stream, error) { return rng.NewSeeded(seed + "/bots" + sub) })
	if err != nil {
		r.err = err
		return
	}
	if r.moves, r.err = PlayOut(*m, bots, cfg.MaxMoves); r.err != nil {
		return
	}
	st := (*m).State()
	o := st.Outcome()
	n := cfg.Seats
	// The payoffs are copied: the worker's next game may reuse the state.
	r.pos, r.won, r.payoff = resize(r.pos, n), resizeB(r.won, n), append(r.payoff[:0], o.Payoffs...)
	for s := range n {
		r.pos[s] = (*m).Position(s) - 1
		r.won[s] = false
	}
	for _, s := range o.Winners {
		r.won[s] = true
	}
	if cfg.Players == nil {
		return
	}
	for s := range n {
		b := strconv.AppendInt(r.rows, i, 10)
		b = append(b, ',')
		b = append(b, csvField(seed)...)
		b = append(b, ',')
		b = strconv.AppendInt(b, int64(s), 10)
		b = append(b, ",p"...)
		b = strconv.AppendInt(b, int64(s+1), 10)
		for o, idx := range r.opts {
			b = append(b, ',')
			b = append(b, csvField(opts[o].Values[idx[s]])...)
		}
		b = append(b, ',')
		b = append(b, bots[s].Name()...)
		b = append(b, ',')
		b = strconv.AppendInt(b, int64(r.pos[s]+1), 10)
		if r.won[s] {
			b = append(b, ",1,"...)
		} else {
			b = append(b, ",0,"...)
		}
		b = strconv.AppendFloat(b, o.Payoffs[s], 'g', -1, 64)
		r.rows = append(b, '\n')
	}
}

func resize(s []int, n int) []int {
	if cap(s) < n {
		return make([]int, n)
	}
	return s[:n]
}

func resizeB(s []bool, n int) []bool {
	if cap(s) < n {
		return make([]bool, n)
	}
	return s[:n]
}

// csvField quotes s as RFC 4180 asks when it holds a comma, a quote or a
// line break.
func csvField(s string) string {
	if !strings.ContainsAny(s, ",\"\r\n") {
		return s
	}
	return `"` + strings.ReplaceAll(s, `"`, `""`) + `"`
}
