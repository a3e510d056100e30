package service_test

import (
	"context"
	"strconv"
	"testing"
	"time"

	"github.com/fairboard/fairboard/games/dungeon/engine"
	"github.com/fairboard/fairboard/games/dungeon/policy"
	"github.com/fairboard/fairboard/games/dungeon/server/service"
	"github.com/fairboard/fairboard/games/dungeon/server/store"
)

// The cost of a fair-mode action against a crypto-mode one through the
// service on the in-memory store (issue 9: fair within 10% of crypto).
// Both pairs play 4-player games with the same seats and bots, and draw a
// new server seed for every game (crypto/rand in the service), so both
// modes average over the same distribution of dice and cards; only the
// stream differs (the ChaCha20 stream of the game seed, restored by
// seeking to its saved offset, against crypto/rand). Besides the time of
// the whole Do (most of it the store's copies of the game), each reports
// reduce-ns: the part the mode changes, the stream restored, the engine's
// dispatch and the stream saved (Stats.ReduceTime). Run them together:
//
//	go test ./service -run '^$' -bench 'Action|Game' -benchmem -count 5

// BenchmarkActionCrypto times one action: the first move of a fresh
// crypto-mode game (create, four joins, start and any duel skipped before
// it are untimed), a dice roll that may draw a card, with its stream
// restored and saved and its commit to the in-memory store.
func BenchmarkActionCrypto(b *testing.B) { benchAction(b, "crypto") }

// BenchmarkActionFair is BenchmarkActionCrypto in fair mode (entropy from
// two of the four players).
func BenchmarkActionFair(b *testing.B) { benchAction(b, "fair") }

// BenchmarkGameCrypto plays whole crypto-mode games through the service
// and reports the mean time of one Do over every in-game action
// (ns/action), the bots' choices and the views they read left out.
func BenchmarkGameCrypto(b *testing.B) { benchGame(b, "crypto") }

// BenchmarkGameFair is BenchmarkGameCrypto in fair mode.
func BenchmarkGameFair(b *testing.B) { benchGame(b, "fair") }

// benchEntropy is the fair games' player entropy: two of four players
// give some, as in the integration tests.
var benchEntropy = []string{"9f86d081884c7d65", "", "0123456789abcdef0123456789abcdef", ""}

// benchGameStart creates, fills and starts a 4-player game of the mode on
// svc and returns its view.
func benchGameStart(b *testing.B, svc *service.Service, id, mode string) *service.View {
	b.Helper()
	do := func(a engine.Action) {
		b.Helper()
		if _, err := svc.Do(context.Background(), id, a); err != nil {
			b.Fatalf("%s by %s: %v", a.Kind, a.Actor, err)
		}
	}
	do(engine.Action{Kind: engine.ActCreate, Actor: policy.UID(0), ID: "create", Mode: mode})
	for i, s := range seats(4) {
		a := engine.Action{Kind: engine.ActJoin, Actor: policy.UID(i), ID: "join", Seat: i, Class: s.Class}
		if mode == "fair" {
			a.Entropy = benchEntropy[i]
		}
		do(a)
	}
	do(engine.Action{Kind: engine.ActStart, Actor: policy.UID(0), ID: "start"})
	return benchView(b, svc, id, nil)
}

// benchView reads the game's state (and the log after what prev saw).
func benchView(b *testing.B, svc *service.Service, id string, prev *service.View) *service.View {
	b.Helper()
	var after uint64
	if prev != nil {
		after = prev.Public.LogSeq
	}
	v, err := svc.View(context.Background(), policy.UID(0), id, after)
	if err != nil {
		b.Fatal(err)
	}
	return v
}

// benchDo applies a (untimed) and returns the view after it.
func benchDo(b *testing.B, svc *service.Service, id string, v *service.View, a engine.Action) *service.View {
	b.Helper()
	if _, err := svc.Do(context.Background(), id, a); err != nil {
		b.Fatalf("%s by %s: %v", a.Kind, a.Actor, err)
	}
	return benchView(b, svc, id, v)
}

// next is the bot's action for whoever the game awaits.
func next(svc *service.Service, v *service.View, k int) engine.Action {
	uid := v.Public.Awaiting
	a := seats(4)[int(uid[1]-'1')].Policy.Choose(v.Public, svc.Rules(), uid)
	a.ID = "a" + strconv.Itoa(k)
	return a
}

// benchBatch is how many games benchAction sets up between two pauses of
// the timer (each pause reads the memory statistics, which stops the
// world).
const benchBatch = 100

func benchAction(b *testing.B, mode string) {
	ctx := context.Background()
	var reduce time.Duration
	b.ReportAllocs()
	b.StopTimer()
	for done := 0; done < b.N; {
		n := min(benchBatch, b.N-done)
		svc := newService(store.NewMemory(), nil)
		moves := make([]engine.Action, n)
		for i := range moves {
			id := "g" + strconv.Itoa(i)
			v := benchGameStart(b, svc, id, mode)
			a := next(svc, v, 0)
			for k := 1; a.Kind != engine.ActMove; k++ {
				if k > 8 {
					b.Fatalf("no move in the game's first actions (%s)", a.Kind)
				}
				v = benchDo(b, svc, id, v, a)
				a = next(svc, v, k)
			}
			moves[i] = a
		}
		before := svc.Stats().ReduceTime
		b.StartTimer()
		for i, a := range moves {
			if _, err := svc.Do(ctx, "g"+strconv.Itoa(i), a); err != nil {
				b.Fatal(err)
			}
		}
		b.StopTimer()
		reduce += svc.Stats().ReduceTime - before
		done += n
	}
	b.ReportMetric(float64(reduce.Nanoseconds())/float64(b.N), "reduce-ns/op")
}

func benchGame(b *testing.B, mode string) {
	ctx := context.Background()
	var spent, reduce time.Duration
	actions := 0
	for b.Loop() {
		svc := newService(store.NewMemory(), nil)
		v := benchGameStart(b, svc, "g", mode)
		before := svc.Stats().ReduceTime
		for k := 0; v.Public.Phase == engine.PhasePlaying; k++ {
			a := next(svc, v, k)
			start := time.Now()
			_, err := svc.Do(ctx, "g", a)
			spent += time.Since(start)
			if err != nil {
				b.Fatalf("%s by %s: %v", a.Kind, a.Actor, err)
			}
			actions++
			v = benchView(b, svc, "g", v)
		}
		reduce += svc.Stats().ReduceTime - before
	}
	b.ReportMetric(float64(spent.Nanoseconds())/float64(actions), "ns/action")
	b.ReportMetric(float64(reduce.Nanoseconds())/float64(actions), "reduce-ns/action")
	b.ReportMetric(float64(actions)/float64(b.N), "actions/game")
}
