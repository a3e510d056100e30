// Package session binds a stored game to its RNG stream between two
// actions. The engine never builds an RNG (its reducers receive one), so
// every caller that applies actions to a stored game — the service, the
// fixtures, the tests — rebuilds the stream here before a Dispatch and saves
// it back with engine.Game.SaveStream after.
package session

import (
	"encoding/hex"
	"fmt"

	"github.com/fairboard/fairboard/engine"
	"github.com/fairboard/fairboard/rng"
)

// Stream returns the stream for g's next action: in seeded mode the
// generator restored from Secret.RNGState (or seeded from Secret.Seed if no
// state was saved yet), in fair mode the ChaCha20 stream of the game seed
// positioned at the saved keystream offset (in the lobby: the fresh stream
// of the seed the seated players make), in crypto mode a fresh crypto
// stream; in every mode
// with the sequence number continuing Public.RNG.Seq, and opts (e.g.
// rng.WithAuditor) applied. Applying actions one by one, each with a fresh
// Stream and a SaveStream after, gives the same game as applying them all
// with one stream.
//
// A stored game without rng.mode is migrated first ([Migrate]): it is a
// crypto game. Stream fails if the game was not created (phase ""), its
// mode is unknown, or its saved state is corrupt.
func Stream(g *engine.Game, opts ...rng.Option) (*rng.Stream, error) {
	Migrate(&g.Public)
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
	case rng.ModeFair:
		if sec.GameSeed == "" {
			// In the lobby: the fresh stream of the game seed the players
			// seated now make, which is the game's once it starts (start
			// checks it and fixes Secret.GameSeed).
			seed, err := g.FairGameSeed()
			if err != nil {
				return nil, fmt.Errorf("session: %w", err)
			}
			return rng.NewFair(seed[:], opts...), nil
		}
		seed, err := hex.DecodeString(sec.GameSeed)
		if err != nil || len(seed) != 32 {
			return nil, fmt.Errorf("session: the game seed %q is not 32 bytes of hex", sec.GameSeed)
		}
		return rng.RestoreFair(seed, sec.RNGState, opts...)
	}
	return nil, fmt.Errorf("session: game has rng mode %q; want seeded, crypto or fair", p.RNG.Mode)
}

// Migrate applies the spec's migration notes to a stored game's public
// state, in place: a created game without rng.mode is a crypto game
// ("rng.mode defaults to crypto if missing"; rng.seq already reads as 0
// when missing). A seed stored beside a missing mode does not make the
// game seeded: the mode is what decides, and crypto is the safe reading.
// A game not created (phase "") is left alone.
func Migrate(p *engine.Public) {
	if p.Phase != engine.PhaseNone && p.RNG.Mode == "" {
		p.RNG.Mode = rng.ModeCrypto
	}
}
