package mentalpoker

import (
	"io"
	"math/big"
	"sync"
	"testing"

	"github.com/fairboard/fairboard/rng"
)

// rfc2409Group1 is the 768-bit MODP prime of RFC 2409 section 6.1 (the
// First Oakley Group): p = 2^768 - 2^704 - 1 + 2^64 * (floor(2^638 pi) +
// 149686), a published safe prime (Node's crypto.getDiffieHellman("modp1")).
// Far too small for real games; it keeps the protocol tests fast.
// TestGroups checks that it is a safe prime.
const rfc2409Group1 = "" +
	"FFFFFFFFFFFFFFFFC90FDAA22168C234C4C6628B80DC1CD129024E088A67CC74" +
	"020BBEA63B139B22514A08798E3404DDEF9519B3CD3A431B302B0A6DF25F1437" +
	"4FE1356D6D51C245E485B576625E7EC6F44C42E9A63A3620FFFFFFFFFFFFFFFF"

var smallGroup = sync.OnceValues(func() (*Group, error) {
	p, _ := new(big.Int).SetString(rfc2409Group1, 16)
	return NewGroup(p)
})

// testGroup returns the 768-bit group.
func testGroup(t testing.TB) *Group {
	t.Helper()
	g, err := smallGroup()
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// seeded returns a deterministic reader: the ChaCha20 keystream of seed.
func seeded(seed string) io.Reader { return rng.NewChaCha20([]byte(seed)) }

// newPlayers makes n players of g with readers seeded prefix+"/i".
func newPlayers(t testing.TB, g *Group, n int, prefix string) []*Player {
	t.Helper()
	ps := make([]*Player, n)
	for i := range ps {
		p, err := NewPlayer(g, seeded(prefix+"/"+string(rune('a'+i))))
		if err != nil {
			t.Fatal(err)
		}
		ps[i] = p
	}
	return ps
}

// run plays both passes over a deck of n cards, in turn order, and returns
// the final deck and every deck passed between players (the initial one
// first).
func run(t testing.TB, players []*Player, n int) (Deck, []Deck) {
	t.Helper()
	d, err := InitialDeck(n)
	if err != nil {
		t.Fatal(err)
	}
	passed := []Deck{d}
	for _, pass := range []func(*Player, Deck) (Deck, error){Shuffle1, Shuffle2} {
		for _, p := range players {
			if d, err = pass(p, d); err != nil {
				t.Fatal(err)
			}
			passed = append(passed, d)
		}
	}
	return d, passed
}

// openAll opens every card with every player's key for its position.
func openAll(t testing.TB, players []*Player, d Deck) []int {
	t.Helper()
	cards := make([]int, len(d))
	for k := range d {
		keys := make([]Key, len(players))
		for i, p := range players {
			var err error
			if keys[i], err = RevealKey(p, k); err != nil {
				t.Fatal(err)
			}
		}
		c, err := Open(d[k], keys...)
		if err != nil {
			t.Fatalf("position %d: %v", k, err)
		}
		cards[k] = c
	}
	return cards
}
