package callable

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"mime"
	"net/http"
	"runtime/debug"
	"strings"
)

// MaxBodyBytes bounds a request body; a larger one is INVALID_ARGUMENT.
const MaxBodyBytes = 1 << 20

// TokenVerifier verifies a Firebase ID token and returns its decoded
// claims. It fails for a malformed, expired or foreign token. The Firebase
// Admin SDK's verifier is adapted to it by deploy.AdminVerifier
// (this package does not import the SDK, so that a program serving
// callables without Firebase builds without it).
type TokenVerifier interface {
	VerifyIDToken(ctx context.Context, idToken string) (*Token, error)
}

// Token is a verified ID token: the caller's uid and the token's claims.
type Token struct {
	// UID is the Firebase uid (the token's subject); a verifier never
	// returns a Token with an empty UID.
	UID string
	// Claims are the token's claims, custom claims included; may be nil.
	Claims map[string]any
}

// Request is one verified call.
type Request struct {
	// UID is the caller's Firebase uid, from the verified ID token; never "".
	UID string
	// Token is the verified ID token's claims.
	Token *Token
	// Data is the request's "data" value exactly as sent: any JSON value,
	// including null. Decode it with [DecodeData].
	Data json.RawMessage
}

// Func is a callable function: it returns the JSON-marshallable result, or
// an error (an [*Error] to reject with a status the client sees; anything
// else is answered INTERNAL and logged).
type Func func(ctx context.Context, req Request) (any, error)

// Handler serves fn over the callable protocol. Every call needs a valid ID
// token: a missing or malformed Authorization header, or a token the
// verifier rejects, is UNAUTHENTICATED (401). A nil verifier fails closed:
// every call is UNAUTHENTICATED (and logged), never let through. OPTIONS answers the CORS
// preflight (204, any origin, method POST, the requested headers), as
// Firebase's callable triggers do; any other method but POST, a content type
// other than application/json (charset utf-8 if given), a body over
// [MaxBodyBytes], not valid UTF-8, or other than exactly {"data": ...} is
// INVALID_ARGUMENT (400). A panic in fn is logged with its stack and
// answered INTERNAL.
func Handler(verifier TokenVerifier, fn Func) http.Handler {
	return &handler{verifier: verifier, fn: fn}
}

type handler struct {
	verifier TokenVerifier
	fn       Func
}

func (h *handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if origin := r.Header.Get("Origin"); origin != "" {
		w.Header().Set("Access-Control-Allow-Origin", origin)
		w.Header().Add("Vary", "Origin")
	}
	if r.Method == http.MethodOptions {
		preflight(w, r)
		return
	}
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", "POST, OPTIONS")
		writeError(w, r, InvalidArgument("a callable request must be a POST"), nil)
		return
	}
	if !jsonContentType(r.Header.Get("Content-Type")) {
		writeError(w, r, InvalidArgument("Content-Type must be application/json"), nil)
		return
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, MaxBodyBytes))
	if err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			writeError(w, r, InvalidArgument("request body is larger than %d bytes", MaxBodyBytes), nil)
			return
		}
		writeError(w, r, InvalidArgument("request body could not be read"), nil)
		return
	}
	data, cerr := decodeEnvelope(body)
	if cerr != nil {
		writeError(w, r, cerr, nil)
		return
	}
	tok, cerr := h.verify(r)
	if cerr != nil {
		writeError(w, r, cerr, nil)
		return
	}
	result, err := h.call(r.Context(), Request{UID: tok.UID, Token: tok, Data: data})
	if err != nil {
		writeError(w, r, err, err)
		return
	}
	writeResult(w, r, result)
}

// verify checks the bearer token; every failure is UNAUTHENTICATED and the
// verifier's reason is logged, not sent.
func (h *handler) verify(r *http.Request) (*Token, *Error) {
	authz := r.Header.Get("Authorization")
	if authz == "" {
		return nil, Unauthenticated("missing ID token")
	}
	scheme, token, ok := strings.Cut(authz, " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") || strings.TrimSpace(token) == "" {
		return nil, Unauthenticated("Authorization must be \"Bearer <ID token>\"")
	}
	if h.verifier == nil {
		slog.ErrorContext(r.Context(), "callable: no token verifier configured; refusing every call", "path", r.URL.Path)
		return nil, Unauthenticated("invalid ID token")
	}
	tok, err := h.verifier.VerifyIDToken(r.Context(), strings.TrimSpace(token))
	if err != nil || tok == nil || tok.UID == "" {
		slog.InfoContext(r.Context(), "callable: ID token rejected", "path", r.URL.Path, "err", err)
		return nil, Unauthenticated("invalid ID token")
	}
	return tok, nil
}

// call runs fn, turning a panic into an error that is logged with its stack.
func (h *handler) call(ctx context.Context, req Request) (result any, err error) {
	defer func() {
		if p := recover(); p != nil {
			slog.ErrorContext(ctx, "callable: function panicked", "panic", p, "stack", string(debug.Stack()))
			result, err = nil, internalError
		}
	}()
	return h.fn(ctx, req)
}

// preflight answers a CORS preflight the way Firebase's callable triggers
// do: POST from any origin, with whatever headers were asked for.
func preflight(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Set("Access-Control-Allow-Methods", "POST")
	if req := r.Header.Get("Access-Control-Request-Headers"); req != "" {
		h.Set("Access-Control-Allow-Headers", req)
		h.Add("Vary", "Access-Control-Request-Headers")
	}
	h.Set("Content-Length", "0")
	w.WriteHeader(http.StatusNoContent)
}

// jsonContentType reports whether ct is application/json with no parameter
// but an optional charset=utf-8.
func jsonContentType(ct string) bool {
	mt, params, err := mime.ParseMediaType(ct)
	if err != nil || mt != "application/json" {
		return false
	}
	for k, v := range params {
		if k != "charset" || !strings.EqualFold(v, "utf-8") {
			return false
		}
	}
	return true
}
