package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"cloud.google.com/go/firestore"

	"github.com/fairboard/fairboard/bot"
	"github.com/fairboard/fairboard/client"
	"github.com/fairboard/fairboard/engine"
	"github.com/fairboard/fairboard/export"
	"github.com/fairboard/fairboard/store"
)

// watch checks, after every action a game applies through the functions,
// that nothing a player can read tells an outcome before its reveal round
// completes: no link of the open round (the only inputs of its R_v not yet
// public: the links of the reveals the server accepted for it, taken from
// the reveal calls that went through) in the function's answer, in
// getView as a seated player, or in the game document, the log or the
// round's markers read over Firestore REST with a seated player's ID
// token (a different one each time), and, once per round, a staged
// reveal itself refused to a seated player (a get, and a listener's
// query), every player in turn. The functions' calls on the game
// (getView included, which may close a round) are serialized by the
// wrapper while it checks, so that a round does not close between the
// call and the reads.
type watch struct {
	t      *testing.T
	e      *env
	fc     *firestore.Client
	gameID string

	mu        sync.Mutex
	step      int
	seated    int
	last      *engine.Public // the state the last check read
	restAfter uint64
	viewAfter uint64
	staged    map[uint32][]engine.Action // the accepted reveals of each round (with their links)
	probed    map[uint32]bool
	plant     bool // the positive control is still to run

	actions, withLinks, linkProbes, planted, views int
	err                                            error
}

func newWatch(t *testing.T, gameID string, plant bool) *watch {
	return &watch{t: t, gameID: gameID, staged: map[uint32][]engine.Action{}, probed: map[uint32]bool{}, plant: plant}
}

// watches routes each call to its game's watch.
type watches struct {
	mu sync.Mutex
	m  map[string]*watch
}

var mutating = map[string]bool{"createGame": true, "joinGame": true, "startGame": true, "act": true, "reveal": true}

func (ws *watches) wrap(inner http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		var d struct {
			Data struct {
				GameID string `json:"gameId"`
				Seat   int    `json:"seat"`
				Index  uint32 `json:"index"`
				Link   string `json:"link"`
				Reveal *struct {
					Seat  int    `json:"seat"`
					Index uint32 `json:"index"`
					Link  string `json:"link"`
				} `json:"reveal"`
			} `json:"data"`
		}
		json.Unmarshal(body, &d)
		ws.mu.Lock()
		wt := ws.m[d.Data.GameID]
		ws.mu.Unlock()
		r.Body = io.NopCloser(bytes.NewReader(body))
		if wt == nil {
			inner.ServeHTTP(w, r)
			return
		}
		wt.mu.Lock()
		rec := httptest.NewRecorder()
		inner.ServeHTTP(rec, r)
		name := strings.TrimPrefix(r.URL.Path, "/")
		if name == "reveal" && rec.Code == http.StatusOK {
			wt.staged[d.Data.Index] = append(wt.staged[d.Data.Index], engine.Action{Index: d.Data.Index, Seat: d.Data.Seat, Link: d.Data.Link})
		}
		if rv := d.Data.Reveal; name == "act" && rv != nil && rec.Code == http.StatusOK {
			// an act's own reveal: applied into the game, its link in the
			// private state
			wt.staged[rv.Index] = append(wt.staged[rv.Index], engine.Action{Index: rv.Index, Seat: rv.Seat, Link: rv.Link, Kind: engine.ActReveal})
		}
		if mutating[name] && rec.Code == http.StatusOK && wt.err == nil {
			wt.err = wt.check(name, rec.Body.Bytes())
		}
		if name == "getView" && rec.Code == http.StatusOK && wt.err == nil {
			wt.err = wt.scanView(rec.Body.Bytes())
		}
		wt.mu.Unlock()
		for k, v := range rec.Header() {
			w.Header()[k] = v
		}
		w.WriteHeader(rec.Code)
		w.Write(rec.Body.Bytes())
	})
}

