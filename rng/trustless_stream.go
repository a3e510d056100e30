package rng

import "encoding/hex"

// NewTrustless returns a trustless game's stream for one action: the spec's
// arithmetic (the same UniformInt, Dice, Shuffle, WeightedPick and
// ChooseOne as every mode) over the words of ChaCha20 keyed by key itself
// (the action's randomness R_v, see rng/trustless), with a zero 12-byte
// nonce and block counter 0; a word is the next 4 keystream bytes
// big-endian, as fair mode reads them. Unlike fair mode, the key is not
// hashed first: R_v is already a SHA-256 output. [Stream.Seed] returns the
// key in lower-case hex. A trustless stream serves one action and is never
// saved: its state is "chacha20:<bytes read>" like a fair stream's, but the
// next action has another key.
func NewTrustless(key [32]byte, opts ...Option) *Stream {
	s := newStream(newChaCha20Key(key, true), ModeTrustless, opts)
	s.seed = hex.EncodeToString(key[:])
	return s
}

// refusal is the value a refusing stream panics with.
type refusal struct{}

// Refusal is what a stream of [NewRefusing] panics with when it is asked
// for a word. A caller that runs an action on such a stream to learn
// whether it draws recovers it: recover() == rng.Refusal.
var Refusal any = refusal{}

// refusingSource is the source of NewRefusing: it has no word to give.
type refusingSource struct{}

// Uint32 panics with Refusal.
func (refusingSource) Uint32() uint32 { panic(Refusal) }

// NewRefusing returns a stream in the given mode that refuses its first
// word: any draw panics with [Refusal] before anything is consumed or
// recorded (its seq does not move). It answers the question "does this
// action draw?" by a dry run: a trustless game applies an action that
// draws nothing at once with it, and holds one that asks for a word until
// its reveal round gives it randomness. It cannot be saved.
func NewRefusing(mode Mode, opts ...Option) *Stream {
	return newStream(refusingSource{}, mode, opts)
}

// Refuses reports whether s is a stream of [NewRefusing], which has no
// word to give.
func (s *Stream) Refuses() bool {
	_, ok := s.src.(refusingSource)
	return ok
}
