// Package rng is the one door through which every random decision of the
// engine passes.
//
// A [Stream] wraps a [Source] of raw 32-bit words and offers the operations of
// the spec's RNG interface (docs/RNG_AND_SHUFFLING.md v1.0): raw words,
// unbiased integers by rejection sampling, floats in [0,1), dice, choose-one,
// weighted picks and Fisher-Yates shuffles. Every call carries a [Tag] and a
// [Ctx]; after each consumption the stream's [Auditor], if any, receives one
// [Entry] {seq, tag, ctx, kind, data}. A shuffle is one entry, not one per
// swap.
//
// Two modes exist. "crypto" ([NewCrypto]) draws from crypto/rand through a
// buffer and is for real games. "seeded" ([NewSeeded]) is sfc32 seeded by the
// cyrb128 hash of the seed string, bit-exact with the spec's JavaScript, for
// replays, tests and simulations. Seeded state can be saved ([Stream.State])
// and restored ([Restore]) between two actions.
//
// Other fairness sources live beside sfc32, each its own small type that is a
// [Source] as well as an exact reproduction of its original:
// [ChaCha20] (ADR-005 "fisher-yates-v1") and [HashChain] (a SHA-256 hash-chain
// GameRng). Tenhou's wall shuffle is in the subpackage tenhou.
//
// The arithmetic is the contract: other clients replay these numbers, so
// optimisations may make the same arithmetic faster but never change it.
package rng