// check runs after fn applied something (w.mu held).
func (w *watch) check(fn string, answer []byte) error {
	t := w.t
	ctx := context.Background()
	w.actions++
	reader := bot.UID(w.step % max(1, w.seated)) // the seats are p1, p2, ... in order
	w.step++
	// A staged reveal changes no game document: unless the game's version
	// moved (the reveal closed its round), the state is the last one.
	p, reads, err := w.reads(reader, fn != "reveal")
	if err != nil || p == nil {
		return err // nobody seated yet, or a failed read
	}
	reads["the answer of "+fn] = answer
	round, open := store.OpenRound(p)
	var links []engine.Action
	if open {
		links = w.staged[round]
	}
	if len(links) > 0 {
		w.withLinks++
	}
	if err := leaks(links, reads, reader); err != nil {
		return fmt.Errorf("after %s (version %d, round %d open): %w", fn, p.Version, round, err)
	}
	if len(links) > 0 && !w.probed[round] {
		w.probed[round] = true
		prober := p.Players[int(round)%len(p.Players)].UID
		ptok := token(t, prober)
		a := links[0]
		path := fmt.Sprintf("/games/%s/links/%020d-%03d", w.gameID, a.Index, a.Seat)
		if a.Kind != "" {
			// an act's own reveal: its link is in the private state
			path = fmt.Sprintf("/games/%s/private/state", w.gameID)
		}
		if code, body := rest(t, "GET", path, ptok, nil); code != http.StatusForbidden {
			return fmt.Errorf("%s read the reveal's link at %s: %d %s", prober, path, code, body)
		}
		if code, body := rest(t, "POST", "/games/"+w.gameID+":runQuery", ptok, collQuery("links")); code != http.StatusForbidden {
			return fmt.Errorf("%s queried the staged reveals: %d %s", prober, code, body)
		}
		if code, body := rest(t, "POST", "/games/"+w.gameID+":runQuery", ptok, collQuery("private")); code != http.StatusForbidden {
			return fmt.Errorf("%s queried the private state: %d %s", prober, code, body)
		}
		w.linkProbes++
	}
	if w.plant && len(links) > 0 {
		// The positive control: a link planted where the players read (in
		// its marker, or for an act's own reveal, which has none, in the
		// game document) is found by the same check, then taken out again.
		w.plant = false
		a := links[0]
		ref, where := w.fc.Doc(fmt.Sprintf("games/%s/reveals/%020d-%03d", w.gameID, a.Index, a.Seat)), "markers"
		if a.Kind != "" {
			ref, where = w.fc.Doc("games/"+w.gameID), "the game document"
		}
		if _, err := ref.Update(ctx, []firestore.Update{{Path: "note", Value: "x" + a.Link}}); err != nil {
			return err
		}
		_, planted, err := w.reads(reader, true)
		if err != nil {
			return err
		}
		if _, err := ref.Update(ctx, []firestore.Update{{Path: "note", Value: firestore.Delete}}); err != nil {
			return err
		}
		if err := leaks(links, planted, reader); err == nil || !strings.Contains(err.Error(), where) {
			return fmt.Errorf("a link planted in %s was not found by the check: %v", where, err)
		}
		w.planted++
	}
	return nil
}

// scanView checks a client's getView answer (w.mu held): no link of the
// round it shows open.
func (w *watch) scanView(answer []byte) error {
	var v struct {
		Result client.View `json:"result"`
	}
	if err := json.Unmarshal(answer, &v); err != nil {
		return err
	}
	w.views++
	if r, open := store.OpenRound(&v.Result.State); open {
		return leaks(w.staged[r], map[string][]byte{"a client's getView": answer}, "a client")
	}
	return nil
}

