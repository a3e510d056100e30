// Package commitreveal is ADR-005's "Provable Fairness (v2.0)" commit-reveal
// protocol for one shuffle, made precise:
//
//  1. The server draws a secret 32-byte server seed ([NewServerSeed]) and
//     publishes commitment = [Commit](serverSeed, deck), where deck is the
//     ordered list of card names it is about to shuffle.
//  2. The client, having seen only the commitment, sends its client seed
//     (1 to [MaxClientSeed] bytes of its own choosing).
//  3. The server reveals serverSeed. The final seed is
//     [FinalSeed](serverSeed, clientSeed) and the dealt order is the
//     "fisher-yates-v1" shuffle ([rng.ChaCha20Algorithm]) of deck over
//     rng.NewChaCha20(finalSeed) ([ShuffleOf]).
//  4. The client checks the reveal against the commitment ([VerifyReveal])
//     and the dealt order against the seeds ([VerifyShuffle],
//     [VerifyShuffleOf]); [Round] runs steps 1 to 4 for either side and
//     refuses them out of order.
//
// # Deviations from ADR-005
//
// The ADR writes commit = SHA256(server_seed + deck_order) and final_seed =
// SHA256(server_seed + client_seed), with "+" a plain concatenation. Plain
// concatenation is ambiguous: many different (seed, deck) or (server seed,
// client seed) pairs have the same concatenation, so the same hash. A server
// could commit to one split of the bytes and reveal another (move bytes from
// its seed into the first card name, or from the end of the server seed into
// the client seed), and a third-party auditor who reads the published
// values could not tell which split was meant. This package therefore hashes
// an unambiguous encoding: every field, the domain string included, is
// written as its length (4 bytes, big-endian) followed by its bytes, and the
// deck as its card count (4 bytes, big-endian) followed by each card as a
// field. Distinct inputs give distinct encodings, so a collision in the
// encoding is a collision of SHA-256. The two hashes start with different
// domain strings ([CommitDomain], [FinalSeedDomain]), so that a commitment
// can never be passed off as a final seed or the reverse, and "v1" names this
// encoding so that a later change gets a new name. The server seed must be
// exactly [SeedSize] bytes, so that its entropy is fixed.
//
// All functions validate their inputs and return errors wrapping the
// sentinel errors below; none panics on any input.
package commitreveal
