// Package game is an ordinary package: only functions that take a
// *rng.Stream have their map ranges checked.
package game

import "github.com/fairboard/fairboard/rng"

func roll(s *rng.Stream, players map[string]int) {
	for uid := range players { // want `range over a map in a function that draws from a \*rng.Stream`
		players[uid], _ = s.Dice(6, rng.TagMoveRoll, nil)
	}
}

func nested(s *rng.Stream, players map[string]int) func() {
	return func() {
		for uid, n := range players { // want `range over a map in a function that draws`
			_, _ = uid, n
		}
	}
}

func literal(players map[string]int) {
	f := func(s *rng.Stream) {
		for uid := range players { // want `range over a map in a function that draws`
			_ = uid
		}
	}
	_ = f
}

// No stream, not a reducer package: a map range is nobody's business here.
func names(players map[string]int) []string {
	var out []string
	for uid := range players {
		out = append(out, uid)
	}
	return out
}
