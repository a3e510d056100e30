// Package srabaseline is the baseline of a measurement and nothing else:
// the SRA (Shamir–Rivest–Adleman) mental-poker shuffle over the 2048-bit
// RFC 3526 prime that shipped as rng/mentalpoker at revision 658ca0c,
// brought back unchanged (group.go, key.go, protocol.go; only the package
// name and the error prefix differ) so that BenchmarkDealVsSRA in
// rng/mentalpoker can run the old shuffle and the new deal alternately in
// one process (docs/fairness.md, "Mental poker", "Cost").
//
// It is broken and must not deal a card: its encoding (i+2)² keeps
// multiplicative relations that its common-key first pass preserves, which
// gives most of a deck away (docs/fairness.md; relation_test.go in
// rng/mentalpoker runs that attack). Being internal to rng/mentalpoker,
// only that package's tree can import it, and TestOnlyTheBenchmarkImports
// checks that only test files there do.
//
// What it did, as shipped: each player in turn encrypts every card with a
// common key x ↦ x^e mod p and shuffles ([Shuffle1]); then each in turn
// removes its common key and encrypts position k with a per-card key k
// ([Shuffle2]); a card opens with every player's key for its position
// ([RevealKey], [Open]). Each player checks the deck it takes: 1 to
// [MaxCards] values, distinct, quadratic residues mod p ([Player.CheckDeck]).
// Nothing is signed or proven. Cost: three 2048-bit modular exponentiations
// a card per player, plus the Jacobi checks.
package srabaseline
