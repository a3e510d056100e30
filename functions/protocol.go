package functions

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"

	"github.com/fairboard/fairboard/functions/callable"
)

// handlerFunc is one function's body: the verified uid and the raw data.
type handlerFunc func(ctx context.Context, uid string, data json.RawMessage) (any, error)

// invalid returns an INVALID_ARGUMENT rejection.
func invalid(msg string) error { return callable.InvalidArgument("%s", msg) }

// decodeData decodes the callable data strictly (callable.DecodeData).
func decodeData(data json.RawMessage, v any) error { return callable.DecodeData(data, v) }

// serve runs fn over the callable protocol (functions/callable): token
// verification, the {"data": ...} envelope, and the answer. Errors of the
// dungeon's path, the tables and the stores are mapped by classifyTable
// and classify; those the caller must not see
// are logged here and answered INTERNAL "internal error".
func (a *API) serve(w http.ResponseWriter, r *http.Request, name string, fn handlerFunc) {
	callable.Handler(a.verify, func(ctx context.Context, req callable.Request) (any, error) {
		res, err := fn(withGuest(ctx, req.Token), req.UID, req.Data)
		if err == nil {
			return res, nil
		}
		var ce *callable.Error
		if errors.As(err, &ce) {
			return nil, ce
		}
		f, public := classifyTable(err)
		if !public {
			f, public = a.classify(err)
		}
		if !public {
			a.log.Error("function failed", "function", name, "uid", req.UID, "err", err)
		}
		return nil, f
	}).ServeHTTP(w, r)
}
