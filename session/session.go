// Package session binds a stored game to its RNG stream between two
// actions. The engine never builds an RNG (its reducers receive one), so
// every caller that applies actions to a stored game — the service, the
// fixtures, the tests — rebuilds the stream here before a Dispatch and saves
// it back with engine.Game.SaveStream after.
package session

import (
	"fmt"

	"github.com/fairboard/fairboard/engine"
	"github.com/fairboard/fairboard/rng"
)

// Stream returns the stream for g's next action: in seeded mode the
// generator restored from Secret.RNGState (or seeded from Secret.Seed if no
// state was saved yet), in crypto mode a fresh crypto stream; either way
// with the sequence number continuing Public.RNG.Seq, and opts (e.g.
// rng.WithAuditor) applied. Applying actions one by one, each with a fresh
// Stream and a SaveStream after, gives the same game as applying them all
// with one stream. It fails if the game has no valid rng mode (not created)
// or its saved state is corrupt.
func Stream(g *engine.Game, opts ...rng.Option) (*rng.Stream, error) {
	p, sec := &g.Public, &g.Secret
	opts = append([]rng.Option{rng.WithSeq(p.RNG.Seq)}, opts...)
	switch p.RNG.Mode {
	case rng.ModeSeeded:
		if sec.RNGState == "" {
			return rng.NewSeeded(sec.Seed, opts...)
		}
		return rng.Restore(sec.RNGState, sec.Seed, opts...)
	case rng.ModeCrypto:
		return rng.NewCrypto(opts...), nil
	}
	return nil, fmt.Errorf("session: game has rng mode %q; want seeded or crypto", p.RNG.Mode)
}
