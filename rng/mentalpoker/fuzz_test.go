package mentalpoker

import (
	"errors"
	"math/big"
	"testing"
)

// FuzzOpen feeds arbitrary card values and key exponents to KeyFromD, Open,
// Decode and CheckDeck: none may panic, and every error wraps one of the
// package's sentinels.
func FuzzOpen(f *testing.F) {
	f.Add([]byte{4}, []byte{3}, []byte{5})
	f.Add([]byte{}, []byte{}, []byte{0xff, 0xff})
	f.Add(make([]byte, 97), []byte{7}, []byte{1})
	g := testGroup(f)
	f.Fuzz(func(t *testing.T, cb, d1, d2 []byte) {
		known := func(err error) {
			for _, s := range []error{ErrDeck, ErrKey, ErrNotCard} {
				if err == nil || errors.Is(err, s) {
					return
				}
			}
			t.Fatalf("unexpected error %v", err)
		}
		c := new(big.Int).SetBytes(cb)
		_, err := Decode(c)
		known(err)
		var keys []Key
		for _, db := range [][]byte{d1, d2} {
			k, err := KeyFromD(g, new(big.Int).SetBytes(db))
			known(err)
			keys = append(keys, k) // the zero Key on error: Open must refuse it
		}
		_, err = Open(c, keys...)
		known(err)
		if keys[0].d != nil {
			_, err = Open(c, keys[0])
			known(err)
		}
		p, _ := NewPlayer(g, seeded("fuzz"))
		known(p.CheckDeck(Deck{c, new(big.Int).SetBytes(d1), new(big.Int).SetBytes(d2)}))
	})
}
