package dungeonclient_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/client"
	"github.com/fairboard/fairboard/functions"
	"github.com/fairboard/fairboard/games/dungeon/engine"
	"github.com/fairboard/fairboard/games/dungeon/policy"
	"github.com/fairboard/fairboard/games/dungeon/server/dungeonclient"
	"github.com/fairboard/fairboard/games/dungeon/server/dungeonfn"
	"github.com/fairboard/fairboard/games/dungeon/server/export"
	"github.com/fairboard/fairboard/games/dungeon/server/player"
	"github.com/fairboard/fairboard/games/dungeon/server/service"
	"github.com/fairboard/fairboard/games/dungeon/server/store"
	"github.com/fairboard/fairboard/games/dungeon/tools/bot"
)

var eng = engine.NewReference(engine.DefaultRules())

// clock is a service clock tests move by hand (unix ms), ticking a
// millisecond at every reading so that times differ.
type clock struct{ ms atomic.Int64 }

func newClock() *clock {
	c := &clock{}
	c.ms.Store(1_760_000_000_000)
	return c
}

func (c *clock) now() time.Time          { return time.UnixMilli(c.ms.Add(1)) }
func (c *clock) advance(d time.Duration) { c.ms.Add(d.Milliseconds()) }

// memServer is the functions on the in-memory store with development
// tokens ("dev:<uid>").
type memServer struct {
	url   string
	svc   *service.Service
	st    *store.Memory
	clock *clock
}

func newMemServer(t *testing.T, mod func(*service.Config)) *memServer {
	t.Helper()
	st := store.NewMemory()
	ck := newClock()
	cfg := service.Config{Store: st, Engine: eng, Now: ck.now}
	if mod != nil {
		mod(&cfg)
	}
	svc := service.New(cfg)
	srv := httptest.NewServer(functions.New(dungeonfn.New(svc), functions.InsecureDevVerifier{}, quiet()).Mux())
	t.Cleanup(srv.Close)
	return &memServer{url: srv.URL, svc: svc, st: st, clock: ck}
}

func devFunctions(base, uid string) *client.Functions {
	return &client.Functions{Base: base, Token: func(context.Context) (string, error) { return "dev:" + uid, nil }}
}

// seats are the bot seats of an n-player game.
func seats(n int) []bot.Seat {
	out := make([]bot.Seat, n)
	pols := []policy.Policy{policy.Aggressive{}, policy.Cautious{}}
	for i, c := range policy.DefaultClasses(n) {
		out[i] = bot.Seat{Class: c, Policy: pols[i%2]}
	}
	return out
}

// playAll creates a trustless game at base, seats n clients (each with
// its own secrets file under dir and the watcher watch makes, nil for a
// Poller) and plays it to its end, every client concurrently; it returns
// the clients.
func playAll(t *testing.T, base, gameID string, n int, dir string, deadlineMs int64, watch func(uid string) func(context.Context) (dungeonclient.Watcher, error)) []*dungeonclient.Client {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	owner := devFunctions(base, policy.UID(0))
	create := map[string]any{"gameId": gameID, "actionId": "create", "mode": "trustless"}
	if deadlineMs > 0 {
		create["deadlineMs"] = deadlineMs
	}
	require.NoError(t, owner.Call(ctx, "createGame", create, nil))
	ss := seats(n)
	cs := make([]*dungeonclient.Client, n)
	for i := range n {
		uid := policy.UID(i)
		cfg := dungeonclient.Config{Functions: devFunctions(base, uid), UID: uid, GameID: gameID,
			SecretsFile: filepath.Join(dir, uid+".json"), Retry: 20 * time.Millisecond, PollEvery: 10 * time.Millisecond}
		if watch != nil {
			cfg.Watch = watch(uid)
		}
		c, err := dungeonclient.Join(ctx, cfg, i, ss[i].Class, false)
		require.NoError(t, err, "join %s", uid)
		t.Cleanup(func() { c.Close() })
		cs[i] = c
	}
	var wg sync.WaitGroup
	errs := make([]error, n)
	for i, c := range cs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = c.Play(ctx, ss[i].Policy, func(p *engine.Public) bool { return len(p.Players) == n })
		}()
	}
	wg.Wait()
	for i, err := range errs {
		require.NoError(t, err, "%s's client", policy.UID(i))
	}
	return cs
}

// TestWholeGameInMemory: a trustless game of 3 bot players through the
// functions on the in-memory store, each its own client polling getView;
// every client's replica ends as the server's game, whose export
// verifies; every reveal is listed as applied, and nothing is staged at
// the end.
func TestWholeGameInMemory(t *testing.T) {
	s := newMemServer(t, nil)
	cs := playAll(t, s.url, "tl-mem", 3, t.TempDir(), 0, nil)
	ctx := context.Background()
	g, err := s.st.State(ctx, "tl-mem")
	require.NoError(t, err)
	require.Equal(t, engine.PhaseFinished, g.Public.Phase)
	for _, c := range cs {
		mine := c.Game().Public
		mine.LastActionID = g.Public.LastActionID
		// Compared by meaning, as the store keeps a game and as
		// player.CheckShown compares one: its JSON. The Go values may
		// differ where nil and empty mean the same (a pile emptied into a
		// refill is nil or an empty slice with capacity, depending on
		// whether the game was copied since), which the encoding omits.
		require.JSONEq(t, string(mustJSON(t, g.Public)), string(mustJSON(t, mine)), "a client's replica is not the server's game")
	}
	x, err := s.svc.Export(ctx, policy.UID(1), "tl-mem")
	require.NoError(t, err)
	sum, err := export.Verify(mustJSON(t, x))
	require.NoError(t, err)
	t.Log(sum)
	applied, err := s.st.Applied(ctx, "tl-mem")
	require.NoError(t, err)
	reveals := 0
	for _, a := range applied {
		if a.Action.Kind == engine.ActReveal {
			reveals++
		}
	}
	require.Equal(t, 3*int(g.Public.Trustless.NextIndex-1), reveals, "every round's reveals are listed as applied")
	staged, err := s.st.Staged(ctx, "tl-mem", g.Public.Trustless.NextIndex-1)
	require.NoError(t, err)
	require.Empty(t, staged)
}

