// Package mentalpoker is a card shuffle ("mental poker") for any number of
// players, after the protocol of Vlad Riscutia's "Mental Poker Part 6:
// Shuffling Implementation" (docs/spec/mental-poker-shuffle.md), built on
// SRA (Shamir–Rivest–Adleman) commutative encryption. It is kept as a study
// of that document.
//
// # It leaks the cards: do not use it to hide them or to deal fairly
//
// Card i is encoded as (i+2)² ([Encode]) and the first pass ([Shuffle1])
// encrypts every card with one common key e. Whenever (u+2)(v+2) = w+2 the
// plaintexts multiply, Encode(u)·Encode(v) = Encode(w), and x ↦ x^e keeps
// that: the ciphertexts satisfy C_u·C_v ≡ C_w (mod p). Anyone who sees the
// deck after the last Shuffle1 (the server that relays it, every seat)
// finds these relations with no key by multiplying pairs of ciphertexts,
// matches them against the known relations of the plaintexts, and so learns
// which card is where. [Shuffle2] does not move cards, so those are the
// positions of the final deck. For a 52-card deck there are 60 such
// relations; they give the exact card at 33 of the 52 positions and narrow
// the other 19 (to one of 7 cards, or one of 2), whatever the keys or the
// number of players (TestLeakFirstPass in leak_test.go checks it on a
// 2-player shuffle against the cards opened with every key). All that
// stays hidden is which of those few cards each of the other 19 positions
// holds. Worse, whoever holds that deck (the last player of Shuffle1, or
// the server passing it on) can reorder it before Shuffle2, which cannot
// tell, and so put the cards it reads where it likes, for instance at the
// positions a given seat will be dealt (TestLeakLetsTheRelayChooseTheOrder).
//
// A replacement on a prime-order group with hash-to-group card encodings
// (ristretto255), which have no such relations, is planned (the
// private-hands issue). Until then nothing in fairboard relies on this
// package, to keep a card secret or to deal.
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
// component either. 1, fixed by every key, is refused. Closing this one-bit
// leak with small squares opened the larger one above: small squares
// multiply to one another.
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
// player and nothing else, so no card can be opened until every player has
// released its key for that position. That does not keep the order secret:
// the first pass has already leaked most of it (see above).
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
