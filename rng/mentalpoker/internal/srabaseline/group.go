package srabaseline

import (
	"errors"
	"fmt"
	"math/big"
	"sync"
)

// Limits.
const (
	// MaxCards bounds a deck and the card numbers Encode accepts.
	MaxCards = 1024
	// MinBits is the smallest prime NewGroup accepts. It is for tests; real
	// games use MODP2048 or larger.
	MinBits = 512
)

// Errors. Every error of this package wraps exactly one of them.
var (
	ErrGroup   = errors.New("srabaseline: invalid group")
	ErrDeck    = errors.New("srabaseline: invalid deck")
	ErrKey     = errors.New("srabaseline: invalid key")
	ErrNotCard = errors.New("srabaseline: value does not decode to a card")
	ErrPhase   = errors.New("srabaseline: call out of order")
	ErrRandom  = errors.New("srabaseline: random source failed")
)

// Group is the shared safe prime p = 2q + 1 (p and q prime). Use
// [MODP2048] or [NewGroup]; the zero value is not usable. A Group is
// immutable and safe for concurrent use.
type Group struct {
	p, pm1 *big.Int // p, p-1
}

// rfc3526Group14 is the 2048-bit MODP prime of RFC 3526 section 3 (group
// 14): p = 2^2048 - 2^1984 - 1 + 2^64 * (floor(2^1918 pi) + 124476). It is
// a safe prime, the one of Node's crypto.getDiffieHellman("modp14"), and
// group_test.go checks both claims.
const rfc3526Group14 = "" +
	"FFFFFFFFFFFFFFFFC90FDAA22168C234C4C6628B80DC1CD129024E088A67CC74" +
	"020BBEA63B139B22514A08798E3404DDEF9519B3CD3A431B302B0A6DF25F1437" +
	"4FE1356D6D51C245E485B576625E7EC6F44C42E9A637ED6B0BFF5CB6F406B7ED" +
	"EE386BFB5A899FA5AE9F24117C4B1FE649286651ECE45B3DC2007CB8A163BF05" +
	"98DA48361C55D39A69163FA8FD24CF5F83655D23DCA3AD961C62F356208552BB" +
	"9ED529077096966D670C354E4ABC9804F1746C08CA18217C32905E462E36CE3B" +
	"E39E772C180E86039B2783A2EC07A28FB5C55DF06F4C52C9DE2BCBF695581718" +
	"3995497CEA956AE515D2261898FA051015728E5A8AACAA68FFFFFFFFFFFFFFFF"

var modp2048 = sync.OnceValue(func() *Group {
	p, ok := new(big.Int).SetString(rfc3526Group14, 16)
	if !ok {
		panic("srabaseline: bad RFC 3526 constant")
	}
	return newGroup(p)
})

// MODP2048 returns the group of RFC 3526's 2048-bit MODP prime (group 14),
// a published safe prime chosen with "nothing up my sleeve" digits of pi,
// so no player can have picked it to plant a trapdoor. It is the default for
// real games.
func MODP2048() *Group { return modp2048() }

// NewGroup returns the group of p after checking that p is a safe prime of
// at least MinBits bits (p and (p-1)/2 pass big.Int.ProbablyPrime(32)). It
// returns an error wrapping [ErrGroup] otherwise. p is copied.
func NewGroup(p *big.Int) (*Group, error) {
	if p == nil || p.BitLen() < MinBits {
		return nil, fmt.Errorf("%w: prime must have at least %d bits", ErrGroup, MinBits)
	}
	q := new(big.Int).Rsh(p, 1)
	if p.Bit(0) != 1 || !p.ProbablyPrime(32) || !q.ProbablyPrime(32) {
		return nil, fmt.Errorf("%w: %d-bit value is not a safe prime", ErrGroup, p.BitLen())
	}
	return newGroup(new(big.Int).Set(p)), nil
}

func newGroup(p *big.Int) *Group {
	return &Group{p: p, pm1: new(big.Int).Sub(p, big.NewInt(1))}
}

// P returns a copy of the prime.
func (g *Group) P() *big.Int { return new(big.Int).Set(g.p) }

// Bits returns the size of the prime in bits.
func (g *Group) Bits() int { return g.p.BitLen() }

// Encode returns the plaintext of card i: (i+2)², a quadratic residue mod
// p. It returns an error wrapping [ErrDeck] unless 0 ≤ i < MaxCards.
func Encode(i int) (*big.Int, error) {
	if i < 0 || i >= MaxCards {
		return nil, fmt.Errorf("%w: card %d outside 0..%d", ErrDeck, i, MaxCards-1)
	}
	s := big.NewInt(int64(i) + 2)
	return s.Mul(s, s), nil
}

// Decode returns the card i whose plaintext [Encode](i) is m, or an error
// wrapping [ErrNotCard] if m (nil included) is no card's plaintext.
func Decode(m *big.Int) (int, error) {
	if m == nil || m.Sign() <= 0 || m.BitLen() > 2*bitsMaxRoot {
		return 0, fmt.Errorf("%w: not a card's plaintext", ErrNotCard)
	}
	s := new(big.Int).Sqrt(m)
	if new(big.Int).Mul(s, s).Cmp(m) != 0 || !s.IsInt64() || s.Int64() < 2 || s.Int64() > MaxCards+1 {
		return 0, fmt.Errorf("%w: not a card's plaintext", ErrNotCard)
	}
	return int(s.Int64() - 2), nil
}

// bitsMaxRoot is the bit length of MaxCards+1, the largest square root of a
// plaintext.
var bitsMaxRoot = big.NewInt(MaxCards + 1).BitLen()

// InitialDeck returns the plaintexts of cards 0..n-1 in order, the deck the
// first player's Shuffle1 takes. It returns an error wrapping [ErrDeck]
// unless 1 ≤ n ≤ MaxCards.
func InitialDeck(n int) (Deck, error) {
	if n < 1 || n > MaxCards {
		return nil, fmt.Errorf("%w: %d cards, want 1..%d", ErrDeck, n, MaxCards)
	}
	d := make(Deck, n)
	for i := range d {
		d[i], _ = Encode(i)
	}
	return d, nil
}
