package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"

	"cloud.google.com/go/firestore"

	"github.com/fairboard/fairboard/games/dungeon/engine"
	"github.com/fairboard/fairboard/games/dungeon/policy"
	"github.com/fairboard/fairboard/games/dungeon/server/dungeonclient"
	"github.com/fairboard/fairboard/games/dungeon/server/store"
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
// query), every player in turn, with its positive control once per game
// and kind of document (probeControl). The functions' calls on the game
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
	// controlled are the kinds of probed document ("links", "private")
	// whose probe's positive control has run.
	controlled map[string]bool

	actions, withLinks, linkProbes, planted, views, probeControls int
	err                                                           error
}

func newWatch(t *testing.T, gameID string, plant bool) *watch {
	return &watch{t: t, gameID: gameID, staged: map[uint32][]engine.Action{}, probed: map[uint32]bool{}, plant: plant, controlled: map[string]bool{}}
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
	reader := policy.UID(w.step % max(1, w.seated)) // the seats are p1, p2, ... in order
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
		path, coll := fmt.Sprintf("/games/%s/links/%020d-%03d", w.gameID, a.Index, a.Seat), "links"
		if a.Kind != "" {
			// an act's own reveal: its link is in the private state
			path, coll = fmt.Sprintf("/games/%s/private/state", w.gameID), "private"
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
		if !w.controlled[coll] {
			w.controlled[coll] = true
			if err := w.probeControl(prober, ptok, path, coll, a.Link); err != nil {
				return err
			}
		}
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

// probeControl is the positive control of the probes of a staged reveal
// (w.mu held): the same get of the document at path and the same query of
// its collection coll ("links" or "private"), by the same player, against
// a copy of the document under the project's rules with coll's rule
// opened to every signed-in user (emulator.Suite.Weaken), succeed and
// hold the link. So the rules are what refuse the probes.
func (w *watch) probeControl(prober, tok, path, coll, link string) error {
	ctx := context.Background()
	match := map[string]string{"links": "/links/{id}", "private": "/private/{doc}"}[coll]
	weak, err := emu.Weaken(ctx, []string{match}, path)
	if err != nil {
		return err
	}
	w.t.Cleanup(func() { weak.Reset(context.Background()) })
	for _, c := range []struct {
		method string
		path   string
		body   any
	}{{"GET", path, nil}, {"POST", "/games/" + w.gameID + ":runQuery", collQuery(coll)}} {
		code, body, err := weak.REST(ctx, c.method, c.path, tok, c.body)
		if err != nil {
			return err
		}
		if code != http.StatusOK || !bytes.Contains(bytes.ToLower(body), []byte(strings.ToLower(link))) {
			return fmt.Errorf("the probe's positive control: under rules opened at %s, %s's %s %s: %d %.300s; want 200 with the link", match, prober, c.method, c.path, code, body)
		}
	}
	w.probeControls++
	return nil
}

// scanView checks a client's getView answer (w.mu held): no link of the
// round it shows open.
func (w *watch) scanView(answer []byte) error {
	var v struct {
		Result dungeonclient.View `json:"result"`
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
			Result dungeonclient.View `json:"result"`
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
