package rng

// Source is a generator of uniformly distributed 32-bit words. It is the only
// thing a [Stream] needs from an algorithm.
//
// A Source is not safe for concurrent use; neither is a Stream.
type Source interface {
	Uint32() uint32
}

// Mode says whether a stream is fit for real games ("crypto", "fair" and
// "trustless") or is a reproducible stream for replays, tests and
// simulations ("seeded").
type Mode string

// The two modes of the spec, and the verifiable modes of this project.
const (
	// ModeCrypto draws every word from crypto/rand: nobody can predict or
	// replay it.
	ModeCrypto Mode = "crypto"
	// ModeSeeded is the spec's sfc32 seeded by cyrb128 of a seed string:
	// replayable by anyone who knows the seed, and predictable by anyone
	// who sees enough outputs (sfc32 is not a cryptographic generator), so
	// never for real games.
	ModeSeeded Mode = "seeded"
	// ModeFair is the ChaCha20 keystream of a game seed (see [NewFair]):
	// unpredictable without the seed, replayable by anyone once the seed
	// is revealed. It never uses sfc32.
	ModeFair Mode = "fair"
	// ModeTrustless is a trustless game's: each action that draws gets
	// its own ChaCha20 stream, keyed by randomness that every seated
	// player's hash-chain link makes together (see [NewTrustless] and
	// rng/trustless), so that nobody, the server included, knows it
	// before the action is fixed.
	ModeTrustless Mode = "trustless"
)
