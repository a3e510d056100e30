package fsstore_test

import (
	"context"
	"slices"
	"sync"
	"syscall"
	"testing"
	"time"

	"cloud.google.com/go/firestore"

	"github.com/fairboard/fairboard/games/dungeon/engine"
	"github.com/fairboard/fairboard/games/dungeon/server/store"
	"github.com/fairboard/fairboard/games/dungeon/server/store/fsstore"
)

// BenchmarkMaskedVsLibraryRead settles whether an attempt's masked read
// (one BatchGetDocuments with fsstore.ReadMask, converted by the store)
// is slower than the library's GetAll of the same documents, which it
// replaced: the two alternate, read for read, on one emulator, on the
// game, private state and a record of a 3-player audited game 60
// actions in (its ring 60 entries or more: the documents the masked read
// trims; each converted as the store converts it), with conc reads in
// flight at once (1: as one action; 4: as a
// trustless round's reveals on one process). It reports each read's
// p50 and this process's CPU per read.
//
//	go test -run '^$' -bench MaskedVsLibraryRead -benchtime 300x ./store/fsstore/
func BenchmarkMaskedVsLibraryRead(b *testing.B) {
	for _, conc := range []int{1, 4} {
		b.Run(map[int]string{1: "conc=1", 4: "conc=4"}[conc], func(b *testing.B) {
			emu.Require(b)
			emu.Reset(b)
			ctx := context.Background()
			c, err := emu.Firestore().Client(ctx)
			if err != nil {
				b.Fatal(err)
			}
			defer c.Close()
			rc, err := emu.Firestore().RPC(ctx)
			if err != nil {
				b.Fatal(err)
			}
			defer rc.Close()
			st := fsstore.New(c, fsstore.WithRPC(rc))
			g := newBotGame("readbench", 3, true)
			svc := newSvc(st)
			var p engine.Public
			for range 60 {
				a, ok := g.next(&p)
				if !ok {
					break
				}
				if _, err := svc.Do(ctx, g.id, a); err != nil {
					b.Fatal(err)
				}
				got, err := st.Game(ctx, g.id)
				if err != nil {
					b.Fatal(err)
				}
				p = *got
			}
			ref := c.Collection("games").Doc(g.id)
			refs := []*firestore.DocumentRef{ref, ref.Collection("private").Doc("state"), ref.Collection("actions").Doc(store.RecordKey("p1", "create"))}
			mask := fsstore.ReadMask()
			masked := func() error { _, err := fsstore.ReadMaskedForTest(ctx, rc, refs, mask); return err }
			// The library's read as the store made it: the snapshots
			// converted, the private state field by field without its ring.
			library := func() error {
				snaps, err := c.GetAll(ctx, refs)
				if err != nil {
					return err
				}
				for i, s := range snaps {
					switch {
					case !s.Exists():
					case i == 1:
						for _, f := range mask {
							s.DataAtPath(firestore.FieldPath{f})
						}
					default:
						s.Data()
					}
				}
				return nil
			}
			var lat [2][]time.Duration
			var cpu [2]time.Duration
			run := func(k int, f func() error) {
				var wg sync.WaitGroup
				c0, t0 := cpuTime(), time.Now()
				for range conc {
					wg.Go(func() {
						if err := f(); err != nil {
							b.Error(err)
						}
					})
				}
				wg.Wait()
				lat[k] = append(lat[k], time.Since(t0))
				cpu[k] += cpuTime() - c0
			}
			for range 50 { // warm both paths
				run(0, masked)
				run(1, library)
			}
			lat, cpu = [2][]time.Duration{}, [2]time.Duration{}
			for b.Loop() {
				run(0, masked)
				run(1, library)
			}
			p50 := func(d []time.Duration) float64 {
				s := slices.Clone(d)
				slices.Sort(s)
				return float64(s[len(s)/2].Microseconds()) / 1000
			}
			n := float64(len(lat[0]) * conc)
			b.ReportMetric(p50(lat[0]), "masked-p50-ms")
			b.ReportMetric(p50(lat[1]), "library-p50-ms")
			b.ReportMetric(p50(lat[0])/p50(lat[1]), "ratio-p50")
			b.ReportMetric(float64(cpu[0].Microseconds())/n, "masked-cpu-us/read")
			b.ReportMetric(float64(cpu[1].Microseconds())/n, "library-cpu-us/read")
		})
	}
}

func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
