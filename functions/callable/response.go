package callable

import (
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
)

// errorBody is the protocol's error answer.
type errorBody struct {
	Error errorJSON `json:"error"`
}

type errorJSON struct {
	Status  Status `json:"status"`
	Message string `json:"message"`
	Details any    `json:"details,omitempty"`
}

// writeResult answers 200 {"result": result}. A result that cannot be
// marshalled is logged and answered INTERNAL.
func writeResult(w http.ResponseWriter, r *http.Request, result any) {
	b, err := json.Marshal(map[string]any{"result": result})
	if err != nil {
		slog.ErrorContext(r.Context(), "callable: result not marshallable", "path", r.URL.Path, "err", err)
		writeError(w, r, internalError, nil)
		return
	}
	write(w, http.StatusOK, b)
}

// writeError answers err: an *Error with a valid status as it is, anything
// else as INTERNAL "internal error". cause, if not nil, is the function's
// own error, logged when it is not a deliberate *Error.
func writeError(w http.ResponseWriter, r *http.Request, err error, cause error) {
	var ce *Error
	if !errors.As(err, &ce) || !ce.Status.Valid() {
		slog.ErrorContext(r.Context(), "callable: internal error", "path", r.URL.Path, "err", cause)
		ce = internalError
	}
	b, merr := json.Marshal(errorBody{errorJSON{ce.Status, ce.Message, ce.Details}})
	if merr != nil {
		slog.ErrorContext(r.Context(), "callable: error details not marshallable", "path", r.URL.Path, "err", merr)
		ce = internalError
		b, _ = json.Marshal(errorBody{errorJSON{ce.Status, ce.Message, nil}})
	}
	write(w, ce.Status.HTTPStatus(), b)
}

func write(w http.ResponseWriter, code int, body []byte) {
	h := w.Header()
	h.Set("Content-Type", "application/json; charset=utf-8")
	h.Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(code)
	w.Write(body)
}
