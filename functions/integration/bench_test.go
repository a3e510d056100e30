package integration

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"cloud.google.com/go/firestore"
	vkit "cloud.google.com/go/firestore/apiv1"

	"github.com/fairboard/fairboard/games/dungeon/engine"
	"github.com/fairboard/fairboard/games/dungeon/policy"
	"github.com/fairboard/fairboard/games/dungeon/server/service"
	"github.com/fairboard/fairboard/games/dungeon/server/session"
	"github.com/fairboard/fairboard/games/dungeon/server/store/fsstore"
	"github.com/fairboard/fairboard/games/dungeon/tools/bot"
	"github.com/fairboard/fairboard/internal/emulator"
	"github.com/fairboard/fairboard/rng"
)

// Benchmarks against the Firestore emulator (run on request only:
//
//	go test -run '^$' -bench '^Benchmark(ActionVsBare|ActionSequential)$' \
//	    -benchtime 200x -count 5 ./functions/integration/
//
// They skip when the emulator's tools are missing. Each call of a
// benchmark function runs on a Firestore emulator started for it alone
// (benchFirestore), so no benchmark measures what an earlier one, or an
// earlier count, left in the database; and every call plays new games and
// writes new documents (runID), so -count N measures N independent runs,
// never a replay of the first.)

// benchEnv is a service on a fresh Firestore emulator (benchFirestore).
func benchEnv(b *testing.B) (*service.Service, *fsstore.Store) {
	b.Helper()
	fc, _, rpc := benchFirestore(b)
	opts := []fsstore.Option{fsstore.WithRPC(rpc())}
	if os.Getenv("FAIRBOARD_BENCH_COMMIT") == "library" {
		// The comparison's baseline: the commit through the library's
		// WriteBatch, as the store made it before its raw commit.
		opts = append(opts, fsstore.WithLibraryCommit())
		b.Log("committing through the library (FAIRBOARD_BENCH_COMMIT=library)")
	}
	st := fsstore.New(fc, opts...)
	svc := service.New(service.Config{Store: st, Engine: eng, AllowSeeded: true, Logger: quiet(),
		Now: func() time.Time { return fixedNow }})
	return svc, st
}

// benchFirestore starts a Firestore emulator for this call of the
// benchmark alone (stopped when it ends; the Auth emulator stays the
// suite's), warms it up, and returns a client of it and a function that
// makes more clients of it (one per server instance), and one that makes
// raw clients of it (fsstore.WithRPC: a store reads with its field mask,
// as a deployed one does). It skips when the emulators' tools are
// missing.
func benchFirestore(b *testing.B) (*firestore.Client, func() *firestore.Client, func() *vkit.Client) {
	b.Helper()
	if err := emulator.CheckTools(true, true); err != nil {
		b.Skip(err)
	}
	f := emu.FreshFirestore(b)
	b.Logf("a fresh Firestore emulator at %s", f.Host)
	client := func() *firestore.Client {
		c, err := f.Client(context.Background())
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { c.Close() })
		return c
	}
	rpc := func() *vkit.Client {
		c, err := f.RPC(context.Background())
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { c.Close() })
		return c
	}
	c := client()
	warmUp(b, c)
	return c, client, rpc
}

// warmUp runs a few hundred small reads and commits so the emulator's JIT
// has compiled its paths before anything is measured.
func warmUp(b *testing.B, c *firestore.Client) {
	ref := c.Collection("warm").Doc("up")
	for i := range 300 {
		ctx := context.Background()
		snaps, err := c.GetAll(ctx, []*firestore.DocumentRef{ref, ref.Collection("private").Doc("state")})
		if err != nil {
			b.Fatal(err)
		}
		//lint:ignore SA1019 WriteBatch: the store's commit (fsstore's commit.go).
		wb := c.Batch()
		if snaps[0].Exists() {
			wb.Update(ref, []firestore.Update{{Path: "i", Value: int64(i)}}, firestore.LastUpdateTime(snaps[0].UpdateTime))
		} else {
			wb.Create(ref, map[string]any{"i": int64(i)})
		}
		wb.Create(ref.Collection("log").Doc(fmt.Sprintf("%020d", i)), map[string]any{"i": int64(i)})
		if _, err := wb.Commit(ctx); err != nil {
			b.Fatal(err)
		}
	}
}

