// Package engine is a reducer package under the default flags.
package engine

import "github.com/fairboard/fairboard/rng"

func Resume(state string) (*rng.Stream, error) {
	return rng.Restore(state, "seed") // want `rng.Restore builds an RNG in a reducer package`
}

func Order(turns map[int]string) (last string) {
	for _, uid := range turns { // want `range over a map in a reducer package`
		last = uid
	}
	return last
}