// reads is what reader reads of the game now: getView (the log after the
// last seq read, the state, the markers), and over REST the game
// document, the log documents after the last seq read and the markers.
// It returns the state getView showed, or nil if reader is not seated
// (then it reads nothing more).
func (w *watch) reads(reader string, full bool) (*engine.Public, map[string][]byte, error) {
	t := w.t
	out := map[string][]byte{}
	tok := token(t, reader)
	code, doc := rest(t, "GET", "/games/"+w.gameID, tok, nil)
	out["the game document"] = doc
	p := w.last
	if full || p == nil || code != http.StatusOK || docVersion(doc) != strconv.FormatUint(p.Version, 10) {
		// The game changed (or this call may have changed it): getView.
		view := callInner(t, w.e.api, "getView", reader, map[string]any{"gameId": w.gameID, "afterSeq": w.viewAfter})
		var v struct {
			Result client.View `json:"result"`
		}
		if err := json.Unmarshal(view, &v); err != nil {
			return nil, nil, err
		}
		p = &v.Result.State
		w.last, w.seated = p, len(p.Players)
		if pl, _ := p.Player(reader); pl == nil {
			return nil, nil, nil // in the lobby, before the reader is seated
		}
		if n := len(v.Result.Events); n > 0 {
			w.viewAfter = v.Result.Events[n-1].Seq
		}
		out["getView"] = view
		if code != http.StatusOK {
			return nil, nil, fmt.Errorf("%s's REST read of the game: %d %s", reader, code, doc)
		}
	}
	prefix := fmt.Sprintf("projects/%s/databases/(default)/documents/games/%s/log/", emu.ProjectID(), w.gameID)
	q := collQuery("log")
	q["structuredQuery"].(map[string]any)["startAt"] = map[string]any{"values": []any{map[string]any{"referenceValue": prefix + fmt.Sprintf("%020d", w.restAfter)}}, "before": false}
	code, logs := rest(t, "POST", "/games/"+w.gameID+":runQuery", tok, q)
	if code != http.StatusOK {
		return nil, nil, fmt.Errorf("%s's REST query of the log: %d %s", reader, code, logs)
	}
	for _, m := range seqRe.FindAllSubmatch(logs, -1) {
		if s, _ := strconv.ParseUint(string(m[1]), 10, 64); s > w.restAfter {
			w.restAfter = s
		}
	}
	out["the log"] = logs
	// The open round's markers (the earlier rounds' hold no secret: their
	// links are in the log).
	mq := collQuery("reveals")
	if r, open := store.OpenRound(p); open {
		mprefix := fmt.Sprintf("projects/%s/databases/(default)/documents/games/%s/reveals/", emu.ProjectID(), w.gameID)
		sq := mq["structuredQuery"].(map[string]any)
		sq["startAt"] = map[string]any{"values": []any{map[string]any{"referenceValue": mprefix + fmt.Sprintf("%020d-", r)}}, "before": true}
		sq["endAt"] = map[string]any{"values": []any{map[string]any{"referenceValue": mprefix + fmt.Sprintf("%020d.", r)}}, "before": true}
	} else {
		mq["structuredQuery"].(map[string]any)["limit"] = 1
	}
	code, marks := rest(t, "POST", "/games/"+w.gameID+":runQuery", tok, mq)
	if code != http.StatusOK {
		return nil, nil, fmt.Errorf("%s's REST query of the markers: %d %s", reader, code, marks)
	}
	out["the markers"] = marks
	return p, out, nil
}

// docVersion is a REST game document's version ("" if none).
func docVersion(doc []byte) string {
	var d struct {
		Fields struct {
			Version struct {
				IntegerValue string `json:"integerValue"`
			} `json:"version"`
		} `json:"fields"`
	}
	json.Unmarshal(doc, &d)
	return d.Fields.Version.IntegerValue
}

// seqRe finds the seqs in a REST answer's log events.
var seqRe = regexp.MustCompile(`"seq":\s*\{\s*"integerValue":\s*"(\d+)"`)

// leaks finds a link of the open round in what a player read.
func leaks(links []engine.Action, reads map[string][]byte, reader string) error {
	for _, a := range links {
		for what, b := range reads {
			if bytes.Contains(bytes.ToLower(b), []byte(strings.ToLower(a.Link))) {
				return fmt.Errorf("%s read by %s holds seat %d's link for index %d before the round closed", what, reader, a.Seat, a.Index)
			}
		}
	}
	if bytes.Contains(reads["the markers"], []byte(`"link"`)) {
		return fmt.Errorf("the markers read by %s have a link field", reader)
	}
	return nil
}

