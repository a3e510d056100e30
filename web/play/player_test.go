package play_test

import (
	"crypto/ed25519"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/functions"
	"github.com/fairboard/fairboard/functions/callable"
	"github.com/fairboard/fairboard/games/dungeon/engine"
	"github.com/fairboard/fairboard/games/dungeon/server/dungeonfn"
	"github.com/fairboard/fairboard/games/dungeon/server/service"
	"github.com/fairboard/fairboard/games/dungeon/server/store"
	"github.com/fairboard/fairboard/games/registry"
	"github.com/fairboard/fairboard/names"
	"github.com/fairboard/fairboard/tablestore"
	"github.com/fairboard/fairboard/web/play"
	"github.com/fairboard/fairboard/web/verify"
)

// server serves the functions and the play page, as gamectl serve does,
// in the test's process. It records the act calls it saw (uid-less: the
// action ids and kinds), and can lose the answer of chosen calls.
type server struct {
	*httptest.Server
	mu            sync.Mutex
	acts          []string // "actionId kind" of each act call, in order
	reveals       []string // "seat index" of each reveal call, in order
	actReveals    []string // "seat index" of each act that came with its reveal (once an action id)
	actRevealIDs  map[string]bool
	appJS         []byte // if not nil, served as /play/app.js (a test's variant of the page)
	variantServed int    // how many times appJS was served
	loseNext      int    // lose the answers of the next N act calls (applied, never answered)
	loseReveals   int    // the same, for reveal calls
	muxes         []http.Handler
	active        atomic.Int32    // index of the mux serving the functions
	names         names.Store     // the players' names, shared by every release
	views         []viewCall      // every getView call, in order
	exports       [][]byte        // every exportGame answer's body, in order
	createRules   json.RawMessage // if not nil, added to createGame calls that name no rules (withRules)
	creates       int             // how many createGame calls reached the server
}

// viewCall is a getView call: who made it (the uid of its token), the
// checkedMoves it sent (0: none) and the table's view it was answered
// (zero for another answer).
type viewCall struct {
	uid     string
	checked int
	answer  tableView
	raw     json.RawMessage // the answer's result as sent
}

// use switches the functions to the i-th store's.
func (s *server) use(i int) { s.active.Store(int32(i)) }

func newServer(t *testing.T, st store.Store, v callable.TokenVerifier, conf func(base string) play.Config) *server {
	t.Helper()
	return newServerStores(t, []store.Store{st}, v, conf)
}

// newDevServer is newServer on a fresh in-memory store with dev sign-in
// (functions.InsecureDevVerifier, the page's DevAuth): the server of the
// page tests that need no emulator.
func newDevServer(t *testing.T) *server {
	t.Helper()
	return newServer(t, store.NewMemory(), functions.InsecureDevVerifier{}, func(string) play.Config {
		return play.Config{ProjectID: "demo-fairboard", APIKey: "dev", Store: play.StoreMemory, DevAuth: true}
	})
}

// newSeededDevServer is newDevServer on a server that allows seeded games
// (gamectl serve --allow-seeded), whose page's configuration says so.
func newSeededDevServer(t *testing.T) *server {
	t.Helper()
	return newServerOpts(t, []store.Store{store.NewMemory()}, names.NewMemory(), tablestore.NewMemory(registry.Lookup), functions.InsecureDevVerifier{},
		func(string) play.Config {
			return play.Config{ProjectID: "demo-fairboard", APIKey: "dev", Store: play.StoreMemory, DevAuth: true, AllowSeeded: true}
		}, true)
}

// newServerStores is newServer with a release per store: the functions
// run on stores[0] until use(i) switches them to stores[i] (a rolling
// deploy, as the tests of the log's two layouts need).
func newServerStores(t *testing.T, stores []store.Store, v callable.TokenVerifier, conf func(base string) play.Config) *server {
	t.Helper()
	return newServerNames(t, stores, names.NewMemory(), v, conf)
}

// newServerNames is newServerStores with the players' names kept in ns.
func newServerNames(t *testing.T, stores []store.Store, ns names.Store, v callable.TokenVerifier, conf func(base string) play.Config) *server {
	t.Helper()
	// The table games (every registered game but the dungeon), kept in
	// memory, as gamectl serve wires them.
	return newServerTables(t, stores, ns, tablestore.NewMemory(registry.Lookup), v, conf)
}

