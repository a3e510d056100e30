// Package lint defines randlint, an analyzer that keeps every random decision
// inside the engine's tagged, audited, replayable RNG (package rng).
//
// It reports, outside an allow-list of packages (flag -allow, by default the
// rng package and its subpackages):
//
//   - any use of math/rand, math/rand/v2, crypto/rand, golang.org/x/exp/rand
//     or hash/maphash: the import itself (blank, renamed and dot imports
//     included) and every identifier that resolves to one of their objects;
//   - a constant path /dev/urandom or /dev/random passed to any function.
//
// Everywhere, the allow-list included, it reports the clock as seed material:
// a call to time.Now, time.Since or time.Until inside an argument of an RNG
// constructor or of a function of a banned package, directly or through a
// local variable assigned from such an expression in the same function.
//
// In non-test files it enforces the engine's discipline:
//
//   - packages matched by -reducers never build an RNG (they receive the
//     *rng.Stream; only the caller builds it), but for those also matched
//     by -drivers (a game's own tools and server, games/*/tools/... and
//     games/*/server/..., which drive the game as a caller does and are
//     checked as packages outside -reducers);
//   - packages matched by -transport never draw (no tagged draw such as
//     Stream.Dice or rng.Shuffle, no Source.Uint32); they may build, restore
//     and pass a stream, and read its state;
//   - a range over a map, in a -reducers package or in any function with a
//     *rng.Stream parameter, is reported unless its body provably cannot leak
//     the iteration order (see docs/lint.md for the exact rule).
//
// Identifiers are resolved through type information, never by spelling, so
// renamed and dot imports cannot slip past. Generated files (those with a
// "// Code generated ... DO NOT EDIT." line) are skipped. The command is
// lint/cmd/randlint; docs/lint.md explains its use and flags.
package lint
