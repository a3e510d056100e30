// Package sim runs seeded balance simulations for designers: many bot games
// on one ruleset (or two, on the same seeds), aggregated into rates and means
// with 95% confidence intervals, read against the fair share, and compared
// with Holm's correction for multiple comparisons.
//
// Seats, classes and bot policies are assigned by a balanced design
// (design.go): no factor is aliased with another, and the options that
// force two together are reported. Every game's players can be written to
// players.csv (one row per player-game, in game order), from which every
// measure of the report can be recomputed.
//
// Every accumulator holds exact integers, so the results are bit-identical
// whatever the number of workers or shards, and merging shard results gives
// exactly what one unsharded run gives. Memory stays flat as the number of
// games grows: nothing is kept per game.
package sim
