package mentalpoker

import (
	"errors"
	"testing"
)

var sentinels = []error{ErrInput, ErrTurn, ErrContext, ErrTranscript, ErrSignature, ErrCount,
	ErrDuplicate, ErrPoint, ErrProof, ErrKey, ErrRecompute, ErrMissing, ErrNotCard, ErrPhase, ErrRandom}

// FuzzMessages feeds arbitrary bytes as the points, keyed points, proof
// and keys of correctly signed messages (as a cheating seat may send) to
// Accept, AcceptKey and Audit: none may panic, and every error wraps one
// of the package's sentinels.
func FuzzMessages(f *testing.F) {
	f.Add([]byte{1, 2, 3}, []byte{}, uint8(0))
	f.Add(make([]byte, 200), make([]byte, 64), uint8(3))
	f.Fuzz(func(t *testing.T, pts, proof []byte, pos uint8) {
		known := func(err error) {
			if err == nil {
				return
			}
			for _, s := range sentinels {
				if errors.Is(err, s) {
					return
				}
			}
			t.Fatalf("unexpected error %v", err)
		}
		fill := func(d [][PointSize]byte) {
			for i := range d {
				if len(pts) > 0 {
					d[i][i%PointSize] ^= pts[i%len(pts)]
					copy(d[i][:], pts[min(i, len(pts)-1):])
				}
			}
		}
		d := newHand(t, 2, 4, 1, "fuzz")
		known(d.step(t, func(m *PassMessage) { fill(m.Deck); copy(m.Commit[:], pts); d.resign(m) }))
		d = newHand(t, 2, 4, 1, "fuzz")
		for d.server.step < 2 {
			if err := d.step(t, nil); err != nil {
				t.Fatal(err)
			}
		}
		known(d.step(t, func(m *PassMessage) { fill(m.Keyed); m.Proof = proof; d.resign(m) }))
		d = newHand(t, 2, 4, 1, "fuzz")
		d.deal(t)
		km, _ := d.seats[1].Key(d.tables[1], int(pos%4))
		copy(km.Key[:], proof)
		km.Position = uint32(pos)
		km.Sig = signKey(d, km)
		known(d.server.AcceptKey(km))
		rs := d.reveals(t)
		copy(rs[0].Common[:], pts)
		rs[0].Sig = signReveal(d, rs[0])
		_, err := d.server.Audit(rs)
		known(err)
	})
}
