// Package game declares what a game is, for machinery that plays any game:
// a [Definition] (name, ruleset, seats, move kinds, setup, heuristic
// styles) and the [State] of one game (whose move it awaits, the legal
// moves from a seat's own view, apply, outcome, views, the three parts of
// the state, invariants, clone, the sampler, information-state keys and
// chance outcomes). It is shaped after OpenSpiel's State API and
// boardgame.io's game object, and imports no game.
//
// Randomness reaches a game only through a [Rand] the machinery passes in:
// tagged dice, integers and shuffles over an rng.Stream ([FromStream]),
// or a [Scripted] sequence in tests and solvers. A game never builds an
// RNG; the order of its calls is its canonical entropy order.
//
// The hot path of a simulated game (State.ToMove, State.Legal, State.Apply,
// State.Outcome) works on typed values: a [Move] is a kind and a fixed
// array of integer arguments, an [Event] a type and a fixed array of
// integer values. JSON appears only at the edges: [DecodeMove],
// [AppendMoveJSON], [AppendEventJSON], [DecodeStrict] for rulesets.
//
// docs/games.md walks through writing a game (games/pig) and what the
// machinery (package match) guarantees and asks.
package game
