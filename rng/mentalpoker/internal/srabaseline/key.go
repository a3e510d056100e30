package srabaseline

import (
	"encoding/binary"
	"fmt"
	"io"
	"math/big"
)

// Key is one SRA key of a group: e with gcd(e, p-1) = 1 and d = e⁻¹ mod
// (p-1). Keys are made by a [Player]; a revealed key travels as its
// decryption exponent ([Key.D], [KeyFromD]). The zero Key is invalid.
type Key struct {
	g    *Group
	e, d *big.Int
}

// D returns a copy of the decryption exponent, what a player sends when it
// reveals the key. The zero Key returns nil.
func (k Key) D() *big.Int {
	if k.d == nil {
		return nil
	}
	return new(big.Int).Set(k.d)
}

// KeyFromD rebuilds a revealed key of group g from its decryption exponent
// d. It returns an error wrapping [ErrKey] unless 1 < d < p-1 and
// gcd(d, p-1) = 1.
func KeyFromD(g *Group, d *big.Int) (Key, error) {
	if g == nil || d == nil {
		return Key{}, fmt.Errorf("%w: nil group or exponent", ErrKey)
	}
	if d.Cmp(big.NewInt(1)) <= 0 || d.Cmp(g.pm1) >= 0 {
		return Key{}, fmt.Errorf("%w: exponent outside 2..p-2", ErrKey)
	}
	e := new(big.Int).ModInverse(d, g.pm1)
	if e == nil {
		return Key{}, fmt.Errorf("%w: exponent not invertible mod p-1", ErrKey)
	}
	return Key{g: g, e: e, d: new(big.Int).Set(d)}, nil
}

// newKey draws e uniformly from the invertible exponents in [3, p-2] (about
// half of them: the odd ones other than q) with r, and computes d.
func newKey(g *Group, r io.Reader) (Key, error) {
	span := new(big.Int).Sub(g.p, big.NewInt(4)) // e = 3 + [0, p-4)
	for {
		e, err := randBelow(r, span)
		if err != nil {
			return Key{}, err
		}
		e.Add(e, big.NewInt(3))
		if d := new(big.Int).ModInverse(e, g.pm1); d != nil {
			return Key{g: g, e: e, d: d}, nil
		}
	}
}

// encrypt returns x^e mod p in a new Int.
func (k Key) encrypt(x *big.Int) *big.Int { return new(big.Int).Exp(x, k.e, k.g.p) }

// decrypt returns c^d mod p in a new Int.
func (k Key) decrypt(c *big.Int) *big.Int { return new(big.Int).Exp(c, k.d, k.g.p) }

// randBelow returns a uniform integer in [0, n), n > 0, by rejection: read
// just enough bytes, clear the bits above n's length, retry if ≥ n (at
// most half the time).
func randBelow(r io.Reader, n *big.Int) (*big.Int, error) {
	bits := n.BitLen()
	buf := make([]byte, (bits+7)/8)
	x := new(big.Int)
	for {
		if _, err := io.ReadFull(r, buf); err != nil {
			return nil, fmt.Errorf("%w: %v", ErrRandom, err)
		}
		if extra := uint(len(buf)*8 - bits); extra > 0 {
			buf[0] &= 0xff >> extra
		}
		if x.SetBytes(buf).Cmp(n) < 0 {
			return x, nil
		}
	}
}

// randIndex returns a uniform integer in [0, n), 0 < n, from 8-byte
// big-endian words of r: a word v is accepted if v ≥ 2^64 mod n, which
// leaves a multiple of n values, and mapped to v % n.
func randIndex(r io.Reader, n int) (int, error) {
	m := uint64(n)
	threshold := -m % m // 2^64 mod m
	var b [8]byte
	for {
		if _, err := io.ReadFull(r, b[:]); err != nil {
			return 0, fmt.Errorf("%w: %v", ErrRandom, err)
		}
		if v := binary.BigEndian.Uint64(b[:]); v >= threshold {
			return int(v % m), nil
		}
	}
}

// shuffle permutes d by Fisher–Yates: for i from len-1 down to 1, swap d[i]
// with d[j], j uniform in [0, i].
func shuffle(r io.Reader, d Deck) error {
	for i := len(d) - 1; i > 0; i-- {
		j, err := randIndex(r, i+1)
		if err != nil {
			return err
		}
		d[i], d[j] = d[j], d[i]
	}
	return nil
}