// benchNonce tells this process's documents from those of an earlier
// run against the same emulator; runID adds a counter per run of a
// benchmark function, so that -count 5 never reuses a game or an id.
var (
	benchNonce = strconv.FormatInt(time.Now().UnixNano(), 36)
	benchRuns  atomic.Int64
)

func runID(name string) string {
	return fmt.Sprintf("%s-%s-%d", name, benchNonce, benchRuns.Add(1))
}

// actionSource yields the actions of 3-player bot games one after another
// (create, joins, start, then the bots' choices), keeping a local mirror
// of the game (same seed, same actions) so choosing costs no read.
type actionSource struct {
	prefix  string
	audited bool
	games   int
	gameID  string
	mirror  engine.Game
	queue   []engine.Action
	seats   []bot.Seat
	n       int
	drawn   []rng.Entry // the last action's audit entries (audited)
	ring    []rng.Entry // every entry the game drew (audited)
}

// Record implements rng.Auditor.
func (s *actionSource) Record(e rng.Entry) { s.drawn, s.ring = append(s.drawn, e), append(s.ring, e) }

func newSource(prefix string, audited bool) *actionSource {
	ss := make([]bot.Seat, 3)
	for i, c := range policy.DefaultClasses(3) {
		ss[i] = bot.Seat{Class: c, Policy: policy.Aggressive{}}
	}
	return &actionSource{prefix: prefix, audited: audited, seats: ss}
}

func (s *actionSource) next() (string, engine.Action) {
	if len(s.queue) == 0 && s.mirror.Public.Phase != engine.PhasePlaying {
		s.games++
		s.gameID = fmt.Sprintf("%s-%d", s.prefix, s.games)
		s.mirror, s.ring = engine.Game{}, s.ring[:0]
		s.queue = append(s.queue, engine.Action{Kind: engine.ActCreate, Actor: "p1", GameID: s.gameID, Mode: "seeded", Seed: s.gameID, Audit: s.audited})
		for i, st := range s.seats {
			s.queue = append(s.queue, engine.Action{Kind: engine.ActJoin, Actor: policy.UID(i), Seat: i, Class: st.Class})
		}
		s.queue = append(s.queue, engine.Action{Kind: engine.ActStart, Actor: "p1"})
	}
	var a engine.Action
	if len(s.queue) > 0 {
		a, s.queue = s.queue[0], s.queue[1:]
	} else {
		uid := s.mirror.Public.Awaiting
		a = s.seats[int(uid[1]-'1')].Policy.Choose(&s.mirror.Public, eng.Rules(), uid)
	}
	s.n++
	a.ID = fmt.Sprintf("b%07d", s.n)
	return s.gameID, a
}

// applied mirrors an action the service applied, and returns its events.
func (s *actionSource) applied(b testing.TB, a engine.Action) []engine.Event {
	a.At = fixedNow.UnixMilli()
	var st *rng.Stream
	s.drawn = s.drawn[:0]
	if a.Kind != engine.ActCreate {
		var opts []rng.Option
		if s.audited {
			opts = append(opts, rng.WithAuditor(s))
		}
		var err error
		if st, err = session.Stream(&s.mirror, opts...); err != nil {
			b.Fatal(err)
		}
	}
	ev, err := eng.Dispatch(&s.mirror, &a, st, nil)
	if err != nil {
		b.Fatalf("mirror %s: %v", a.Kind, err)
	}
	if st != nil {
		s.mirror.SaveStream(st)
	}
	return ev
}

// latencies collects per-operation durations.
type latencies struct {
	mu sync.Mutex
	d  []time.Duration
}

func (l *latencies) add(d time.Duration) { l.mu.Lock(); l.d = append(l.d, d); l.mu.Unlock() }

