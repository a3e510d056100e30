package service_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"sync"
	"testing"
	"time"

	"github.com/fairboard/fairboard/audit"
	"github.com/fairboard/fairboard/games/dungeon/engine"
	"github.com/fairboard/fairboard/games/dungeon/policy"
	"github.com/fairboard/fairboard/games/dungeon/server/service"
	"github.com/fairboard/fairboard/games/dungeon/server/store"
	"github.com/fairboard/fairboard/games/dungeon/tools/bot"
	"github.com/fairboard/fairboard/rng"
)

var eng = engine.NewReference(engine.DefaultRules())

func seats(n int) []bot.Seat {
	out := make([]bot.Seat, n)
	for i, c := range policy.DefaultClasses(n) {
		out[i] = bot.Seat{Class: c, Policy: policy.Cautious{}}
		if i%2 == 1 {
			out[i].Policy = policy.Aggressive{}
		}
	}
	return out
}

// testNow is the services' clock in these tests.
var testNow = time.UnixMilli(1_700_000_000_000)

func newService(st store.Store, mod func(*service.Config)) *service.Service {
	cfg := service.Config{Store: st, Engine: eng, AllowSeeded: true,
		Now:    func() time.Time { return testNow },
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil))}
	if mod != nil {
		mod(&cfg)
	}
	return service.New(cfg)
}

// play drives a whole game through the service with the bots, one Do per
// action, and returns the game's log read back from the store.
func play(t *testing.T, svc *service.Service, seed string, n int, audit bool) []engine.Event {
	t.Helper()
	ctx := context.Background()
	id := "bot-" + seed
	ss := seats(n)
	do := func(a engine.Action) {
		t.Helper()
		if _, err := svc.Do(ctx, id, a); err != nil {
			t.Fatalf("%s by %s: %v", a.Kind, a.Actor, err)
		}
	}
	do(engine.Action{Kind: engine.ActCreate, Actor: policy.UID(0), ID: "create", Mode: "seeded", Seed: seed, Audit: audit})
	for i, s := range ss {
		do(engine.Action{Kind: engine.ActJoin, Actor: policy.UID(i), ID: "join-" + policy.UID(i), Seat: i, Class: s.Class})
	}
	do(engine.Action{Kind: engine.ActStart, Actor: policy.UID(0), ID: "start"})
	for k := 0; ; k++ {
		v, err := svc.View(ctx, policy.UID(0), id, 0)
		if err != nil {
			t.Fatal(err)
		}
		if v.Public.Phase != engine.PhasePlaying {
			return v.Events
		}
		uid := v.Public.Awaiting
		seat := int(uid[1] - '1')
		a := ss[seat].Policy.Choose(v.Public, svc.Rules(), uid)
		a.ID = "a" + itoa(k)
		do(a)
	}
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }

func logJSON(ev []engine.Event) string {
	b, _ := json.Marshal(ev)
	return string(b)
}

// TestWholeGameMatchesBotDriver: one transaction per action through the
// store gives the same log as the bot driver playing in one process.
func TestWholeGameMatchesBotDriver(t *testing.T) {
	for _, tc := range []struct {
		seed string
		n    int
	}{{"svc-1", 2}, {"svc-2", 4}} {
		_, want, err := bot.NewRunner(eng).Play(tc.seed, seats(tc.n), nil)
		if err != nil {
			t.Fatal(err)
		}
		svc := newService(store.NewMemory(), nil)
		got := play(t, svc, tc.seed, tc.n, false)
		if logJSON(got) != logJSON(want) {
			t.Errorf("seed %s: service log (%d events) differs from the bot driver's (%d)", tc.seed, len(got), len(want))
		}
	}
}

// twice wraps a store so that every Apply runs the mutator twice: first on
// a throwaway copy (an attempt that lost), then for real.
type twice struct{ store.Store }

func (w twice) Apply(ctx context.Context, r store.Request, m store.Mutator) (*store.Record, error) {
	return w.Store.Apply(ctx, r, func(g *engine.Game, staged []engine.Action) (store.Outcome, error) {
		b, _ := json.Marshal(g)
		var lost engine.Game
		json.Unmarshal(b, &lost)
		m(&lost, staged)
		return m(g, staged)
	})
}

