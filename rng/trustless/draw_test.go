package trustless_test

import (
	"crypto/sha256"
	"encoding/binary"
	"slices"
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/rng"
	"github.com/fairboard/fairboard/rng/trustless"
)

// scripted is a source that returns the given words in turn.
type scripted struct {
	words []uint32
	i     int
}

func (s *scripted) Uint32() uint32 {
	w := s.words[s.i]
	s.i++
	return w
}

// TestDrawFromPileIsSwapWithLast: the draw takes the card at j, moves the
// last card into its place and shortens the pile, with j the spec's
// uniformInt: words on either side of the rejection limit.
func TestDrawFromPileIsSwapWithLast(t *testing.T) {
	src := &scripted{words: []uint32{
		4294967294, // n = 5: limit = floor(2^32/5)*5 = 4294967295, accepted: j = 4294967294 % 5 = 4
		4294967295, // n = 4 divides 2^32, every word accepted: j = 4294967295 & 3 = 3
		4294967295, // n = 3: limit = floor(2^32/3)*3 = 4294967295: rejected
		7,          // n = 3: j = 7 % 3 = 1
		4294967295, // n = 2: j = 1
	}}
	s := rng.New(src)
	pile := []string{"a", "b", "c", "d", "e"}
	for _, want := range []struct {
		card string
		pile []string
	}{
		{"e", []string{"a", "b", "c", "d"}},
		{"d", []string{"a", "b", "c"}},
		{"b", []string{"a", "c"}}, // b taken, the last card c moved into its place
		{"c", []string{"a"}},
	} {
		card, rest, err := trustless.DrawFromPile(s, pile, rng.TagTestOnly, nil)
		require.NoError(t, err)
		require.Equal(t, want.card, card)
		require.Equal(t, want.pile, rest)
		pile = rest
	}
	require.Equal(t, 5, src.i, "the rejected word was drawn and skipped")
	require.Equal(t, uint64(4), s.Seq(), "one draw a card")
}

func TestDrawFromEmptyPile(t *testing.T) {
	s := rng.New(&scripted{})
	_, pile, err := trustless.DrawFromPile(s, nil, rng.TagTestOnly, nil)
	require.ErrorIs(t, err, trustless.ErrInput)
	require.Empty(t, pile)
	require.Zero(t, s.Seq(), "a refused draw consumes nothing")
}

// TestDrawsAreABijection: for piles of 1 to 7 cards, the n! sequences of
// indices (j_0 in [0, n), j_1 in [0, n-1), ...) give the n! orders of the
// cards, each exactly once. With uniform, independent j (the spec's
// uniformInt) every order of the draws is therefore equally likely, 1/n!:
// the same distribution as drawing from the top of a pile shuffled
// uniformly by the spec's Fisher–Yates (docs/fairness.md).
func TestDrawsAreABijection(t *testing.T) {
	for n := 1; n <= 7; n++ {
		seen := map[string]bool{}
		var rec func(pile []string, drawn []string)
		count := 0
		rec = func(pile, drawn []string) {
			if len(pile) == 0 {
				key := ""
				for _, c := range drawn {
					key += c + ","
				}
				require.False(t, seen[key], "n %d: order %s twice", n, key)
				seen[key] = true
				count++
				return
			}
			for j := range pile {
				p := slices.Clone(pile)
				// the draw with index j, through DrawFromPile on a source
				// that yields exactly j (len(p) <= 7 never rejects a small word)
				s := rng.New(&scripted{words: []uint32{uint32(j)}})
				card, rest, err := trustless.DrawFromPile(s, p, rng.TagTestOnly, nil)
				require.NoError(t, err)
				require.Equal(t, pile[j], card)
				rec(rest, append(slices.Clone(drawn), card))
			}
		}
		pile := make([]string, n)
		for i := range pile {
			pile[i] = strconv.Itoa(i)
		}
		rec(pile, nil)
		want := 1
		for i := 2; i <= n; i++ {
			want *= i
		}
		require.Equal(t, want, count, "n %d", n)
		require.Len(t, seen, want)
	}
}

// Pearson's chi-square at alpha = 0.001, as rng's statistical tests:
// df 11: 31.264, df 23: 49.728.
const (
	chi2Crit11 = 31.264
	chi2Crit23 = 49.728
)

