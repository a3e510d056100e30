// Package sim is a game's own tool (-drivers, within -reducers under the
// default flags): it drives the game as a caller does, so it may build the
// RNG, and its map ranges are checked as outside -reducers.
package sim

import "github.com/fairboard/fairboard/rng"

// Start builds the stream a simulated game plays on: allowed here.
func Start(state string) (*rng.Stream, error) {
	return rng.Restore(state, "seed")
}

// Names lists a tally's names in the map's order (a report sorts them):
// no draw in sight, so not reported here.
func Names(tally map[string]int) (out []string) {
	for name := range tally {
		out = append(out, name)
	}
	return out
}

// Pick ranges over a map in a function that draws: reported as anywhere.
func Pick(s *rng.Stream, seats map[int]string) (out []string) {
	for _, uid := range seats { // want `range over a map in a function that draws from a \*rng.Stream`
		out = append(out, uid)
	}
	return out
}
