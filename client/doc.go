// Package client is a player's side of the games played through the
// Cloud Functions (docs/functions.md): the callable protocol every call
// goes through ([Functions], its refusals a [*CallError]), the [*Lie] a
// player's side stops with when the server shows what the checked log
// does not make, and a table game's player ([Table], [TrustTable]).
//
// A [Table] is a player's side of a table game (table.go: Pig, Kuhn
// poker, Leduc hold'em through createGame, joinGame, startGame, act and
// getView): idempotent action ids kept across retries, refusals by the
// table's codes, and a view that shows the seat its own private part. At
// a trustless table it checks every reveal marker, acknowledgement and
// end it is shown (tablemarks.go, tableack.go, tableblame.go,
// tablecheat.go).
//
// The dungeon's own client of a trustless game (its secrets file, the
// game watched and checked, its reveals) is the game's:
// games/dungeon/server/dungeonclient, built on this package's Functions.
// This package imports no game.
package client

// Lie is what a player's side found the server showing that the public
// log, replayed and checked from nothing but public data, does not make:
// an event the replay does not make (another die, card or draw; an
// action no seat signed; a link that is not its chain's), a past event
// changed, a game document other than the replay's, a reveal marker not
// signed by its seat or signed over another action (the seats shown
// different games), an acknowledgement not signed by the server's key.
// The player's side stops; the player should be told What. Err, when not
// nil, is the check's own error carrying the evidence (at a table, a
// *trustseat.SplitView with the two digests, or a *trustseat.ForgedMarker),
// which errors.As reaches through the Lie.
type Lie struct {
	What string
	Err  error
}

func (l *Lie) Error() string { return "client: the server lies: " + l.What }

// Unwrap is the evidence Err, nil when none.
func (l *Lie) Unwrap() error { return l.Err }
