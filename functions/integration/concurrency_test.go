package integration

import (
	"context"
	"fmt"
	"sync"
	"testing"

	"github.com/fairboard/fairboard/engine"
	"github.com/fairboard/fairboard/functions/callable"
	"github.com/fairboard/fairboard/functions/functest"
	"github.com/fairboard/fairboard/rng"
	"github.com/fairboard/fairboard/session"
)

// TestFiftySubmissionsOfOneAction: 50 concurrent submissions of the same
// actionId apply it exactly once; each gets that action's result or a
// retryable ABORTED, and a retry then gets the same result.
func TestFiftySubmissionsOfOneAction(t *testing.T) {
	e := newEnv(t, nil)
	ps := players(t, 2)
	started(t, e, "same-action", "same-action", ps, false)
	v := view(t, e, "same-action", ps[0].Token)
	var p functest.Player
	for _, q := range ps {
		if q.UID == v.State.Awaiting {
			p = q
		}
	}
	a := p.Seat.Policy.Choose(&v.State, eng.Rules(), p.UID)
	a.ID = "the-one"
	data := functest.ActData("same-action", a)
	const n = 50
	results := make([]functest.Result, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() { errs[i] = e.c.Call(context.Background(), "act", p.Token, data, &results[i]) })
	}
	wg.Wait()
	var first *functest.Result
	aborted, replayed := 0, 0
	for i := range n {
		if errs[i] != nil {
			if functest.Status(errs[i]) != string(callable.StatusAborted) {
				t.Fatalf("submission %d: %v; want a result or ABORTED", i, errs[i])
			}
			aborted++
			// Retry with the same id until it gets the result.
			for k := 0; ; k++ {
				err := e.c.Call(context.Background(), "act", p.Token, data, &results[i])
				if err == nil {
					break
				}
				if functest.Status(err) != string(callable.StatusAborted) || k == 20 {
					t.Fatalf("retry of submission %d: %v", i, err)
				}
			}
		}
		r := &results[i]
		if r.Replayed {
			replayed++
		}
		if first == nil {
			first = r
		}
		if r.Version != v.State.Version+1 || eventsJSON(r.Events) != eventsJSON(first.Events) {
			t.Errorf("submission %d: version %d events %d; want version %d and the same events", i, r.Version, len(r.Events), v.State.Version+1)
		}
	}
	if replayed != n-1 {
		t.Errorf("%d of %d answers replayed; want exactly %d (one applied)", replayed, n, n-1)
	}
	after := view(t, e, "same-action", ps[0].Token)
	if after.State.Version != v.State.Version+1 || after.State.LogSeq != v.State.LogSeq+uint64(len(first.Events)) {
		t.Errorf("game version %d log %d after; want %d, %d", after.State.Version, after.State.LogSeq,
			v.State.Version+1, v.State.LogSeq+uint64(len(first.Events)))
	}
	t.Logf("50 submissions: %d ABORTED then retried, store %+v", aborted, e.st.Stats())
}

// TestConcurrentPlayersEqualReplay: every player sends its bot's action
// at the same time, round after round; the accepted ones, replayed in
// version order through a fresh engine, give exactly the stored game.
func TestConcurrentPlayersEqualReplay(t *testing.T) {
	e := newEnv(t, nil)
	ps := players(t, 4)
	const gameID, seed = "concurrent-players", "concurrent-players"
	started(t, e, gameID, seed, ps, false)
	accepted := map[uint64]engine.Action{}
	var mu sync.Mutex
	for round := 0; round < 25; round++ {
		v := view(t, e, gameID, ps[0].Token)
		if v.State.Phase != engine.PhasePlaying {
			break
		}
		var wg sync.WaitGroup
		for _, p := range ps {
			// Only the awaited player's bot knows a legal action; the
			// others send what a confused client might: the same kind.
			a := ps[0].Seat.Policy.Choose(&v.State, eng.Rules(), v.State.Awaiting)
			a.Actor = p.UID
			a.ID = fmt.Sprintf("r%d-%s", round, p.UID)
			wg.Go(func() {
				for range 20 {
					var r functest.Result
					err := e.c.Call(context.Background(), "act", p.Token, functest.ActData(gameID, a), &r)
					switch functest.Status(err) {
					case "":
						mu.Lock()
						accepted[r.Version] = a
						mu.Unlock()
						return
					case string(callable.StatusAborted):
						continue
					case string(callable.StatusPermissionDenied), string(callable.StatusFailedPrecondition), string(callable.StatusInvalidArgument):
						return // rejected: the state must not change
					default:
						t.Errorf("%s: %v", a.ID, err)
						return
					}
				}
				t.Errorf("%s: still ABORTED after 20 tries", a.ID)
			})
		}
		wg.Wait()
	}
	// Replay: the lobby actions, then the accepted ones by version.
	g := engine.Game{}
	base := []engine.Action{{Kind: engine.ActCreate, Actor: "p1", ID: "create", GameID: gameID, Mode: "seeded", Seed: seed}}
	for i, p := range ps {
		base = append(base, engine.Action{Kind: engine.ActJoin, Actor: p.UID, ID: "join-" + p.UID, Seat: i, Class: p.Seat.Class})
	}
	base = append(base, engine.Action{Kind: engine.ActStart, Actor: "p1", ID: "start"})
	apply := func(a engine.Action) {
		t.Helper()
		a.At = fixedNow.UnixMilli()
		var s *rng.Stream
		if a.Kind != engine.ActCreate {
			var err error
			if s, err = session.Stream(&g); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := eng.Dispatch(&g, &a, s, nil); err != nil {
			t.Fatalf("replay %s: %v", a.ID, err)
		}
		if s != nil {
			g.SaveStream(s)
		}
	}
	for _, a := range base {
		apply(a)
	}
	for ver := g.Public.Version + 1; ; ver++ {
		a, ok := accepted[ver]
		if !ok {
			break
		}
		apply(a)
	}
	if int(g.Public.Version) != len(base)+len(accepted) {
		t.Fatalf("accepted versions are not contiguous: replayed to %d with %d accepted", g.Public.Version, len(accepted))
	}
	stored := view(t, e, gameID, ps[0].Token).State
	snap, err := e.fc.Doc("games/" + gameID + "/private/state").Get(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var sec engine.Secret
	if err := fromDoc(snap.Data(), &sec); err != nil {
		t.Fatal(err)
	}
	got, _ := (&engine.Game{Public: stored, Secret: sec}).CanonicalJSON()
	want, _ := g.CanonicalJSON()
	if string(got) != string(want) {
		t.Errorf("stored game differs from the replay of the %d accepted actions", len(accepted))
	}
	t.Logf("%d accepted actions, store %+v", len(accepted), e.st.Stats())
}
