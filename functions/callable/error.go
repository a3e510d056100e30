package callable

import "fmt"

// Error is a rejection a callable function returns on purpose: its Status,
// Message and Details are sent to the client as they are, so they must hold
// nothing secret (no seed, no hidden state, no internal error text).
type Error struct {
	// Status is the protocol status; one that is not [Status.Valid] is sent
	// as INTERNAL with a generic message.
	Status Status
	// Message is shown to the client; English, one sentence.
	Message string
	// Details is optional JSON-marshallable data for the client, sent as
	// error.details; nil omits it.
	Details any
}

// Error returns "STATUS: message".
func (e *Error) Error() string { return string(e.Status) + ": " + e.Message }

// Errorf returns an *Error with status s and a formatted message.
func Errorf(s Status, format string, args ...any) *Error {
	return &Error{Status: s, Message: fmt.Sprintf(format, args...)}
}

// WithDetails returns a copy of e whose Details is d.
func (e *Error) WithDetails(d any) *Error {
	c := *e
	c.Details = d
	return &c
}

// InvalidArgument returns an INVALID_ARGUMENT error with a formatted message.
func InvalidArgument(format string, args ...any) *Error {
	return Errorf(StatusInvalidArgument, format, args...)
}

// FailedPrecondition returns a FAILED_PRECONDITION error with a formatted
// message.
func FailedPrecondition(format string, args ...any) *Error {
	return Errorf(StatusFailedPrecondition, format, args...)
}

// Unauthenticated returns an UNAUTHENTICATED error with a formatted message.
func Unauthenticated(format string, args ...any) *Error {
	return Errorf(StatusUnauthenticated, format, args...)
}

// PermissionDenied returns a PERMISSION_DENIED error with a formatted
// message.
func PermissionDenied(format string, args ...any) *Error {
	return Errorf(StatusPermissionDenied, format, args...)
}

// NotFound returns a NOT_FOUND error with a formatted message.
func NotFound(format string, args ...any) *Error {
	return Errorf(StatusNotFound, format, args...)
}

// AlreadyExists returns an ALREADY_EXISTS error with a formatted message.
func AlreadyExists(format string, args ...any) *Error {
	return Errorf(StatusAlreadyExists, format, args...)
}

// Aborted returns an ABORTED error with a formatted message.
func Aborted(format string, args ...any) *Error {
	return Errorf(StatusAborted, format, args...)
}

// internalError is what the client sees for any failure that is not a
// deliberate *Error.
var internalError = &Error{Status: StatusInternal, Message: "internal error"}
