package play_test

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/engine"
	"github.com/fairboard/fairboard/functions"
	"github.com/fairboard/fairboard/functions/callable"
	"github.com/fairboard/fairboard/games/registry"
	"github.com/fairboard/fairboard/internal/browser"
	"github.com/fairboard/fairboard/names"
	"github.com/fairboard/fairboard/rng"
	"github.com/fairboard/fairboard/service"
	"github.com/fairboard/fairboard/store"
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
}

// viewCall is a getView call: who made it (the uid of its token) and the
// table's view it was answered (zero for another answer).
type viewCall struct {
	uid    string
	answer tableView
	raw    json.RawMessage // the answer's result as sent
}

// use switches the functions to the i-th store's.
func (s *server) use(i int) { s.active.Store(int32(i)) }

func newServer(t *testing.T, st store.Store, v callable.TokenVerifier, conf func(base string) play.Config) *server {
	t.Helper()
	return newServerStores(t, []store.Store{st}, v, conf)
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
	log := slog.New(slog.NewTextHandler(os_stderr{t}, &slog.HandlerOptions{Level: slog.LevelWarn}))
	s := &server{names: ns}
	for _, st := range stores {
		svc := service.New(service.Config{Store: st, Engine: engine.NewReference(engine.DefaultRules()), Logger: log})
		s.muxes = append(s.muxes, functions.New(svc, v, log).WithTables(tables).WithNames(s.names).Mux())
	}
	var page http.Handler
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mux := s.muxes[s.active.Load()]
		if r.URL.Path == "/createGame" && r.Method == http.MethodPost {
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
		s.views = append(s.views, viewCall{uid: tokenUID(r.Header.Get("Authorization")), answer: ans.Result, raw: raw.Result})
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

// player is one person at the page: a browser context of its own.
type player struct {
	*browser.Page
	t    *testing.T
	name string
	uid  string
	// keyboard: every action by the keyboard alone (Tab and Enter), and
	// focus checked after each.
	keyboard bool
	pick     *rng.Stream
	moves    int
}

func newPlayer(t *testing.T, b *browser.Browser, name string, v browser.Viewport, url string) *player {
	t.Helper()
	p := &player{Page: b.NewPage(t), t: t, name: name}
	p.SetViewport(v)
	p.Navigate(url)
	s, err := rng.NewSeeded("page bot " + name)
	require.NoError(t, err)
	p.pick = s
	return p
}

// expectedConsole are the console entries a step may cause: a refused
// call's HTTP status, which the browser logs for any failed fetch while
// the page shows the refusal in words.
var expectedConsole = []*regexp.Regexp{
	regexp.MustCompile(`Failed to load resource: the server responded with a status of 4\d\d`),
}

// screen waits until the page shows the named screen.
func (p *player) screen(name string) {
	p.t.Helper()
	p.WaitFor(`document.body.dataset.screen === "` + name + `"`)
}

// signInDev signs in on a development server, by name.
func (p *player) signInDev() {
	p.t.Helper()
	p.screen("signin")
	p.Type("#dev-name", p.name)
	p.Click("#dev-signin")
	p.screen("lobby")
	p.uid = strings.ToLower(p.name)
}

// signInGuest signs in anonymously (Firebase Auth).
func (p *player) signInGuest() {
	p.t.Helper()
	p.screen("signin")
	p.Click("#guest")
	p.screen("lobby")
}

// signInEmail creates an email account on the Auth emulator.
func (p *player) signInEmail(email, password string) {
	p.t.Helper()
	p.screen("signin")
	p.Type("#email", email)
	p.Type("#password", password)
	p.Click("#email-signup")
	p.screen("lobby")
	require.Contains(p.t, p.String(`document.getElementById("who").textContent`), email)
}

// create makes a game in the mode from the lobby, seated at seat 0, and
// returns its id once the page shows it.
func (p *player) create(mode, class string) string {
	p.t.Helper()
	p.chooseMode(mode)
	p.Do(chromedpSetValue("#create-class", class))
	p.Click("#create")
	p.screen("game")
	p.WaitFor(`document.getElementById("game").dataset.phase === "lobby" && document.querySelector("#players li")`)
	return p.String(`document.getElementById("game-id").textContent`)
}

// createTable makes a table of the game (any registered game but the
// dungeon) in the mode from the lobby, seated at seat 0, options
// (select id suffix to value) chosen, and returns its id once the page
// shows it seated.
func (p *player) createTable(game, mode string, options map[string]string) string {
	p.t.Helper()
	p.Eval(`(() => { const s = document.getElementById("create-game"); s.value = "`+game+`"; s.dispatchEvent(new Event("change")); })()`, nil)
	p.chooseMode(mode)
	for k, v := range options {
		p.Do(chromedpSetValue("#create-option-"+k, v))
	}
	p.Click("#create")
	p.screen("table")
	p.WaitFor(`document.getElementById("table").dataset.phase === "lobby" && document.querySelector("#tg-players li.me")`)
	return p.String(`document.getElementById("tg-id").textContent`)
}

// joinTable takes the first free seat of the open table from its join
// form (the page shows the table first).
func (p *player) joinTable() {
	p.t.Helper()
	p.screen("table")
	p.WaitFor(`!document.getElementById("tg-join").hidden`)
	p.Click("#tg-join-button")
	p.WaitFor(`document.querySelector("#tg-players li.me")`)
}

// open opens a game by its shared link.
func (p *player) open(base, id string) {
	p.t.Helper()
	p.Navigate(base + "/play/#game=" + id)
}

// join takes a seat with a class from the join form.
func (p *player) join(seat int, class string) {
	p.t.Helper()
	p.screen("game")
	p.WaitFor(`!document.getElementById("join").hidden`)
	p.Do(chromedpSetValue("#join-seat", fmt.Sprint(seat)), chromedpSetValue("#join-class", class))
	p.Click("#join-button")
	p.WaitFor(`document.querySelector("#players li.me")`)
}

// button is an action the page offers.
type button struct {
	Kind   string `json:"kind"`
	Card   string `json:"card"`
	Target string `json:"target"`
	Index  int    `json:"index"`
}

// offered lists the action buttons the page shows.
func (p *player) offered() []button {
	var bs []button
	p.Eval(`Array.from(document.querySelectorAll("#action-buttons button")).map((b, i) => ({kind: b.dataset.kind, card: b.dataset.card || "", target: b.dataset.target || "", index: i}))`, &bs)
	return bs
}

// choose is the bot: it picks one of the offered buttons, preferring what
// moves the game on (so games end) with a seeded random choice among the
// rest.
func (p *player) choose(bs []button) button {
	var pref []button
	for _, want := range []string{"start", "resolveCombatRound", "resolveDuelRound", "move", "declineReroll", "endManage", "skipDuel", "discard"} {
		for _, b := range bs {
			if b.Kind == want {
				pref = append(pref, b)
			}
		}
		if len(pref) > 0 {
			break
		}
	}
	if len(pref) == 0 {
		pref = bs
	}
	// Now and then, anything offered: potions, challenges, re-rolls, sleep.
	n, err := p.pick.UniformInt(0, 9, "test.pageBot", nil)
	require.NoError(p.t, err)
	if n == 0 {
		pref = bs
	}
	i, err := p.pick.UniformInt(0, int64(len(pref)-1), "test.pageBot", nil)
	require.NoError(p.t, err)
	return pref[i]
}

// press activates a button by the keyboard: Tab until it has the focus,
// then Enter.
func (p *player) press(b button) {
	p.t.Helper()
	sel := fmt.Sprintf(`document.querySelectorAll("#action-buttons button")[%d]`, b.Index)
	for i := 0; ; i++ {
		var focused bool
		p.Eval(sel+` === document.activeElement`, &focused)
		if focused {
			break
		}
		require.Less(p.t, i, 80, "Tab never reached the %s button; focus is on %s", b.Kind, p.String(`document.activeElement.outerHTML.slice(0, 120)`))
		p.Key(kb.Tab)
	}
	p.Key(kb.Enter)
}

// irreversible are the kinds the page asks to confirm (web/play/src/safety.ts).
var irreversible = map[string]bool{"dropItem": true, "discard": true}

// act plays one offered action: clicked, or pressed by keyboard. It
// returns the time (unix ms, the page's clock) just before the action.
func (p *player) act() (button, int64) {
	p.t.Helper()
	bs := p.offered()
	require.NotEmpty(p.t, bs)
	b := p.choose(bs)
	var at int64
	p.Eval(`Date.now()`, &at)
	if p.keyboard {
		p.press(b)
	} else {
		p.Eval(fmt.Sprintf(`document.querySelectorAll("#action-buttons button")[%d].scrollIntoView({block: "center"})`, b.Index), nil)
		p.Click(fmt.Sprintf(`#action-buttons button:nth-child(%d)`, b.Index+1))
	}
	if irreversible[b.Kind] {
		// The page asks first, with "No, keep it" focused: confirm.
		p.WaitFor(`document.activeElement && document.activeElement.id === "confirm-no"`)
		if p.keyboard {
			p.Key(kb.Tab)
			p.WaitFor(`document.activeElement && document.activeElement.id === "confirm-yes"`)
			p.Key(kb.Enter)
		} else {
			p.Click("#confirm-yes")
		}
	}
	p.moves++
	return b, at
}

// state is the page's view of the game.
type state struct {
	Phase, Version, Mine, Pending, LogSeq string
	VersionAt                             string
	Problem                               string
}

func (p *player) state() state {
	var s state
	p.Eval(`(() => { const g = document.getElementById("game").dataset; return {
  phase: g.phase || "", version: g.version || "", mine: g.mine || "", pending: g.pending || "", logSeq: g.logSeq || "",
  versionAt: g.versionAt || "", problem: document.getElementById("problem").hidden ? "" : document.getElementById("problem").textContent }; })()`, &s)
	return s
}

// verifyInPage asks the page to verify the finished game and returns the
// verdict's status and message.
func (p *player) verifyInPage() (string, string) {
	p.t.Helper()
	p.WaitFor(`!document.getElementById("end").hidden`)
	p.Click("#verify")
	p.WaitFor(`["ok", "diverged", "invalid", "error"].includes(document.getElementById("verdict").dataset.status)`, 2*time.Minute)
	return p.String(`document.getElementById("verdict").dataset.status`), p.String(`document.getElementById("verdict-message").textContent`)
}

// shot saves a screenshot under the test's screenshot directory.
func (p *player) shot(name string) string {
	dir := os.Getenv("FAIRBOARD_SCREENSHOTS")
	if dir == "" {
		dir = filepath.Join(os.TempDir(), "fairboard-play-screenshots")
	}
	path := filepath.Join(dir, name+".png")
	p.Screenshot(path)
	p.t.Logf("screenshot: %s", path)
	return path
}

// checkScreen runs the layout and accessibility checks on the screen as
// it is.
func (p *player) checkScreen(what string) {
	p.t.Helper()
	p.CheckLayout(what)
	p.CheckAxe(what)
}

func readAll(r *http.Request) ([]byte, error) {
	defer r.Body.Close()
	return io.ReadAll(r.Body)
}

func nopCloser(b []byte) io.ReadCloser { return io.NopCloser(bytes.NewReader(b)) }

// chromedpSetValue sets a select's value (the form reads it on submit).
func chromedpSetValue(sel, v string) chromedp.Action[chromedp.Void] {
	return chromedp.SetValue(chromedp.CSS(sel), v, chromedp.NodeVisible)
}
