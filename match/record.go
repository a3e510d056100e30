package match

import (
	"fmt"

	"github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/rng"
)

// recorder is a game.Rand that records every value drawn through it, in
// the form a game.Scripted returns them.
type recorder struct {
	r     game.Rand
	draws []int64
	perm  []int // scratch for Shuffle
	pos   []int
	// decks are the shuffles of named decks (ctx.DeckID not empty), in
	// order: what a table commits to (deckcommit.go).
	decks []DeckShuffle
	// dealDraws: game.Draw deals from orders shuffled at each deck's
	// first draw (Config.DealDraws; drawdeal.go), dealt holding each
	// deck's order.
	dealDraws bool
	dealt     []DealtDeck
}

func (c *recorder) Dice(sides int, tag rng.Tag, ctx *rng.Ctx) (rng.DiceRoll, error) {
	d, err := c.r.Dice(sides, tag, ctx)
	if err == nil {
		c.draws = append(c.draws, int64(d.Value))
	}
	return d, err
}

func (c *recorder) UniformInt(min, max int64, tag rng.Tag, ctx *rng.Ctx) (int64, error) {
	v, err := c.r.UniformInt(min, max, tag, ctx)
	if err == nil {
		c.draws = append(c.draws, v)
	}
	return v, err
}

// Shuffle shuffles a through the game's Rand (so the audit sees a's own
// items) and records swap indices j, for i from n-1 down to 1, with which
// Fisher-Yates turns the items as they were into a as it is: each item's
// original index is found by value (equal items matched in order, which
// gives the same arrangement), and Fisher-Yates is undone on those
// indices: j is where perm[i] stood when step i swapped it into place.
func (c *recorder) Shuffle(a []int, tag rng.Tag, ctx *rng.Ctx) {
	n := len(a)
	orig := append([]int(nil), a...)
	c.r.Shuffle(a, tag, ctx)
	if ctx != nil && ctx.DeckID != "" {
		c.decks = append(c.decks, DeckShuffle{DeckID: ctx.DeckID, Tag: tag, Order: append([]int(nil), a...)})
	}
	at := make(map[int][]int, n)
	for i, v := range orig {
		at[v] = append(at[v], i)
	}
	c.perm, c.pos = c.perm[:0], c.pos[:0]
	for _, v := range a {
		c.perm = append(c.perm, at[v][0])
		at[v] = at[v][1:]
	}
	cur := make([]int, n)
	for i := range n {
		cur[i] = i
		c.pos = append(c.pos, i)
	}
	for i := n - 1; i > 0; i-- {
		j := c.pos[c.perm[i]]
		c.draws = append(c.draws, int64(j))
		cur[i], cur[j] = cur[j], cur[i]
		c.pos[cur[i]], c.pos[cur[j]] = i, j
	}
}

// replayScript is a game.Rand over recorded values, as game.Scripted
// returns them, for draws read from outside: a value outside its call's
// range, or a call past the end, sets err (and the call returns an error,
// or, for Shuffle, stops) instead of panicking.
type replayScript struct {
	vals []int64
	next int
	err  error
	// then, once set (Resume, after the last recorded move), draws every
	// call made when the recorded values are all used.
	then game.Rand
}

// past reports whether the recorded values are used and then draws.
func (s *replayScript) past() bool { return s.then != nil && s.err == nil && s.next == len(s.vals) }

func (s *replayScript) take(lo, hi int64, tag rng.Tag) (int64, bool) {
	if s.err != nil {
		return 0, false
	}
	if s.next >= len(s.vals) {
		s.err = fmt.Errorf("draw %d (%s) past the end of the %d recorded", s.next+1, tag, len(s.vals))
		return 0, false
	}
	v := s.vals[s.next]
	if v < lo || v > hi {
		s.err = fmt.Errorf("draw %d (%s) is %d, outside [%d, %d]", s.next+1, tag, v, lo, hi)
		return 0, false
	}
	s.next++
	return v, true
}

func (s *replayScript) Dice(sides int, tag rng.Tag, ctx *rng.Ctx) (rng.DiceRoll, error) {
	if sides < 1 {
		return rng.DiceRoll{}, fmt.Errorf("%w: %d sides", rng.ErrRange, sides)
	}
	if s.past() {
		return s.then.Dice(sides, tag, ctx)
	}
	v, ok := s.take(1, int64(sides), tag)
	if !ok {
		return rng.DiceRoll{}, s.err
	}
	return rng.DiceRoll{Sides: sides, Value: int(v)}, nil
}

func (s *replayScript) UniformInt(lo, hi int64, tag rng.Tag, ctx *rng.Ctx) (int64, error) {
	if lo > hi {
		return 0, fmt.Errorf("%w: [%d, %d]", rng.ErrRange, lo, hi)
	}
	if s.past() {
		return s.then.UniformInt(lo, hi, tag, ctx)
	}
	v, ok := s.take(lo, hi, tag)
	if !ok {
		return 0, s.err
	}
	return v, nil
}

func (s *replayScript) Shuffle(a []int, tag rng.Tag, ctx *rng.Ctx) {
	if s.past() {
		s.then.Shuffle(a, tag, ctx)
		return
	}
	for i := len(a) - 1; i > 0; i-- {
		j, ok := s.take(0, int64(i), tag)
		if !ok {
			return
		}
		a[i], a[j] = a[j], a[i]
	}
}

// Unwrap returns the Rand the recorder records (game.StreamOf looks
// through it).
func (c *recorder) Unwrap() game.Rand { return c.r }
