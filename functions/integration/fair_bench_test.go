package integration

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/fairboard/fairboard/functest"
	"github.com/fairboard/fairboard/games/dungeon/engine"
	"github.com/fairboard/fairboard/games/dungeon/policy"
)

// BenchmarkFairAction2P, 4P: one in-game action of a fair game through
// the functions (bots Aggressive, as the trustless benchmark's).
func BenchmarkFairAction2P(b *testing.B) { benchFair(b, 2) }
func BenchmarkFairAction4P(b *testing.B) { benchFair(b, 4) }

func benchFair(b *testing.B, n int) {
	in := benchInstances(b, 1)[0]
	ctx := context.Background()
	prefix := runID(fmt.Sprintf("fair%d", n))
	ps := players(b, n)
	var lat latencies
	var docs docCounts
	games := 0
	var v functest.View
	id := ""
	sync := func() {
		v = functest.View{}
		if err := in.c.Call(ctx, "getView", ps[0].Token, map[string]any{"gameId": id}, &v); err != nil {
			b.Fatal(err)
		}
	}
	newGame := func() {
		games++
		id = fmt.Sprintf("%s-%d", prefix, games)
		if err := in.c.Call(ctx, "createGame", ps[0].Token, map[string]any{"gameId": id, "actionId": "c", "mode": "fair"}, nil); err != nil {
			b.Fatal(err)
		}
		for i, p := range ps {
			if err := in.c.Call(ctx, "joinGame", p.Token, map[string]any{"gameId": id, "actionId": "j", "seat": i, "class": p.Seat.Class, "entropy": "c0ffee"}, nil); err != nil {
				b.Fatal(err)
			}
		}
		if err := in.c.Call(ctx, "startGame", ps[0].Token, map[string]any{"gameId": id, "actionId": "s"}, nil); err != nil {
			b.Fatal(err)
		}
		sync()
	}
	newGame()
	b.ResetTimer()
	for k := 0; k < b.N; k++ {
		if v.State.Phase == engine.PhaseFinished {
			b.StopTimer()
			newGame()
			b.StartTimer()
		}
		who := 0
		for i, p := range ps {
			if p.UID == v.State.Awaiting {
				who = i
			}
		}
		a := policy.Aggressive{}.Choose(&v.State, eng.Rules(), ps[who].UID)
		a.ID, a.Version = fmt.Sprint("a", v.State.Version), v.State.Version
		s0 := in.st.Stats()
		t0 := time.Now()
		if err := in.c.Call(ctx, "act", ps[who].Token, functest.ActData(id, a), nil); err != nil {
			b.Fatal(err)
		}
		lat.add(time.Since(t0))
		docs.count(s0, in.st.Stats())
		b.StopTimer()
		sync()
		b.StartTimer()
	}
	b.StopTimer()
	b.ReportMetric(lat.q(0.50), "p50-ms")
	b.ReportMetric(lat.q(0.95), "p95-ms")
	b.ReportMetric(float64(docs.reads)/float64(docs.actions), "reads/action")
	b.ReportMetric(float64(docs.writes)/float64(docs.actions), "writes/action")
}
