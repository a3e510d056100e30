package dungeonfn

import (
	"errors"

	"github.com/fairboard/fairboard/functions"
	"github.com/fairboard/fairboard/functions/callable"
	"github.com/fairboard/fairboard/games/dungeon/engine"
	"github.com/fairboard/fairboard/games/dungeon/server/service"
	"github.com/fairboard/fairboard/games/dungeon/server/store"
)

// CodeStatus maps every engine rejection code to the callable status the
// client gets (docs/functions.md has the table and the reasons).
// functions.TableCodeStatus gives a table's codes the same status for
// the same spelling.
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

// details is the error.details of a rejection: a machine-readable code
// (as the API's own).
type details struct {
	Code string `json:"code"`
}

// Classify maps an error of the service or store to the client's answer
// (functions.Dungeon.Classify). public is false for errors the client
// must not see: the API logs them and answers INTERNAL "internal error"
// (never a stack or a seed). It is (nil, false) for an error that is
// none of theirs: the API's own mapping (a deadline, a cancellation,
// else INTERNAL) answers it.
func (*Path) Classify(err error) (ce *callable.Error, public bool) {
	var rej *engine.Error
	var field *service.FieldError
	switch {
	case errors.As(err, &rej) && rej.Code == engine.CodeNotCreated:
		return functions.NoSuchGame(), true
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
		return functions.NoSuchGame(), true
	case errors.Is(err, store.ErrContention):
		return callable.Aborted("the game is busy; retry with the same actionId"), true
	case errors.Is(err, store.ErrUnavailable):
		return callable.Errorf(callable.StatusUnavailable, "the game store is unavailable; retry with the same actionId"), true
	}
	return nil, false
}
