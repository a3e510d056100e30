package mentalpoker

import (
	"testing"
)

// BenchmarkDeal: a 52-card deal among 4 seats with crypto/rand, per whole
// deal and CPU summed over the seats (run one after another): each seat
// computes the card points, makes its pass 1 and pass 2 (with its 52
// proofs), and checks every other seat's two messages (counts, distinct
// points, signatures, transcript, and pass 2's 52 proofs each). Compare
// with the 2048-bit SRA shuffle of the same deck by 4 seats at revision
// 658ca0c (docs/fairness.md, "Mental poker", "Cost").
func BenchmarkDeal(b *testing.B) {
	const seats, cards = 4, 52
	pubs, privs := keys(b, seats, "bench")
	for b.Loop() {
		tables := make([]*Table, seats)
		ss := make([]*Seat, seats)
		for j := range seats {
			var err error
			if tables[j], err = NewTable("bench", 1, cards, pubs); err != nil {
				b.Fatal(err)
			}
			if ss[j], err = NewSeat(tables[j], j, privs[j], nil); err != nil {
				b.Fatal(err)
			}
		}
		for step := range 2 * seats {
			j := step % seats
			m, err := ss[j].Pass(tables[j])
			if err != nil {
				b.Fatal(err)
			}
			for i := range seats {
				if i != j {
					if err := tables[i].Accept(m); err != nil {
						b.Fatal(err)
					}
				}
			}
		}
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
