package game_test

import (
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/rng"
)

// With a plain Rand, Deal is exactly one Shuffle and Draw exactly one
// UniformInt over the cards left, so a game's draws and records do not
// change: the same values as the stream's own Shuffle and UniformInt,
// from two streams of one seed; Open returns the cards the state holds.
func TestDeckWithAStreamIsTheStream(t *testing.T) {
	a, err := rng.NewSeeded("deck")
	require.NoError(t, err)
	b, err := rng.NewSeeded("deck")
	require.NoError(t, err)
	deck := []int{0, 1, 2, 3, 4}
	game.Deal(game.FromStream(a), deck, []int{0, 1, game.All, game.All, game.All}, "t.deal", &rng.Ctx{DeckID: "d"})
	want := []int{0, 1, 2, 3, 4}
	rng.Shuffle(b, want, "t.deal", &rng.Ctx{DeckID: "d"})
	require.Equal(t, want, deck)
	free := []int{7, 8, 9}
	c, err := game.Draw(game.FromStream(a), "d", 10, 0, free, 1, "t.draw", nil)
	require.NoError(t, err)
	i, err := b.UniformInt(0, 2, "t.draw", nil)
	require.NoError(t, err)
	require.Equal(t, free[i], c)
	require.Equal(t, []int{4, 2}, game.Open(game.FromStream(a), "d", []int{0, 1}, []int{4, 2}))
	_, err = game.Draw(game.FromStream(a), "d", 10, 0, nil, 1, "t.draw", nil)
	require.ErrorIs(t, err, rng.ErrRange)
}

// dealer is a game.Dealer that records its calls.
type dealer struct {
	n      int
	owners []int
	draws  [][2]int // pos, to
	opened []int
}

func (d *dealer) DealPrivate(n int, owners []int, _ rng.Tag, _ *rng.Ctx) {
	d.n, d.owners = n, slices.Clone(owners)
}

func (d *dealer) DrawCard(_ string, n, pos, to int, _ rng.Tag, _ *rng.Ctx) int {
	d.n, d.draws = n, append(d.draws, [2]int{pos, to})
	if to == game.All {
		return 40 + pos
	}
	return game.Hidden
}

func (d *dealer) OpenPublic(_ string, ps []int) []int {
	d.opened = append(d.opened, ps...)
	out := make([]int, len(ps))
	for i, p := range ps {
		out[i] = 30 + p
	}
	return out
}

// recorder wraps a Rand as the machinery's recorder does.
type recorder struct{ game.Rand }

func (r recorder) Unwrap() game.Rand { return r.Rand }

// With a Dealer (seen through an Unwrapper too), Deal leaves every
// position Hidden and passes the owners, Draw passes the position and
// the seat and returns Hidden for a seat's card, the dealer's card face
// up, and Open asks the dealer, not the state.
func TestDeckWithADealer(t *testing.T) {
	d := &dealer{}
	var r game.Rand = recorder{struct {
		game.Rand
		*dealer
	}{nil, d}}
	deck := []int{0, 1, 2}
	game.Deal(r, deck, []int{0, 1, game.All}, "t.deal", &rng.Ctx{DeckID: "d"})
	require.Equal(t, []int{game.Hidden, game.Hidden, game.Hidden}, deck)
	require.Equal(t, 3, d.n)
	require.Equal(t, []int{0, 1, game.All}, d.owners)
	c, err := game.Draw(r, "d", 6, 1, nil, 1, "t.draw", nil)
	require.NoError(t, err)
	require.Equal(t, game.Hidden, c)
	c, err = game.Draw(r, "d", 6, 2, nil, game.All, "t.draw", nil)
	require.NoError(t, err)
	require.Equal(t, 42, c)
	require.Equal(t, [][2]int{{1, 1}, {2, game.All}}, d.draws)
	require.Equal(t, []int{30, 31}, game.Open(r, "d", []int{0, 1}, []int{game.Hidden, game.Hidden}))
}