func chiSquare(obs []int) float64 {
	total := 0
	for _, o := range obs {
		total += o
	}
	exp := float64(total) / float64(len(obs))
	x := 0.0
	for _, o := range obs {
		d := float64(o) - exp
		x += d * d / exp
	}
	return x
}

// runKey is the R_v of the i-th seeded run: SHA-256 of its name, so the
// test is deterministic (a pass is a pass forever).
func runKey(name string, i int) [32]byte {
	return sha256.Sum256(binary.BigEndian.AppendUint32([]byte(name), uint32(i)))
}

// permIndex is the rank of an order of "0".."3".
func permIndex(cards []string) int {
	idx := 0
	for i := range cards {
		smaller := 0
		for j := i + 1; j < len(cards); j++ {
			if cards[j] < cards[i] {
				smaller++
			}
		}
		idx = idx*(len(cards)-i) + smaller
	}
	return idx
}

// drawAll draws the whole pile with draw and returns the order.
func drawAll(s *rng.Stream, pile []string, draw func(*rng.Stream, []string) (string, []string)) []string {
	var out []string
	for len(pile) > 0 {
		var c string
		c, pile = draw(s, pile)
		out = append(out, c)
	}
	return out
}

func lazy(s *rng.Stream, pile []string) (string, []string) {
	c, rest, err := trustless.DrawFromPile(s, pile, rng.TagDrawChance, nil)
	if err != nil {
		panic(err)
	}
	return c, rest
}

// neverLast is a broken draw for the power check: it never takes the last
// card of the pile while another is left.
func neverLast(s *rng.Stream, pile []string) (string, []string) {
	n := len(pile)
	hi := int64(n - 1)
	if n > 1 {
		hi--
	}
	j, _ := s.UniformInt(0, hi, rng.TagTestOnly, nil)
	pile[j], pile[n-1] = pile[n-1], pile[j]
	return pile[n-1], pile[:n-1]
}

// chiOrders4 is the chi-square of the orders of a 4-card pile drawn to
// its end over runs seeded runs, each on its own R_v stream.
func chiOrders4(runs int, draw func(*rng.Stream, []string) (string, []string)) float64 {
	obs := make([]int, 24)
	for i := range runs {
		s := trustless.Stream(runKey("orders4", i), 0)
		obs[permIndex(drawAll(s, []string{"0", "1", "2", "3"}, draw))]++
	}
	return chiSquare(obs)
}

// TestStatsTrustlessDrawOrders: over 48,000 seeded runs the 24 orders in
// which a 4-card pile is drawn are uniform (df 23), and the power check:
// a draw that never takes the last card fails the same test.
func TestStatsTrustlessDrawOrders(t *testing.T) {
	const runs = 48_000
	if x := chiOrders4(runs, lazy); x > chi2Crit23 {
		t.Errorf("chi-square %.2f > %.3f: the lazy draws' orders are not uniform", x, chi2Crit23)
	}
	if x := chiOrders4(runs, neverLast); x <= chi2Crit23 {
		t.Errorf("power check: a biased draw gave chi-square %.2f <= %.3f", x, chi2Crit23)
	}
}

// TestStatsTrustlessDeckDraws: the default ruleset's treasure.t1 pile (12
// cards) drawn to its end over 24,000 seeded runs: the card drawn at each
// of the 12 places is uniform over the 12 cards (df 11 each), and the
// sequence of words is the stream's own (R_v's ChaCha20).
func TestStatsTrustlessDeckDraws(t *testing.T) {
	const runs = 24_000
	deck := []string{"t1-dagger-1", "t1-dagger-2", "t1-dagger-3", "t1-leather-1", "t1-leather-2", "t1-leather-3",
		"t1-potion-1", "t1-potion-2", "t1-potion-3", "t1-smoke-1", "t1-smoke-2", "t1-boots-1"}
	index := map[string]int{}
	for i, c := range deck {
		index[c] = i
	}
	obs := make([][]int, len(deck)) // obs[place][card]
	for i := range obs {
		obs[i] = make([]int, len(deck))
	}
	for i := range runs {
		s := trustless.Stream(runKey("t1", i), 0)
		for place, c := range drawAll(s, slices.Clone(deck), lazy) {
			obs[place][index[c]]++
		}
	}
	for place := range obs {
		if x := chiSquare(obs[place]); x > chi2Crit11 {
			t.Errorf("draw %d: chi-square %.2f > %.3f", place+1, x, chi2Crit11)
		}
	}
}
