package mentalpoker

import (
	"crypto/ed25519"
	"testing"
	"time"

	"github.com/fairboard/fairboard/rng/mentalpoker/internal/srabaseline"
)

// The measured deal: 52 cards among 4 seats.
const benchSeats, benchCards = 4, 52

// dealOnce is one whole 52-card deal among 4 seats with crypto/rand, every
// seat run one after another in this goroutine, so its time is the CPU
// summed over the seats: each seat computes the card points, makes its
// pass 1 and pass 2 (with its batch DLEQ proof), and checks every other
// seat's two messages (counts, distinct points, signatures, transcript,
// and pass 2's proof). Nothing is kept from one call to the next.
func dealOnce(b *testing.B, pubs []ed25519.PublicKey, privs []ed25519.PrivateKey) {
	tables := make([]*Table, benchSeats)
	ss := make([]*Seat, benchSeats)
	for j := range benchSeats {
		var err error
		if tables[j], err = NewTable("bench", 1, benchCards, pubs); err != nil {
			b.Fatal(err)
		}
		if ss[j], err = NewSeat(tables[j], j, privs[j], nil); err != nil {
			b.Fatal(err)
		}
	}
	for step := range 2 * benchSeats {
		j := step % benchSeats
		m, err := ss[j].Pass(tables[j])
		if err != nil {
			b.Fatal(err)
		}
		for i := range benchSeats {
			if i != j {
				if err := tables[i].Accept(m); err != nil {
					b.Fatal(err)
				}
			}
		}
	}
	for j := range benchSeats {
		if !tables[j].Dealt() {
			b.Fatalf("seat %d's table is not dealt", j)
		}
	}
}

// sraOnce is the baseline: the 2048-bit SRA shuffle of the same deck by 4
// players with crypto/rand, as shipped at revision 658ca0c (package
// srabaseline): both passes, each player checking the deck it takes
// (count, distinct, quadratic residues); nothing signed or proven.
func sraOnce(b *testing.B) {
	g := srabaseline.MODP2048()
	d, err := srabaseline.InitialDeck(benchCards)
	if err != nil {
		b.Fatal(err)
	}
	ps := make([]*srabaseline.Player, benchSeats)
	for i := range ps {
		if ps[i], err = srabaseline.NewPlayer(g, nil); err != nil {
			b.Fatal(err)
		}
	}
	for _, pass := range []func(*srabaseline.Player, srabaseline.Deck) (srabaseline.Deck, error){srabaseline.Shuffle1, srabaseline.Shuffle2} {
		for _, p := range ps {
			if d, err = pass(p, d); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// BenchmarkDeal: one whole deal (dealOnce) per iteration.
func BenchmarkDeal(b *testing.B) {
	pubs, privs := keys(b, benchSeats, "bench")
	for b.Loop() {
		dealOnce(b, pubs, privs)
	}
}

// BenchmarkDealVsSRA runs the new deal (dealOnce) and the old shuffle
// (sraOnce) alternately in one process: each iteration runs one of each,
// the old first in even iterations and the new first in odd ones, so both
// see the same machine; nothing is carried between iterations. It
// reports, per iteration, each one's wall time (deal-ns/op, sra-ns/op)
// and, where the platform gives it (not in WebAssembly), the process's
// CPU time (user + system, so the garbage collector's too: deal-cpu-ns/op,
// sra-cpu-ns/op), and the ratios new/old of the sums (wall-ratio,
// cpu-ratio; the target is at most 0.1). Run with a fixed count, e.g.
// go test ./rng/mentalpoker -run '^$' -bench DealVsSRA -benchtime 4x -count 5.
func BenchmarkDealVsSRA(b *testing.B) {
	pubs, privs := keys(b, benchSeats, "bench")
	var wall, cpu [2]time.Duration // [0] the deal, [1] the shuffle
	_, haveCPU := processCPU()
	run := func(k int) {
		c0, _ := processCPU()
		t0 := time.Now()
		if k == 0 {
			dealOnce(b, pubs, privs)
		} else {
			sraOnce(b)
		}
		wall[k] += time.Since(t0)
		c1, _ := processCPU()
		cpu[k] += c1 - c0
	}
	n := 0
	for b.Loop() {
		first := n % 2 // even: the shuffle first
		run(1 - first)
		run(first)
		n++
	}
	b.ReportMetric(float64(wall[0].Nanoseconds())/float64(n), "deal-ns/op")
	b.ReportMetric(float64(wall[1].Nanoseconds())/float64(n), "sra-ns/op")
	b.ReportMetric(wall[0].Seconds()/wall[1].Seconds(), "wall-ratio")
	if haveCPU {
		b.ReportMetric(float64(cpu[0].Nanoseconds())/float64(n), "deal-cpu-ns/op")
		b.ReportMetric(float64(cpu[1].Nanoseconds())/float64(n), "sra-cpu-ns/op")
		b.ReportMetric(cpu[0].Seconds()/cpu[1].Seconds(), "cpu-ratio")
	}
}

// BenchmarkAudit: the end-of-hand recomputation of a 4-seat 52-card deal
// by one verifier.
func BenchmarkAudit(b *testing.B) {
	d := newHand(b, 4, 52, 1, "")
	d.deal(b)
	rs := d.reveals(b)
	for b.Loop() {
		if _, err := d.server.Audit(rs); err != nil {
			b.Fatal(err)
		}
	}
}
