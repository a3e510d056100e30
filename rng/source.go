package rng

// Source is a generator of uniformly distributed 32-bit words. It is the only
// thing a [Stream] needs from an algorithm.
//
// A Source is not safe for concurrent use; neither is a Stream.
type Source interface {
	Uint32() uint32
}

// Mode says whether a stream is fit for real games ("crypto") or is a
// reproducible stream for replays, tests and simulations ("seeded").
type Mode string

// The two modes of the spec.
const (
	ModeCrypto Mode = "crypto"
	ModeSeeded Mode = "seeded"
)
