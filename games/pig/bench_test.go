package pig_test

import (
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/games/pig"
	"github.com/fairboard/fairboard/match"
	"github.com/fairboard/fairboard/match/matchtest"
	"github.com/fairboard/fairboard/rng"
)

// bareGame plays two-player Pig (goal 100, d6) with no engine: the rules
// as a loop over the same streams and draws as the pipeline's (the game's
// dice on SEED, the random bot's picks on SEED/bots, one pick per move
// among 1 or 2 moves), returning the winner and the moves. It is the
// baseline of the speed comparison and an independent check of the
// pipeline's play.
func bareGame(seed, bot string) (winner, moves int) {
	s, _ := rng.NewSeeded(seed)
	bs, _ := rng.NewSeeded(seed + "/bots")
	var banked [2]int
	turn, total, turns := 0, 0, 1
	opts := [2]int{0, 1}
	var ctx rng.Ctx
	for {
		hold := false
		if bot == "random" {
			n := 1
			if total > 0 {
				n = 2
			}
			_, i, _ := rng.ChooseOne(bs, opts[:n], match.TagBotRandom, nil)
			hold = i == 1
		} else {
			hold = total >= 20
		}
		moves++
		if !hold {
			ctx.Turn = turns
			d, _ := s.Dice(6, pig.TagRoll, &ctx)
			if d.Value != 1 {
				total += d.Value
				if banked[turn]+total >= 100 {
					return turn, moves
				}
				continue
			}
		} else {
			banked[turn] += total
		}
		total, turn, turns = 0, 1-turn, turns+1
	}
}

// pipelineGame plays the same game through the machinery
// (matchtest.Worker.Pipeline: a lean match carried from game to game as
// Simulate's workers do, the bots, Apply's guards).
func pipelineGame(tb testing.TB, w *matchtest.Worker, seed, bot string) (winner, moves int) {
	st, moves := w.Pipeline(tb, pig.Def, 2, seed, bot)
	return st.Outcome().Winners[0], moves
}

// The pipeline and the bare loop play the same games: identical winners
// and move counts.
func TestPipelineMatchesBareLoop(t *testing.T) {
	for _, bot := range []string{"random", "hold:20"} {
		var w matchtest.Worker
		for i := range 300 {
			seed := "bare#" + strconv.Itoa(i)
			w1, n1 := bareGame(seed, bot)
			w2, n2 := pipelineGame(t, &w, seed, bot)
			require.Equal(t, [2]int{w1, n1}, [2]int{w2, n2}, "%s %s", bot, seed)
		}
	}
}

// BenchmarkGame: one game a op, through the machinery and as a bare loop
// of the rules on the same streams (go test -run '^$' -bench Game
// ./games/pig/).
func BenchmarkGame(b *testing.B) {
	for _, bot := range []string{"random", "hold:20"} {
		b.Run("pipeline/"+bot, func(b *testing.B) {
			moves := 0
			var w matchtest.Worker
			for i := 0; b.Loop(); i++ {
				_, n := pipelineGame(b, &w, "bench#"+strconv.Itoa(i), bot)
				moves += n
			}
			b.ReportMetric(float64(moves)/float64(b.N), "moves/op")
		})
		b.Run("bare/"+bot, func(b *testing.B) {
			moves := 0
			for i := 0; b.Loop(); i++ {
				_, n := bareGame("bench#"+strconv.Itoa(i), bot)
				moves += n
			}
			b.ReportMetric(float64(moves)/float64(b.N), "moves/op")
		})
	}
}

// BenchmarkGameInterleaved plays each seed through the machinery and as
// the bare loop in turn, timing each game, so that both see the same
// machine at the same moment (on a shared machine, two sub-benchmarks run
// seconds apart do not): one op is one pair. It reports both ns/game and
// their ratio, the "at most 10x" (go test -run '^$' -bench
// GameInterleaved -count 5 ./games/pig/).
func BenchmarkGameInterleaved(b *testing.B) {
	for _, bot := range []string{"random", "hold:20"} {
		b.Run(bot, func(b *testing.B) {
			var w matchtest.Worker
			matchtest.Interleaved(b, func(seed string) (int, int) { return pipelineGame(b, &w, seed, bot) },
				func(seed string) (int, int) { return bareGame(seed, bot) })
		})
	}
}
