// Package checks holds the switches of the trustless protocol's checks
// that the positive controls turn off. Every hostile-server, hostile-player
// and secrecy test runs once more with the check it relies on switched off,
// and must then fail: the lie goes uncaught (or is caught only by a later
// check, under another message), the forged input is accepted. So each
// test shows that its check is what catches the lie, not something else
// and not nothing (docs/testing.md, "Positive controls").
//
// Every check is on. Only a test binary can turn one off, and only for the
// test that asks: [Off] panics outside a test binary (one whose testing
// flags are registered), and it goes through t.Setenv, which panics in a
// parallel test, so no other test of the package runs while a check is
// off. Production code only ever asks [On]; the package does not import
// testing, so the engine and the pages' WebAssembly do not carry it.
package checks

import (
	"flag"
	"fmt"
	"sync/atomic"
)

// Check is one check of the protocol.
type Check int32

// The checks a positive control can switch off, by where they are.
const (
	// ShownIndex is player.CheckShown's comparison of the index the server
	// asks for with the log's pending action's.
	ShownIndex Check = iota
	// ShownPending is player.CheckShown's comparison of the pending action
	// the game document shows (its digest, transcript and action) with the
	// log's.
	ShownPending
	// MarkDigest is player.CheckMarks' comparison of the action a reveal
	// marker was signed over with the log's pending action, and the table
	// client's check of a pending round's markers (a split view).
	MarkDigest
	// ReplaySame is player.Follower's byte-for-byte comparison of every
	// event of the log with the one its replay makes.
	ReplaySame
	// PastEvent is the client's comparison of an event shown again with
	// the one it read first.
	PastEvent
	// ActionSignature is the engine's check of a seated player's Ed25519
	// signature over its action.
	ActionSignature
	// RevealSignature is the engine's check of a reveal's Ed25519
	// signature under its seat's key.
	RevealSignature
	// RevealLink is the engine's check that a reveal's link hashes to its
	// seat's previous link.
	RevealLink
	// RevealDigest is the engine's check that a reveal signs the pending
	// action's digest and transcript.
	RevealDigest
	// RevealSeat is the engine's check that a reveal is for its sender's
	// own seat.
	RevealSeat
	// RevealIndex is the engine's check that a reveal is for the pending
	// index.
	RevealIndex
	// RevealOnce is the engine's check that a seat reveals an index once.
	RevealOnce
	// RevealDeadline is the engine's check that a reveal comes before its
	// round's deadline.
	RevealDeadline
	// StagedOnce is the service's check that a seat has not staged a
	// reveal for the open round already (the engine sees staged reveals
	// only when the round closes).
	StagedOnce
	// Visible is the service's check that a started game is shown, and
	// acted on, by its members only (a stranger gets the answer of a game
	// that does not exist).
	Visible
	// ExportEvents is the export verifier's comparison of every event of
	// a trustless export's log with the replay's.
	ExportEvents
	// AppliedSeat is player.CheckShown's check that a reveal the game
	// document shows applied into the pending round is its seat's
	// player's.
	AppliedSeat
	// AppliedOnce is player.CheckShown's check that the game document
	// shows each seat's reveal once.
	AppliedOnce
	// AppliedSignature is player.CheckShown's check of a shown reveal's
	// signature, by its seat's key, over the pending action.
	AppliedSignature
	// SeatIndex is player.Seat's check that the index the server asks it
	// to reveal is its replica's pending index.
	SeatIndex
	// SeatDigest is player.Seat's check of the server's pending digest
	// against its replica's.
	SeatDigest
	// SeatTranscript is player.Seat's check of the server's transcript
	// against its replica's.
	SeatTranscript
	// SeatRecorded is player.Seat's check that the log has recorded the
	// pending action the server shows.
	SeatRecorded
	// AckHeld is the client's comparison of an abort that names its seat
	// as missing a round with the acknowledgement it holds of its reveal
	// for that round (dungeonclient.Dropped: the server took it, then dropped it).
	AckHeld
	// AckSignature is the client's check that the server's acknowledgement
	// of its reveal carries the server's signature by the key it pins.
	AckSignature
	// NamedCheat is the check that a pass the server refused as a proven
	// cheat (a dealing table's refused pass, ending the hand "cheat")
	// fails its proof against the passes before it: match.ProvenCheat, in
	// the client's view of the hand and in the record's verification.
	NamedCheat
	// MoveVersion is the check that each move of a trustless table was
	// made at a version after the last join's and the move's before it
	// (match's record check and follower), and that a pending round's move
	// was (table/trustseat, before it reveals): a move's signature used
	// again as another move.
	MoveVersion

	numChecks
)

var names = [numChecks]string{"ShownIndex", "ShownPending", "MarkDigest", "ReplaySame", "PastEvent", "ActionSignature",
	"RevealSignature", "RevealLink", "RevealDigest", "RevealSeat", "RevealIndex", "RevealOnce", "RevealDeadline", "StagedOnce", "Visible", "ExportEvents",
	"AppliedSeat", "AppliedOnce", "AppliedSignature", "SeatIndex", "SeatDigest", "SeatTranscript", "SeatRecorded",
	"AckHeld", "AckSignature", "NamedCheat", "MoveVersion"}

func (c Check) String() string {
	if c < 0 || c >= numChecks {
		return fmt.Sprintf("Check(%d)", int32(c))
	}
	return names[c]
}

var off [numChecks]atomic.Bool

// All returns every check, in order.
func All() []Check {
	all := make([]Check, numChecks)
	for i := range all {
		all[i] = Check(i)
	}
	return all
}

// On reports whether check c is made: always, but in a positive control.
func On(c Check) bool { return !off[c].Load() }

// T is what Off needs of a *testing.T.
type T interface {
	Helper()
	Setenv(key, value string)
	Cleanup(func())
}

// Off switches c off until the end of t, the test of a positive control.
// It panics outside a test binary; t must not be parallel (t.Setenv
// panics then, and keeps the test from becoming parallel later).
func Off(t T, c Check) {
	t.Helper()
	if flag.Lookup("test.run") == nil || flag.Lookup("test.v") == nil {
		panic("checks: a check can be switched off in a test binary only")
	}
	t.Setenv("FAIRBOARD_CHECK_OFF_"+c.String(), "1")
	off[c].Store(true)
	t.Cleanup(func() { off[c].Store(false) })
}
