package callable

import "net/http"

// Status is a callable error status, spelled as the protocol spells it.
// Only the constants below are valid.
type Status string

// The statuses a callable error can carry, with their HTTP codes.
const (
	StatusInvalidArgument    Status = "INVALID_ARGUMENT"    // 400: the request or its data is malformed
	StatusFailedPrecondition Status = "FAILED_PRECONDITION" // 400: the system is not in a state to do it
	StatusOutOfRange         Status = "OUT_OF_RANGE"        // 400: a value is past the valid range
	StatusUnauthenticated    Status = "UNAUTHENTICATED"     // 401: no valid ID token
	StatusPermissionDenied   Status = "PERMISSION_DENIED"   // 403: the caller may not do it
	StatusNotFound           Status = "NOT_FOUND"           // 404
	StatusAlreadyExists      Status = "ALREADY_EXISTS"      // 409
	StatusAborted            Status = "ABORTED"             // 409: a conflict, e.g. a stale version; retry
	StatusResourceExhausted  Status = "RESOURCE_EXHAUSTED"  // 429: quota or rate limit
	StatusCancelled          Status = "CANCELLED"           // 499: the caller cancelled
	StatusUnknown            Status = "UNKNOWN"             // 500
	StatusInternal           Status = "INTERNAL"            // 500: a server bug or outage
	StatusDataLoss           Status = "DATA_LOSS"           // 500
	StatusUnimplemented      Status = "UNIMPLEMENTED"       // 501
	StatusUnavailable        Status = "UNAVAILABLE"         // 503: transient; retry
	StatusDeadlineExceeded   Status = "DEADLINE_EXCEEDED"   // 504
)

// httpStatus is the protocol's mapping from status to HTTP code.
var httpStatus = map[Status]int{
	StatusInvalidArgument:    http.StatusBadRequest,
	StatusFailedPrecondition: http.StatusBadRequest,
	StatusOutOfRange:         http.StatusBadRequest,
	StatusUnauthenticated:    http.StatusUnauthorized,
	StatusPermissionDenied:   http.StatusForbidden,
	StatusNotFound:           http.StatusNotFound,
	StatusAlreadyExists:      http.StatusConflict,
	StatusAborted:            http.StatusConflict,
	StatusResourceExhausted:  http.StatusTooManyRequests,
	StatusCancelled:          499,
	StatusUnknown:            http.StatusInternalServerError,
	StatusInternal:           http.StatusInternalServerError,
	StatusDataLoss:           http.StatusInternalServerError,
	StatusUnimplemented:      http.StatusNotImplemented,
	StatusUnavailable:        http.StatusServiceUnavailable,
	StatusDeadlineExceeded:   http.StatusGatewayTimeout,
}

// Valid reports whether s is one of the protocol's error statuses ("OK" is
// not an error status and is not valid here).
func (s Status) Valid() bool {
	_, ok := httpStatus[s]
	return ok
}

// HTTPStatus is the HTTP code the protocol answers s with, in 400..504;
// 500 for a status that is not [Status.Valid].
func (s Status) HTTPStatus() int {
	if c, ok := httpStatus[s]; ok {
		return c
	}
	return http.StatusInternalServerError
}
