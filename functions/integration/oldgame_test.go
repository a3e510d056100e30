package integration

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/fairboard/fairboard/functest"
	"github.com/fairboard/fairboard/games/dungeon/engine"
	"github.com/fairboard/fairboard/games/dungeon/server/export"
	"github.com/fairboard/fairboard/games/dungeon/server/store/fsstore"
	"github.com/fairboard/fairboard/internal/emulator"
)

// TestOldGamePlaysOn (issue 17): a game begun by the previous release (its
// writes, fsstore.WithPreviousLayout: one log document per event, the
// audit ring after the commit) is played on by this release to its end,
// through the functions, as one game: getView pages it from every seq
// (from inside a per-action document, and across the boundary) with the
// events in order; a player's listener (the Firebase JavaScript SDK's
// onSnapshot, under the security rules), started on the old part, hears
// every event once, in order; the game exports and verifies; and every
// action after the boundary writes at most five documents.
func TestOldGamePlaysOn(t *testing.T) {
	if err := emulator.CheckTools(true, true); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal(err)
		}
		t.Skip(err)
	}
	prev := newFaultyEnv(t, nil, nil, fsstore.WithPreviousLayout())
	cur := newEnv(t, nil)
	ctx := context.Background()
	ps := players(t, 2)
	const g = "old-game-plays-on"
	started(t, prev, g, g, ps, true)
	for i := range 25 {
		p, a := awaitedAction(t, prev, g, ps)
		a.ID = "old-" + itoa(i)
		if err := prev.c.Call(ctx, "act", p.Token, functest.ActData(g, a), nil); err != nil {
			t.Fatal(err)
		}
	}
	boundary := view(t, prev, g, ps[0].Token).State.LogSeq
	if n := docs(t, cur, "games/"+g+"/log"); uint64(n) != boundary {
		t.Fatalf("the previous layout wrote %d log documents for %d events", n, boundary)
	}

	listener := startListener(t, g, ps[1].UID)
	writes := cur.st.Stats().Writes
	for i := 0; ; i++ {
		v := view(t, cur, g, ps[0].Token)
		if v.State.Phase != engine.PhasePlaying {
			break
		}
		p, a := awaitedAction(t, cur, g, ps)
		a.ID = "new-" + itoa(i)
		w0 := cur.st.Stats().Writes
		if err := cur.c.Call(ctx, "act", p.Token, functest.ActData(g, a), nil); err != nil {
			t.Fatal(err)
		}
		if w := cur.st.Stats().Writes - w0; w > 5 {
			t.Fatalf("after the boundary, %s wrote %d documents", a.Kind, w)
		}
	}
	end := view(t, cur, g, ps[0].Token).State
	if end.Phase != engine.PhaseFinished || cur.st.Stats().Writes == writes {
		t.Fatalf("the game did not play on to its end: phase %s", end.Phase)
	}

	// The whole log, by the store, then getView from seqs around and
	// inside documents.
	all, err := cur.st.Log(ctx, g, 0, 0)
	if err != nil || uint64(len(all)) != end.LogSeq {
		t.Fatalf("the log: %d events, %v; the game has %d", len(all), err, end.LogSeq)
	}
	for i, e := range all {
		if e.Seq != uint64(i+1) {
			t.Fatalf("log[%d] has seq %d", i, e.Seq)
		}
	}
	for _, after := range []uint64{0, boundary - 1, boundary, boundary + 1, boundary + 2, boundary + 3, end.LogSeq - 1, end.LogSeq} {
		var v functest.View
		if err := cur.c.Call(ctx, "getView", ps[1].Token, map[string]any{"gameId": g, "afterSeq": after}, &v); err != nil {
			t.Fatal(err)
		}
		want := all[after:]
		if len(v.Events) != len(want) {
			t.Fatalf("getView after %d: %d events; want %d", after, len(v.Events), len(want))
		}
		for i := range want {
			if string(v.Events[i].AppendJSON(nil)) != string(want[i].AppendJSON(nil)) {
				t.Fatalf("getView after %d: event %d is %s; want %s", after, i, v.Events[i].AppendJSON(nil), want[i].AppendJSON(nil))
			}
		}
	}

	heard := listener.wait(t)
	if len(heard.Heard) != len(all) {
		t.Fatalf("the listener heard %d events; the game has %d", len(heard.Heard), len(all))
	}
	for i, e := range heard.Heard {
		if e.Seq != all[i].Seq || e.Type != all[i].Type.String() {
			t.Fatalf("the listener's event %d is %d %s; want %d %s", i, e.Seq, e.Type, all[i].Seq, all[i].Type)
		}
	}
	multi := 0
	for _, d := range heard.Docs {
		if d.Events > 1 {
			multi++
		}
	}
	if len(heard.Docs) <= int(boundary) || multi == 0 {
		t.Errorf("the listener read %d documents, %d holding several events; want the old and the new layout", len(heard.Docs), multi)
	}

	var raw json.RawMessage
	if err := cur.c.Call(ctx, "exportGame", ps[0].Token, map[string]any{"gameId": g}, &raw); err != nil {
		t.Fatal(err)
	}
	rep, err := export.Verify(raw)
	if err != nil || !rep.Replayed {
		t.Fatalf("the old game's export: %+v, %v; want it replayed and verified", rep, err)
	}
	ringComplete(t, cur, g, ps[0].Token)
}

