// Package rules is another repository's reducer package, named by -reducers
// and -transport in the flags test.
package rules

import "example.com/myrng"

func Play(s *myrng.Stream, hands map[string]int) int {
	myrng.NewStream()        // want `myrng.NewStream builds an RNG in a reducer package`
	s.Roll(6, "x")           // want `\(\*myrng.Stream\).Roll draws from the RNG`
	for uid := range hands { // want `range over a map in a reducer package`
		_ = uid
	}
	return 0
}
