package integration

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/fairboard/fairboard/deploy"
	"github.com/fairboard/fairboard/functest"
	"github.com/fairboard/fairboard/functions"
	"github.com/fairboard/fairboard/games/dungeon/engine"
	"github.com/fairboard/fairboard/games/dungeon/policy"
	"github.com/fairboard/fairboard/games/dungeon/server/dungeonfn"
	"github.com/fairboard/fairboard/games/dungeon/server/service"
	"github.com/fairboard/fairboard/games/dungeon/server/store/fsstore"
)

// movable is a service clock the test moves (unix ms; a millisecond more
// at each reading).
type movable struct{ ms atomic.Int64 }

func newMovable() *movable {
	m := &movable{}
	m.ms.Store(fixedNow.UnixMilli())
	return m
}

func (m *movable) now() time.Time { return time.UnixMilli(m.ms.Add(1)) }

// scheduler is the sweep's authorizer in these tests: "Bearer scheduler"
// (deploy.OIDCSweepAuthorizer's own test checks real OIDC tokens).
var scheduler = functions.SweepAuthorizerFunc(func(r *http.Request) error {
	if r.Header.Get("Authorization") != "Bearer scheduler" {
		return errors.New("not the scheduler")
	}
	return nil
})

// sweepEnv is newEnv with the test's clock, a short grace, a fair
// deadline of an hour, and the sweep served.
func sweepEnv(t *testing.T, clock *movable) (*env, string) {
	t.Helper()
	e := newEnv(t, func(c *service.Config) {
		c.Now, c.AbortGrace, c.FairDeadline = clock.now, 2*time.Second, time.Hour
	})
	v, err := deploy.AdminVerifier(context.Background(), emu.ProjectID())
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(functions.New(dungeonfn.New(e.svc), v, quiet()).WithSweep(scheduler).Mux())
	t.Cleanup(srv.Close)
	e.c = &functest.Client{Base: srv.URL}
	return e, srv.URL
}

func sweep(t *testing.T, base string) string {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, base+"/sweep", strings.NewReader("{}"))
	req.Header.Set("Authorization", "Bearer scheduler")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("sweep: %d %s", resp.StatusCode, b)
	}
	return string(b)
}