// listening is a Node listener on a game's log (testdata/listen.mjs).
type listening struct {
	cmd  *exec.Cmd
	out  bytes.Buffer
	err  readyWriter
	done chan error // the command's Wait
}

// readyWriter keeps what is written to it and closes ready at the first
// line "ready".
type readyWriter struct {
	mu    sync.Mutex
	buf   bytes.Buffer
	ready chan struct{}
	seen  bool
}

func (w *readyWriter) Write(b []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.buf.Write(b)
	if !w.seen && bytes.Contains(w.buf.Bytes(), []byte("ready\n")) {
		w.seen = true
		close(w.ready)
	}
	return len(b), nil
}

func (w *readyWriter) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.buf.String()
}

type heardLog struct {
	Heard []struct {
		Seq  uint64 `json:"seq"`
		Type string `json:"type"`
	} `json:"heard"`
	Docs []struct {
		ID     string `json:"id"`
		Events int    `json:"events"`
	} `json:"docs"`
}

// startListener starts listen.mjs as uid and waits for its first
// snapshot.
func startListener(t *testing.T, gameID, uid string) *listening {
	t.Helper()
	custom := customToken(t, uid)
	root, err := emulator.RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	l := &listening{cmd: exec.Command("node", filepath.Join(root, "functions", "integration", "testdata", "listen.mjs"))}
	l.cmd.Env = append(os.Environ(), "AUTH_HOST="+emu.Auth().Host, "FIRESTORE_HOST="+emu.Firestore().Host,
		"PROJECT="+emu.ProjectID(), "GAME_ID="+gameID, "CUSTOM_TOKEN="+custom, "TIMEOUT_MS=120000")
	l.cmd.Stdout = &l.out
	l.err.ready = make(chan struct{})
	l.cmd.Stderr = &l.err
	if err := l.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	l.done = make(chan error, 1)
	go func() { l.done <- l.cmd.Wait() }()
	t.Cleanup(func() { l.cmd.Process.Kill(); <-l.done })
	select {
	case <-l.err.ready:
	case err := <-l.done:
		l.done <- err
		t.Fatalf("the listener stopped before its first snapshot: %v\n%s", err, l.err.String())
	case <-time.After(60 * time.Second):
		t.Fatalf("the listener did not start in 60 s\n%s", l.err.String())
	}
	return l
}

// wait waits for the listener to hear the end of the game.
func (l *listening) wait(t *testing.T) heardLog {
	t.Helper()
	select {
	case err := <-l.done:
		l.done <- err
		if err != nil {
			t.Fatalf("the listener: %v\n%s", err, l.err.String())
		}
	case <-time.After(150 * time.Second):
		t.Fatalf("the listener did not hear the end of the game\n%s", l.err.String())
	}
	var h heardLog
	if err := json.Unmarshal(l.out.Bytes(), &h); err != nil {
		t.Fatalf("the listener's output %q: %v", l.out.String(), err)
	}
	return h
}
