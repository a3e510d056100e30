package tenhou

import "fmt"

// Game is a game's generator: each [Game.Next] is the next round's
// randomness. A Game is not safe for concurrent use.
type Game struct {
	mt *MT19937
}

// NewGame seeds the game generator with init_by_array(seed).
func NewGame(seed [SeedWords]uint32) *Game {
	return &Game{mt: NewMT19937Array(seed[:])}
}

// Round is one round's randomness: src and rnd.
type Round struct {
	Src [SrcWords]uint32
	Rnd [RndWords]uint32
}

// Next returns the next round (288 words of the generator).
func (g *Game) Next() Round {
	var r Round
	r.Src = SrcFromMT(g.mt)
	r.Rnd = RndFromSrc(&r.Src)
	return r
}

// RoundOf returns round k (1-based) of the game with seed: the k-th call of
// [Game.Next] on a fresh game. Rounds include repeats (renchan) and draws:
// k counts shuffles, as the log's rounds do. It returns an error if k < 1.
func RoundOf(seed [SeedWords]uint32, k int) (Round, error) {
	if k < 1 {
		return Round{}, fmt.Errorf("tenhou: round %d; rounds count from 1", k)
	}
	g := NewGame(seed)
	for range k - 1 {
		for range SrcWords {
			g.mt.Uint32()
		}
	}
	return g.Next(), nil
}

// Wall returns the 136-tile wall: tile ids 0..135 shuffled by
// [ShuffleWithRnd]. Tiles are dealt from index 135 down.
func (r *Round) Wall() []int {
	w := make([]int, Tiles4)
	for i := range w {
		w[i] = i
	}
	ShuffleWithRnd(w, &r.Rnd)
	return w
}

// Wall3 returns the 108-tile wall of the 3-player game: [ThreePlayerTiles]
// in ascending order, shuffled by [ShuffleWithRnd] with the same rnd.
func (r *Round) Wall3() []int {
	w := ThreePlayerTiles()
	ShuffleWithRnd(w, &r.Rnd)
	return w
}

// Dice returns the two dice, 0-based (0..5): rnd[135] % 6 and rnd[136] % 6.
func (r *Round) Dice() [2]int {
	return [2]int{int(r.Rnd[135] % 6), int(r.Rnd[136] % 6)}
}

// DoraIndicator returns the first dora indicator of a wall: wall[5]. The
// wall is dealt from its top index down, so wall[0..13] is the dead wall
// and index 5 is the indicator Tenhou turns over (the published game's
// indicator, tile 19, is wall[5]).
func DoraIndicator(wall []int) int { return wall[5] }
