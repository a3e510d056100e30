// Package store is transport too.
package store

import "github.com/fairboard/fairboard/rng"

func Save(s *rng.Stream) (string, error) {
	s.Uint32(rng.TagMoveRoll, nil) // want `\(\*rng.Stream\).Uint32 draws from the RNG in the transport layer`
	return s.State()
}
