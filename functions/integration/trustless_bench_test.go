package integration

import (
	"context"
	"errors"
	"fmt"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/fairboard/fairboard/deploy"
	"github.com/fairboard/fairboard/functest"
	"github.com/fairboard/fairboard/functions"
	"github.com/fairboard/fairboard/games/dungeon/engine"
	"github.com/fairboard/fairboard/games/dungeon/policy"
	"github.com/fairboard/fairboard/games/dungeon/server/dungeonfn"
	"github.com/fairboard/fairboard/games/dungeon/server/player"
	"github.com/fairboard/fairboard/games/dungeon/server/service"
	"github.com/fairboard/fairboard/games/dungeon/server/store/fsstore"
	"github.com/fairboard/fairboard/internal/emulator"
)

// Benchmarks of trustless games through the functions on the emulators
// (on request only; they skip without the emulators' tools):
//
//	go test -run '^$' -bench 'Trustless|FairAction' -benchtime 150x -count 5 ./functions/integration/
//
// Every run of a benchmark function plays new games (runID), so -count 5
// measures five independent runs. An "action" is one in-game decision of
// the bots, every one of them timed; in a trustless game one that draws
// goes with its actor's reveal, as the Go client sends it, and is timed
// from its act to the commit that applies it, its reveal round included
// (every other seat reveals at once, each through its own server
// instance, as separate clients would reach separate instances). The
// players' own work (checking the log, choosing) is outside the timings.

// instance is one server: the functions over HTTP on their own store
// (its own per-game queue and counters).
type instance struct {
	c  *functest.Client
	st *fsstore.Store
}

func benchInstances(b *testing.B, n int) []instance {
	b.Helper()
	if err := emulator.CheckTools(true, true); err != nil {
		b.Skip(err)
	}
	// A fresh Firestore emulator for this call (benchFirestore): the
	// staged reveals' query slows as documents accumulate in one.
	_, client, rpc := benchFirestore(b)
	v, err := deploy.AdminVerifier(context.Background(), emu.ProjectID())
	if err != nil {
		b.Fatal(err)
	}
	out := make([]instance, n)
	for i := range out {
		st := fsstore.New(client(), fsstore.WithRPC(rpc()))
		svc := service.New(service.Config{Store: st, Engine: eng, Logger: quiet()})
		srv := httptest.NewServer(functions.New(dungeonfn.New(svc), v, quiet()).Mux())
		b.Cleanup(srv.Close)
		out[i] = instance{c: &functest.Client{Base: srv.URL}, st: st}
	}
	return out
}

// counts sums the instances' store counters.
func counts(in []instance) fsstore.Stats {
	var s fsstore.Stats
	for _, i := range in {
		t := i.st.Stats()
		s.Attempts += t.Attempts
		s.Reads += t.Reads
		s.Writes += t.Writes
		s.Transactions += t.Transactions
		s.MaxWrites = max(s.MaxWrites, t.MaxWrites)
		s.Waits += t.Waits
		s.WaitTime += t.WaitTime
	}
	return s
}

// trustlessRun plays b.N in-game actions of n-player trustless games
// (new games as each ends) and reports them.
type trustlessRun struct {
	b       *testing.B
	t       testing.TB // b, or a test's t (newGame and round)
	in      []instance
	n       int
	prefix  string
	games   int
	tb      *functest.Table
	acted   int
	all     latencies // every action (a random one with its round)
	random  latencies // the actions that draw, with their round
	plain   latencies // the actions applied at once
	rounds  latencies // first reveal sent to the round applied
	reveals int
	randoms int
	// docs: reads and writes per reveal of a round (the one that closes
	// it included), per random action with its round (the act, with its
	// own reveal, and the other seats' reveals), per action applied at
	// once
	revealDocs, randomDocs, onceDocs docCounts
	gameWrites, gameWritesRound      int64
	elapsed                          time.Duration
	// roundsSeen: the timed rounds; extra: those that took a commit
	// more than the reveals sent (the round closed after a staging)
	roundsSeen, extra int
	// floor, if not nil, runs the floor of each random action after it
	// (BenchmarkTrustlessAction's floor-ratio-p50); lastReveals are the
	// reveals of the last round sent, by player
	floor       *trustlessFloor
	floorLat    latencies
	lastReveals map[int]engine.Action
}

