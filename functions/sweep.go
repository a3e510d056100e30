package functions

import (
	"encoding/json"
	"errors"
	"io"
	"net/http"
)

// SweepAuthorizer decides whether an HTTP request may run the sweep. In a
// deployment it is deploy.OIDCSweepAuthorizer: the Google-signed OIDC
// token that Cloud Scheduler sends, for the sweep's URL, from the one
// service account the deployment names. An error refuses the request
// (its text is logged, never sent).
type SweepAuthorizer interface {
	AuthorizeSweep(r *http.Request) error
}

// SweepAuthorizerFunc is a function as a SweepAuthorizer.
type SweepAuthorizerFunc func(r *http.Request) error

// AuthorizeSweep implements SweepAuthorizer.
func (f SweepAuthorizerFunc) AuthorizeSweep(r *http.Request) error { return f(r) }

// errNoSweepAuth: the API has no SweepAuthorizer, so it refuses every
// call of the sweep (a server must choose who may call it).
var errNoSweepAuth = errors.New("functions: the sweep has no authorizer configured")

// Sweep is the scheduled sweep (docs/functions.md, "The sweep"): Cloud
// Scheduler POSTs to it (any body, which is ignored) with an OIDC token,
// and it settles every game whose time has come (Dungeon.Sweep):
// trustless rounds past their deadline closed if every seat revealed,
// else aborted; fair games past the fair deadline abandoned, revealing
// their seeds. With tables (WithTables) it then aborts every trustless
// table whose pending round is past its deadline, naming the seats that
// did not reveal, and ends every table left idle past its limit
// (SweepTables; WithTableIdle). It answers 200 {"result":
// SweepResult, "tables": TableSweepResult (with tables)}; 401
// UNAUTHENTICATED to a request the authorizer refuses (or to every
// request when there is none), 400 to another method than POST, 503
// UNAVAILABLE when the store fails (with what was done so far in
// details: a retry, or the next sweep, goes on from there).
func (a *API) Sweep(w http.ResponseWriter, r *http.Request) {
	answer := func(code int, v any) {
		w.Header().Set("Content-Type", "application/json; charset=utf-8")
		w.WriteHeader(code)
		json.NewEncoder(w).Encode(v)
	}
	fail := func(code int, status, msg string, details any) {
		e := map[string]any{"status": status, "message": msg}
		if details != nil {
			e["details"] = details
		}
		answer(code, map[string]any{"error": e})
	}
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", http.MethodPost)
		fail(http.StatusBadRequest, "INVALID_ARGUMENT", "the sweep takes POST", nil)
		return
	}
	err := errNoSweepAuth
	if a.sweep != nil {
		err = a.sweep.AuthorizeSweep(r)
	}
	if err != nil {
		a.log.Warn("sweep refused", "err", err)
		fail(http.StatusUnauthorized, "UNAUTHENTICATED", "the sweep is for the deployment's scheduler only", nil)
		return
	}
	io.Copy(io.Discard, io.LimitReader(r.Body, 64<<10))
	res, err := a.dungeon.Sweep(r.Context())
	if err != nil {
		a.log.Error("sweep failed", "err", err, "done", res)
		fail(http.StatusServiceUnavailable, "UNAVAILABLE", "the game store is unavailable; the next sweep goes on", res)
		return
	}
	if len(res.Failed) > 0 {
		a.log.Error("sweep: games left due", "failed", res.Failed)
	}
	a.log.Info("sweep", "due", res.Due, "closed", len(res.Closed), "aborted", len(res.Aborted), "abandoned", len(res.Abandoned))
	out := map[string]any{"result": res}
	if a.tables != nil {
		tres, err := a.SweepTables(r.Context())
		if err != nil {
			a.log.Error("sweep of the tables failed", "err", err, "done", tres)
			fail(http.StatusServiceUnavailable, "UNAVAILABLE", "the table store is unavailable; the next sweep goes on", map[string]any{"result": res, "tables": tres})
			return
		}
		if len(tres.Failed) > 0 {
			a.log.Error("sweep: tables left due", "failed", tres.Failed)
		}
		a.log.Info("sweep of the tables", "due", tres.Due, "aborted", len(tres.Aborted), "idle", len(tres.Idle), "backfilled", tres.Backfilled)
		out["tables"] = tres
	}
	answer(http.StatusOK, out)
}
