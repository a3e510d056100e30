package kuhn_test

import (
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/games/kuhn"
	"github.com/fairboard/fairboard/match"
	"github.com/fairboard/fairboard/match/matchtest"
	"github.com/fairboard/fairboard/rng"
)

// bareHand plays a hand of Kuhn poker between two uniform-random players
// with no engine: the rules written again as a loop over the same
// streams and draws as the pipeline's (the deal, one shuffle of J, Q, K
// on SEED; one pick per move on SEED/bots between pass and bet),
// returning seat 0's payoff and the moves. It is the baseline of the
// speed comparison and a second implementation of the rules.
func bareHand(seed string) (pay0, moves int) {
	s, _ := rng.NewSeeded(seed)
	bs, _ := rng.NewSeeded(seed + "/bots")
	deck := []int{kuhn.Jack, kuhn.Queen, kuhn.King}
	game.FromStream(s).Shuffle(deck, kuhn.TagDeal, &rng.Ctx{DeckID: kuhn.DeckID})
	hi := 1 // +1: seat 0 holds the higher card
	if deck[0] < deck[1] {
		hi = -1
	}
	kinds := []string{kuhn.KindPass, kuhn.KindBet}
	var h string
	for {
		k, _, _ := rng.ChooseOne(bs, kinds, match.TagBotRandom, nil)
		moves++
		h += k[:1]
		switch h {
		case "pp":
			return hi, moves
		case "bb", "pbb":
			return 2 * hi, moves
		case "bp":
			return 1, moves
		case "pbp":
			return -1, moves
		}
	}
}

// pipelineHand plays the same hand through the machinery
// (matchtest.Worker.Pipeline: a lean match carried from hand to hand as
// Simulate's workers do, the random bot, Apply's guards).
func pipelineHand(tb testing.TB, w *matchtest.Worker, seed string) (pay0, moves int) {
	st, moves := w.Pipeline(tb, kuhn.Def, 2, seed, "random")
	return int(st.Outcome().Payoffs[0]), moves
}

// The pipeline and the bare loop play the same hands: identical payoffs
// and move counts; and the bare loop's mean payoff for seat 0 under
// uniform play is near the exact 1/8 (EvaluatePolicy's figure, worked by
// hand in match's tests).
func TestPipelineMatchesBareLoop(t *testing.T) {
	sum := 0
	const n = 4000
	var w matchtest.Worker
	for i := range n {
		seed := "bare#" + strconv.Itoa(i)
		p1, n1 := bareHand(seed)
		p2, n2 := pipelineHand(t, &w, seed)
		require.Equal(t, [2]int{p1, n1}, [2]int{p2, n2}, seed)
		sum += p1
	}
	require.InDelta(t, 0.125, float64(sum)/n, 4*1.46/63.2, "within 4 standard errors (sd = sqrt(2.125 - 1/64) < 1.46: P(a called bet) = 3/8; sqrt(4000) = 63.2)")
}

// BenchmarkGameInterleaved plays each seed through the machinery and as
// the bare loop in turn, timing each hand, so that both see the same
// machine at the same moment: one op is one pair. It reports both
// ns/game and their ratio, issue 28's "at most 10x" (go test -run '^$'
// -bench GameInterleaved -benchtime 20000x -count 5 ./games/kuhn/).
func BenchmarkGameInterleaved(b *testing.B) {
	var w matchtest.Worker
	matchtest.Interleaved(b, func(seed string) (int, int) { return pipelineHand(b, &w, seed) }, bareHand)
}
