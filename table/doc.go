// Package table is the machinery that hosts one game of any definition
// (package game) from its lobby to its end, for players known by uid: the
// lobby protocol (create, join, leave, removeSeat, start, abandon), the
// dispatch of moves with its guards in a fixed order, the table's version
// (optimistic concurrency: stale_version), idempotency by action id (a
// retry gets the stored result and applies nothing), and what each reader
// may see (the public part, a seat's view, nothing of the secret part; an
// event addressed to another seat as its trace, TypeAddressed), and what
// one seat alone may read (SeatPart), for a store to keep apart.
//
// A Table plays its game through a match (package match) in seeded,
// crypto, fair or trustless mode (trustless.go: chains and keys at join,
// signed moves, reveal rounds, deadlines and aborts; the player's side is
// package trustseat). It is not safe for concurrent use; Memory is a store of
// tables by game id that is, in memory. Table.Save gives the bytes a
// persistent store would keep (the lobby, log, results, and the game as
// its moves, with a crypto table's draws, and its snapshot: snapshot.go)
// and Restore makes the table again from its snapshot (match.FromSnapshot,
// no move replayed) or, without one, by replaying its moves
// (match.Resume), its stream going on: a seeded or fair one where it was,
// a crypto one on a new crypto stream; RestoreReplay always replays, the
// check of the moves. Table.SaveHead saves it in parts instead (head.go:
// a head of bounded size, its stored results and sealed chunks of its
// log, moves and draws apart), which Restore takes alone and JoinHead
// joins back whole. The stores (package tablestore) and the functions
// serve it.
//
// A table created with CreateRequest.Audit keeps the ring of its game's
// RNG audit entries for the server (audit.go), which a store that saves
// it in parts rings apart from its head (Head.Audit).
//
// It imports game, match, rng and audit only, never a game
// (imports_test.go).
package table