// TestRetriedAttempts: a transaction function run twice per action gives
// the same game and audit as once, and the audit holds only the
// committed attempts' entries.
func TestRetriedAttempts(t *testing.T) {
	var all []rng.Entry
	_, want, err := bot.NewRunner(eng).Play("svc-retry", seats(3), rng.AuditorFunc(func(e rng.Entry) { all = append(all, e) }))
	if err != nil {
		t.Fatal(err)
	}
	mem := store.NewMemory()
	svc := newService(twice{mem}, nil)
	got := play(t, svc, "svc-retry", 3, true)
	if logJSON(got) != logJSON(want) {
		t.Fatalf("log with retried attempts differs from the bot driver's")
	}
	if st := svc.Stats(); st.Reduces < 2*int64(len(want)/10) || st.AuditFailures != 0 {
		t.Errorf("stats %+v", st)
	}
	ring, err := mem.Audit(context.Background(), "bot-svc-retry")
	if err != nil {
		t.Fatal(err)
	}
	// The bot driver's entries (the last 500, the ring's size, if there
	// are more), each with the service's clock as ts.
	wantRing := all[max(0, len(all)-audit.RingSize):]
	if len(ring) != len(wantRing) {
		t.Fatalf("audit ring has %d entries; want %d", len(ring), len(wantRing))
	}
	for i := range ring {
		a, _ := json.Marshal(ring[i].Entry)
		b, _ := json.Marshal(wantRing[i])
		if string(a) != string(b) || ring[i].TS != testNow.UnixMilli() {
			t.Fatalf("ring[%d] = %s ts %d, want %s ts %d", i, a, ring[i].TS, b, testNow.UnixMilli())
		}
	}
}

type failingAudit struct{ calls int }

func (f *failingAudit) WriteAudit(context.Context, string, []audit.Entry) (int, error) {
	f.calls++
	return 0, errors.New("injected audit failure")
}

// TestRingInTheCommit: the store puts an action's audit entries in the
// ring in the action's own commit, so the service never writes the ring
// itself: with an audit writer that fails every call, a whole audited game
// is played, every move stands, the ring holds the game's last entries,
// and the writer was never called (nothing to block, nothing to repair).
// The positive control, an earlier release's store that leaves the ring
// to the service, does call it (TestAuditFailureLeavesMoveCommitted).
func TestRingInTheCommit(t *testing.T) {
	mem := store.NewMemory()
	fa := &failingAudit{}
	svc := newService(mem, func(c *service.Config) { c.Audit = fa })
	play(t, svc, "ring-in-commit", 3, true)
	p, err := mem.Game(context.Background(), "bot-ring-in-commit")
	if err != nil || p.Phase != engine.PhaseFinished {
		t.Fatalf("game: %+v, %v; want finished", p, err)
	}
	ring, err := mem.Audit(context.Background(), "bot-ring-in-commit")
	if err != nil {
		t.Fatal(err)
	}
	want := min(p.RNG.Seq, audit.RingSize)
	if uint64(len(ring)) != want || ring[len(ring)-1].Seq != p.RNG.Seq || ring[0].Seq != p.RNG.Seq-want+1 {
		t.Fatalf("ring holds %d entries; want the last %d, up to seq %d", len(ring), want, p.RNG.Seq)
	}
	if st := svc.Stats(); fa.calls != 0 || st.AuditWrites != 0 || st.AuditFailures != 0 {
		t.Errorf("stats %+v, writer calls %d; want no write outside the commits", st, fa.calls)
	}
}

// TestAuditFailureLeavesMoveCommitted: with a store of an earlier release
// (the ring written by the service after the commit), a failed audit
// write leaves the move committed and is counted.
func TestAuditFailureLeavesMoveCommitted(t *testing.T) {
	old := newOldStore()
	fa := &failingAudit{}
	svc := newService(old, func(c *service.Config) { c.Audit = fa })
	ctx := context.Background()
	for _, a := range []engine.Action{
		{Kind: engine.ActCreate, Actor: "p1", ID: "c", Mode: "seeded", Seed: "audit-fail", Audit: true},
		{Kind: engine.ActJoin, Actor: "p1", ID: "j1", Seat: 0, Class: engine.ClassWarrior},
		{Kind: engine.ActJoin, Actor: "p2", ID: "j2", Seat: 1, Class: engine.ClassMonk},
		{Kind: engine.ActStart, Actor: "p1", ID: "s"},
	} {
		if _, err := svc.Do(ctx, "g", a); err != nil {
			t.Fatalf("%s: %v", a.Kind, err)
		}
	}
	p, err := old.Game(ctx, "g")
	if err != nil || p.Phase != engine.PhasePlaying || p.Version != 4 {
		t.Fatalf("game after a failed audit write: %+v, %v", p, err)
	}
	if st := svc.Stats(); st.AuditFailures != 1 || st.AuditWrites != 1 || fa.calls != 1 {
		t.Errorf("stats %+v, calls %d; want one failed audit write (start draws)", st, fa.calls)
	}
}

// oldStore is a store as an earlier release's was, for the service's
// paths that serve its records: Apply does not ring the audit entries
// (its records come back without Ringed), and the ring holds only what
// WriteAudit puts in it.
type oldStore struct {
	*store.Memory
	mu   sync.Mutex
	ring *audit.Ring
}

func newOldStore() *oldStore {
	return &oldStore{Memory: store.NewMemory(), ring: audit.NewRing(audit.RingSize)}
}

func (o *oldStore) Apply(ctx context.Context, req store.Request, m store.Mutator) (*store.Record, error) {
	rec, err := o.Memory.Apply(ctx, req, m)
	if rec != nil {
		rec.Ringed = false
	}
	return rec, err
}

