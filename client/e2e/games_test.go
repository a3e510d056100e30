package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fairboard/fairboard/games/dungeon/engine"
	"github.com/fairboard/fairboard/games/dungeon/policy"
	"github.com/fairboard/fairboard/games/dungeon/server/dungeonclient"
	"github.com/fairboard/fairboard/games/dungeon/server/export"
)

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
	results := make([][]*dungeonclient.Client, len(games))
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
		if !w.controlled["links"] || w.probeControls != len(w.controlled) {
			t.Fatalf("%s: the probes' positive controls ran for %v (%d passed); want at least the staged reveals'", g.id, w.controlled, w.probeControls)
		}
		t.Logf("%s: %d rounds, %d applied actions in %v; %d calls checked (%d with links staged), %d clients' getView answers scanned, %d probes of the staged reveals refused (positive controls: %d), positive control %d",
			g.id, rounds, len(applied), took[k].Round(time.Second), w.actions, w.withLinks, w.views, w.linkProbes, w.probeControls, w.planted)
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
	viaGetView   watchKind = iota // dungeonclient.Poller: getView
	viaListeners                  // fswatch: Firestore listeners
	viaReads                      // fswatch with its listeners off: its reads after silence
)

// play creates the trustless game id, seats n clients (client i watching
// the game as listen(i) says) and plays it to its end, every client at
// once.
func play(t *testing.T, base, id string, n int, listen func(int) watchKind) ([]*dungeonclient.Client, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 12*time.Minute)
	defer cancel()
	if err := functionsAs(t, base, policy.UID(0)).Call(ctx, "createGame", map[string]any{"gameId": id, "actionId": "create", "mode": "trustless"}, nil); err != nil {
		return nil, err
	}
	classes := policy.DefaultClasses(n)
	pols := []policy.Policy{policy.Aggressive{}, policy.Cautious{}}
	dir := t.TempDir()
	cs := make([]*dungeonclient.Client, n)
	for i := range n {
		uid := policy.UID(i)
		cfg := dungeonclient.Config{Functions: functionsAs(t, base, uid), UID: uid, GameID: id, SecretsFile: filepath.Join(dir, uid+".json"),
			Retry: 20 * time.Millisecond, PollEvery: 100 * time.Millisecond}
		switch listen(i) {
		case viaListeners:
			cfg.Watch = listener(t, id, uid)
		case viaReads:
			cfg.Watch = reader(t, id, uid)
		}
		c, err := dungeonclient.Join(ctx, cfg, i, classes[i], false)
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
			return nil, fmt.Errorf("%s's client: %w", policy.UID(i), err)
		}
	}
	return cs, nil
}
