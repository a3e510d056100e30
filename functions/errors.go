package functions

import (
	"context"
	"errors"

	"github.com/fairboard/fairboard/functions/callable"
	"github.com/fairboard/fairboard/games/dungeon/engine"
	"github.com/fairboard/fairboard/games/dungeon/server/service"
	"github.com/fairboard/fairboard/games/dungeon/server/store"
	"github.com/fairboard/fairboard/table"
	"github.com/fairboard/fairboard/tablestore"
)

// CodeStatus maps every engine rejection code to the callable status the
// client gets (docs/functions.md has the table and the reasons).
var CodeStatus = map[engine.Code]callable.Status{
	engine.CodeNotYourTurn:     callable.StatusPermissionDenied,
	engine.CodeNotOwner:        callable.StatusPermissionDenied,
	engine.CodeUnknownPlayer:   callable.StatusInvalidArgument, // an offerDuel target not seated (strangers never reach the engine)
	engine.CodeNotCreated:      callable.StatusNotFound,
	engine.CodeStaleVersion:    callable.StatusFailedPrecondition,
	engine.CodeWrongStep:       callable.StatusFailedPrecondition,
	engine.CodeNotStarted:      callable.StatusFailedPrecondition,
	engine.CodeAlreadyStarted:  callable.StatusFailedPrecondition,
	engine.CodeGameOver:        callable.StatusFailedPrecondition,
	engine.CodeGameFull:        callable.StatusFailedPrecondition,
	engine.CodeTooFewPlayers:   callable.StatusFailedPrecondition,
	engine.CodeRulesMismatch:   callable.StatusFailedPrecondition,
	engine.CodeInvalidAction:   callable.StatusInvalidArgument,
	engine.CodeItemNotHeld:     callable.StatusInvalidArgument,
	engine.CodeSeatTaken:       callable.StatusAlreadyExists,
	engine.CodeAlreadyJoined:   callable.StatusAlreadyExists,
	engine.CodeAlreadyCreated:  callable.StatusAlreadyExists,
	engine.CodeDuplicateAction: callable.StatusAlreadyExists,
	engine.CodeBadStream:       callable.StatusInternal,

	// The trustless protocol's and fair openings' (docs/functions.md,
	// "Statuses"):
	engine.CodePending:           callable.StatusFailedPrecondition, // the game waits for a reveal round
	engine.CodeWrongIndex:        callable.StatusFailedPrecondition, // not the pending index (or none pending)
	engine.CodeWrongSeat:         callable.StatusPermissionDenied,   // a reveal for another seat
	engine.CodeAlreadyRevealed:   callable.StatusAlreadyExists,
	engine.CodeWrongDigest:       callable.StatusFailedPrecondition, // signed another action or transcript than the game's
	engine.CodeBadSignature:      callable.StatusPermissionDenied,   // not signed by the seat's key
	engine.CodeWrongLink:         callable.StatusInvalidArgument,    // not the seat's next chain link
	engine.CodeDeadlinePassed:    callable.StatusFailedPrecondition,
	engine.CodeDeadlineNotPassed: callable.StatusFailedPrecondition,
	engine.CodeNotOpened:         callable.StatusFailedPrecondition,
	engine.CodeWrongOpening:      callable.StatusInvalidArgument,
	engine.CodeAlreadyOpened:     callable.StatusAlreadyExists,
}

// noSuchGame is the one answer to a game that does not exist and to a
// game the caller may not see (a started game they have no seat in):
// same status, message and details, so a stranger cannot tell them apart.
func noSuchGame() *callable.Error {
	return callable.NotFound("no such game").WithDetails(details{string(engine.CodeNotCreated)})
}

// details is the error.details of a rejection: a machine-readable code.
type details struct {
	Code string `json:"code"`
}

// classify maps an error of the service or store to the client's answer.
// The bool is false for errors the client must not see: they are logged
// and answered INTERNAL "internal error" (never a stack or a seed).
func classify(err error) (*callable.Error, bool) {
	var rej *engine.Error
	var field *service.FieldError
	switch {
	case errors.As(err, &rej) && rej.Code == engine.CodeNotCreated:
		return noSuchGame(), true
	case errors.As(err, &rej):
		st, ok := CodeStatus[rej.Code]
		if !ok || st == callable.StatusInternal {
			return &callable.Error{Status: callable.StatusInternal, Message: "internal error"}, false
		}
		return &callable.Error{Status: st, Message: rej.Msg, Details: details{string(rej.Code)}}, true
	case errors.Is(err, service.ErrNotFinished):
		return callable.FailedPrecondition("the game has not finished: its export and its shuffles are given out only once it has ended").
			WithDetails(details{"not_finished"}), true
	case errors.Is(err, service.ErrNotExportable):
		return callable.FailedPrecondition("this game cannot be exported: the server has no complete list of its actions (a game played before the server kept one)").
			WithDetails(details{"not_exportable"}), false
	case errors.Is(err, service.ErrSeededRefused):
		return callable.FailedPrecondition("seeded mode is disabled in this deployment (seeded games are replayable, for development only); create the game in crypto mode").
			WithDetails(details{"seeded_disabled"}), true
	case errors.As(err, &field) && field.Field == "actor":
		return callable.InvalidArgument("the caller's uid %s", field.Problem), true
	case errors.As(err, &field):
		return callable.InvalidArgument("data.%s %s", field.Field, field.Problem).WithDetails(details{"invalid_" + field.Field}), true
	case errors.Is(err, service.ErrInvalid), errors.Is(err, store.ErrInvalid):
		return callable.InvalidArgument("invalid gameId, actionId or value"), true
	case errors.Is(err, store.ErrActionIDReused):
		return callable.AlreadyExists("you already used this actionId for a different action").WithDetails(details{"action_id_reused"}), true
	case errors.Is(err, store.ErrNotFound):
		return noSuchGame(), true
	case errors.Is(err, store.ErrContention):
		return callable.Aborted("the game is busy; retry with the same actionId"), true
	case errors.Is(err, store.ErrUnavailable), errors.Is(err, context.DeadlineExceeded):
		return callable.Errorf(callable.StatusUnavailable, "the game store is unavailable; retry with the same actionId"), true
	case errors.Is(err, context.Canceled):
		return callable.Errorf(callable.StatusCancelled, "request cancelled"), true
	}
	return &callable.Error{Status: callable.StatusInternal, Message: "internal error"}, false
}

// TableCodeStatus maps every table refusal code (table.Codes) to the
// callable status the client gets, as CodeStatus does the dungeon's
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
		return noSuchGame(), true
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
