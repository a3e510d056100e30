package matchtest

import (
	"strconv"
	"testing"
	"time"

	"github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/match"
	"github.com/fairboard/fairboard/rng"
)

// Play plays the game of one seed and returns its result (a winner, a
// payoff: anything two ways of playing it must agree on) and its moves.
type Play func(seed string) (result, moves int)

// Interleaved is a game's speed benchmark against a bare loop of its
// rules: for each seed "bench#i" it plays the game through the pipeline,
// then through bare, timing each, so that both see the same machine at
// the same moment (one op is one pair), and fails at the first seed the
// two play differently. It reports pipeline-ns/game, bare-ns/game, their
// ratio and moves/game.
func Interleaved(b *testing.B, pipeline, bare Play) {
	var pipe, loop time.Duration
	moves := 0
	for i := 0; b.Loop(); i++ {
		seed := "bench#" + strconv.Itoa(i)
		t0 := time.Now()
		r1, n1 := pipeline(seed)
		t1 := time.Now()
		r2, n2 := bare(seed)
		loop += time.Since(t1)
		pipe += t1.Sub(t0)
		if r1 != r2 || n1 != n2 {
			b.Fatalf("%s: the pipeline's game (%d, %d moves) is not the bare loop's (%d, %d)", seed, r1, n1, r2, n2)
		}
		moves += n1
	}
	b.ReportMetric(float64(pipe.Nanoseconds())/float64(b.N), "pipeline-ns/game")
	b.ReportMetric(float64(loop.Nanoseconds())/float64(b.N), "bare-ns/game")
	b.ReportMetric(float64(pipe)/float64(loop), "ratio")
	b.ReportMetric(float64(moves)/float64(b.N), "moves/game")
}

// Pipeline plays the seeded game of seed through the simulation pipeline:
// a lean match of def with seats seats, the bot called bot on the stream
// "SEED/bots" for every seat, the simulations' loop (match.PlayOut: the
// state's legal list, or a direct policy's choice, and Apply's guards).
// It returns the final state and the moves, and fails tb on any error.
// Each call makes a new match; a Worker's carries its match over.
func Pipeline(tb testing.TB, def game.Definition, seats int, seed, bot string) (game.State, int) {
	return new(Worker).Pipeline(tb, def, seats, seed, bot)
}

// A Worker plays game after game on one match, which match.Match.Reset
// carries from game to game, as a worker of match.Simulate does. Its
// Pipeline's state is valid until its next game.
type Worker struct{ m *match.Match }

// Pipeline is the package's Pipeline on the worker's match.
func (w *Worker) Pipeline(tb testing.TB, def game.Definition, seats int, seed, bot string) (game.State, int) {
	cfg := match.Config{Mode: rng.ModeSeeded, Seed: seed, Seats: make([]game.Seat, seats), Lean: true}
	var err error
	if w.m == nil {
		w.m, err = match.New(def, cfg)
	} else {
		err = w.m.Reset(cfg)
	}
	if err != nil {
		tb.Fatal(err)
	}
	bs, _ := rng.NewSeeded(seed + "/bots")
	b, err := match.NewBot(def, bot, bs)
	if err != nil {
		tb.Fatal(err)
	}
	bots := make([]match.Bot, seats)
	for i := range bots {
		bots[i] = b
	}
	moves, err := match.PlayOut(w.m, bots, 0)
	if err != nil {
		tb.Fatal(err)
	}
	return w.m.State(), int(moves)
}
