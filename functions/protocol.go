package functions

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strings"
)

// Verifier checks a Firebase ID token and returns its uid. It fails for a
// missing, malformed, expired or foreign token.
type Verifier interface {
	Verify(ctx context.Context, idToken string) (uid string, err error)
}

// MaxBody bounds a request body.
const MaxBody = 64 << 10

// badRequest is a request-shape error: INVALID_ARGUMENT with its message.
type badRequest struct{ msg string }

func (e *badRequest) Error() string { return e.msg }

func invalid(msg string) error { return &badRequest{msg} }

// decodeData decodes the callable data strictly into v: an object, no
// unknown fields, right types, nothing after it.
func decodeData(data json.RawMessage, v any) error {
	if len(bytes.TrimSpace(data)) == 0 || bytes.Equal(bytes.TrimSpace(data), []byte("null")) {
		return invalid("data is required")
	}
	d := json.NewDecoder(bytes.NewReader(data))
	d.DisallowUnknownFields()
	if err := d.Decode(v); err != nil {
		return invalid("bad data: " + err.Error())
	}
	var extra json.RawMessage
	if d.Decode(&extra) != io.EOF {
		return invalid("bad data: trailing content")
	}
	return nil
}

// httpStatus is the callable protocol's HTTP status for each status name.
var httpStatus = map[string]int{
	StatusInvalidArgument: 400, StatusFailedPrecondition: 400, StatusNotFound: 404,
	StatusAlreadyExists: 409, StatusAborted: 409, StatusPermissionDenied: 403,
	StatusUnauthenticated: 401, StatusUnavailable: 503, StatusCancelled: 499,
	StatusInternal: 500,
}

type handlerFunc func(ctx context.Context, uid string, data json.RawMessage) (any, error)

// serve runs one callable request: method and content type, token, body,
// fn, answer.
func (a *API) serve(w http.ResponseWriter, r *http.Request, name string, fn handlerFunc) {
	if r.Method == http.MethodOptions {
		cors(w, r)
		w.WriteHeader(http.StatusNoContent)
		return
	}
	cors(w, r)
	if r.Method != http.MethodPost || !strings.HasPrefix(r.Header.Get("Content-Type"), "application/json") {
		a.fail(w, Failure{Status: StatusInvalidArgument, Message: "a callable request is a POST of application/json"})
		return
	}
	tok, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	if !ok || tok == "" {
		a.fail(w, Failure{Status: StatusUnauthenticated, Message: "sign in first: no ID token"})
		return
	}
	uid, err := a.verify.Verify(r.Context(), tok)
	if err != nil || uid == "" {
		a.fail(w, Failure{Status: StatusUnauthenticated, Message: "invalid ID token"})
		return
	}
	var body struct {
		Data json.RawMessage `json:"data"`
	}
	d := json.NewDecoder(io.LimitReader(r.Body, MaxBody))
	d.DisallowUnknownFields()
	var extra json.RawMessage
	if err := d.Decode(&body); err != nil || d.Decode(&extra) != io.EOF {
		a.fail(w, Failure{Status: StatusInvalidArgument, Message: "the body must be {\"data\": ...}"})
		return
	}
	res, err := fn(r.Context(), uid, body.Data)
	if err != nil {
		var br *badRequest
		if errors.As(err, &br) {
			a.fail(w, Failure{Status: StatusInvalidArgument, Message: br.msg})
			return
		}
		f, public := classify(err)
		if !public {
			a.log.Error("function failed", "function", name, "uid", uid, "err", err)
		}
		a.fail(w, f)
		return
	}
	b, err := json.Marshal(map[string]any{"result": res})
	if err != nil {
		a.log.Error("encode result", "function", name, "err", err)
		a.fail(w, Failure{Status: StatusInternal, Message: "internal error"})
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Write(b)
}

func (a *API) fail(w http.ResponseWriter, f Failure) {
	e := map[string]any{"status": f.Status, "message": f.Message}
	if f.Details != nil {
		e["details"] = f.Details
	}
	b, _ := json.Marshal(map[string]any{"error": e})
	w.Header().Set("Content-Type", "application/json")
	code, ok := httpStatus[f.Status]
	if !ok {
		code = 500
	}
	w.WriteHeader(code)
	w.Write(b)
}

// cors allows browser clients of any origin (the ID token, not the
// origin, authenticates).
func cors(w http.ResponseWriter, r *http.Request) {
	if o := r.Header.Get("Origin"); o != "" {
		w.Header().Set("Access-Control-Allow-Origin", o)
		w.Header().Set("Vary", "Origin")
		w.Header().Set("Access-Control-Allow-Methods", "POST, OPTIONS")
		w.Header().Set("Access-Control-Allow-Headers", "Authorization, Content-Type, Firebase-Instance-ID-Token, X-Firebase-AppCheck")
		w.Header().Set("Access-Control-Max-Age", "3600")
	}
}