func (r *trustlessRun) newGame(ctx context.Context) {
	r.games++
	ps := players(r.t, r.n)
	in := r.in[0]
	tb, err := functest.NewTable(ctx, in.c, fmt.Sprintf("%s-%d", r.prefix, r.games), ps, eng.Rules(), nil)
	if err != nil {
		r.t.Fatal(err)
	}
	if err := tb.Act(ctx, 0, engine.Action{Kind: engine.ActStart}, "start"); err != nil {
		r.t.Fatal(err)
	}
	if err := tb.Sync(ctx); err != nil {
		r.t.Fatal(err)
	}
	r.tb = tb
	r.round(ctx, nil) // the start's round, not timed
	if err := tb.Sync(ctx); err != nil {
		r.t.Fatal(err)
	}
}

// round has every seat that has not revealed the pending index reveal it
// at once, each through its own instance; it returns when every reveal
// is answered (the round is then applied: the reveal that completes it
// closes it before it answers) and how many were sent.
func (r *trustlessRun) round(ctx context.Context, lat *latencies) int {
	tb := r.tb
	acts := make([]engine.Action, len(tb.Seats))
	var who []int
	for i := range tb.Seats {
		a, err := tb.Reveal(i)
		if errors.Is(err, player.ErrNothingToReveal) {
			continue // revealed with its action
		}
		if err != nil {
			r.t.Fatal(err)
		}
		acts[i] = a
		who = append(who, i)
	}
	r.lastReveals = map[int]engine.Action{}
	for _, i := range who {
		r.lastReveals[i] = acts[i]
	}
	var wg sync.WaitGroup
	s0 := counts(r.in)
	start := time.Now()
	for _, i := range who {
		wg.Go(func() {
			in := r.in[i%len(r.in)]
			d := functest.RevealData(acts[i], fmt.Sprint("r", acts[i].Index))
			d["gameId"] = tb.ID
			if err := in.c.Call(ctx, "reveal", tb.Players[i].Token, d, nil); err != nil {
				r.t.Errorf("reveal: %v", err)
			}
		})
	}
	wg.Wait()
	if lat != nil {
		lat.add(time.Since(start))
	}
	r.reveals += len(who)
	if lat != nil {
		// More transactions than reveals: a reveal staged and then
		// closed the round (or a later call did), one more commit in line.
		r.roundsSeen++
		if d := counts(r.in).Transactions - s0.Transactions; d > int64(len(who)) {
			r.extra++
		}
	}
	return len(who)
}

