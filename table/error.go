package table

import "github.com/fairboard/fairboard/game"

// Code is the reason the table refused a request. The set is closed
// (Codes): the game's own codes (package game) with their spellings, and
// the table's, spelled as the dungeon engine's (engine.Code) where the
// meaning is the same.
type Code string

// The game's codes, as the table uses them.
const (
	// CodeInvalidAction: an unknown action kind, or a move that does not
	// decode (game.DecodeMove: an unknown kind, an unknown, repeated or
	// missing field, an argument out of range) or that the game refuses.
	CodeInvalidAction = Code(game.CodeInvalidAction)
	// CodeNotYourTurn: a seated actor's move while the game awaits
	// another seat.
	CodeNotYourTurn = Code(game.CodeNotYourTurn)
	// CodeUnknownPlayer: a seat index outside 0..seats-1 (join,
	// removeSeat).
	CodeUnknownPlayer = Code(game.CodeUnknownPlayer)
	// CodeGameOver: any action but a retry once the table is finished.
	CodeGameOver = Code(game.CodeGameOver)
	// CodeBadRuleset: create's rules do not decode (the definition's
	// strict DecodeRuleset).
	CodeBadRuleset = Code(game.CodeBadRuleset)
	// CodeBadSetup: create's mode, seed or seat count is refused, or the
	// game's Setup refuses the seats at start.
	CodeBadSetup = Code(game.CodeBadSetup)
)

// The table's own codes.
const (
	// CodeBadActionID: an action id that is not 1-128 characters of
	// [A-Za-z0-9_-].
	CodeBadActionID Code = "bad_action_id"
	// CodeBadActor: an actor that is not 1-128 characters of
	// [A-Za-z0-9_-] (nor ServerActor), or ServerActor doing anything but
	// abandon.
	CodeBadActor Code = "bad_actor"
	// CodeActionIDReused: the actor already used this action id at this
	// table for an action with other content.
	CodeActionIDReused Code = "action_id_reused"
	// CodeStaleVersion: Action.Version is not the table's version.
	CodeStaleVersion Code = "stale_version"
	// CodeNotStarted: a move while the table is in its lobby.
	CodeNotStarted Code = "not_started"
	// CodeAlreadyStarted: join, leave, removeSeat or start once the game
	// has started.
	CodeAlreadyStarted Code = "already_started"
	// CodeNotOwner: removeSeat, start or abandon by another than the
	// owner (abandon: or ServerActor).
	CodeNotOwner Code = "not_owner"
	// CodeNotSeated: a move or leave by an actor who holds no seat.
	CodeNotSeated Code = "not_seated"
	// CodeSeatTaken: join on a seat someone holds; removeSeat on a
	// free seat is CodeSeatFree.
	CodeSeatTaken Code = "seat_taken"
	// CodeSeatFree: removeSeat on a seat nobody holds.
	CodeSeatFree Code = "seat_free"
	// CodeAlreadyJoined: join by an actor who holds a seat.
	CodeAlreadyJoined Code = "already_joined"
	// CodeBadOption: join with an option the game does not have, a value
	// not among its values, or some options but not all.
	CodeBadOption Code = "bad_option"
	// CodeTooFewPlayers: start while a seat is free.
	CodeTooFewPlayers Code = "too_few_players"
	// CodeNotCreated: an action on a game id the store has no table for.
	CodeNotCreated Code = "not_created"
	// CodeBadGameID: a game id that is not 1-128 characters of
	// [A-Za-z0-9_-] (Memory.Create).
	CodeBadGameID Code = "bad_game_id"
	// CodeAlreadyCreated: create on a game id the store has, by another
	// request than the one that created it.
	CodeAlreadyCreated Code = "already_created"
	// CodeNotFinished: a record asked of a table whose game is not over
	// (Table.Record), or that never started.
	CodeNotFinished Code = "not_finished"
	// CodeBadEntropy: a join's entropy that is not 0 to 64 bytes as hex,
	// or entropy at a table that is not fair.
	CodeBadEntropy Code = "bad_entropy"
	// The trustless codes, as the dungeon's engine spells them:
	// CodePending: a move while a round is pending.
	CodePending Code = "pending"
	// CodeWrongIndex: a reveal or abort with no round pending, or a
	// reveal for another index.
	CodeWrongIndex Code = "wrong_index"
	// CodeWrongSeat: a reveal for another seat than the actor's.
	CodeWrongSeat Code = "wrong_seat"
	// CodeAlreadyRevealed: a seat's second reveal of a round.
	CodeAlreadyRevealed Code = "already_revealed"
	// CodeWrongDigest: a reveal signed for another move or transcript
	// than the pending one.
	CodeWrongDigest Code = "wrong_digest"
	// CodeBadSignature: a join, move or reveal whose signature does not
	// verify under the seat's key.
	CodeBadSignature Code = "bad_signature"
	// CodeWrongLink: a link that does not hash to the seat's previous
	// link.
	CodeWrongLink Code = "wrong_link"
	// CodeDeadlinePassed: a reveal after its round's deadline.
	CodeDeadlinePassed Code = "deadline_passed"
	// CodeDeadlineNotPassed: an abort before the round's deadline (or
	// the openings').
	CodeDeadlineNotPassed Code = "deadline_not_passed"
	// CodeWrongOpening: an open whose contribution does not open the
	// seat's commitment; CodeAlreadyOpened: a seat's second open;
	// CodeNotOpened: a start while a seat has not opened (a fair table
	// with openings).
	CodeWrongOpening  Code = "wrong_opening"
	CodeAlreadyOpened Code = "already_opened"
	CodeNotOpened     Code = "not_opened"
)

