package integration

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"cloud.google.com/go/firestore"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/fairboard/fairboard/audit"
	"github.com/fairboard/fairboard/bot"
	"github.com/fairboard/fairboard/engine"
	"github.com/fairboard/fairboard/internal/emulator"
	"github.com/fairboard/fairboard/rng"
	"github.com/fairboard/fairboard/service"
	"github.com/fairboard/fairboard/session"
	"github.com/fairboard/fairboard/store"
	"github.com/fairboard/fairboard/store/fsstore"
)

// Benchmarks against the Firestore emulator (run on request only:
//
//	go test -run '^$' -bench '^Benchmark(ActionVsBare|ActionSequential|BareTransaction)$' \
//	    -benchtime 200x -count 5 ./functions/integration/
//
// They skip when the emulator's tools are missing. Every run of a
// benchmark function plays new games and writes new documents (runID), so
// -count N measures N independent runs, never a replay of the first.)

// benchEnv is a service on the suite's Firestore emulator.
func benchEnv(b *testing.B) (*service.Service, *fsstore.Store) {
	b.Helper()
	if err := emulator.CheckTools(true, true); err != nil {
		b.Skip(err)
	}
	emu.Require(b)
	fc := emu.Client(b)
	st := fsstore.New(fc)
	warmOnce.Do(func() { warmUp(b, fc) })
	svc := service.New(service.Config{Store: st, Engine: eng, AllowSeeded: true, Logger: quiet(),
		Now: func() time.Time { return fixedNow }})
	return svc, st
}

var warmOnce sync.Once