// crashOnReveal is a transport that, at p2's first reveal, ends the
// client's context instead of sending it: the process dies after its
// secrets file was written and before the link left.
type crashOnReveal struct {
	cancel  context.CancelFunc
	crashed atomic.Bool
	done    chan struct{} // closed at the crash
}

func (c *crashOnReveal) RoundTrip(r *http.Request) (*http.Response, error) {
	if strings.HasSuffix(r.URL.Path, "/reveal") && c.crashed.CompareAndSwap(false, true) {
		c.cancel()
		close(c.done)
		return nil, context.Canceled
	}
	return http.DefaultTransport.RoundTrip(r)
}

// TestRestartFromTheSecretsFile: a client that dies after writing its
// secrets file and before its link leaves comes back from the file alone
// (dungeonclient.Resume: the chain and the key from the file, the game
// followed again from its first event), sends that very reveal (the same index,
// digest and link) and plays the game to its end with the others; the
// file is its owner's only and names the index and digest it revealed.
func TestRestartFromTheSecretsFile(t *testing.T) {
	s := newMemServer(t, nil)
	ctx := context.Background()
	require.NoError(t, devFunctions(s.url, "p1").Call(ctx, "createGame", map[string]any{"gameId": "tl-restart", "mode": "trustless"}, nil))
	dir := t.TempDir()
	ss := seats(3)
	cfg := func(uid string) dungeonclient.Config {
		return dungeonclient.Config{Functions: devFunctions(s.url, uid), UID: uid, GameID: "tl-restart",
			SecretsFile: filepath.Join(dir, uid+".json"), Retry: 10 * time.Millisecond, PollEvery: 5 * time.Millisecond}
	}
	pctx, cancel := context.WithTimeout(ctx, 5*time.Minute)
	defer cancel()
	p2ctx, crash := context.WithCancel(pctx)
	crasher := &crashOnReveal{cancel: crash, done: make(chan struct{})}
	var cs []*dungeonclient.Client
	for i := range 3 {
		c := cfg(policy.UID(i))
		if i == 1 {
			c.Functions.HTTP = &http.Client{Transport: crasher}
		}
		cl, err := dungeonclient.Join(ctx, c, i, ss[i].Class, false)
		require.NoError(t, err)
		cs = append(cs, cl)
	}
	var wg sync.WaitGroup
	errs := make([]error, 3)
	for i, c := range cs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			pc := pctx
			if i == 1 {
				pc = p2ctx
			}
			errs[i] = c.Play(pc, ss[i].Policy, func(p *engine.Public) bool { return len(p.Players) == 3 })
		}()
	}
	// p2 crashes at its first reveal.
	select {
	case <-crasher.done:
	case <-pctx.Done():
		t.Fatal("p2's client never sent its first reveal")
	}
	fi, err := os.Stat(filepath.Join(dir, "p2.json"))
	require.NoError(t, err)
	require.Equal(t, os.FileMode(0o600), fi.Mode().Perm(), "the secrets file is its owner's only")
	var file struct {
		Secrets player.Secrets `json:"secrets"`
		Reveal  engine.Action  `json:"reveal"`
	}
	b, err := os.ReadFile(filepath.Join(dir, "p2.json"))
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(b, &file))
	require.EqualValues(t, 1, file.Secrets.Revealed, "the file names the index it reveals")
	require.Equal(t, file.Secrets.Digest.String(), file.Reveal.Digest, "and the digest")
	require.Equal(t, uint32(1), file.Reveal.Index)
	// Nothing of p2's reached the server.
	staged, err := s.st.Staged(ctx, "tl-restart", 1)
	require.NoError(t, err)
	for _, a := range staged {
		require.NotEqual(t, "p2", a.Actor)
	}
	// p2 comes back from its file and sends the same reveal.
	back, err := dungeonclient.Resume(ctx, cfg("p2"))
	require.NoError(t, err)
	wg.Add(1)
	go func() {
		defer wg.Done()
		errs[1] = back.Play(pctx, ss[1].Policy, nil)
	}()
	wg.Wait()
	require.ErrorIs(t, errs[1], nil)
	require.NoError(t, errs[0])
	require.NoError(t, errs[2])
	g, err := s.st.State(ctx, "tl-restart")
	require.NoError(t, err)
	require.Equal(t, engine.PhaseFinished, g.Public.Phase)
	applied, err := s.st.Applied(ctx, "tl-restart")
	require.NoError(t, err)
	for _, a := range applied {
		if a.Action.Kind == engine.ActReveal && a.Action.Index == 1 && a.Action.Actor == "p2" {
			require.Equal(t, file.Reveal.Link, a.Action.Link, "the reveal sent after the restart is the one the file held")
			return
		}
	}
	t.Fatal("p2's reveal of index 1 was never applied")
}
