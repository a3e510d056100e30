package integration

import (
	"context"
	"testing"
	"time"

	"github.com/fairboard/fairboard/functest"
	"github.com/fairboard/fairboard/functions/callable"
	"github.com/fairboard/fairboard/games/dungeon/server/service"
	"github.com/fairboard/fairboard/games/dungeon/server/store/fsstore"
	"github.com/fairboard/fairboard/internal/emulator"
)

// ringComplete fails unless the game's audit ring holds every entry up to
// its rng seq (the games here draw fewer than 500), each with the
// server's ts.
func ringComplete(t *testing.T, e *env, gameID, tok string) {
	t.Helper()
	v := view(t, e, gameID, tok)
	ring, err := e.st.Audit(context.Background(), gameID)
	if err != nil {
		t.Fatal(err)
	}
	if uint64(len(ring)) != v.State.RNG.Seq {
		t.Fatalf("audit ring holds %d entries; the game drew %d", len(ring), v.State.RNG.Seq)
	}
	for i, en := range ring {
		if en.Seq != uint64(i+1) || en.TS != fixedNow.UnixMilli() {
			t.Fatalf("ring[%d] = seq %d ts %d; want seq %d ts %d", i, en.Seq, en.TS, i+1, fixedNow.UnixMilli())
		}
	}
}

// drawingAction plays the awaited players' actions (ids prefix-N) until
// the next one would draw from the RNG, and returns that one's data and
// player. Every in-turn move draws a d4; the bots reach one quickly.
func nextAct(t *testing.T, e *env, gameID string, ps []functest.Player, id string) (functest.Player, map[string]any) {
	t.Helper()
	p, a := awaitedAction(t, e, gameID, ps)
	a.ID = id
	return p, functest.ActData(gameID, a)
}

// TestLostCommitAnswer (issue 10, item 3): the commit of an action lands
// and its answer is lost. Before, the caller got ABORTED ("nothing was
// written"), the retry got "replayed", and the action's audit entries
// were never written, with no log line and no counter. Now the caller
// gets the result, and the entries are in the ring. When the database
// then stays silent, the caller gets UNAVAILABLE; the retry replays the
// landed action, whose entries its own commit rang (issue 17): nothing
// to repair, nothing written twice.
func TestLostCommitAnswer(t *testing.T) {
	var f emulator.Faults
	e := newFaultyEnv(t, nil, &f, fsstore.WithResolveTimeout(2*time.Second))
	ctx := context.Background()
	ps := players(t, 2)
	const g = "lost-answer"
	started(t, e, g, g, ps, true)

	p, data := nextAct(t, e, g, ps, "lost-1")
	v0 := view(t, e, g, ps[0].Token).State.Version
	f.LoseCommitAnswers(1, false)
	var r functest.Result
	if err := e.c.Call(ctx, "act", p.Token, data, &r); err != nil {
		t.Fatalf("act whose commit's answer was lost: %v; want its result", err)
	}
	if r.Version != v0+1 || r.Replayed {
		t.Errorf("result %+v; want version %d, not replayed", r, v0+1)
	}
	if st := e.st.Stats(); st.Unknown != 1 || st.Resolved != 1 {
		t.Errorf("store stats %+v; want 1 unknown outcome, resolved", st)
	}
	ringComplete(t, e, g, ps[0].Token)

	p, data = nextAct(t, e, g, ps, "lost-2")
	f.LoseCommitAnswers(1, true)
	err := e.c.Call(ctx, "act", p.Token, data, nil)
	if functest.Status(err) != string(callable.StatusUnavailable) {
		t.Fatalf("act whose commit landed, database silent after: %v; want UNAVAILABLE (never ABORTED)", err)
	}
	f.Unblock()
	ringComplete(t, e, g, ps[0].Token)
	w0 := e.st.Stats().Writes
	if err := e.c.Call(ctx, "act", p.Token, data, &r); err != nil || !r.Replayed {
		t.Fatalf("retry: %+v, %v; want the landed action replayed", r, err)
	}
	if st := e.svc.Stats(); st.AuditWrites != 0 || st.AuditRepairs != 0 {
		t.Errorf("service stats %+v; want no ring write outside the commits", st)
	}
	if w := e.st.Stats().Writes - w0; w != 0 {
		t.Errorf("the retry wrote %d documents; want none", w)
	}
	ringComplete(t, e, g, ps[0].Token)
}

// TestPausedDatabase (issue 10, item 3, as reported): the Firestore
// emulator hangs (SIGSTOP) while an action is under way, for longer than
// the service's timeout. The caller gets the result or UNAVAILABLE, never
// ABORTED; once the database is back, the retry with the same actionId
// gets the same version, and the audit ring holds every entry.
func TestPausedDatabase(t *testing.T) {
	e := newEnv(t, func(c *service.Config) { c.Timeout = 2 * time.Second })
	ctx := context.Background()
	ps := players(t, 2)
	const g = "paused"
	started(t, e, g, g, ps, true)
	v0 := view(t, e, g, ps[0].Token).State.Version
	p, data := nextAct(t, e, g, ps, "paused-1")
	done := make(chan error, 1)
	var r functest.Result
	go func() { done <- e.c.Call(ctx, "act", p.Token, data, &r) }()
	time.Sleep(20 * time.Millisecond)
	if err := emu.Firestore().Pause(); err != nil {
		t.Fatal(err)
	}
	resumed := false
	resume := func() {
		if !resumed {
			resumed = true
			if err := emu.Firestore().Resume(); err != nil {
				t.Fatal(err)
			}
		}
	}
	t.Cleanup(resume)
	// The call answers by itself (UNAVAILABLE after the service's timeout)
	// while the database hangs; the database comes back at its answer, or
	// after twice the timeout if it has none by then.
	var err error
	select {
	case err = <-done:
		resume()
	case <-time.After(4 * time.Second):
		resume()
		err = <-done
	}
	switch st := functest.Status(err); {
	case err == nil:
		if r.Version != v0+1 {
			t.Errorf("result version %d; want %d", r.Version, v0+1)
		}
	case st == string(callable.StatusUnavailable):
	default:
		t.Fatalf("act across the pause: %v; want its result or UNAVAILABLE", err)
	}
	var again functest.Result
	if err := e.c.Call(ctx, "act", p.Token, data, &again); err != nil || again.Version != v0+1 {
		t.Fatalf("retry after the pause: %+v, %v; want version %d", again, err, v0+1)
	}
	ringComplete(t, e, g, ps[0].Token)
	t.Logf("across the pause: %v; store %+v, service %+v", err, e.st.Stats(), e.svc.Stats())
}
