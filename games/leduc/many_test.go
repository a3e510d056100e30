package leduc_test

import (
	"context"
	"math"
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/games/leduc"
	"github.com/fairboard/fairboard/match"
	"github.com/fairboard/fairboard/match/matchtest"
	"github.com/fairboard/fairboard/rng"
)

// hand is the betting of Leduc with n seats written again from
// OpenSpiel's rules, apart from the game's code and in another form: a
// count of the seats still to act in the round (all at its start, every
// other seat still in after a raise), rather than OpenSpiel's count of
// calls. Its cards are handled by its users.
type hand struct {
	n, left, pending, raises, round, seat int
	in                                    []int
	out                                   []bool
}

func newHand(n int) *hand {
	h := &hand{n: n, left: n, pending: n, round: 1, in: make([]int, n), out: make([]bool, n)}
	for i := range h.in {
		h.in[i] = 1
	}
	return h
}

func (h *hand) clone() *hand {
	c := *h
	c.in, c.out = append([]int(nil), h.in...), append([]bool(nil), h.out...)
	return &c
}

func (h *hand) top() int {
	m := 0
	for _, c := range h.in {
		m = max(m, c)
	}
	return m
}

// options lists the moves of the seat to act, in the definition's order.
func (h *hand) options() []string {
	var o []string
	if h.in[h.seat] < h.top() {
		o = append(o, "fold")
	}
	o = append(o, "call")
	if h.raises < 2 {
		o = append(o, "raise")
	}
	return o
}

// The ends of act.
const (
	goOn = iota
	publicCard
	allFolded
	showdown
)

// act plays kind for the seat to act and says what follows.
func (h *hand) act(kind string) int {
	switch kind {
	case "fold":
		h.out[h.seat], h.left, h.pending = true, h.left-1, h.pending-1
	case "call":
		h.in[h.seat], h.pending = h.top(), h.pending-1
	case "raise":
		h.in[h.seat] = h.top() + 2*h.round
		h.raises, h.pending = h.raises+1, h.left-1
	}
	switch {
	case h.left == 1:
		return allFolded
	case h.pending == 0 && h.round == 2:
		return showdown
	case h.pending == 0:
		h.round, h.raises, h.pending, h.seat = 2, 0, h.left, h.n-1
		h.seat = h.following()
		return publicCard
	}
	h.seat = h.following()
	return goOn
}

// following is the first seat still in after the seat to act.
func (h *hand) following() int {
	for i := 1; ; i++ {
		if p := (h.seat + i) % h.n; !h.out[p] {
			return p
		}
	}
}

// sharers returns the seats still in with the best hand given the
// private cards and the public card: a private card of the public card's
// rank beats every other, else the higher rank (card/2).
func (h *hand) sharers(cards []int, public int) []int {
	var best []int
	top := -1
	for p := range h.n {
		if h.out[p] {
			continue
		}
		v := cards[p] / 2
		if v == public/2 {
			v += 100
		}
		if v > top {
			top, best = v, nil
		}
		if v == top {
			best = append(best, p)
		}
	}
	return best
}

// uniformPayoffs returns each seat's exact expected payoff and expected
// square under uniform play with n seats. Uniform play ignores the cards,
// so the betting is enumerated once, each line with its probability; at
// a showdown the payoffs' moments are averaged over every deal of the n
// private cards and the public card from the 2(n+1) (n = 3: 8*7*6*5 =
// 1,680 deals, equally likely), for the set of seats still in.
func uniformPayoffs(n int) (mean, square []float64) {
	mean, square = make([]float64, n), make([]float64, n)
	type moments struct{ x, x2 []float64 } // E[share of the pot], E[its square], by seat
	memo := map[string]moments{}
	shares := func(h *hand) moments {
		key := ""
		for _, o := range h.out {
			key += strconv.FormatBool(o)
		}
		if m, ok := memo[key]; ok {
			return m
		}
		m := moments{make([]float64, n), make([]float64, n)}
		deals := 0
		cards := make([]int, n)
		used := make([]bool, 2*(n+1))
		var deal func(p int)
		deal = func(p int) {
			for c := range used {
				if used[c] {
					continue
				}
				if p == n { // c is the public card
					deals++
					w := h.sharers(cards, c)
					for _, s := range w {
						f := 1 / float64(len(w))
						m.x[s] += f
						m.x2[s] += f * f
					}
					continue
				}
				used[c], cards[p] = true, c
				deal(p + 1)
				used[c] = false
			}
		}
		deal(0)
		for s := range n {
			m.x[s] /= float64(deals)
			m.x2[s] /= float64(deals)
		}
		memo[key] = m
		return m
	}
	var walk func(h *hand, q float64)
	walk = func(h *hand, q float64) {
		opts := h.options()
		for _, k := range opts {
			c := h.clone()
			p := q / float64(len(opts))
			switch c.act(k) {
			case goOn, publicCard:
				walk(c, p)
				continue
			case allFolded:
				pot := float64(sum(c.in))
				for s := range n {
					v := -float64(c.in[s])
					if !c.out[s] {
						v += pot
					}
					mean[s] += p * v
					square[s] += p * v * v
				}
			case showdown:
				pot := float64(sum(c.in))
				m := shares(c)
				for s := range n {
					in := float64(c.in[s])
					// payoff = pot*X - in: E = pot E[X] - in, E[payoff²] = pot² E[X²] - 2 pot in E[X] + in².
					mean[s] += p * (pot*m.x[s] - in)
					square[s] += p * (pot*pot*m.x2[s] - 2*pot*in*m.x[s] + in*in)
				}
			}
		}
	}
	walk(newHand(n), 1)
	return mean, square
}