// run plays the actions, each timed from its act to the commit that
// applies it (a random one's round included), as the Go client plays
// them: an action that draws goes with its actor's reveal.
func (r *trustlessRun) run(ctx context.Context) {
	b := r.b
	r.prefix = runID(fmt.Sprintf("tl%d", r.n))
	r.newGame(ctx)
	var timed time.Duration
	b.ResetTimer()
	for r.acted < b.N {
		tb := r.tb
		if tb.State.Phase == engine.PhaseFinished {
			b.StopTimer()
			r.newGame(ctx)
			b.StartTimer()
			continue
		}
		seat := tb.Awaited()
		a := policy.Aggressive{}.Choose(&tb.State, eng.Rules(), tb.Players[seat].UID)
		l0 := len(tb.Log)
		s0 := counts(r.in)
		t0 := time.Now()
		if _, err := tb.ActRevealing(ctx, seat, a, fmt.Sprint("a", tb.State.Version)); err != nil {
			b.Fatalf("%s: %v", a.Kind, err)
		}
		d := time.Since(t0)
		sAct := counts(r.in) // the act's documents (the Sync after is the test's)
		b.StopTimer()
		if err := tb.Sync(ctx); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		l1 := len(tb.Log)
		if tb.State.Trustless.Pending != nil {
			r.randoms++
			sRound := counts(r.in)
			t1 := time.Now()
			sent := r.round(ctx, &r.rounds)
			d += time.Since(t1)
			sEnd := counts(r.in)
			for range sent {
				r.revealDocs.actions++
			}
			r.revealDocs.reads += sEnd.Reads - sRound.Reads
			r.revealDocs.writes += sEnd.Writes - sRound.Writes
			// the act and its round, without the Sync between them
			sEnd.Reads -= sRound.Reads - sAct.Reads
			sEnd.Writes -= sRound.Writes - sAct.Writes
			r.randomDocs.count(s0, sEnd)
			r.random.add(d)
			b.StopTimer()
			if err := tb.Sync(ctx); err != nil {
				b.Fatal(err)
			}
			if r.floor != nil {
				// its floor, right after it
				tokens := map[int]string{}
				for i := range r.lastReveals {
					tokens[i] = tb.Players[i].Token
				}
				r.floor.prepare(b, tb.ID, &tb.State, tb.Log[l0:l1], tb.Log[l1:], r.lastReveals, tb.Players[seat].UID)
				fd, err := r.floor.run(ctx, tb.Players[seat].Token, tokens)
				if err != nil {
					b.Fatal(err)
				}
				r.floorLat.add(fd)
			}
			b.StartTimer()
		} else {
			r.onceDocs.count(s0, sAct)
			r.plain.add(d)
		}
		r.gameWrites++
		r.all.add(d)
		timed += d
		r.acted++
	}
	b.StopTimer()
	r.elapsed = timed
}

func (r *trustlessRun) report() {
	b := r.b
	b.ReportMetric(r.all.q(0.50), "p50-ms")
	b.ReportMetric(r.all.q(0.95), "p95-ms")
	b.ReportMetric(r.plain.q(0.50), "plain-p50-ms")
	b.ReportMetric(r.random.q(0.50), "random-p50-ms")
	b.ReportMetric(r.random.q(0.95), "random-p95-ms")
	b.ReportMetric(float64(len(r.random.d))/float64(len(r.all.d)), "random-share")
	if c := r.revealDocs; c.actions > 0 {
		b.ReportMetric(float64(c.reads)/float64(c.actions), "reads/reveal")
		b.ReportMetric(float64(c.writes)/float64(c.actions), "writes/reveal")
	}
	if c := r.randomDocs; c.actions > 0 {
		// the act with its reveal, and the other seats' reveals
		b.ReportMetric(float64(c.reads)/float64(c.actions), "reads/random-action")
		b.ReportMetric(float64(c.writes)/float64(c.actions), "writes/random-action")
	}
	if c := r.onceDocs; c.actions > 0 {
		b.ReportMetric(float64(c.reads)/float64(c.actions), "reads/plain-action")
		b.ReportMetric(float64(c.writes)/float64(c.actions), "writes/plain-action")
	}
	s := counts(r.in)
	b.ReportMetric(float64(s.MaxWrites), "max-writes/commit")
	if r.roundsSeen > 0 {
		b.ReportMetric(float64(r.extra)/float64(r.roundsSeen), "extra-commit-share")
	}
	if r.floor != nil && len(r.floorLat.d) > 0 {
		b.ReportMetric(r.floorLat.q(0.50), "floor-p50-ms")
		b.ReportMetric(r.random.q(0.50)/r.floorLat.q(0.50), "floor-ratio-p50")
		if r.floor.waits > 0 {
			b.ReportMetric(float64(r.floor.waited.Microseconds())/1000/float64(r.floor.waits), "floor-closer-wait-ms")
		}
	}
	if s.Waits > 0 {
		// The closers' waits for the round's stagings (the listener's
		// delivery included), per waiting closer.
		b.ReportMetric(float64(s.WaitTime.Microseconds())/1000/float64(s.Waits), "closer-wait-ms")
	}
}

