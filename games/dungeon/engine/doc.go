// Package engine is the deterministic core of the reference game
// (GAME_RULES.md over spec RNG_AND_SHUFFLING.md v1.0): its state, actions,
// events, rejection codes and ruleset, and one dispatch entry point.
//
// The engine is a state machine in the manner of etcd's raft: the caller owns
// the [Game] (a working copy), hands [Engine.Dispatch] one [Action] and the
// injected [*rng.Stream], and gets back the events the action produced,
// appended to a buffer it also owns. Dispatch does no I/O, reads no clock
// (time arrives as [Action.At]) and never builds a generator. Persistence is
// the caller's: [Public] and [Secret] are the two documents it stores, and
// [Game.SaveStream] writes the generator's state back into them.
//
// The rules themselves are a table of [Handler]s, one per [ActionKind], that
// the caller wires in: engine does not import the package that implements
// them (games/dungeon/reducers), just as boardgame.io's reducer takes the
// game's moves. That package registers its table as the reference game
// ([RegisterReference]) when a program links it in, and the machinery
// builds the dungeon's engines with [NewReference]. The lobby's fairness
// protocol, which every game shares, is the engine's own: the checks that
// a game's create, join and start call ([CreateSecrets], [CheckJoinKeys],
// [FixGameSeed], ...), and the handlers of open, removeSeat, abandon and
// abort ([OpenContribution], [RemoveUnopenedSeat], [Abandon], [Abort]).
//
// A rejected action returns an [*Error] whose [Code] is one of a closed set,
// and leaves the game exactly as it was.
//
// Speed: a whole 4-player bot game is a few hundred actions and about 700
// events, so the hot paths avoid copies and allocations. Handlers build
// each event in place in the caller's buffer ([Ctx.Add]; [Ctx.Emit] is the
// plain reference), a [Dispatcher] keeps the handlers' Ctx between actions,
// and [Game.Reset] lets a loop of games reuse the game's lists. None of this
// changes a game, its log or its JSON.
package engine
