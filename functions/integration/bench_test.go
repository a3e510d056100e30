package integration

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"cloud.google.com/go/firestore"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

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
//	go test -run '^$' -bench . -benchtime 300x ./functions/integration/
//
// They skip when the emulator's tools are missing.)

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

// actionSource yields the actions of bot games one after another (create,
// joins, start, then the bots' choices), keeping a local mirror of the
// game (same seed, same actions) so choosing costs no read.
type actionSource struct {
	prefix string
	games  int
	gameID string
	mirror engine.Game
	queue  []engine.Action
	seats  []bot.Seat
	n      int
}

func newSource(prefix string) *actionSource {
	ss := make([]bot.Seat, 3)
	for i, c := range bot.DefaultClasses(3) {
		ss[i] = bot.Seat{Class: c, Policy: bot.Aggressive{}}
	}
	return &actionSource{prefix: prefix, seats: ss}
}

func (s *actionSource) next() (string, engine.Action) {
	if len(s.queue) == 0 && s.mirror.Public.Phase != engine.PhasePlaying {
		s.games++
		s.gameID = fmt.Sprintf("%s-%d", s.prefix, s.games)
		s.mirror = engine.Game{}
		s.queue = append(s.queue, engine.Action{Kind: engine.ActCreate, Actor: "p1", GameID: s.gameID, Mode: "seeded", Seed: s.gameID})
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

// applied mirrors an action the service applied.
func (s *actionSource) applied(b *testing.B, a engine.Action) {
	a.At = fixedNow.UnixMilli()
	var st *rng.Stream
	if a.Kind != engine.ActCreate {
		var err error
		if st, err = session.Stream(&s.mirror); err != nil {
			b.Fatal(err)
		}
	}
	if _, err := eng.Dispatch(&s.mirror, &a, st, nil); err != nil {
		b.Fatalf("mirror %s: %v", a.Kind, err)
	}
	if st != nil {
		s.mirror.SaveStream(st)
	}
}

// latencies collects per-operation durations.
type latencies struct {
	mu sync.Mutex
	d  []time.Duration
}

func (l *latencies) add(d time.Duration) { l.mu.Lock(); l.d = append(l.d, d); l.mu.Unlock() }

func (l *latencies) report(b *testing.B, elapsed time.Duration) {
	slices.Sort(l.d)
	if len(l.d) == 0 {
		return
	}
	q := func(p float64) float64 { return float64(l.d[int(p*float64(len(l.d)-1))].Microseconds()) / 1000 }
	b.ReportMetric(float64(len(l.d))/elapsed.Seconds(), "ops/s")
	b.ReportMetric(q(0.50), "p50-ms")
	b.ReportMetric(q(0.99), "p99-ms")
}

func runActions(b *testing.B, svc *service.Service, st *fsstore.Store, games int) {
	var lat latencies
	s0, t0 := svc.Stats(), st.Stats()
	per := (b.N + games - 1) / games
	var total atomic.Int64
	b.ResetTimer()
	start := time.Now()
	var wg sync.WaitGroup
	for g := range games {
		wg.Go(func() {
			src := newSource(fmt.Sprintf("bench-%d-%d-%d", games, b.N, g))
			for range per {
				id, a := src.next()
				t := time.Now()
				_, err := svc.Do(context.Background(), id, a)
				d := time.Since(t)
				if err != nil {
					b.Errorf("%s %s: %v", id, a.Kind, err)
					return
				}
				lat.add(d)
				total.Add(int64(d))
				src.applied(b, a)
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
	b.ReportMetric(100*float64(s1.ReduceTime-s0.ReduceTime)/float64(total.Load()), "reduce-%")
	b.ReportMetric(float64((s1.ReduceTime-s0.ReduceTime).Microseconds())/float64(s1.Reduces-s0.Reduces), "reduce-us")
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

// bareDocs are a realistic started game's documents, for the bare
// attempts to write (ups: pub as field updates).
type bareDocs struct {
	pub, sec, ev, rec map[string]any
	ups               []firestore.Update
}

func newBareDocs(b *testing.B) bareDocs {
	src := newSource("bare-src")
	for range 5 {
		_, a := src.next()
		src.applied(b, a)
	}
	g := src.mirror
	var d bareDocs
	d.pub, _ = store.ToDoc(&g.Public)
	d.sec, _ = store.ToDoc(&g.Secret)
	d.ev, _ = store.JSONToDoc([]byte(`{"seq":1,"type":"RoundEnded","round":1}`))
	d.rec, _ = store.ToDoc(&store.Record{ActionID: "x", Actor: "p1", Kind: engine.ActMove, Version: 1})
	for k, v := range d.pub {
		d.ups = append(d.ups, firestore.Update{FieldPath: firestore.FieldPath{k}, Value: v})
	}
	return d
}

// bareTransaction does what one action does to Firestore (fsstore's
// attempt), with no engine and no conversion: one plain read of the game,
// its private state and the action record; then a write-only commit that
// updates the game if unchanged since (or creates it), sets the private
// state, and creates one log document and the record.
func bareTransaction(ctx context.Context, c *firestore.Client, game *firestore.DocumentRef, id string, d bareDocs) error {
	refs := []*firestore.DocumentRef{game, game.Collection("private").Doc("state"), game.Collection("actions").Doc(id)}
	snaps, err := c.GetAll(ctx, refs)
	if err != nil {
		return err
	}
	return c.RunTransaction(ctx, func(ctx context.Context, tx *firestore.Transaction) error {
		if snaps[0].Exists() {
			tx.Update(refs[0], d.ups, firestore.LastUpdateTime(snaps[0].UpdateTime))
		} else {
			tx.Create(refs[0], d.pub)
		}
		tx.Set(refs[1], d.sec)
		tx.Create(game.Collection("log").Doc(id), d.ev)
		return tx.Create(refs[2], d.rec)
	}, firestore.MaxAttempts(1))
}

// BenchmarkBareTransaction: the bare reads and commit of one action,
// sequentially.
func BenchmarkBareTransaction(b *testing.B) {
	_, st := benchEnv(b)
	c, ctx, d := st.Client(), context.Background(), newBareDocs(b)
	game := c.Collection("games").Doc(fmt.Sprintf("bare-%d", b.N)) // ids new on every run of the function
	var lat latencies
	b.ResetTimer()
	start := time.Now()
	for i := range b.N {
		t := time.Now()
		if err := bareTransaction(ctx, c, game, fmt.Sprintf("%07d", i), d); err != nil {
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
	c, ctx, d := st.Client(), context.Background(), newBareDocs(b)
	var lat latencies
	per := (b.N + 19) / 20
	b.ResetTimer()
	start := time.Now()
	var wg sync.WaitGroup
	for g := range 20 {
		wg.Go(func() {
			game := c.Collection("games").Doc(fmt.Sprintf("bare20-%d-%d", b.N, g))
			for i := range per {
				t := time.Now()
				if err := bareTransaction(ctx, c, game, fmt.Sprintf("%07d", i), d); err != nil {
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

func isNotFound(err error) bool { return status.Code(err) == codes.NotFound }
