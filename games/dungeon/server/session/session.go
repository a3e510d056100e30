// Package session binds a stored game to its RNG stream between two
// actions. The engine never builds an RNG (its reducers receive one), so
// every caller that applies actions to a stored game — the service, the
// fixtures, the tests — rebuilds the stream here before a Dispatch and saves
// it back with engine.Game.SaveStream after.
package session

import (
	"encoding/hex"
	"fmt"

	"github.com/fairboard/fairboard/games/dungeon/engine"
	"github.com/fairboard/fairboard/rng"
	"github.com/fairboard/fairboard/rng/trustless"
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
	case rng.ModeTrustless:
		// A trustless game has no stream of its own: every action is
		// first run on a stream that refuses its first word. Only the
		// reveal that closes a round gets randomness (StreamFor).
		return rng.NewRefusing(rng.ModeTrustless, opts...), nil
	}
	return nil, fmt.Errorf("session: game has rng mode %q; want seeded, crypto, fair or trustless", p.RNG.Mode)
}

// StreamFor returns the stream for applying action a to g: Stream(g), but
// in a trustless game, for the reveal that closes the pending round (the
// last seat's, with the others' links in Secret.Links), ChaCha20 keyed by
// the round's R_v (rng/trustless.Randomness of the game, the index, the
// pending action's digest and every seat's link in seat order, a's
// included). The engine checks the stream against the R_v it derives from
// the checked links, so a reveal with a wrong link is refused before the
// stream is used. Servers and verifiers call StreamFor before every
// Dispatch; it gives the same stream as Stream in every other case.
func StreamFor(g *engine.Game, a *engine.Action, opts ...rng.Option) (*rng.Stream, error) {
	p := &g.Public
	t := p.Trustless
	if p.RNG.Mode != rng.ModeTrustless || a.Kind != engine.ActReveal || t == nil || t.Pending == nil ||
		len(g.Secret.Links)+1 != len(t.Seats) {
		return Stream(g, opts...)
	}
	links := make([][32]byte, len(t.Seats))
	have := make([]bool, len(t.Seats))
	for _, l := range g.Secret.Links {
		for i := range t.Seats {
			if t.Seats[i].Seat == l.Seat {
				links[i], have[i] = l.Link, true
			}
		}
	}
	missing := -1
	for i := range have {
		if !have[i] {
			missing = i
		}
	}
	if missing < 0 || t.Seats[missing].UID != a.Actor {
		return Stream(g, opts...) // not the closing reveal: the engine will refuse or hold it
	}
	link, err := engine.ParseHash32(a.Link, "the reveal's link")
	if err != nil {
		return Stream(g, opts...) // the engine refuses it
	}
	links[missing] = link
	pd := t.Pending
	r := trustless.Randomness(p.GameID, pd.Index, (*[32]byte)(&pd.Digest), links)
	return trustless.Stream(r, p.RNG.Seq, opts...), nil
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