// TestDeadlinesOnTheEmulator: on the Firestore store, a trustless round
// one seat never reveals is aborted past its deadline and grace by the
// next call on the game (a getView) in one game and by the sweep in
// another, which the sweep finds by its indexed query (the game
// document's dueAt, gone once settled); the abort names the missing seat,
// publishes the link that came and applies nothing of the pending action;
// a fair game left unfinished past the fair deadline is abandoned by the
// sweep, revealing its server seed. A sweep with another token is
// refused.
func TestDeadlinesOnTheEmulator(t *testing.T) {
	emu.Require(t)
	// A sweep settles every due game of the database, and the package's
	// other tests leave games with deadlines of their own (pending rounds
	// by design), from the same fixed clock: this test's counts are the
	// database's, so it starts from an empty one (the accounts stay: the
	// package keeps its players' tokens).
	if err := emu.Firestore().Reset(context.Background()); err != nil {
		t.Fatal(err)
	}
	clock := newMovable()
	e, base := sweepEnv(t, clock)
	ctx := context.Background()
	ps := players(t, 3)
	tables := map[string]*functest.Table{}
	for _, id := range []string{"stall-call", "stall-sweep"} {
		tb, err := functest.NewTable(ctx, e.c, id, ps, eng.Rules(), map[string]any{"deadlineMs": 5000})
		if err != nil {
			t.Fatal(err)
		}
		if err := tb.Act(ctx, 0, engine.Action{Kind: engine.ActStart}, "start"); err != nil {
			t.Fatal(err)
		}
		if err := tb.Sync(ctx); err != nil {
			t.Fatal(err)
		}
		for _, i := range []int{0, 2} { // p2 never reveals
			a, err := tb.Reveal(i)
			if err != nil {
				t.Fatal(err)
			}
			if err := tb.SendReveal(ctx, i, a); err != nil {
				t.Fatal(err)
			}
		}
		tables[id] = tb
	}
	if err := e.c.Call(ctx, "createGame", ps[0].Token, map[string]any{"gameId": "fair-stale", "actionId": "c", "mode": "fair"}, nil); err != nil {
		t.Fatal(err)
	}
	if err := e.c.Call(ctx, "joinGame", ps[1].Token, map[string]any{"gameId": "fair-stale", "actionId": "j", "seat": 0, "class": "monk", "entropy": "c0ffee"}, nil); err != nil {
		t.Fatal(err)
	}
	if due, err := e.st.Due(ctx, clock.now().UnixMilli(), 0); err != nil || len(due) != 0 {
		t.Fatalf("due before any deadline: %v, %v", due, err)
	}
	clock.ms.Add(5_000 + 2_000 + 10)
	// The next call on stall-call: a getView settles it.
	if err := tables["stall-call"].Sync(ctx); err != nil {
		t.Fatal(err)
	}
	out := sweep(t, base)
	if !strings.Contains(out, `"aborted":["stall-sweep"]`) || !strings.Contains(out, `"due":1`) {
		t.Fatalf("the sweep: %s", out)
	}
	for id, tb := range tables {
		if err := tb.Sync(ctx); err != nil {
			t.Fatal(err)
		}
		var aborted *engine.Event
		for i := range tb.Log {
			switch tb.Log[i].Type {
			case engine.EvGameAborted:
				aborted = &tb.Log[i]
			case engine.EvRoundRevealed, engine.EvTurnOrderRolled:
				t.Fatalf("%s: the pending start was applied without every link", id)
			}
		}
		if tb.State.Phase != engine.PhaseFinished || aborted == nil || len(aborted.Trust.Missing) != 1 || aborted.Trust.Missing[0] != "p2" ||
			len(aborted.Trust.Reveals) != 2 || aborted.Trust.By != engine.ServerActor {
			t.Fatalf("%s: the abort %+v (phase %s)", id, aborted, tb.State.Phase)
		}
		snap, err := e.fc.Doc("games/" + id).Get(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := snap.Data()["dueAt"]; ok {
			t.Errorf("%s: dueAt left on a finished game", id)
		}
	}
	// The fair game, past the fair deadline.
	clock.ms.Add(time.Hour.Milliseconds())
	out = sweep(t, base)
	if !strings.Contains(out, `"abandoned":["fair-stale"]`) {
		t.Fatalf("the sweep of a stale fair game: %s", out)
	}
	var v functest.View
	if err := e.c.Call(ctx, "getView", ps[1].Token, map[string]any{"gameId": "fair-stale"}, &v); err != nil {
		t.Fatal(err)
	}
	if v.State.Phase != engine.PhaseFinished || v.State.Fairness == nil || len(v.State.Fairness.ServerSeedHex) != 64 ||
		commitmentOf(t, v.State.Fairness.ServerSeedHex) != v.State.Fairness.CommitmentHex {
		t.Fatalf("the abandoned fair game did not reveal its server seed: %+v", v.State.Fairness)
	}
	if out := sweep(t, base); !strings.Contains(out, `"due":0`) {
		t.Fatalf("a sweep after every game is settled: %s", out)
	}
	req, _ := http.NewRequest(http.MethodPost, base+"/sweep", nil)
	req.Header.Set("Authorization", "Bearer "+ps[0].Token) // a player's Firebase token
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusUnauthorized {
		t.Fatalf("a player ran the sweep: %d", resp.StatusCode)
	}
}

// TestConcurrentRevealsCloseTheRoundOnce: the 6 reveals of a round sent
// at once, each through its own server instance (its own store, so no
// per-process queue orders them), all land; the round is closed by
// exactly one commit of at most 5 writes, which lists the 6 reveals as
// applied and moves the game 6 versions at once; every answer is a staged
// reveal's but, at most, the one of the reveal that found every other
// staged and applied the round itself (its answer the round's events).
func TestConcurrentRevealsCloseTheRoundOnce(t *testing.T) {
	emu.Require(t)
	ctx := context.Background()
	ps := players(t, 6)
	e := newEnv(t, nil)
	tb, err := functest.NewTable(ctx, e.c, "tl-six", ps, eng.Rules(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := tb.Act(ctx, 0, engine.Action{Kind: engine.ActStart}, "start"); err != nil {
		t.Fatal(err)
	}
	if err := tb.Sync(ctx); err != nil {
		t.Fatal(err)
	}
	before, err := e.fc.Doc("games/tl-six").Get(ctx)
	if err != nil {
		t.Fatal(err)
	}
	version := tb.State.Version
	instances := make([]*env, 6)
	stores := make([]*fsstore.Store, 6)
	for i := range instances {
		instances[i] = newEnv(t, nil)
		stores[i] = instances[i].st
	}
	var wg sync.WaitGroup
	var direct atomic.Int64 // reveals that applied the round themselves
	errs := make([]error, 6)
	for i := range 6 {
		a, err := tb.Reveal(i)
		if err != nil {
			t.Fatal(err)
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			var res struct {
				Staged bool           `json:"staged"`
				Events []engine.Event `json:"events"`
			}
			d := functest.RevealData(a, "r1")
			d["gameId"] = "tl-six"
			errs[i] = instances[i].c.Call(ctx, "reveal", ps[i].Token, d, &res)
			switch {
			case errs[i] != nil:
			case res.Staged && len(res.Events) > 0:
				errs[i] = fmt.Errorf("a staged reveal answered with events")
			case !res.Staged:
				direct.Add(1)
				if len(res.Events) == 0 || res.Events[0].Type != engine.EvRoundRevealed {
					errs[i] = fmt.Errorf("the reveal that applied the round answered %v", res.Events)
				}
			}
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("%s's reveal: %v", policy.UID(i), err)
		}
	}
	if err := tb.Sync(ctx); err != nil {
		t.Fatal(err)
	}
	rounds := 0
	for _, ev := range tb.Log {
		if ev.Type == engine.EvRoundRevealed {
			rounds++
			if len(ev.Trust.Reveals) != 6 {
				t.Fatalf("round 1 closed with %d reveals", len(ev.Trust.Reveals))
			}
		}
	}
	if rounds != 1 || tb.State.Trustless.Pending != nil || tb.State.Trustless.NextIndex != 2 {
		t.Fatalf("round 1 closed %d times; next index %d", rounds, tb.State.Trustless.NextIndex)
	}
	if direct.Load() > 1 {
		t.Fatalf("%d reveals applied the round", direct.Load())
	}
	if tb.State.Version != version+6 {
		t.Fatalf("the game went from version %d to %d; the 6 reveals are 6 versions, in one commit", version, tb.State.Version)
	}
	applied, err := e.st.Applied(ctx, "tl-six")
	if err != nil {
		t.Fatal(err)
	}
	if uint64(len(applied)) != tb.State.Version {
		t.Fatalf("%d applied actions at version %d", len(applied), tb.State.Version)
	}
	docs, err := e.fc.Collection("games/tl-six/applied").Documents(ctx).GetAll()
	if err != nil {
		t.Fatal(err)
	}
	last := docs[len(docs)-1].Data()
	if next, _ := last["next"].([]any); len(next) != 5 {
		t.Fatalf("the round's applied run holds %d more reveals, want 5", len(next))
	}
	after, err := e.fc.Doc("games/tl-six").Get(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var commits, attempts, most int64
	for _, st := range stores {
		s := st.Stats()
		attempts += s.Attempts
		commits += s.Writes
		most = max(most, s.MaxWrites)
	}
	if most > 5 {
		t.Fatalf("a commit of %d writes", most)
	}
	t.Logf("6 concurrent reveals: %d attempts over the 6 instances, %d writes; the game document updated once (%v -> %v)",
		attempts, commits, before.UpdateTime.Format(time.RFC3339Nano), after.UpdateTime.Format(time.RFC3339Nano))
}
