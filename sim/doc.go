// Package sim runs seeded balance simulations for designers: many bot games
// on one ruleset (or two, on the same seeds), aggregated into rates and means
// with 95% confidence intervals.
//
// Every accumulator holds exact integers, so the results are bit-identical
// whatever the number of workers or shards, and merging shard results gives
// exactly what one unsharded run gives. Memory stays flat as the number of
// games grows: nothing is kept per game.
package sim
