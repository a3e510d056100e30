package leduc_test

import (
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/games/leduc"
	"github.com/fairboard/fairboard/match"
	"github.com/fairboard/fairboard/match/matchtest"
	"github.com/fairboard/fairboard/rng"
)

// bareGame plays a hand of Leduc between two uniform-random players with
// no engine: the rules written again as a loop over the same streams and
// draws as the pipeline's (the deal and the public card on SEED, one
// pick per move on SEED/bots among the 1 to 3 legal moves, in the order
// fold, call, raise), returning seat 0's payoff and the moves. It is the
// baseline of the speed comparison and a second implementation of the
// rules.
func bareGame(seed string) (pay0, moves int) {
	s, _ := rng.NewSeeded(seed)
	bs, _ := rng.NewSeeded(seed + "/bots")
	ctx := rng.Ctx{DeckID: leduc.Name}
	var card [2]int
	free := []int{0, 1, 2, 3, 4, 5}
	for seat := range 2 {
		i, _ := s.UniformInt(0, int64(len(free)-1), leduc.TagDeal, &ctx)
		card[seat] = free[i]
		free = append(free[:i:i], free[i+1:]...)
	}
	public := -1
	in := [2]int{1, 1}
	round, raises, calls, seat := 1, 0, 0, 0
	var opts [3]string
	for {
		other := 1 - seat
		n := 0
		if in[seat] < in[other] {
			opts[n], n = "fold", n+1
		}
		opts[n], n = "call", n+1
		if raises < 2 {
			opts[n], n = "raise", n+1
		}
		kind, _, _ := rng.ChooseOne(bs, opts[:n], match.TagBotRandom, nil)
		moves++
		switch kind {
		case "fold":
			if seat == 0 {
				return -in[0], moves
			}
			return in[1], moves
		case "raise":
			in[seat] = in[other] + 2*round
			raises, calls, seat = raises+1, 0, other
			continue
		}
		ends := raises > 0 || calls == 1
		in[seat] = in[other]
		calls++
		switch {
		case !ends:
			seat = other
		case round == 1:
			i, _ := s.UniformInt(0, 3, leduc.TagPublic, &ctx)
			public = free[i]
			round, raises, calls, seat = 2, 0, 0, 0
		default:
			r0, r1 := card[0]/2, card[1]/2
			switch {
			case r0 == public/2:
				return in[0], moves
			case r1 == public/2:
				return -in[0], moves
			case r0 > r1:
				return in[0], moves
			case r1 > r0:
				return -in[0], moves
			}
			return 0, moves
		}
	}
}

// pipelineGame plays the same hand through the machinery
// (matchtest.Worker.Pipeline: a lean match carried from hand to hand as
// Simulate's workers do, the random bot, Apply's guards).
func pipelineGame(tb testing.TB, w *matchtest.Worker, seed string) (pay0, moves int) {
	st, moves := w.Pipeline(tb, leduc.Def, 2, seed, "random")
	return int(st.Outcome().Payoffs[0]), moves
}

// The pipeline and the bare loop play the same hands: identical payoffs
// and move counts.
func TestPipelineMatchesBareLoop(t *testing.T) {
	var w matchtest.Worker
	for i := range 600 {
		seed := "bare#" + strconv.Itoa(i)
		p1, n1 := bareGame(seed)
		p2, n2 := pipelineGame(t, &w, seed)
		require.Equal(t, [2]int{p1, n1}, [2]int{p2, n2}, seed)
	}
}

// BenchmarkGameInterleaved plays each seed through the machinery and as
// the bare loop in turn, timing each hand, so that both see the same
// machine at the same moment: one op is one pair. It reports both
// ns/game and their ratio, the "at most 10x" (go test -run '^$'
// -bench GameInterleaved -benchtime 20000x -count 5 ./games/leduc/).
func BenchmarkGameInterleaved(b *testing.B) {
	var w matchtest.Worker
	matchtest.Interleaved(b, func(seed string) (int, int) { return pipelineGame(b, &w, seed) }, bareGame)
}