// newServerTables is newServerNames with the table games kept in tables.
func newServerTables(t *testing.T, stores []store.Store, ns names.Store, tables tablestore.Store, v callable.TokenVerifier, conf func(base string) play.Config) *server {
	t.Helper()
	return newServerOpts(t, stores, ns, tables, v, conf, false)
}

// newServerOpts is newServerTables on a service that creates seeded games
// when allowSeeded (service.Config.AllowSeeded).
func newServerOpts(t *testing.T, stores []store.Store, ns names.Store, tables tablestore.Store, v callable.TokenVerifier, conf func(base string) play.Config, allowSeeded bool) *server {
	t.Helper()
	return newServerAck(t, stores, ns, tables, v, conf, allowSeeded, nil)
}

// newServerAck is newServerOpts with the table path's acknowledgements
// signed by ackKey (functions.API.WithAckKey; nil: unsigned).
func newServerAck(t *testing.T, stores []store.Store, ns names.Store, tables tablestore.Store, v callable.TokenVerifier, conf func(base string) play.Config, allowSeeded bool, ackKey ed25519.PrivateKey) *server {
	t.Helper()
	log := slog.New(slog.NewTextHandler(os_stderr{t}, &slog.HandlerOptions{Level: slog.LevelWarn}))
	s := &server{names: ns}
	for _, st := range stores {
		svc := service.New(service.Config{Store: st, Engine: engine.NewReference(engine.DefaultRules()), Logger: log, AllowSeeded: allowSeeded})
		s.muxes = append(s.muxes, functions.New(dungeonfn.New(svc), v, log).WithTables(tables).WithNames(s.names).WithAckKey(ackKey).Mux())
	}
	var page http.Handler
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mux := s.muxes[s.active.Load()]
		if r.URL.Path == "/createGame" && r.Method == http.MethodPost {
			s.mu.Lock()
			s.creates++
			s.mu.Unlock()
			s.addRules(r)
		}
		if r.URL.Path == "/reveal" && r.Method == http.MethodPost {
			if s.observeReveal(w, r, mux) {
				return
			}
		}
		if r.URL.Path == "/act" && r.Method == http.MethodPost {
			if s.observeAct(w, r, mux) {
				return
			}
		}
		if (r.URL.Path == "/getView" || r.URL.Path == "/exportGame") && r.Method == http.MethodPost {
			s.observeRead(w, r, mux)
			return
		}
		if strings.HasPrefix(r.URL.Path, "/verify/") {
			http.StripPrefix("/verify", verify.Handler()).ServeHTTP(w, r)
			return
		}
		if r.URL.Path == "/play/app.js" && s.appJS != nil {
			s.mu.Lock()
			s.variantServed++
			s.mu.Unlock()
			w.Header().Set("Content-Type", "text/javascript; charset=utf-8")
			w.Write(s.appJS)
			return
		}
		if strings.HasPrefix(r.URL.Path, "/play/") {
			page.ServeHTTP(w, r)
			return
		}
		mux.ServeHTTP(w, r)
	}))
	t.Cleanup(s.Close)
	h, err := play.Handler(conf(s.URL))
	require.NoError(t, err)
	page = http.StripPrefix("/play", h)
	return s
}

// observeRead records a getView call (its caller's uid and the view it
// was answered) or an exportGame answer.
func (s *server) observeRead(w http.ResponseWriter, r *http.Request, mux http.Handler) {
	reqBody, err := readAll(r)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	r.Body = nopCloser(reqBody)
	var q struct {
		Data struct {
			CheckedMoves int `json:"checkedMoves"`
		} `json:"data"`
	}
	_ = json.Unmarshal(reqBody, &q) // the functions refuse a malformed one
	rec := httptest.NewRecorder()
	mux.ServeHTTP(rec, r)
	body := rec.Body.Bytes()
	s.mu.Lock()
	if r.URL.Path == "/exportGame" {
		s.exports = append(s.exports, body)
	} else {
		var ans struct{ Result tableView }
		_ = json.Unmarshal(body, &ans) // a dungeon's view or a refusal: a zero answer
		var raw struct{ Result json.RawMessage }
		_ = json.Unmarshal(body, &raw)
		s.views = append(s.views, viewCall{uid: tokenUID(r.Header.Get("Authorization")), checked: q.Data.CheckedMoves, answer: ans.Result, raw: raw.Result})
	}
	s.mu.Unlock()
	for k, vs := range rec.Header() {
		w.Header()[k] = vs
	}
	w.WriteHeader(rec.Code)
	w.Write(body)
}

