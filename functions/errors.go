package functions

import (
	"context"
	"errors"

	"github.com/fairboard/fairboard/engine"
	"github.com/fairboard/fairboard/service"
	"github.com/fairboard/fairboard/store"
)

// The callable protocol's status names used here.
const (
	StatusInvalidArgument    = "INVALID_ARGUMENT"
	StatusFailedPrecondition = "FAILED_PRECONDITION"
	StatusNotFound           = "NOT_FOUND"
	StatusAlreadyExists      = "ALREADY_EXISTS"
	StatusPermissionDenied   = "PERMISSION_DENIED"
	StatusUnauthenticated    = "UNAUTHENTICATED"
	StatusAborted            = "ABORTED"
	StatusUnavailable        = "UNAVAILABLE"
	StatusCancelled          = "CANCELLED"
	StatusInternal           = "INTERNAL"
)

// codeStatus maps every engine rejection code to a callable status.
var codeStatus = map[engine.Code]string{
	engine.CodeNotYourTurn:     StatusPermissionDenied,
	engine.CodeNotOwner:        StatusPermissionDenied,
	engine.CodeNotCreated:      StatusNotFound,
	engine.CodeStaleVersion:    StatusFailedPrecondition,
	engine.CodeWrongStep:       StatusFailedPrecondition,
	engine.CodeNotStarted:      StatusFailedPrecondition,
	engine.CodeAlreadyStarted:  StatusFailedPrecondition,
	engine.CodeGameOver:        StatusFailedPrecondition,
	engine.CodeGameFull:        StatusFailedPrecondition,
	engine.CodeTooFewPlayers:   StatusFailedPrecondition,
	engine.CodeRulesMismatch:   StatusFailedPrecondition,
	engine.CodeInvalidAction:   StatusInvalidArgument,
	engine.CodeItemNotHeld:     StatusInvalidArgument,
	engine.CodeUnknownPlayer:   StatusPermissionDenied, // mostly an unseated actor
	engine.CodeSeatTaken:       StatusAlreadyExists,
	engine.CodeAlreadyJoined:   StatusAlreadyExists,
	engine.CodeAlreadyCreated:  StatusAlreadyExists,
	engine.CodeDuplicateAction: StatusAlreadyExists,
	engine.CodeBadStream:       StatusInternal,
}

// errNotSeated: getView of a started game by someone without a seat.
var errNotSeated = errors.New("functions: not seated in this game")

// Failure is an error answer: a callable status, a message safe to show
// and optional details ({"code": engine code} for rejections).
type Failure struct {
	Status  string
	Message string
	Details map[string]any
}

// classify maps an error of the service or store to the answer. The bool
// is false for errors the caller must not see (INTERNAL: logged, and
// answered with a generic message).
func classify(err error) (Failure, bool) {
	var rej *engine.Error
	switch {
	case errors.As(err, &rej):
		st, ok := codeStatus[rej.Code]
		if !ok || st == StatusInternal {
			return Failure{Status: StatusInternal, Message: "internal error"}, false
		}
		return Failure{Status: st, Message: rej.Msg, Details: map[string]any{"code": string(rej.Code)}}, true
	case errors.Is(err, errNotSeated):
		return Failure{Status: StatusPermissionDenied, Message: "only the game's players may view it once it has started"}, true
	case errors.Is(err, service.ErrSeededRefused):
		return Failure{Status: StatusFailedPrecondition, Message: "seeded mode is disabled in this deployment (seeded games are for development only); create the game in crypto mode",
			Details: map[string]any{"code": "seeded_disabled"}}, true
	case errors.Is(err, service.ErrInvalid), errors.Is(err, store.ErrInvalid):
		return Failure{Status: StatusInvalidArgument, Message: "invalid gameId, actionId or value"}, true
	case errors.Is(err, store.ErrActionIDReused):
		return Failure{Status: StatusAlreadyExists, Message: "actionId already used for a different action",
			Details: map[string]any{"code": "action_id_reused"}}, true
	case errors.Is(err, store.ErrNotFound):
		return Failure{Status: StatusNotFound, Message: "no such game", Details: map[string]any{"code": string(engine.CodeNotCreated)}}, true
	case errors.Is(err, store.ErrContention):
		return Failure{Status: StatusAborted, Message: "the game is busy; retry with the same actionId"}, true
	case errors.Is(err, store.ErrUnavailable), errors.Is(err, context.DeadlineExceeded):
		return Failure{Status: StatusUnavailable, Message: "the game store is unavailable; retry with the same actionId"}, true
	case errors.Is(err, context.Canceled):
		return Failure{Status: StatusCancelled, Message: "request cancelled"}, true
	}
	return Failure{Status: StatusInternal, Message: "internal error"}, false
}
