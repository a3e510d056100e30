package integration

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/fairboard/fairboard/functest"
	"github.com/fairboard/fairboard/functions/callable"
	"github.com/fairboard/fairboard/games/dungeon/engine"
	"github.com/fairboard/fairboard/games/dungeon/server/service"
	"github.com/fairboard/fairboard/games/dungeon/server/store/fsstore"
	"github.com/fairboard/fairboard/internal/emulator"
)

// TestAuditRingAndInjectedFailure: an audit-enabled game's entries are
// in its ring (the private state's, issue 17) as each action commits; a
// failing audit writer changes nothing, since the service never writes
// the ring itself (the commit does); with a store of the previous release
// (the ring written after the commit), the writer failing leaves the move
// committed and counted.
func TestAuditRingAndInjectedFailure(t *testing.T) {
	for _, previous := range []bool{false, true} {
		t.Run(map[bool]string{false: "ring in the commit", true: "previous layout"}[previous], func(t *testing.T) {
			var opts []fsstore.Option
			g := "audited"
			if previous {
				opts, g = append(opts, fsstore.WithPreviousLayout()), "audited-previous"
			}
			e := newFaultyEnv(t, nil, nil, opts...)
			ctx := context.Background()
			ps := players(t, 2)
			started(t, e, g, g, ps, true)
			ringComplete(t, e, g, ps[0].Token)
			e.audit.mu.Lock()
			e.audit.fail = true
			e.audit.mu.Unlock()
			before, ring0 := e.svc.Stats().AuditFailures, ringLen(t, e, g)
			var drew bool
			for i := 0; !drew && i < 40; i++ {
				v := view(t, e, g, ps[0].Token)
				p := ps[0]
				if v.State.Awaiting == ps[1].UID {
					p = ps[1]
				}
				a := p.Seat.Policy.Choose(&v.State, eng.Rules(), p.UID)
				a.ID = "fail-" + itoa(i)
				var r functest.Result
				if err := e.c.Call(ctx, "act", p.Token, functest.ActData(g, a), &r); err != nil {
					t.Fatalf("act with a failing audit writer: %v (the move must stand)", err)
				}
				after := view(t, e, g, ps[0].Token)
				if after.State.Version != v.State.Version+1 || r.Version != after.State.Version {
					t.Fatalf("move not committed: version %d -> %d", v.State.Version, after.State.Version)
				}
				drew = after.State.RNG.Seq > v.State.RNG.Seq
			}
			if !drew {
				t.Fatal("no action drew in 40")
			}
			if previous {
				if e.svc.Stats().AuditFailures != before+1 {
					t.Fatalf("audit failures %d; want %d", e.svc.Stats().AuditFailures, before+1)
				}
				if n := ringLen(t, e, g); n != ring0 {
					t.Errorf("the failed audit write wrote %d entries", n-ring0)
				}
				return
			}
			if st := e.svc.Stats(); st.AuditFailures != 0 || st.AuditWrites != 0 {
				t.Errorf("service stats %+v; want no audit write outside the commits", st)
			}
			ringComplete(t, e, g, ps[0].Token)
		})
	}
}

func ringLen(t *testing.T, e *env, g string) int {
	t.Helper()
	ring, err := e.st.Audit(context.Background(), g)
	if err != nil {
		t.Fatal(err)
	}
	return len(ring)
}

func itoa(i int) string { b, _ := json.Marshal(i); return string(b) }