// Codes lists every code.
var Codes = []Code{
	CodeInvalidAction, CodeNotYourTurn, CodeUnknownPlayer, CodeGameOver, CodeBadRuleset, CodeBadSetup,
	CodeBadActionID, CodeBadActor, CodeActionIDReused, CodeStaleVersion, CodeNotStarted, CodeAlreadyStarted,
	CodeNotOwner, CodeNotSeated, CodeSeatTaken, CodeSeatFree, CodeAlreadyJoined, CodeBadOption,
	CodeTooFewPlayers, CodeNotCreated, CodeBadGameID, CodeAlreadyCreated, CodeNotFinished, CodeBadEntropy,
	CodePending, CodeWrongIndex, CodeWrongSeat, CodeAlreadyRevealed, CodeWrongDigest, CodeBadSignature,
	CodeWrongLink, CodeDeadlinePassed, CodeDeadlineNotPassed, CodeWrongOpening, CodeAlreadyOpened, CodeNotOpened,
}

// Error is a refusal: a code of the closed set and a message for people,
// which never holds anything the caller may not read. Match it with
// errors.Is(err, table.CodeStaleVersion), or, for the game's codes, with
// the game's constant too (errors.Is(err, game.CodeNotYourTurn)).
type Error struct {
	Code Code
	Msg  string
}

func (e *Error) Error() string { return string(e.Code) + ": " + e.Msg }

// Is reports whether target is e's code (a Code or a game.Code of the
// same spelling), or an *Error with e's code.
func (e *Error) Is(target error) bool {
	switch t := target.(type) {
	case Code:
		return t == e.Code
	case game.Code:
		return Code(t) == e.Code
	case *Error:
		return t.Code == e.Code
	}
	return false
}

// Error makes a Code an error, so that errors.Is can take it as a target.
func (c Code) Error() string { return string(c) }

func reject(c Code, msg string) *Error { return &Error{Code: c, Msg: msg} }

// fromGame turns a game's refusal into the table's, keeping its code.
func fromGame(err error) *Error {
	if ge, ok := err.(*game.Error); ok {
		return &Error{Code: Code(ge.Code), Msg: ge.Msg}
	}
	return &Error{Code: CodeInvalidAction, Msg: err.Error()}
}