// tokenUID is the uid a request's token names: "dev:UID", or a Firebase
// ID token's user_id (its payload read, not verified: the functions
// verify it).
func tokenUID(auth string) string {
	tok := strings.TrimPrefix(auth, "Bearer ")
	if uid, ok := strings.CutPrefix(tok, "dev:"); ok {
		return uid
	}
	parts := strings.Split(tok, ".")
	if len(parts) != 3 {
		return ""
	}
	b, err := base64.RawURLEncoding.DecodeString(parts[1])
	if err != nil {
		return ""
	}
	var claims struct {
		UserID string `json:"user_id"`
	}
	_ = json.Unmarshal(b, &claims)
	return claims.UserID
}

// createCalls returns how many createGame calls reached the server.
func (s *server) createCalls() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.creates
}

// viewCalls returns the getView calls made so far.
func (s *server) viewCalls() []viewCall {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]viewCall(nil), s.views...)
}

// observeAct records an act call and, when asked to, lets it be applied
// but loses its answer (the connection is closed before any byte of the
// answer is sent). It returns true when it answered (or lost) the call.
func (s *server) observeAct(w http.ResponseWriter, r *http.Request, mux http.Handler) bool {
	body, err := readAll(r)
	if err != nil {
		return false
	}
	var req struct {
		Data struct {
			ActionID string `json:"actionId"`
			Kind     string `json:"kind"`
			Reveal   *struct {
				Seat  int    `json:"seat"`
				Index uint32 `json:"index"`
			} `json:"reveal"`
		} `json:"data"`
	}
	json.Unmarshal(body, &req)
	s.mu.Lock()
	s.acts = append(s.acts, req.Data.ActionID+" "+req.Data.Kind)
	if rv := req.Data.Reveal; rv != nil && !s.actRevealIDs[req.Data.ActionID] {
		if s.actRevealIDs == nil {
			s.actRevealIDs = map[string]bool{}
		}
		s.actRevealIDs[req.Data.ActionID] = true
		s.actReveals = append(s.actReveals, fmt.Sprintf("%d %d", rv.Seat, rv.Index))
	}
	lose := s.loseNext > 0
	if lose {
		s.loseNext--
	}
	s.mu.Unlock()
	r.Body = nopCloser(body)
	if !lose {
		mux.ServeHTTP(w, r)
		return true
	}
	rec := httptest.NewRecorder()
	mux.ServeHTTP(rec, r) // applied...
	if hj, ok := w.(http.Hijacker); ok {
		if conn, _, err := hj.Hijack(); err == nil {
			conn.Close() // ...and its answer lost
			return true
		}
	}
	panic("cannot hijack")
}

// observeReveal records a reveal call (its seat and index) that reaches
// the server and, when asked to, lets it be applied but loses its answer.
// It returns true when it lost the answer.
func (s *server) observeReveal(w http.ResponseWriter, r *http.Request, mux http.Handler) bool {
	body, err := readAll(r)
	r.Body = nopCloser(body)
	if err != nil {
		return false
	}
	var req struct {
		Data struct {
			Seat  int    `json:"seat"`
			Index uint32 `json:"index"`
		} `json:"data"`
	}
	json.Unmarshal(body, &req)
	s.mu.Lock()
	s.reveals = append(s.reveals, fmt.Sprintf("%d %d", req.Data.Seat, req.Data.Index))
	lose := s.loseReveals > 0
	if lose {
		s.loseReveals--
	}
	s.mu.Unlock()
	if !lose {
		return false
	}
	mux.ServeHTTP(httptest.NewRecorder(), r) // applied...
	conn, _, err := w.(http.Hijacker).Hijack()
	if err != nil {
		panic(err)
	}
	conn.Close() // ...and its answer lost
	return true
}

// revealCalls returns the reveal calls seen so far.
func (s *server) revealCalls() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.reveals...)
}

// actRevealCalls returns the reveals that came with act calls so far
// ("seat index", once an action id).
func (s *server) actRevealCalls() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.actReveals...)
}

// actCalls returns the act calls seen so far.
func (s *server) actCalls() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.acts...)
}

// os_stderr sends the server's warnings to the test log.
type os_stderr struct{ t *testing.T }

func (w os_stderr) Write(b []byte) (int, error) {
	w.t.Log(strings.TrimSpace(string(b)))
	return len(b), nil
}
