package mentalpoker

import (
	"math/big"
	"testing"
)

// The leak. Card i is encoded as s² with s = i+2, and the first pass
// raises every card to one common exponent E (the product of the players'
// common keys). So if s_u·s_v = s_w, the plaintexts multiply
// (s_u²·s_v² = s_w²) and so do the ciphertexts: C_u·C_v ≡ C_w (mod p). An
// observer of the deck after the last Shuffle1 (the server, any seat) finds
// these relations with no key, matches them against the known relations of
// the plaintexts and reads off the cards they force. Shuffle2 keeps
// positions, so these are the cards of the final deck.

// relation is a ciphertext relation C_a·C_b ≡ C_c (mod p), a ≤ b, or for
// plaintexts the roots s_a·s_b = s_c.
type relation struct{ a, b, c int }

// findRelations returns every (a, b, c) with a ≤ b and d[a]·d[b] ≡ d[c]
// (mod p), squares (a = b) included: what anyone can compute from a public
// deck.
func findRelations(p *big.Int, d Deck) []relation {
	at := make(map[string]int, len(d))
	for i, x := range d {
		at[string(x.Bytes())] = i
	}
	var rels []relation
	prod := new(big.Int)
	for a := range d {
		for b := a; b < len(d); b++ {
			prod.Mul(d[a], d[b]).Mod(prod, p)
			if c, ok := at[string(prod.Bytes())]; ok {
				rels = append(rels, relation{a, b, c})
			}
		}
	}
	return rels
}

// plainRelations returns the relations of the plaintexts of cards 0..n-1
// as card numbers: (u+2)(v+2) = w+2, u ≤ v, so Encode(u)·Encode(v) =
// Encode(w).
func plainRelations(n int) []relation {
	var rels []relation
	for u := range n {
		for v := u; v < n; v++ {
			if w := (u+2)*(v+2) - 2; w < n {
				rels = append(rels, relation{u, v, w})
			}
		}
	}
	return rels
}

// deduce matches the ciphertext relations of a deck of n cards against the
// plaintext ones: it enumerates every assignment of cards to the positions
// in some relation that maps the ciphertext relations exactly onto the
// plaintext ones (an isomorphism of the two hypergraphs), and returns for
// each position the card all of them agree on, or -1 if they differ or the
// position is in no relation. With no isomorphism (no leak to match) every
// position is -1.
func deduce(n int, cipher []relation) []int {
	plain := plainRelations(n)
	pinned := make([]int, n)
	for i := range pinned {
		pinned[i] = -1
	}
	if len(cipher) != len(plain) {
		return pinned
	}
	// sig counts a node's roles: factor of a product, square root, product.
	type sig struct{ factor, root, product int }
	sigs := func(rels []relation) []sig {
		s := make([]sig, n)
		for _, r := range rels {
			if r.a == r.b {
				s[r.a].root++
			} else {
				s[r.a].factor++
				s[r.b].factor++
			}
			s[r.c].product++
		}
		return s
	}
	cs, ps := sigs(cipher), sigs(plain)
	isRel := map[relation]bool{}
	for _, r := range plain {
		isRel[r] = true
	}
	var nodes []int // positions in some relation
	for pos, s := range cs {
		if s != (sig{}) {
			nodes = append(nodes, pos)
		}
	}
	// Ciphertext relations by the positions they touch.
	touching := make([][]relation, n)
	for _, r := range cipher {
		touching[r.a] = append(touching[r.a], r)
		if r.b != r.a {
			touching[r.b] = append(touching[r.b], r)
		}
		if r.c != r.a && r.c != r.b {
			touching[r.c] = append(touching[r.c], r)
		}
	}
	card := make([]int, n) // position → card, -1 unassigned
	for i := range card {
		card[i] = -1
	}
	used := make([]bool, n)
	seen := make([]map[int]bool, n) // cards each position takes in some isomorphism
	for _, pos := range nodes {
		seen[pos] = map[int]bool{}
	}
	// fits: with pos given card c, every relation at pos whose positions are
	// all assigned is a plaintext relation (in the same roles).
	fits := func(pos, c int) bool {
		if used[c] || ps[c] != cs[pos] {
			return false
		}
		card[pos] = c
		defer func() { card[pos] = -1 }()
		for _, r := range touching[pos] {
			u, v, w := card[r.a], card[r.b], card[r.c]
			if u < 0 || v < 0 || w < 0 {
				continue
			}
			if !isRel[relation{min(u, v), max(u, v), w}] {
				return false
			}
		}
		return true
	}
	var solve func(left int)
	solve = func(left int) {
		if left == 0 {
			// Relations map injectively onto relations and the counts are
			// equal, so this is an isomorphism.
			for _, pos := range nodes {
				seen[pos][card[pos]] = true
			}
			return
		}
		// The unassigned position with the fewest fitting cards next.
		best, bestFit := -1, []int(nil)
		for _, pos := range nodes {
			if card[pos] >= 0 {
				continue
			}
			var fit []int
			for c := range n {
				if fits(pos, c) {
					fit = append(fit, c)
				}
			}
			if best < 0 || len(fit) < len(bestFit) {
				best, bestFit = pos, fit
			}
		}
		for _, c := range bestFit {
			card[best], used[c] = c, true
			solve(left - 1)
			card[best], used[c] = -1, false
		}
	}
	solve(len(nodes))
	for _, pos := range nodes {
		if len(seen[pos]) == 1 {
			for c := range seen[pos] {
				pinned[pos] = c
			}
		}
	}
	return pinned
}