// warmUp runs a few hundred small transactions so the emulator's JIT has
// compiled its paths before anything is measured.
func warmUp(b *testing.B, c *firestore.Client) {
	ref := c.Collection("warm").Doc("up")
	for i := range 300 {
		err := c.RunTransaction(context.Background(), func(ctx context.Context, tx *firestore.Transaction) error {
			if _, err := tx.Get(ref); err != nil && !isNotFound(err) {
				return err
			}
			return tx.Set(ref, map[string]any{"i": int64(i)})
		})
		if err != nil {
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
	for i, c := range bot.DefaultClasses(3) {
		ss[i] = bot.Seat{Class: c, Policy: bot.Aggressive{}}
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
			s.queue = append(s.queue, engine.Action{Kind: engine.ActJoin, Actor: bot.UID(i), Seat: i, Class: st.Class})
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

// bareCommit is what the store commits for one real action, converted
// once and frozen: the field updates of the game document and of the
// private state (the ring's slots with them, audit on), the log document,
// the applied action and the record. A bare transaction writes the same
// five documents with no engine and no conversion.
type bareCommit struct {
	pub                  map[string]any // the game document it starts from
	sec                  map[string]any
	pubUps, secUps       []firestore.Update
	logDoc, applied, rec map[string]any
	events, ring         int
}

// newBareCommit plays a seeded 3-player bot game in memory up to the first
// action in the second half of the game (at or after half its last
// version) that draws and logs at least three events, and freezes what
// the store commits for it. The diff follows fsstore's: the fields whose
// values changed, the others left out.
//
// The middle of the game, because the documents grow as a game goes on
// and the benchmarks' games are played whole: with audit on, the ring the
// private state holds grows with every draw (359 entries at the end of
// this game, about 180 at its middle, 70 at version 30), so a bare
// transaction frozen early would read and write a smaller document than
// the average action does.
func newBareCommit(b testing.TB, audited bool) bareCommit {
	src := newSource("bare-src", audited)
	for src.mirror.Public.Phase != engine.PhaseFinished {
		_, a := src.next()
		src.applied(b, a)
	}
	half := src.mirror.Public.Version / 2
	src = newSource("bare-src", audited)
	toDoc := func(v any) map[string]any {
		d, err := store.ToDoc(v)
		if err != nil {
			b.Fatal(err)
		}
		return d
	}
	for {
		_, a := src.next()
		pub0, sec0, v0 := toDoc(&src.mirror.Public), toDoc(&src.mirror.Secret), src.mirror.Public.Version
		seq := src.mirror.Public.RNG.Seq
		ev := src.applied(b, a)
		drew := src.mirror.Public.RNG.Seq > seq
		if src.mirror.Public.Version < half || !drew || len(ev) < 3 {
			if src.mirror.Public.Phase == engine.PhaseFinished {
				b.Fatal("no action to freeze")
			}
			continue
		}
		var c bareCommit
		c.pub, c.sec = pub0, sec0
		c.pub["ownerUid"], c.pub["playerUids"] = "p1", []any{"p1", "p2", "p3"} // fsstore's derived fields
		c.pubUps = diff(c.pub, toDoc(&src.mirror.Public))
		c.secUps = diff(c.sec, toDoc(&src.mirror.Secret))
		if audited {
			// The ring the private state holds at that point of the game
			// (every entry drawn before), as the store keeps it: the
			// entry's JSON per slot; then the action's own entries.
			ring := map[string]any{}
			for _, e := range audit.Stamp(src.ring[:len(src.ring)-len(src.drawn)], fixedNow.UnixMilli()) {
				b, _ := json.Marshal(e)
				ring[strconv.Itoa(audit.Slot(e.Seq))] = string(b)
			}
			c.sec["auditRing"] = ring
			for _, e := range audit.Stamp(src.drawn, fixedNow.UnixMilli()) {
				b, _ := json.Marshal(e)
				c.secUps = append(c.secUps, firestore.Update{FieldPath: firestore.FieldPath{"auditRing", strconv.Itoa(audit.Slot(e.Seq))}, Value: string(b)})
				c.ring++
			}
		}
		list := make([]any, len(ev))
		for i := range ev {
			d, err := store.JSONToDoc(ev[i].AppendJSON(nil))
			if err != nil {
				b.Fatal(err)
			}
			list[i] = d
		}
		c.logDoc, c.events = map[string]any{"events": list}, len(ev)
		a.At, a.ID = fixedNow.UnixMilli(), "p1:"+a.ID
		c.applied = toDoc(store.AppliedAction{Version: v0, Action: a})
		c.rec = toDoc(&store.Record{ActionID: a.ID, Actor: a.Actor, Kind: a.Kind, Fingerprint: strings.Repeat("f", 64),
			Version: src.mirror.Public.Version, Events: ev, Audit: audit.Stamp(src.drawn, fixedNow.UnixMilli()), Ringed: audited})
		return c
	}
}

// diff is the updates that turn document old into doc, the changed
// fields only.
func diff(old, doc map[string]any) []firestore.Update {
	var ups []firestore.Update
	for k, v := range doc {
		if was, ok := old[k]; !ok || !reflect.DeepEqual(was, v) {
			ups = append(ups, firestore.Update{FieldPath: firestore.FieldPath{k}, Value: v})
		}
	}
	for k := range old {
		if _, ok := doc[k]; !ok {
			ups = append(ups, firestore.Update{FieldPath: firestore.FieldPath{k}, Value: firestore.Delete})
		}
	}
	return ups
}

// bareGame is one game's documents for bare transactions.
type bareGame struct {
	ref *firestore.DocumentRef
	n   int
}

// newBareGame creates the game document and its private state.
func newBareGame(b testing.TB, c *firestore.Client, id string, d bareCommit) *bareGame {
	ref := c.Collection("games").Doc(id)
	if _, err := c.Batch().Create(ref, d.pub).Create(ref.Collection("private").Doc("state"), d.sec).Commit(context.Background()); err != nil {
		b.Fatal(err)
	}
	return &bareGame{ref: ref}
}

// bareTransaction does what one action does to Firestore (fsstore's
// attempt), with no engine and no conversion: one plain read of the game,
// its private state and the action's record; then a write-only commit of
// the five documents: the game's changed fields if it is unchanged since,
// the private state's, a new log document, a new applied action, a new
// record.
func (g *bareGame) transaction(ctx context.Context, c *firestore.Client, d bareCommit) error {
	g.n++
	id := fmt.Sprintf("%020d", g.n)
	priv := g.ref.Collection("private").Doc("state")
	recRef := g.ref.Collection("actions").Doc(id)
	snaps, err := c.GetAll(ctx, []*firestore.DocumentRef{g.ref, priv, recRef})
	if err != nil {
		return err
	}
	return c.RunTransaction(ctx, func(ctx context.Context, tx *firestore.Transaction) error {
		tx.Update(g.ref, d.pubUps, firestore.LastUpdateTime(snaps[0].UpdateTime))
		tx.Update(priv, d.secUps)
		tx.Create(g.ref.Collection("log").Doc(id), d.logDoc)
		tx.Create(g.ref.Collection("applied").Doc(id), d.applied)
		return tx.Create(recRef, d.rec)
	}, firestore.MaxAttempts(1))
}

// BenchmarkBareTransaction: the bare reads and commit of one action,
// sequentially.
func BenchmarkBareTransaction(b *testing.B) {
	_, st := benchEnv(b)
	c, ctx, d := st.Client(), context.Background(), newBareCommit(b, false)
	g := newBareGame(b, c, runID("bare"), d)
	var lat latencies
	b.ResetTimer()
	start := time.Now()
	for range b.N {
		t := time.Now()
		if err := g.transaction(ctx, c, d); err != nil {
			b.Fatal(err)
		}
		lat.add(time.Since(t))
	}
	elapsed := time.Since(start)
	b.StopTimer()
	lat.report(b, elapsed)
}

// BenchmarkBareTransaction20: the bare transaction on 20 games at once.
func BenchmarkBareTransaction20(b *testing.B) {
	_, st := benchEnv(b)
	c, ctx, d := st.Client(), context.Background(), newBareCommit(b, false)
	var lat latencies
	per := (b.N + 19) / 20
	prefix := runID("bare20")
	b.ResetTimer()
	start := time.Now()
	var wg sync.WaitGroup
	for i := range 20 {
		wg.Go(func() {
			g := newBareGame(b, c, fmt.Sprintf("%s-%d", prefix, i), d)
			for range per {
				t := time.Now()
				if err := g.transaction(ctx, c, d); err != nil {
					b.Error(err)
					return
				}
				lat.add(time.Since(t))
			}
		})
	}
	wg.Wait()
	elapsed := time.Since(start)
	b.StopTimer()
	lat.report(b, elapsed)
}

// BenchmarkActionVsBare alternates one real action (sequential bot games
// through the service on Firestore) and one bare transaction (the same
// reads and the same five documents, frozen from a real action) on the
// same emulator, so that drift lands on both. It reports both medians,
// their ratio and difference (the engine's, the conversions' and the
// service's cost over the transaction it needs), the client's CPU time
// per action (this process: the conversions, the engine, gRPC), and the
// documents an action reads and writes, with the most one applied action
// wrote. audit=on plays games with the audit ring on (the bare commit then
// rings as many entries as its frozen action drew).
func BenchmarkActionVsBare(b *testing.B) {
	for _, audited := range []bool{false, true} {
		b.Run(map[bool]string{false: "audit=off", true: "audit=on"}[audited], func(b *testing.B) {
			svc, st := benchEnv(b)
			c, ctx, d := st.Client(), context.Background(), newBareCommit(b, audited)
			g := newBareGame(b, c, runID("vsbare"), d)
			src := newSource(runID("vs"), audited)
			var act, bare latencies
			var counts docCounts
			var cpu time.Duration
			b.ResetTimer()
			for range b.N {
				id, a := src.next()
				s0, c0 := st.Stats(), cpuTime()
				t := time.Now()
				if _, err := svc.Do(ctx, id, a); err != nil {
					b.Fatalf("%s %s: %v", id, a.Kind, err)
				}
				act.add(time.Since(t))
				cpu += cpuTime() - c0
				counts.count(s0, st.Stats())
				src.applied(b, a)
				t = time.Now()
				if err := g.transaction(ctx, c, d); err != nil {
					b.Fatal(err)
				}
				bare.add(time.Since(t))
			}
			b.StopTimer()
			ap, bp := act.q(0.5), bare.q(0.5)
			b.ReportMetric(ap, "action-p50-ms")
			b.ReportMetric(bp, "bare-p50-ms")
			b.ReportMetric(ap/bp, "ratio-p50")
			b.ReportMetric(ap-bp, "overhead-ms")
			b.ReportMetric(float64(cpu.Microseconds())/float64(b.N), "client-cpu-us/action")
			counts.report(b)
		})
	}
}

// cpuTime is the CPU time (user and system) this process has used.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func isNotFound(err error) bool { return status.Code(err) == codes.NotFound }
