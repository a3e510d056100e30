package game_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/rng"
)

// ctxRand is a Scripted that also keeps each shuffle's ctx.
type ctxRand struct {
	*game.Scripted
	decks []string
}

func (r *ctxRand) Shuffle(a []int, tag rng.Tag, ctx *rng.Ctx) {
	r.decks = append(r.decks, ctx.DeckID)
	r.Scripted.Shuffle(a, tag, ctx)
}

// NewPile copies its cards and refuses an id that is not 1-64
// characters of [A-Za-z0-9_.-], naming it.
func TestNewPile(t *testing.T) {
	cards := []int{1, 2, 3}
	p, err := game.NewPile("treasure.t1", cards)
	require.NoError(t, err)
	cards[0] = 9
	require.Equal(t, []int{1, 2, 3}, p.Cards, "the pile's cards are its own")
	require.Empty(t, p.Discards)
	for _, id := range []string{"", strings.Repeat("a", 65), "a b", "deck/1", "é"} {
		_, err := game.NewPile(id, cards)
		require.ErrorContains(t, err, "1-64 characters", id)
	}
	_, err = game.NewPile(strings.Repeat("a", 64), nil)
	require.NoError(t, err)
	// Each range's ends, and the bytes just outside them (ASCII order:
	// '/' '0'..'9' ':', '@' 'A'..'Z' '[', '`' 'a'..'z' '{').
	for _, id := range []string{"a", "z", "A", "Z", "0", "9", "_", ".", "-", "aZ09_.-"} {
		_, err := game.NewPile(id, nil)
		require.NoError(t, err, id)
	}
	for _, id := range []string{"/", ":", "@", "[", "`", "{"} {
		_, err := game.NewPile("a"+id, nil)
		require.ErrorContains(t, err, "1-64 characters", id)
	}
}

// Shuffle is the spec's Fisher-Yates on the draw pile under the game's
// tag, with ctx.DeckID the pile's (the caller's ctx untouched). With the
// swaps j = 0, 0, 0 for i = 3, 2, 1, by hand: [0 1 2 3] -> [3 1 2 0] ->
// [2 1 3 0] -> [1 2 3 0].
func TestPileShuffle(t *testing.T) {
	p, err := game.NewPile("d", []int{0, 1, 2, 3})
	require.NoError(t, err)
	r := &ctxRand{Scripted: game.Script(0, 0, 0)}
	ctx := &rng.Ctx{Phase: "deal"}
	p.Shuffle(r, "g.deal", ctx)
	require.Equal(t, []int{1, 2, 3, 0}, p.Cards)
	require.Equal(t, []rng.Tag{"g.deal"}, r.Calls)
	require.Equal(t, []string{"d"}, r.decks)
	require.Empty(t, ctx.DeckID, "the caller's ctx is not changed")
	require.True(t, r.Done())
}

// Take draws from the top; once the draw pile is empty it turns the
// discards into the draw pile, shuffled with the spec's tag
// "deck.reshuffle.ID", then draws; with neither it refuses and changes
// nothing. The reshuffled order by hand: discards [5 6 7], swaps j = 0
// for i = 2 and j = 0 for i = 1: [7 6 5] -> [6 7 5].
func TestPileTakeReshuffles(t *testing.T) {
	p, err := game.NewPile("treasure.t1", []int{3, 4})
	require.NoError(t, err)
	r := &ctxRand{Scripted: game.Script(0, 0)}
	for _, want := range []int{3, 4} {
		c, err := p.Take(r, nil)
		require.NoError(t, err)
		require.Equal(t, want, c)
	}
	require.Empty(t, r.Calls, "no shuffle while the draw pile lasts")
	p.Discard(5, 6)
	p.Discard(7)
	require.Equal(t, []int{5, 6, 7}, p.Discards)
	c, err := p.Take(r, &rng.Ctx{Phase: "loot"})
	require.NoError(t, err)
	require.Equal(t, 6, c)
	require.Equal(t, []rng.Tag{"deck.reshuffle.treasure.t1"}, r.Calls, "the spec's reshuffle tag")
	require.Equal(t, rng.Tag("deck.reshuffle.treasure.t1"), game.ReshuffleTag("treasure.t1"))
	require.Equal(t, []string{"treasure.t1"}, r.decks)
	require.Equal(t, []int{7, 5}, p.Cards)
	require.Empty(t, p.Discards, "the discards became the draw pile")
	for _, want := range []int{7, 5} {
		c, err := p.Take(r, nil)
		require.NoError(t, err)
		require.Equal(t, want, c)
	}
	before := p.Clone()
	_, err = p.Take(r, nil)
	require.ErrorIs(t, err, game.ErrEmptyPile)
	require.Equal(t, before, p.Clone(), "a refused take changes nothing")
	require.True(t, r.Done())
}

// Through the machinery's Rand (a stream), every shuffle of a pile is a
// shuffle entry of the audit naming the deck, the reshuffle under the
// spec's tag: what the machinery records and a table commits.
func TestPileShufflesAreTheStreams(t *testing.T) {
	var audit []rng.Entry
	s, err := rng.NewSeeded("pile", rng.WithAuditor(rng.AuditorFunc(func(e rng.Entry) { audit = append(audit, e) })))
	require.NoError(t, err)
	rnd := game.FromStream(s)
	p, err := game.NewPile("cards", []int{0, 1, 2, 3, 4})
	require.NoError(t, err)
	p.Shuffle(rnd, "g.deal", nil)
	for range 5 {
		c, err := p.Take(rnd, nil)
		require.NoError(t, err)
		p.Discard(c)
	}
	_, err = p.Take(rnd, nil)
	require.NoError(t, err)
	require.Len(t, audit, 2)
	require.Equal(t, rng.Tag("g.deal"), audit[0].Tag)
	require.Equal(t, rng.Tag("deck.reshuffle.cards"), audit[1].Tag)
	for _, e := range audit {
		require.Equal(t, rng.KindShuffle, e.Kind)
		require.Equal(t, "cards", e.Ctx.DeckID)
	}
	// The same pile on the same seed shuffles the same: replayable.
	s2, err := rng.NewSeeded("pile")
	require.NoError(t, err)
	q, err := game.NewPile("cards", []int{0, 1, 2, 3, 4})
	require.NoError(t, err)
	q.Shuffle(game.FromStream(s2), "g.deal", nil)
	for range 5 {
		c, err := q.Take(game.FromStream(s2), nil)
		require.NoError(t, err)
		q.Discard(c)
	}
	_, err = q.Take(game.FromStream(s2), nil)
	require.NoError(t, err)
	require.Equal(t, p, q)
}

// Clone shares nothing; Resample reorders the draw pile only.
func TestPileCloneResample(t *testing.T) {
	p, err := game.NewPile("d", []int{0, 1, 2})
	require.NoError(t, err)
	p.Discard(8, 9)
	c := p.Clone()
	c.Cards[0], c.Discards[0] = 7, 7
	require.Equal(t, []int{0, 1, 2}, p.Cards)
	require.Equal(t, []int{8, 9}, p.Discards)
	r := &ctxRand{Scripted: game.Script(0, 0)}
	p.Resample(r, "g.sample")
	require.Equal(t, []int{1, 2, 0}, p.Cards, "by hand: [0 1 2] -> [2 1 0] -> [1 2 0]")
	require.Equal(t, []int{8, 9}, p.Discards, "the discards, which every seat saw, keep their order")
	require.Equal(t, []string{"d"}, r.decks)
}