// BenchmarkTrustlessAction2P, 4P, 6P: one in-game action of a 2-, 4- or
// 6-player trustless game through the functions, its round included when
// it draws; against BenchmarkFairAction2P, 4P. Each random action is
// followed by its floor (floor_trustless_bench_test.go): floor-p50-ms,
// and floor-ratio-p50, the random actions' p50 over it.
// extra-commit-share is the share of random actions whose round took a
// commit more than the reveals sent (a reveal staged, then the round's
// close), counted by the instances' transactions.
func BenchmarkTrustlessAction2P(b *testing.B) { benchTrustless(b, 2) }
func BenchmarkTrustlessAction4P(b *testing.B) { benchTrustless(b, 4) }
func BenchmarkTrustlessAction6P(b *testing.B) { benchTrustless(b, 6) }

func benchTrustless(b *testing.B, n int) {
	in := benchInstances(b, n)
	r := &trustlessRun{b: b, t: b, in: in, n: n, floor: newTrustlessFloor(b, in[0].st.Client())}
	r.run(context.Background())
	r.report()
}

// BenchmarkTrustlessRound6: the rounds of a 6-player trustless game, the
// 6 reveals of each sent at once through 6 server instances: the time
// from the first reveal to the applied action (p50, p95), the attempts
// per reveal (a staging that lost to nothing is one; a close that lost to
// another's is retried), and the game document's writes: per round, and
// per second while the game is played as fast as the emulator goes.
func BenchmarkTrustlessRound6(b *testing.B) {
	r := &trustlessRun{b: b, t: b, in: benchInstances(b, 6), n: 6}
	ctx := context.Background()
	r.prefix = runID("round6")
	r.newGame(ctx)
	a0 := counts(r.in)
	rv0 := r.reveals
	gameWrites, rounds := 0, 0
	start := time.Now()
	b.ResetTimer()
	for rounds < b.N {
		tb := r.tb
		if tb.State.Phase == engine.PhaseFinished {
			b.StopTimer()
			r.newGame(ctx)
			b.StartTimer()
			continue
		}
		seat := tb.Awaited()
		a := policy.Aggressive{}.Choose(&tb.State, eng.Rules(), tb.Players[seat].UID)
		if err := tb.Act(ctx, seat, a, fmt.Sprint("a", tb.State.Version)); err != nil {
			b.Fatalf("%s: %v", a.Kind, err)
		}
		gameWrites++ // the act: applied, or made pending
		if err := tb.Sync(ctx); err != nil {
			b.Fatal(err)
		}
		if tb.State.Trustless.Pending == nil {
			continue
		}
		r.round(ctx, &r.rounds)
		gameWrites++ // the round's close
		rounds++
		if err := tb.Sync(ctx); err != nil {
			b.Fatal(err)
		}
	}
	elapsed := time.Since(start)
	b.StopTimer()
	a1 := counts(r.in)
	reveals := r.reveals - rv0
	// The reveals' attempts: every instance's, less the acts' and the
	// getViews' (which make none), over the reveals sent.
	attempts := a1.Attempts - a0.Attempts - int64(gameWrites-rounds)
	b.ReportMetric(r.rounds.q(0.50), "round-p50-ms")
	b.ReportMetric(r.rounds.q(0.95), "round-p95-ms")
	b.ReportMetric(float64(attempts)/float64(reveals), "attempts/reveal")
	b.ReportMetric(float64(gameWrites)/float64(rounds), "game-doc-writes/round") // the round's two (pending, close), and the plain actions between rounds
	b.ReportMetric(float64(gameWrites)/elapsed.Seconds(), "game-doc-writes/s")
	b.ReportMetric(float64(a1.MaxWrites), "max-writes/commit")
}
