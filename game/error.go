package game

// Code is the reason a move, a ruleset or a setup was refused. The set is
// closed and spelled as the dungeon engine's codes (engine.Code) where the
// meaning is the same.
type Code string

// The rejection codes.
const (
	// CodeInvalidAction: the move is malformed or the rules forbid it
	// (unknown kind, unknown or missing field, an argument out of range,
	// a move not among the legal ones).
	CodeInvalidAction Code = "invalid_action"
	// CodeNotYourTurn: the seat is not the one the game awaits.
	CodeNotYourTurn Code = "not_your_turn"
	// CodeUnknownPlayer: the seat is not one of the game's.
	CodeUnknownPlayer Code = "unknown_player"
	// CodeGameOver: the game has ended.
	CodeGameOver Code = "game_over"
	// CodeBadRuleset: a ruleset that does not decode or breaks a range.
	CodeBadRuleset Code = "bad_ruleset"
	// CodeBadSetup: a seat count or seat option the game does not take.
	CodeBadSetup Code = "bad_setup"
)

// Codes lists every code.
var Codes = []Code{CodeInvalidAction, CodeNotYourTurn, CodeUnknownPlayer, CodeGameOver, CodeBadRuleset, CodeBadSetup}

// Error is a refusal: a code from the closed set and a message for people.
// Match it with errors.Is(err, game.CodeNotYourTurn).
type Error struct {
	Code Code
	Msg  string
}

func (e *Error) Error() string { return string(e.Code) + ": " + e.Msg }

// Is reports whether target is e's code, or an *Error with e's code.
func (e *Error) Is(target error) bool {
	switch t := target.(type) {
	case Code:
		return t == e.Code
	case *Error:
		return t.Code == e.Code
	}
	return false
}

// Error makes a Code an error, so that errors.Is can take it as a target.
func (c Code) Error() string { return string(c) }

// Reject returns an *Error with the code and message.
func Reject(c Code, msg string) *Error { return &Error{Code: c, Msg: msg} }