// q is the p-quantile in milliseconds (0 if empty).
func (l *latencies) q(p float64) float64 {
	if len(l.d) == 0 {
		return 0
	}
	d := slices.Clone(l.d)
	slices.Sort(d)
	return float64(d[int(p*float64(len(d)-1))].Microseconds()) / 1000
}

func (l *latencies) report(b *testing.B, elapsed time.Duration) {
	if len(l.d) == 0 {
		return
	}
	b.ReportMetric(float64(len(l.d))/elapsed.Seconds(), "ops/s")
	b.ReportMetric(l.q(0.50), "p50-ms")
	b.ReportMetric(l.q(0.99), "p99-ms")
}

// docCounts are the store's reads and writes over a run, and the most
// writes one applied action committed.
type docCounts struct {
	reads, writes, maxWrites, actions int64
}

// count adds one action's store counters, before and after.
func (c *docCounts) count(s0, s1 fsstore.Stats) {
	c.actions++
	c.reads += s1.Reads - s0.Reads
	w := s1.Writes - s0.Writes
	c.writes += w
	c.maxWrites = max(c.maxWrites, w)
}

func (c *docCounts) report(b *testing.B) {
	if c.actions == 0 {
		return
	}
	b.ReportMetric(float64(c.reads)/float64(c.actions), "reads/action")
	b.ReportMetric(float64(c.writes)/float64(c.actions), "writes/action")
	b.ReportMetric(float64(c.maxWrites), "max-writes/action")
}

func runActions(b *testing.B, svc *service.Service, st *fsstore.Store, games int) {
	var lat latencies
	s0, t0 := svc.Stats(), st.Stats()
	per := (b.N + games - 1) / games
	var total atomic.Int64
	var mu sync.Mutex
	var counts docCounts
	prefix := runID(fmt.Sprintf("bench%d", games))
	b.ResetTimer()
	start := time.Now()
	var wg sync.WaitGroup
	for g := range games {
		wg.Go(func() {
			src := newSource(fmt.Sprintf("%s-%d", prefix, g), false)
			for range per {
				id, a := src.next()
				c0 := st.Stats()
				t := time.Now()
				_, err := svc.Do(context.Background(), id, a)
				d := time.Since(t)
				if err != nil {
					b.Errorf("%s %s: %v", id, a.Kind, err)
					return
				}
				if games == 1 { // per action only when one runs at a time
					counts.count(c0, st.Stats())
				}
				lat.add(d)
				total.Add(int64(d))
				mu.Lock()
				src.applied(b, a)
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	elapsed := time.Since(start)
	b.StopTimer()
	lat.report(b, elapsed)
	s1, t1 := svc.Stats(), st.Stats()
	n := float64(len(lat.d))
	b.ReportMetric(float64(t1.Transactions-t0.Transactions)/n, "txn/action")
	b.ReportMetric(float64(t1.Attempts-t0.Attempts)/n, "attempts/action")
	if s1.Reduces > s0.Reduces {
		b.ReportMetric(100*float64(s1.ReduceTime-s0.ReduceTime)/float64(total.Load()), "reduce-%")
		b.ReportMetric(float64((s1.ReduceTime-s0.ReduceTime).Microseconds())/float64(s1.Reduces-s0.Reduces), "reduce-us")
	}
	if games == 1 {
		counts.report(b)
	} else {
		b.ReportMetric(float64(t1.Writes-t0.Writes)/n, "writes/action")
		b.ReportMetric(float64(t1.MaxWrites), "max-writes/action")
	}
}

// BenchmarkActionSequential: one game at a time, one action after another.
func BenchmarkActionSequential(b *testing.B) {
	svc, st := benchEnv(b)
	runActions(b, svc, st, 1)
}

// BenchmarkAction20Games: 20 games played concurrently.
func BenchmarkAction20Games(b *testing.B) {
	svc, st := benchEnv(b)
	runActions(b, svc, st, 20)
}

// cpuTime is the CPU time (user and system) this process has used.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
