// Package mentalpoker is a zero-trust card shuffle ("mental poker") for any
// number of players, after the protocol of Vlad Riscutia's "Mental Poker
// Part 6: Shuffling Implementation" (docs/spec/mental-poker-shuffle.md),
// built on SRA (Shamir–Rivest–Adleman) commutative encryption.
//
// # Encryption
//
// All players share a safe prime p = 2q + 1 ([Group]; by default
// [MODP2048], the 2048-bit prime of RFC 3526 group 14). A key is a pair
// (e, d) with gcd(e, p-1) = 1 and d = e⁻¹ mod (p-1); a card x is encrypted as
// x^e mod p and decrypted as c^d mod p. Exponentiations commute, so cards
// encrypted by several players can be decrypted in any order.
//
// SRA leaks one bit unless the plaintexts are chosen with care: the Legendre
// symbol (x|p) is preserved by x ↦ x^e for odd e, so anyone could tell a
// quadratic residue's ciphertext from a non-residue's and partly follow a
// card through the shuffle. This package therefore encodes card i (0 ≤ i <
// [MaxCards]) as (i+2)² mod p ([Encode]): a square, so a quadratic residue,
// and for p > (MaxCards+1)² a distinct integer below p that [Decode] inverts
// with an integer square root. Every deck value must be a quadratic residue
// other than 1 (checked with the Jacobi symbol); these are exactly the
// elements of order q, a prime, so no ciphertext carries a small-order
// component either. 1, fixed by every key, is refused.
//
// # Protocol
//
// With the players in an agreed turn order and [InitialDeck] as the start:
//
//  1. [Shuffle1], each player in turn: draw a common key, encrypt every card
//     with it, and shuffle (Fisher–Yates with uniform indices from the
//     player's cryptographic reader; never the article's
//     Math.floor(Math.random()*n)). Pass the deck on.
//  2. [Shuffle2], each player in turn: decrypt every card with the common
//     key, then encrypt card k with a fresh per-card key k. Pass the deck on.
//  3. To reveal card k to someone, every player sends its per-card key k
//     ([RevealKey]); [Open] applies all of them and decodes the card.
//
// After step 2 each card is encrypted under one per-card key of every
// player and nothing else, so nobody, the server included, knows which card
// is where until every player has released its key for that position.
//
// # What it does not do
//
// It does not prove that a player followed the protocol: a player may
// encrypt with inconsistent keys, drop or duplicate cards, or reveal a
// wrong key. Such cheating shows only when cards fail to open ([ErrNotCard])
// or, at the end of a game, when all cards are opened and checked to be a
// permutation of the deck. Detecting it at once needs zero-knowledge proofs
// of shuffle, which are out of scope. A player who refuses to release a key
// stalls the game; that is a game rule, not cryptography.
//
// Cost: every card costs each player three modular exponentiations with
// exponents of the size of p (one in Shuffle1, two in Shuffle2), plus one
// per player to open it; see BenchmarkShuffle2048.
package mentalpoker