// TestTrustlessGamesThroughTheFunctions: whole trustless games of 2, 4
// and 6 bot players through the functions on the emulators, each player
// its own client (with its own secrets file and ID token): the 2-player
// game's clients poll getView, the 4-player game's listen to Firestore,
// the 6-player game's do both by turns, one of them with its listeners
// off (fswatch's reads when a listener is silent are all it has). After every action each game's
// watch checks what the players can read (and, once, that it finds a
// link planted where they read); at the end every client's replica is the
// server's game, every round's reveals are listed as applied, and the
// 4-player game's export (exportGame, as two members: the same export)
// verifies with export.Verify and with the built gamectl verify.
func TestTrustlessGamesThroughTheFunctions(t *testing.T) {
	emu.Require(t)
	emu.Reset(t)
	ws := &watches{m: map[string]*watch{}}
	e := newEnv(t, ws.wrap)
	fc := emu.Client(t)
	games := []struct {
		id     string
		n      int
		listen func(i int) watchKind
	}{
		{"tl-2", 2, func(int) watchKind { return viaGetView }},
		{"tl-4", 4, func(int) watchKind { return viaListeners }},
		{"tl-6", 6, func(i int) watchKind {
			return [...]watchKind{viaListeners, viaListeners, viaListeners, viaGetView, viaListeners, viaReads}[i]
		}},
	}
	if only := os.Getenv("E2E_ONLY"); only != "" { // debugging: one game
		for _, g := range games {
			if g.id == only {
				games = games[:1]
				games[0] = g
			}
		}
	}
	var wg sync.WaitGroup
	results := make([][]*client.Client, len(games))
	errs := make([]error, len(games))
	took := make([]time.Duration, len(games))
	for k, g := range games {
		w := newWatch(t, g.id, k == 0)
		w.e, w.fc = e, fc
		ws.mu.Lock()
		ws.m[g.id] = w
		ws.mu.Unlock()
		wg.Add(1)
		go func() {
			defer wg.Done()
			start := time.Now()
			results[k], errs[k] = play(t, e.url, g.id, g.n, g.listen)
			took[k] = time.Since(start)
		}()
	}
	wg.Wait()
	ctx := context.Background()
	for k, g := range games {
		w := ws.m[g.id]
		if errs[k] != nil {
			t.Fatalf("%s: %v", g.id, errs[k])
		}
		if w.err != nil {
			t.Fatalf("%s: %v", g.id, w.err)
		}
		st, err := e.st.State(ctx, g.id)
		if err != nil {
			t.Fatal(err)
		}
		if st.Public.Phase != engine.PhaseFinished {
			t.Fatalf("%s ended in phase %s", g.id, st.Public.Phase)
		}
		log, err := e.st.Log(ctx, g.id, 0, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, ev := range log {
			if ev.Type == engine.EvGameAborted {
				t.Fatalf("%s was aborted: %s", g.id, ev.AppendJSON(nil))
			}
		}
		for _, c := range results[k] {
			mine := c.Game().Public
			mine.LastActionID = st.Public.LastActionID
			a, _ := json.Marshal(mine)
			b, _ := json.Marshal(st.Public)
			if !bytes.Equal(a, b) {
				t.Fatalf("%s: a client's replica is not the server's game", g.id)
			}
		}
		applied, err := e.st.Applied(ctx, g.id)
		if err != nil {
			t.Fatal(err)
		}
		reveals := 0
		for _, a := range applied {
			if a.Action.Kind == engine.ActReveal {
				reveals++
			}
		}
		rounds := int(st.Public.Trustless.NextIndex - 1)
		if reveals != g.n*rounds || uint64(len(applied)) != st.Public.Version {
			t.Fatalf("%s: %d reveals listed for %d rounds of %d seats; %d applied actions at version %d", g.id, reveals, rounds, g.n, len(applied), st.Public.Version)
		}
		if w.actions < len(applied)-reveals/2 || w.withLinks < rounds || w.linkProbes < rounds {
			t.Fatalf("%s: %d actions checked, %d with links staged, %d probes of the staged reveals: too few for %d rounds", g.id, w.actions, w.withLinks, w.linkProbes, rounds)
		}
		t.Logf("%s: %d rounds, %d applied actions in %v; %d calls checked (%d with links staged), %d clients' getView answers scanned, %d probes of the staged reveals refused, positive control %d",
			g.id, rounds, len(applied), took[k].Round(time.Second), w.actions, w.withLinks, w.views, w.linkProbes, w.planted)
	}
	if w := ws.m["tl-2"]; w != nil && w.planted != 1 {
		t.Fatal("the positive control did not run")
	}

	// The 4-player game exported by two of its members, verified.
	var x1, x2 json.RawMessage
	if err := functionsAs(t, e.url, "p2").Call(ctx, "exportGame", map[string]any{"gameId": "tl-4"}, &x1); err != nil {
		t.Fatal(err)
	}
	if err := functionsAs(t, e.url, "p4").Call(ctx, "exportGame", map[string]any{"gameId": "tl-4"}, &x2); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(x1, x2) {
		t.Fatal("two members got different exports")
	}
	rep, err := export.Verify(x1)
	if err != nil {
		t.Fatalf("export.Verify: %v", err)
	}
	file := filepath.Join(t.TempDir(), "tl-4.json")
	if err := os.WriteFile(file, x1, 0o600); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(gamectl(t), "verify", file).CombinedOutput()
	if err != nil || !strings.HasPrefix(string(out), "ok: trustless game tl-4") {
		t.Fatalf("gamectl verify: %v\n%s", err, out)
	}
	t.Logf("export: %v; gamectl: %s", rep.Mode, strings.TrimSpace(string(out)))
}

// watchKind is how a client of the tests learns what changed.
type watchKind int

const (
	viaGetView   watchKind = iota // client.Poller: getView
	viaListeners                  // fswatch: Firestore listeners
	viaReads                      // fswatch with its listeners off: its reads after silence
)

// play creates the trustless game id, seats n clients (client i watching
// the game as listen(i) says) and plays it to its end, every client at
// once.
func play(t *testing.T, base, id string, n int, listen func(int) watchKind) ([]*client.Client, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 12*time.Minute)
	defer cancel()
	if err := functionsAs(t, base, bot.UID(0)).Call(ctx, "createGame", map[string]any{"gameId": id, "actionId": "create", "mode": "trustless"}, nil); err != nil {
		return nil, err
	}
	classes := bot.DefaultClasses(n)
	pols := []bot.Policy{bot.Aggressive{}, bot.Cautious{}}
	dir := t.TempDir()
	cs := make([]*client.Client, n)
	for i := range n {
		uid := bot.UID(i)
		cfg := client.Config{Functions: functionsAs(t, base, uid), UID: uid, GameID: id, SecretsFile: filepath.Join(dir, uid+".json"),
			Retry: 20 * time.Millisecond, PollEvery: 100 * time.Millisecond}
		switch listen(i) {
		case viaListeners:
			cfg.Watch = listener(t, id, uid)
		case viaReads:
			cfg.Watch = reader(t, id, uid)
		}
		c, err := client.Join(ctx, cfg, i, classes[i], false)
		if err != nil {
			return nil, fmt.Errorf("%s joins: %w", uid, err)
		}
		t.Cleanup(func() { c.Close() })
		cs[i] = c
	}
	var wg sync.WaitGroup
	errs := make([]error, n)
	for i, c := range cs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = c.Play(ctx, pols[i%2], func(p *engine.Public) bool { return len(p.Players) == n })
			if errs[i] != nil {
				cancel() // the others would wait for this one forever
			}
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			return nil, fmt.Errorf("%s's client: %w", bot.UID(i), err)
		}
	}
	return cs, nil
}