func sum(a []int) int {
	t := 0
	for _, v := range a {
		t += v
	}
	return t
}

// The enumeration agrees with the two-seat tree walk of tree_test.go
// (seat 0's -0.078125 under uniform play), which goes through the
// definition: a check of the enumerator itself.
func TestUniformPayoffsTwoSeats(t *testing.T) {
	mean, square := uniformPayoffs(2)
	want, want2 := gameTree(t).uniform()
	require.InDelta(t, -0.078125, mean[0], 1e-12)
	require.InDelta(t, want, mean[0], 1e-12)
	require.InDelta(t, want2, square[0], 1e-9)
	require.InDelta(t, 0, mean[0]+mean[1], 1e-12)
}

// The uniform-random bots with three seats through the machinery's
// simulation: each position's mean payoff lands within 4 standard errors
// of its exact value from the enumeration above (position p is seat p-1:
// the seats first act in order).
func TestRandomBotsMeanPayoffThreeSeats(t *testing.T) {
	mean, square := uniformPayoffs(3)
	require.InDelta(t, 0, mean[0]+mean[1]+mean[2], 1e-12, "zero-sum")
	const games = 40_000
	res, err := match.Simulate(context.Background(), match.SimConfig{Def: leduc.Def, Games: games, Seed: "leduc-uniform-3",
		Seats: 3, Bots: []string{"random"}, Workers: 2})
	require.NoError(t, err)
	require.EqualValues(t, games, res.Games)
	for s := range 3 {
		sd := math.Sqrt(square[s] - mean[s]*mean[s])
		se := sd / math.Sqrt(games)
		got := res.Payoff[s] / games
		t.Logf("seat %d: exact %.6f (sd %.4f), simulated %.6f: %+.2f se (se %.4f)", s, mean[s], sd, got, (got-mean[s])/se, se)
		require.InDelta(t, mean[s], got, 4*se)
	}
}

// bareGameN plays a hand of Leduc with n seats between uniform-random
// players without the engine, on the same streams and draws as the
// pipeline's (bareGame's, with the hand above for the betting), returning
// the payoffs and the number of moves.
func bareGameN(seed string, n int) ([]float64, int) {
	s, _ := rng.NewSeeded(seed)
	bs, _ := rng.NewSeeded(seed + "/bots")
	ctx := rng.Ctx{DeckID: leduc.Name}
	var free []int
	for c := range 2 * (n + 1) {
		free = append(free, c)
	}
	take := func(tag rng.Tag) int {
		i, _ := s.UniformInt(0, int64(len(free)-1), tag, &ctx)
		c := free[i]
		free = append(free[:i:i], free[i+1:]...)
		return c
	}
	cards := make([]int, n)
	for p := range cards {
		cards[p] = take(leduc.TagDeal)
	}
	h, public, moves := newHand(n), -1, 0
	for {
		kind, _, _ := rng.ChooseOne(bs, h.options(), match.TagBotRandom, nil)
		moves++
		end := h.act(kind)
		if end == publicCard {
			public = take(leduc.TagPublic)
		}
		if end == goOn || end == publicCard {
			continue
		}
		pay := make([]float64, n)
		var w []int
		if end == allFolded {
			w = []int{h.following()} // the one seat still in
		} else {
			w = h.sharers(cards, public)
		}
		for p := range pay {
			pay[p] = -float64(h.in[p])
		}
		for _, p := range w {
			pay[p] += float64(sum(h.in)) / float64(len(w))
		}
		return pay, moves
	}
}

// The pipeline and the bare loop play the same hands with 3, 4 and 10
// seats: identical payoffs and move counts.
func TestPipelineMatchesBareLoopSeats(t *testing.T) {
	for _, n := range []int{3, 4, 10} {
		for i := range 300 {
			seed := "bare" + strconv.Itoa(n) + "#" + strconv.Itoa(i)
			pay, moves := bareGameN(seed, n)
			st, m := matchtest.Pipeline(t, leduc.Def, n, seed, "random")
			require.Equal(t, pay, st.Outcome().Payoffs, seed)
			require.Equal(t, moves, m, seed)
		}
	}
}
