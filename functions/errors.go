package functions

import (
	"context"
	"errors"

	"github.com/fairboard/fairboard/functions/callable"
	"github.com/fairboard/fairboard/table"
	"github.com/fairboard/fairboard/tablestore"
)

// NoSuchGame is the one answer to a game that does not exist and to a
// game the caller may not see (a started game they have no seat in):
// same status, message and details (code "not_created"), so a stranger
// cannot tell them apart; every game's path answers it (the dungeon's
// too).
func NoSuchGame() *callable.Error {
	return callable.NotFound("no such game").WithDetails(details{string(table.CodeNotCreated)})
}

// details is the error.details of a rejection: a machine-readable code.
type details struct {
	Code string `json:"code"`
}

// classify maps an error of the dungeon's path, the table path or the
// API's stores to the client's answer: the dungeon's own by its Classify,
// then a deadline or a cancellation. The bool is false for errors the
// client must not see: they are logged and answered INTERNAL "internal
// error" (never a stack or a seed).
func (a *API) classify(err error) (*callable.Error, bool) {
	if ce, public := a.dungeon.Classify(err); ce != nil {
		return ce, public
	}
	switch {
	case errors.Is(err, context.DeadlineExceeded):
		return callable.Errorf(callable.StatusUnavailable, "the game store is unavailable; retry with the same actionId"), true
	case errors.Is(err, context.Canceled):
		return callable.Errorf(callable.StatusCancelled, "request cancelled"), true
	}
	return &callable.Error{Status: callable.StatusInternal, Message: "internal error"}, false
}

// TableCodeStatus maps every table refusal code (table.Codes) to the
// callable status the client gets, as the dungeon's CodeStatus
// (games/dungeon/server/dungeonfn) does its own
// (the same status for the same spelling); details.code is the table's
// code.
var TableCodeStatus = map[table.Code]callable.Status{
	table.CodeInvalidAction:  callable.StatusInvalidArgument,
	table.CodeNotYourTurn:    callable.StatusPermissionDenied,
	table.CodeUnknownPlayer:  callable.StatusInvalidArgument,
	table.CodeGameOver:       callable.StatusFailedPrecondition,
	table.CodeBadRuleset:     callable.StatusInvalidArgument,
	table.CodeBadSetup:       callable.StatusInvalidArgument,
	table.CodeBadActionID:    callable.StatusInvalidArgument,
	table.CodeBadActor:       callable.StatusInvalidArgument,
	table.CodeActionIDReused: callable.StatusAlreadyExists,
	table.CodeStaleVersion:   callable.StatusFailedPrecondition,
	table.CodeNotStarted:     callable.StatusFailedPrecondition,
	table.CodeAlreadyStarted: callable.StatusFailedPrecondition,
	table.CodeNotOwner:       callable.StatusPermissionDenied,
	table.CodeNotSeated:      callable.StatusPermissionDenied,
	table.CodeSeatTaken:      callable.StatusAlreadyExists,
	table.CodeSeatFree:       callable.StatusFailedPrecondition,
	table.CodeAlreadyJoined:  callable.StatusAlreadyExists,
	table.CodeBadOption:      callable.StatusInvalidArgument,
	table.CodeTooFewPlayers:  callable.StatusFailedPrecondition,
	table.CodeNotCreated:     callable.StatusNotFound,
	table.CodeBadGameID:      callable.StatusInvalidArgument,
	table.CodeAlreadyCreated: callable.StatusAlreadyExists,
	table.CodeNotFinished:    callable.StatusFailedPrecondition,
	table.CodeBadEntropy:     callable.StatusInvalidArgument,
	// The trustless codes, as the dungeon's (CodeStatus).
	table.CodePending:           callable.StatusFailedPrecondition,
	table.CodeWrongIndex:        callable.StatusFailedPrecondition,
	table.CodeWrongSeat:         callable.StatusPermissionDenied,
	table.CodeAlreadyRevealed:   callable.StatusAlreadyExists,
	table.CodeWrongDigest:       callable.StatusFailedPrecondition,
	table.CodeBadSignature:      callable.StatusPermissionDenied,
	table.CodeWrongLink:         callable.StatusInvalidArgument,
	table.CodeDeadlinePassed:    callable.StatusFailedPrecondition,
	table.CodeDeadlineNotPassed: callable.StatusFailedPrecondition,
	table.CodeNotOpened:         callable.StatusFailedPrecondition, // as the dungeon's
	table.CodeWrongOpening:      callable.StatusInvalidArgument,
	table.CodeAlreadyOpened:     callable.StatusAlreadyExists,
}

// classifyTable maps an error of the table path to the client's answer,
// as classify does the dungeon's; ok is false for errors that are not
// the table path's (classify answers them).
func classifyTable(err error) (*callable.Error, bool) {
	var te *table.Error
	switch {
	case errors.As(err, &te) && te.Code == table.CodeNotCreated:
		return NoSuchGame(), true
	case errors.As(err, &te):
		st, ok := TableCodeStatus[te.Code]
		if !ok {
			return nil, false
		}
		return &callable.Error{Status: st, Message: te.Msg, Details: details{string(te.Code)}}, true
	case errors.Is(err, tablestore.ErrUnknownGame):
		return callable.InvalidArgument("%s", err.Error()).WithDetails(details{"unknown_game"}), true
	case errors.Is(err, tablestore.ErrContention):
		return callable.Aborted("the game is busy; retry with the same actionId"), true
	case errors.Is(err, tablestore.ErrUnavailable):
		return callable.Errorf(callable.StatusUnavailable, "the game store is unavailable; retry with the same actionId"), true
	}
	return nil, false
}
