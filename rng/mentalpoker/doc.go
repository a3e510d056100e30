// Package mentalpoker deals a deck among seats so that no one, the server
// included, knows a card before its owner opens it ("mental poker"). It
// follows the two passes of Vlad Riscutia's "Mental Poker Part 6"
// (docs/spec/mental-poker-shuffle.md) on the prime-order group
// ristretto255 (github.com/cloudflare/circl/group), with the card encoding,
// proofs and signatures the article lacks. docs/fairness.md ("Mental
// poker") has the threat model and a worked example with test vectors.
//
// # Cards
//
// Card i of hand h of game id is the hash-to-group point
// C_i = hash_to_ristretto255(field(id) ‖ u64be(h) ‖ u32be(i)) with DST
// "fairboard/mentalpoker/card/v1" ([CardPoints]). Nobody knows a discrete
// logarithm between two of them, so masking them with a common scalar
// leaves no relation to search (an encoding such as C_i = i·G, or the old
// SRA package's (i+2)², kept X_u + X_v = X_w and gave the cards away:
// relation_test.go runs that attack on both).
//
// # Passes
//
// With the seats in turn order and their Ed25519 public keys known, each
// seat keeps a [Table] (the public state, no secret) and a [Seat] (its
// keys, fresh for every hand):
//
//  1. Pass 1, each seat in turn: draw a common key a, multiply every point
//     by a, permute, publish the deck and A = a·G.
//  2. Pass 2, each seat in turn: for every position p draw k_p, publish
//     z_p = k_p·in_p and out_p = a⁻¹·z_p = (k_p/a)·in_p, with one batch
//     Chaum–Pedersen (DLEQ) proof (circl zk/dleq) that log_A G =
//     log_{z_p} out_p for every p; its domain binds game, hand, pass, seat,
//     transcript and every point. z_p is what a published k_p is checked
//     against (k_p·in_p = z_p).
//
// Every pass message is signed and chained into a transcript hash; every
// other seat checks it with [Table.Accept]. After pass 2, position p holds
// (∏_j k_{j,p})·C_σ(p): it opens with every seat's k_{j,p} and nothing
// else. To deal p to a seat, every other seat publishes its key for p
// ([Seat.Key], checked against z_p by [Table.AcceptKey]) and the owner opens
// it alone ([Seat.Open]); to open it to all, every seat publishes
// ([Table.OpenPublic]).
//
// # Cheating
//
// A drop or exact duplicate is refused at once ([ErrCount],
// [ErrDuplicate]), as is a bad signature, a replay or a message out of
// turn, a pass-2 output that is not its input times k/a ([ErrProof]) and a
// published key that is not its commitment's ([ErrKey]). A substitution in
// pass 1 (a point replaced by one the seat can recognise) is not proven
// away at once: there is no shuffle proof. Instead every seat reveals all
// its keys at the end of the hand and [Table.Audit] recomputes every pass,
// naming the seat whose pass does not recompute; a game settles a hand's
// payoffs only after it. Every refusal is a [*CheatError] naming the seat.
//
// Cost: a seat's pass 1 is one scalar multiplication a card, its pass 2
// three with its proof, and checking another seat's pass 2 two more; see
// BenchmarkDeal, and BenchmarkDealVsSRA against the old SRA shuffle.
package mentalpoker