func (o *oldStore) WriteAudit(ctx context.Context, gameID string, es []audit.Entry) (int, error) {
	if _, err := o.Memory.Game(ctx, gameID); err != nil {
		return 0, err
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	n := 0
	for _, e := range es {
		if o.ring.Put(e) {
			n++
		}
	}
	return n, nil
}

func (o *oldStore) Audit(ctx context.Context, gameID string) ([]audit.Entry, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.ring.Entries(), nil
}

func TestSeededRefused(t *testing.T) {
	mem := store.NewMemory()
	svc := newService(mem, func(c *service.Config) { c.AllowSeeded = false })
	_, err := svc.Do(context.Background(), "g", engine.Action{Kind: engine.ActCreate, Actor: "p1", ID: "c", Mode: "seeded", Seed: "x"})
	if !errors.Is(err, service.ErrSeededRefused) {
		t.Fatalf("seeded create = %v, want ErrSeededRefused", err)
	}
	if _, err := mem.Game(context.Background(), "g"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("refused create wrote the game: %v", err)
	}
	if _, err := svc.Do(context.Background(), "g", engine.Action{Kind: engine.ActCreate, Actor: "p1", ID: "c", Mode: "crypto"}); err != nil {
		t.Errorf("crypto create: %v", err)
	}
}

func TestIdempotentAndRejections(t *testing.T) {
	svc := newService(store.NewMemory(), nil)
	ctx := context.Background()
	r1, err := svc.Do(ctx, "g", engine.Action{Kind: engine.ActCreate, Actor: "p1", ID: "c", Mode: "seeded", Seed: "idem"})
	if err != nil {
		t.Fatal(err)
	}
	r2, err := svc.Do(ctx, "g", engine.Action{Kind: engine.ActCreate, Actor: "p1", ID: "c", Mode: "seeded", Seed: "idem"})
	if err != nil || !r2.Replayed || r2.Version != r1.Version || logJSON(r2.Events) != logJSON(r1.Events) {
		t.Errorf("retried create = %+v, %v; want the first result replayed", r2, err)
	}
	if _, err := svc.Do(ctx, "g", engine.Action{Kind: engine.ActCreate, Actor: "p1", ID: "c", Mode: "seeded", Seed: "other"}); !errors.Is(err, store.ErrActionIDReused) {
		t.Errorf("same id, another create = %v; want ErrActionIDReused", err)
	}
	// A crypto or fair create gets a new server seed on every call; the
	// fingerprint leaves it out, so the retry is still the same action.
	for _, mode := range []string{"crypto", "fair"} {
		first, err := svc.Do(ctx, "g-"+mode, engine.Action{Kind: engine.ActCreate, Actor: "p1", ID: "c", Mode: mode})
		if err != nil {
			t.Fatal(err)
		}
		again, err := svc.Do(ctx, "g-"+mode, engine.Action{Kind: engine.ActCreate, Actor: "p1", ID: "c", Mode: mode})
		if err != nil || !again.Replayed || again.Version != first.Version {
			t.Errorf("retried %s create = %+v, %v; want the first result replayed", mode, again, err)
		}
	}
	// Each fair create commits to a seed of its own (crypto/rand): two
	// games' commitments differ, and each is 32 bytes of SHA-256 as hex.
	if _, err := svc.Do(ctx, "g-fair-2", engine.Action{Kind: engine.ActCreate, Actor: "p1", ID: "c", Mode: "fair"}); err != nil {
		t.Fatal(err)
	}
	var commitments []string
	for _, id := range []string{"g-fair", "g-fair-2"} {
		v, err := svc.View(ctx, "p1", id, 0)
		if err != nil {
			t.Fatal(err)
		}
		commitments = append(commitments, v.Public.Fairness.CommitmentHex)
	}
	if len(commitments[0]) != 64 || commitments[0] == commitments[1] {
		t.Errorf("two fair games' commitments %q: want two different 64-digit hashes", commitments)
	}
	// A member's rejection is recorded: the retry gets it even after the
	// game changed so that the action would now be legal.
	if _, err := svc.Do(ctx, "g", engine.Action{Kind: engine.ActStart, Actor: "p1", ID: "s"}); !errors.Is(err, engine.CodeTooFewPlayers) {
		t.Fatalf("start with no players = %v, want too_few_players", err)
	}
	for i, uid := range []string{"p1", "p2"} {
		if _, err := svc.Do(ctx, "g", engine.Action{Kind: engine.ActJoin, Actor: uid, ID: "j", Seat: i, Class: engine.ClassMonk}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := svc.Do(ctx, "g", engine.Action{Kind: engine.ActStart, Actor: "p1", ID: "s"}); !errors.Is(err, engine.CodeTooFewPlayers) {
		t.Errorf("retried rejection = %v, want the same too_few_players", err)
	}
	if _, err := svc.Do(ctx, "g", engine.Action{Kind: engine.ActStart, Actor: "p1", ID: "s2"}); err != nil {
		t.Errorf("start with a new id: %v", err)
	}
	if _, err := svc.View(ctx, "p1", "nope", 0); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("View(unknown) = %v, want ErrNotFound", err)
	}
}