// TestRefusalsWithRealTokens: unauthenticated, wrong player, out of turn,
// non-owner start and a seeded game in production are refused with the
// right statuses, and change nothing.
func TestRefusalsWithRealTokens(t *testing.T) {
	e := newEnv(t, nil)
	prod := newEnv(t, func(c *service.Config) { c.AllowSeeded = false })
	ctx := context.Background()
	ps := players(t, 2)
	stranger := token(t, "stranger")
	g := "refusals"
	if err := e.c.Call(ctx, "createGame", ps[0].Token, map[string]any{"gameId": g, "actionId": "create", "mode": "seeded", "seed": "r"}, nil); err != nil {
		t.Fatal(err)
	}
	for i, p := range ps {
		if err := e.c.Call(ctx, "joinGame", p.Token, map[string]any{"gameId": g, "actionId": "join-" + p.UID, "seat": i, "class": p.Seat.Class}, nil); err != nil {
			t.Fatal(err)
		}
	}
	check := func(name string, err error, want string) {
		t.Helper()
		if functest.Status(err) != want {
			t.Errorf("%s: %v; want %s", name, err, want)
		}
	}
	check("no token", e.c.Call(ctx, "startGame", "", map[string]any{"gameId": g}, nil), string(callable.StatusUnauthenticated))
	check("forged token", e.c.Call(ctx, "startGame", ps[0].Token[:len(ps[0].Token)/2]+"x", map[string]any{"gameId": g}, nil), string(callable.StatusUnauthenticated))
	check("non-owner start", e.c.Call(ctx, "startGame", ps[1].Token, map[string]any{"gameId": g, "actionId": "s1"}, nil), string(callable.StatusPermissionDenied))
	if err := e.c.Call(ctx, "startGame", ps[0].Token, map[string]any{"gameId": g, "actionId": "start"}, nil); err != nil {
		t.Fatal(err)
	}
	v := view(t, e, g, ps[0].Token)
	waiting, other := ps[0], ps[1]
	if v.State.Awaiting == ps[1].UID {
		waiting, other = ps[1], ps[0]
	}
	a := waiting.Seat.Policy.Choose(&v.State, eng.Rules(), waiting.UID)
	a.ID = "x1"
	check("out of turn", e.c.Call(ctx, "act", other.Token, functest.ActData(g, a), nil), string(callable.StatusPermissionDenied))
	a.ID = "x2"
	// Not seated in a started game: answered as a game that does not exist.
	check("wrong player (not seated)", e.c.Call(ctx, "act", stranger, functest.ActData(g, a), nil), string(callable.StatusNotFound))
	check("stranger's view", e.c.Call(ctx, "getView", stranger, map[string]any{"gameId": g}, nil), string(callable.StatusNotFound))
	check("seeded in production", prod.c.Call(ctx, "createGame", ps[0].Token, map[string]any{"gameId": "prod-seeded", "mode": "seeded", "seed": "s"}, nil), string(callable.StatusFailedPrecondition))
	if _, err := prod.st.Game(ctx, "prod-seeded"); err == nil {
		t.Error("the refused seeded game was written")
	}
	if after := view(t, e, g, ps[0].Token); after.State.Version != v.State.Version {
		t.Errorf("refusals changed the game: version %d -> %d", v.State.Version, after.State.Version)
	}
}

// TestEmulatorStoppedIsUnavailable runs a server on a dedicated Firestore
// emulator, stops the emulator mid-game, and expects UNAVAILABLE (never a
// result, never INTERNAL).
func TestEmulatorStoppedIsUnavailable(t *testing.T) {
	e := newEnv(t, nil) // for tokens and the shared Auth emulator
	_ = e
	ctx := context.Background()
	fs, err := emulator.StartFirestore(ctx, emulator.FirestoreOptions{ProjectID: emu.ProjectID()})
	if err != nil {
		t.Fatal(err)
	}
	defer fs.Stop()
	fc, err := fs.Client(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer fc.Close()
	st := fsstore.New(fc)
	// Warm the fresh emulator up: its first requests are slow.
	if _, err := st.Game(ctx, "warm-up"); err == nil {
		t.Fatal("warm-up game exists")
	}
	if _, err := st.Log(ctx, "warm-up", 0, 0); err != nil {
		t.Fatal(err)
	}
	d := newEnv(t, func(c *service.Config) { c.Store, c.Audit, c.Timeout = st, st, 4*time.Second })
	ps := players(t, 2)
	started(t, d, "stopped", "stopped", ps, false)
	v := view(t, d, "stopped", ps[0].Token)
	if v.State.Phase != engine.PhasePlaying {
		t.Fatalf("phase %s", v.State.Phase)
	}
	if err := fs.Stop(); err != nil {
		t.Fatal(err)
	}
	p := ps[0]
	if v.State.Awaiting == ps[1].UID {
		p = ps[1]
	}
	a := p.Seat.Policy.Choose(&v.State, eng.Rules(), p.UID)
	a.ID = "after-stop"
	start := time.Now()
	err = d.c.Call(ctx, "act", p.Token, functest.ActData("stopped", a), nil)
	if functest.Status(err) != string(callable.StatusUnavailable) {
		t.Errorf("act with the emulator stopped: %v; want UNAVAILABLE", err)
	}
	err = d.c.Call(ctx, "getView", p.Token, map[string]any{"gameId": "stopped"}, nil)
	if functest.Status(err) != string(callable.StatusUnavailable) {
		t.Errorf("getView with the emulator stopped: %v; want UNAVAILABLE", err)
	}
	t.Logf("UNAVAILABLE after %v", time.Since(start))
}
