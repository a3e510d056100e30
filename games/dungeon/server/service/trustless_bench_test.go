package service_test

import (
	"context"
	"encoding/hex"
	"fmt"
	"io"
	"log/slog"
	"testing"

	"github.com/fairboard/fairboard/games/dungeon/engine"
	"github.com/fairboard/fairboard/games/dungeon/server/service"
	"github.com/fairboard/fairboard/games/dungeon/server/service/trustlesstest"
	"github.com/fairboard/fairboard/games/dungeon/server/session"
	"github.com/fairboard/fairboard/games/dungeon/server/store"
	"github.com/fairboard/fairboard/rng/trustless"
)

// The server's cost of the trustless protocol on the in-memory store,
// against BenchmarkActionFair (a fair action through the service, the
// issue's yardstick: "under 5% of a fair action's cost"):
//
//	go test ./service -run '^$' -bench 'Reveal|Derivation|ActionFair' -benchmem -count 5
//
// BenchmarkRevealCheck is the engine's check of one reveal (the seat, the
// index, the deadline, the digest and transcript it signs, its Ed25519
// signature, its link against the seat's previous one), on a copy of a
// 4-player game whose start is pending, as the service checks it before
// staging; BenchmarkRoundDerivation the action's derivation once every
// link is in (R_v, one SHA-256, and its ChaCha20 stream); BenchmarkRevealStaged
// a whole reveal through the service (the check, the store's copies of
// the game, the staging), and BenchmarkRoundClose the commit that closes
// a round of 4 (the 4 staged reveals applied, the pending action with its
// R_v stream).

// pendingTable is a 4-player trustless game on the in-memory store whose
// start is pending.
func pendingTable(b *testing.B, svc *service.Service, id string) *trustlesstest.Table {
	tb := trustlesstest.New(b, svc, id, []string{"p1", "p2", "p3", "p4"}, 0)
	tb.Start(b)
	return tb
}

func newMemService() (*service.Service, *store.Memory) {
	m := store.NewMemory()
	return service.New(service.Config{Store: m, Engine: eng, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))}), m
}

func BenchmarkRevealCheck(b *testing.B) {
	svc, mem := newMemService()
	tb := pendingTable(b, svc, "bench-check")
	g, err := mem.State(context.Background(), "bench-check")
	if err != nil {
		b.Fatal(err)
	}
	a, err := tb.Seats[1].Reveal(tb.State, 0)
	if err != nil {
		b.Fatal(err)
	}
	a.At = g.Public.Trustless.Pending.Deadline - 1
	b.ReportAllocs()
	for b.Loop() {
		cl := g.Clone()
		s, err := session.StreamFor(cl, &a)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := eng.Dispatch(cl, &a, s, nil); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRevealSignature is the part of BenchmarkRevealCheck that the
// protocol fixes: the one Ed25519 verification of the reveal's signature
// (crypto/ed25519), on the same reveal; BenchmarkRevealLink the link's
// check against the seat's previous link (one SHA-256).
func BenchmarkRevealSignature(b *testing.B) {
	_, a, pub := pendingReveal(b)
	d, tr := hashOf(b, a.Digest), hashOf(b, a.Transcript)
	msg := trustless.RevealMessage("bench-sig", a.Index, &d, &tr)
	sig, _ := hex.DecodeString(a.Signature)
	b.ReportAllocs()
	for b.Loop() {
		if !trustless.Verify(pub[:], msg, sig) {
			b.Fatal("the reveal's signature does not verify")
		}
	}
}

func BenchmarkRevealLink(b *testing.B) {
	g, a, _ := pendingReveal(b)
	ts, _ := g.Public.Trustless.Seat(a.Actor)
	link := hashOf(b, a.Link)
	prev := [32]byte(ts.Link)
	b.ReportAllocs()
	for b.Loop() {
		if !trustless.CheckLink("bench-sig", uint32(ts.Seat), a.Index, &link, &prev) {
			b.Fatal("the link does not hash to its predecessor")
		}
	}
}

// pendingReveal is seat 1's reveal of a 4-player game whose start is
// pending (game id "bench-sig"), the game, and the seat's public key.
func pendingReveal(b *testing.B) (*engine.Game, engine.Action, engine.Hash32) {
	svc, mem := newMemService()
	tb := pendingTable(b, svc, "bench-sig")
	g, err := mem.State(context.Background(), "bench-sig")
	if err != nil {
		b.Fatal(err)
	}
	a, err := tb.Seats[1].Reveal(tb.State, 0)
	if err != nil {
		b.Fatal(err)
	}
	return g, a, tb.Seats[1].PublicKey()
}

func hashOf(b *testing.B, s string) [32]byte {
	h, err := engine.ParseHash32(s, "hash")
	if err != nil {
		b.Fatal(err)
	}
	return [32]byte(h)
}

func BenchmarkRoundDerivation(b *testing.B) {
	var d [32]byte
	links := make([][32]byte, 4)
	for i := range links {
		links[i][0] = byte(i + 1)
	}
	b.ReportAllocs()
	for b.Loop() {
		r := trustless.Randomness("bench-derive", 7, &d, links)
		s := trustless.Stream(r, 0)
		s.Uint32("bench.word", nil) // the stream keyed and its first block made
	}
}

func BenchmarkRevealStaged(b *testing.B) {
	svc, _ := newMemService()
	ctx := context.Background()
	tables := make([]*trustlesstest.Table, b.N)
	reveals := make([]engine.Action, b.N)
	for i := range tables {
		tables[i] = pendingTable(b, svc, fmt.Sprint("bench-stage-", i))
		a, err := tables[i].Seats[1].Reveal(tables[i].State, 0)
		if err != nil {
			b.Fatal(err)
		}
		a.ID = "r1"
		reveals[i] = a
	}
	s0 := svc.Stats()
	b.ReportAllocs()
	b.ResetTimer()
	for i := range b.N {
		if _, err := svc.Reveal(ctx, tables[i].GameID, reveals[i]); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	s1 := svc.Stats()
	b.ReportMetric(float64((s1.ReduceTime-s0.ReduceTime).Nanoseconds())/float64(b.N), "reduce-ns")
}

func BenchmarkRoundClose(b *testing.B) {
	svc, _ := newMemService()
	ctx := context.Background()
	tables := make([]*trustlesstest.Table, b.N)
	last := make([]engine.Action, b.N)
	for i := range tables {
		tb := pendingTable(b, svc, fmt.Sprint("bench-close-", i))
		for k := range 3 {
			if _, err := tb.Reveal(b, k); err != nil {
				b.Fatal(err)
			}
		}
		a, err := tb.Seats[3].Reveal(tb.State, 0)
		if err != nil {
			b.Fatal(err)
		}
		a.ID = "r1"
		tables[i], last[i] = tb, a
	}
	s0 := svc.Stats()
	b.ReportAllocs()
	b.ResetTimer()
	for i := range b.N {
		if _, err := svc.Reveal(ctx, tables[i].GameID, last[i]); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	s1 := svc.Stats()
	b.ReportMetric(float64((s1.ReduceTime-s0.ReduceTime).Nanoseconds())/float64(b.N), "reduce-ns")
}
