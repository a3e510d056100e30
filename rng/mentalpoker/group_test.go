package mentalpoker

import (
	"errors"
	"fmt"
	"math/big"
	"testing"
)

// TestGroups: both published primes are safe primes (64 Miller–Rabin rounds
// plus Baillie–PSW on p and q) and NewGroup refuses what is not one.
func TestGroups(t *testing.T) {
	for name, g := range map[string]*Group{"RFC 3526 group 14": MODP2048(), "RFC 2409 group 1": testGroup(t)} {
		p := g.P()
		q := new(big.Int).Rsh(p, 1)
		if !p.ProbablyPrime(64) || !q.ProbablyPrime(64) {
			t.Fatalf("%s: not a safe prime", name)
		}
		// Both RFC primes begin and end with 64 one bits.
		ones := new(big.Int).SetUint64(^uint64(0))
		if new(big.Int).And(p, ones).Cmp(ones) != 0 || new(big.Int).Rsh(p, uint(p.BitLen()-64)).Cmp(ones) != 0 {
			t.Fatalf("%s: wrong ends", name)
		}
	}
	if MODP2048().Bits() != 2048 || testGroup(t).Bits() != 768 {
		t.Fatal("sizes")
	}
	two := big.NewInt(2)
	bad := []*big.Int{
		nil,
		big.NewInt(23), // a safe prime, but too small
		new(big.Int).Add(new(big.Int).Lsh(big.NewInt(1), 600), big.NewInt(1)), // not prime
		new(big.Int).Sub(MODP2048().P(), two),                                 // odd, not prime
	}
	// A prime that is not safe: the next prime after 2^600 that fails.
	x := new(big.Int).Lsh(big.NewInt(1), 600)
	for {
		x.Add(x, big.NewInt(1))
		if x.ProbablyPrime(20) && !new(big.Int).Rsh(x, 1).ProbablyPrime(20) {
			break
		}
	}
	bad = append(bad, x)
	for i, p := range bad {
		if _, err := NewGroup(p); !errors.Is(err, ErrGroup) {
			t.Errorf("case %d: %v, want ErrGroup", i, err)
		}
	}
}

func TestEncodeDecode(t *testing.T) {
	g := testGroup(t)
	for i := range MaxCards {
		m, err := Encode(i)
		if err != nil {
			t.Fatal(err)
		}
		if big.Jacobi(m, g.p) != 1 {
			t.Fatalf("card %d encodes to a non-residue", i)
		}
		if back, err := Decode(m); err != nil || back != i {
			t.Fatalf("Decode(Encode(%d)) = %d, %v", i, back, err)
		}
	}
	for _, i := range []int{-1, MaxCards} {
		if _, err := Encode(i); !errors.Is(err, ErrDeck) {
			t.Errorf("Encode(%d): %v", i, err)
		}
	}
	for _, m := range []*big.Int{nil, big.NewInt(0), big.NewInt(1), big.NewInt(5), big.NewInt(-4),
		big.NewInt((MaxCards + 2) * (MaxCards + 2)), g.P()} {
		if _, err := Decode(m); !errors.Is(err, ErrNotCard) {
			t.Errorf("Decode(%v): %v", m, err)
		}
	}
	if _, err := InitialDeck(0); !errors.Is(err, ErrDeck) {
		t.Error(err)
	}
	if _, err := InitialDeck(MaxCards + 1); !errors.Is(err, ErrDeck) {
		t.Error(err)
	}
}

// TestKeys: every drawn key inverts, KeyFromD rebuilds it, and the
// uniform-index helper is unbiased on a small case.
func TestKeys(t *testing.T) {
	g := testGroup(t)
	r := seeded("keys")
	x, _ := Encode(7)
	for range 20 {
		k, err := newKey(g, r)
		if err != nil {
			t.Fatal(err)
		}
		if new(big.Int).GCD(nil, nil, k.e, g.pm1).Cmp(big.NewInt(1)) != 0 {
			t.Fatal("e not invertible")
		}
		if k.decrypt(k.encrypt(x)).Cmp(x) != 0 {
			t.Fatal("decrypt(encrypt(x)) != x")
		}
		k2, err := KeyFromD(g, k.D())
		if err != nil || k2.e.Cmp(k.e) != 0 {
			t.Fatalf("KeyFromD: %v", err)
		}
	}
	for _, d := range []*big.Int{nil, big.NewInt(1), big.NewInt(4), g.pm1, g.P()} {
		if _, err := KeyFromD(g, d); !errors.Is(err, ErrKey) {
			t.Errorf("KeyFromD(%v): %v", d, err)
		}
	}
	if _, err := KeyFromD(nil, big.NewInt(3)); !errors.Is(err, ErrKey) {
		t.Error(err)
	}
	if (Key{}).D() != nil {
		t.Error("zero key has an exponent")
	}
}

// TestShuffleUniform: 20 seeded readers each make 6000 Fisher–Yates
// shuffles of 3 items; each of the 6 orders is expected 1000 times per
// reader. The chi-squares of the 20 runs add up to one with 100 degrees of
// freedom, which must stay below 149.4 (p = 0.001).
func TestShuffleUniform(t *testing.T) {
	chi := 0.0
	for s := range 20 {
		r := seeded(fmt.Sprint("uniform/", s))
		var counts [3][3][3]int
		for range 6000 {
			d := Deck{big.NewInt(0), big.NewInt(1), big.NewInt(2)}
			if err := shuffle(r, d); err != nil {
				t.Fatal(err)
			}
			counts[d[0].Int64()][d[1].Int64()][d[2].Int64()]++
		}
		for _, perm := range [6][3]int{{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}} {
			c := counts[perm[0]][perm[1]][perm[2]]
			chi += float64((c-1000)*(c-1000)) / 1000
		}
	}
	if chi > 149.4 {
		t.Fatalf("chi-square %.1f with 100 degrees of freedom", chi)
	}
}