// leakGroup is MODP2048, the group the package claims for real games, or
// the 768-bit test group in -short mode (the leak is the same: it holds
// for any p above the plaintexts).
func leakGroup(t *testing.T) *Group {
	if testing.Short() {
		return testGroup(t)
	}
	return MODP2048()
}

// TestLeakFirstPass: the public deck after the last Shuffle1 of a real
// 52-card, 2-player shuffle, searched with no key, gives the cards at 33 of
// its 52 positions, every one right (checked by opening the final deck with
// every key). The 33 are all that the relations can give, whatever the seed
// or the number of players: writing cards as s = i+2, the 7 primes 29, 31,
// 37, 41, 43, 47, 53 are in no relation, and 11, 22, 33, 44 can swap with
// 13, 26, 39, 52, and 19, 38 with 23, 46, without changing the relations;
// so the other 19 positions are only narrowed (to 7 cards or to 2).
func TestLeakFirstPass(t *testing.T) {
	g := leakGroup(t)
	players := newPlayers(t, g, 2, "leak")
	final, passed := run(t, players, 52)
	public := passed[len(players)] // after the last Shuffle1: what the server relays
	rels := findRelations(g.p, public)
	pinned := deduce(52, rels)
	cards := openAll(t, players, final) // the truth, with all keys
	n, right := 0, 0
	for pos, c := range pinned {
		if c < 0 {
			continue
		}
		n++
		if c == cards[pos] {
			right++
		} else {
			t.Errorf("position %d: deduced card %d, it is %d", pos, c, cards[pos])
		}
	}
	t.Logf("%d-bit group: %d relations, %d of 52 positions pinned, %d right", g.Bits(), len(rels), n, right)
	if len(rels) != len(plainRelations(52)) || len(rels) != 60 {
		t.Errorf("%d relations found, want the plaintexts' 60", len(rels))
	}
	if n != 33 || right != 33 {
		t.Errorf("%d positions pinned, %d right; want 33 and 33", n, right)
	}
}

// TestNoLeakWithoutRelations is the control: the same search and deduction
// on the same kind of deck, shuffled and encrypted the same way, whose
// plaintexts are random squares (elements of order q with no small
// multiplicative relations), find no relation and pin nothing. The leak
// comes from the encoding, not from the search.
func TestNoLeakWithoutRelations(t *testing.T) {
	g := leakGroup(t)
	r := seeded("leak/control")
	deck := make(Deck, 52)
	for i := range deck {
		x, err := randBelow(r, g.p)
		if err != nil {
			t.Fatal(err)
		}
		deck[i] = x.Mul(x, x).Mod(x, g.p)
	}
	players := newPlayers(t, g, 2, "leak")
	d := deck
	for _, p := range players {
		var err error
		if d, err = Shuffle1(p, d); err != nil {
			t.Fatal(err)
		}
	}
	rels := findRelations(g.p, d)
	pinned := deduce(52, rels)
	n := 0
	for _, c := range pinned {
		if c >= 0 {
			n++
		}
	}
	t.Logf("%d-bit group, random plaintexts: %d relations, %d positions pinned", g.Bits(), len(rels), n)
	if len(rels) != 0 || n != 0 {
		t.Errorf("%d relations, %d positions pinned; want none", len(rels), n)
	}
}

// TestLeakLetsTheRelayChooseTheOrder: whoever holds the deck between the
// two passes (the last player of Shuffle1, or the server relaying it to the
// first player of Shuffle2) can read it as above and reorder it before
// passing it on; Shuffle2 cannot tell, since any order of the same
// ciphertexts is a valid deck. Here the relay moves the 33 cards it pinned
// to positions 0..32 in increasing order, and that is what the honest
// players' final deck holds when opened with every key.
func TestLeakLetsTheRelayChooseTheOrder(t *testing.T) {
	g := leakGroup(t)
	players := newPlayers(t, g, 2, "rig")
	d, err := InitialDeck(52)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range players {
		if d, err = Shuffle1(p, d); err != nil {
			t.Fatal(err)
		}
	}
	// The relay, with no key: pinned cards first, by card number.
	pinned := deduce(52, findRelations(g.p, d))
	byCard := map[int]*big.Int{}
	var rest Deck
	for pos, c := range pinned {
		if c >= 0 {
			byCard[c] = d[pos]
		} else {
			rest = append(rest, d[pos])
		}
	}
	var want []int
	rigged := make(Deck, 0, 52)
	for c := range 52 {
		if x, ok := byCard[c]; ok {
			want = append(want, c)
			rigged = append(rigged, x)
		}
	}
	rigged = append(rigged, rest...)
	for _, p := range players {
		if rigged, err = Shuffle2(p, rigged); err != nil {
			t.Fatal(err)
		}
	}
	cards := openAll(t, players, rigged)
	t.Logf("%d-bit group: the relay placed %d cards; the final deck opens to %v", g.Bits(), len(want), cards)
	if len(want) != 33 {
		t.Errorf("the relay pinned %d cards, want 33", len(want))
	}
	for pos, c := range want {
		if cards[pos] != c {
			t.Errorf("position %d holds card %d, the relay put card %d there", pos, cards[pos], c)
		}
	}
}
