package engine

// Code is the reason an action was rejected. The set is closed: every
// rejection carries one of the constants below, and only the functions layer
// maps them to HTTP or callable statuses.
type Code string

// The rejection codes.
const (
	// CodeInvalidAction: the action is malformed or not allowed here
	// (unknown kind, bad field, a move the rules forbid).
	CodeInvalidAction Code = "invalid_action"
	// CodeNotYourTurn: the actor is not the player the game waits for.
	CodeNotYourTurn Code = "not_your_turn"
	// CodeWrongStep: the action does not belong to the current step.
	CodeWrongStep Code = "wrong_step"
	// CodeUnknownPlayer: the actor or target is not seated in the game.
	CodeUnknownPlayer Code = "unknown_player"
	// CodeNotStarted: the game is still in its lobby.
	CodeNotStarted Code = "not_started"
	// CodeAlreadyStarted: the action needs the lobby but the game started.
	CodeAlreadyStarted Code = "already_started"
	// CodeAlreadyCreated: create on a game that exists.
	CodeAlreadyCreated Code = "already_created"
	// CodeNotCreated: any action but create on a game never created.
	CodeNotCreated Code = "not_created"
	// CodeStaleVersion: Action.Version names a version other than the
	// game's current one.
	CodeStaleVersion Code = "stale_version"
	// CodeGameOver: the game has finished.
	CodeGameOver Code = "game_over"
	// CodeSeatTaken: the seat asked for is taken or out of range.
	CodeSeatTaken Code = "seat_taken"
	// CodeAlreadyJoined: the actor already has a seat.
	CodeAlreadyJoined Code = "already_joined"
	// CodeGameFull: every seat the ruleset allows is taken.
	CodeGameFull Code = "game_full"
	// CodeTooFewPlayers: start with fewer players than the ruleset's minimum.
	CodeTooFewPlayers Code = "too_few_players"
	// CodeNotOwner: only the room owner may do this (start).
	CodeNotOwner Code = "not_owner"
	// CodeItemNotHeld: the card named is not in the actor's inventory.
	CodeItemNotHeld Code = "item_not_held"
	// CodeDuplicateAction: the action's ActionID equals the last applied one.
	CodeDuplicateAction Code = "duplicate_action"
	// CodeRulesMismatch: the game was created under another ruleset than
	// the engine's (compare [Public.RulesHash] with [Ruleset.Hash]).
	CodeRulesMismatch Code = "rules_mismatch"
	// CodeBadStream: the stream handed in does not match the game's rng
	// mode or seq (a caller's mistake, reported rather than panicking).
	CodeBadStream Code = "bad_stream"

	// The trustless protocol's (docs/fairness.md "The trustless mode"):

	// CodePending: an action while another is pending its reveal round
	// (only reveals, the deadline's abort and the owner's abandon are
	// accepted then).
	CodePending Code = "pending"
	// CodeWrongIndex: a reveal for an index other than the pending
	// action's, or with no action pending.
	CodeWrongIndex Code = "wrong_index"
	// CodeWrongSeat: a reveal for a seat other than the actor's own.
	CodeWrongSeat Code = "wrong_seat"
	// CodeAlreadyRevealed: the seat has already revealed this index.
	CodeAlreadyRevealed Code = "already_revealed"
	// CodeWrongDigest: the reveal signs another action digest or
	// transcript hash than the pending action's.
	CodeWrongDigest Code = "wrong_digest"
	// CodeBadSignature: an action's or reveal's Ed25519 signature does
	// not verify under the seat's public key.
	CodeBadSignature Code = "bad_signature"
	// CodeWrongLink: the revealed link does not hash to the seat's
	// previous link.
	CodeWrongLink Code = "wrong_link"
	// CodeDeadlinePassed: a reveal after the round's public deadline.
	CodeDeadlinePassed Code = "deadline_passed"
	// CodeDeadlineNotPassed: an abort, or a seat's removal, before the
	// public deadline.
	CodeDeadlineNotPassed Code = "deadline_not_passed"

	// Fair games with openings:

	// CodeNotOpened: start while a seat has not opened its contribution.
	CodeNotOpened Code = "not_opened"
	// CodeWrongOpening: an opened contribution that is not the one the
	// seat committed to at join.
	CodeWrongOpening Code = "wrong_opening"
	// CodeAlreadyOpened: a seat opens its contribution twice.
	CodeAlreadyOpened Code = "already_opened"
)

// Codes lists every rejection code, in the order above.
var Codes = []Code{
	CodeInvalidAction, CodeNotYourTurn, CodeWrongStep, CodeUnknownPlayer,
	CodeNotStarted, CodeAlreadyStarted, CodeAlreadyCreated, CodeNotCreated,
	CodeStaleVersion, CodeGameOver, CodeSeatTaken, CodeAlreadyJoined,
	CodeGameFull, CodeTooFewPlayers, CodeNotOwner, CodeItemNotHeld,
	CodeDuplicateAction, CodeRulesMismatch, CodeBadStream,
	CodePending, CodeWrongIndex, CodeWrongSeat, CodeAlreadyRevealed,
	CodeWrongDigest, CodeBadSignature, CodeWrongLink, CodeDeadlinePassed,
	CodeDeadlineNotPassed, CodeNotOpened, CodeWrongOpening, CodeAlreadyOpened,
}

// Error is a rejection: a [Code] and a human-readable message. Match it with
// errors.Is(err, engine.CodeWrongStep) or errors.As(err, &e).
type Error struct {
	Code Code
	Msg  string
}

// Error returns "code: msg".
func (e *Error) Error() string { return string(e.Code) + ": " + e.Msg }

// Is reports whether target is this error's Code, or an *Error with the same
// Code, so errors.Is(err, engine.CodeGameOver) works.
func (e *Error) Is(target error) bool {
	switch t := target.(type) {
	case Code:
		return t == e.Code
	case *Error:
		return t.Code == e.Code
	}
	return false
}

// Error makes a Code usable as an errors.Is target.
func (c Code) Error() string { return string(c) }

// Reject returns an *Error with the code and message.
func Reject(c Code, msg string) *Error { return &Error{Code: c, Msg: msg} }
