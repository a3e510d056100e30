package mentalpoker

import (
	"testing"

	"github.com/cloudflare/circl/group"
)

// The attack that broke the old SRA package, ported to the group. The
// first pass multiplies every card by one scalar α (the product of the
// seats' common keys), which keeps every linear relation between the cards:
// if C_u + C_v = C_w then αC_u + αC_v = αC_w. Anyone who sees a deck after
// a first pass (the server, every seat) can search it for such relations,
// with no key, and match them against the cards' own. Hash-to-group cards
// have none (nobody knows a discrete logarithm between two of them); an
// encoding such as C_i = (i+1)·G has hundreds, and gives every card away.

// relation is X_a + X_b = X_c, a ≤ b (a = b: a doubling).
type relation struct{ a, b, c int }

// findRelations returns every relation among the points of a public deck.
func findRelations(d []group.Element) []relation {
	at := make(map[[PointSize]byte]int, len(d))
	for i, x := range d {
		at[encode(x)] = i
	}
	var rels []relation
	sum := g.NewElement()
	for a := range d {
		for b := a; b < len(d); b++ {
			if c, ok := at[encode(sum.Add(d[a], d[b]))]; ok {
				rels = append(rels, relation{a, b, c})
			}
		}
	}
	return rels
}

// findMultiples is the i·G pattern: for each position u, the positions w
// with X_w = m·X_u for a small m (2 ≤ m ≤ 2n); if every other position is
// one, X_u is card 0 of an i·G-like encoding and position w holds card m-1.
// It returns the card it reads at each position, -1 where none.
func findMultiples(d []group.Element) []int {
	n := len(d)
	at := make(map[[PointSize]byte]int, n)
	for i, x := range d {
		at[encode(x)] = i
	}
	pinned := make([]int, n)
	for i := range pinned {
		pinned[i] = -1
	}
	for u := range d {
		read := map[int]int{u: 0}
		acc := d[u].Copy()
		for m := 2; m <= 2*n; m++ {
			acc.Add(acc, d[u])
			if w, ok := at[encode(acc)]; ok {
				read[w] = m - 1
			}
		}
		if len(read) == n {
			for w, c := range read {
				pinned[w] = c
			}
		}
	}
	return pinned
}

// plainRelations returns the relations of the encoding C_i = (i+1)·G as
// card numbers: (u+1) + (v+1) = w+1.
func plainRelations(n int) []relation {
	var rels []relation
	for u := range n {
		for v := u; v < n; v++ {
			if w := u + v + 1; w < n {
				rels = append(rels, relation{u, v, w})
			}
		}
	}
	return rels
}

// deduce matches a deck's relations against plain, the cards' own: it
// enumerates every assignment of cards to positions that maps the one set
// onto the other (an isomorphism of the two hypergraphs) and returns for
// each position the card all of them agree on, or -1. With no relation to
// match every position is -1. (The old leak_test.go's search, unchanged but
// for the relations it takes.)
func deduce(n int, cipher, plain []relation) []int {
	pinned := make([]int, n)
	for i := range pinned {
		pinned[i] = -1
	}
	if len(cipher) == 0 || len(cipher) != len(plain) {
		return pinned
	}
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
	var nodes []int
	for pos, s := range cs {
		if s != (sig{}) {
			nodes = append(nodes, pos)
		}
	}
	touching := make([][]relation, n)
	for _, r := range cipher {
		for _, p := range []int{r.a, r.b, r.c} {
			if len(touching[p]) == 0 || touching[p][len(touching[p])-1] != r {
				touching[p] = append(touching[p], r)
			}
		}
	}
	card := make([]int, n)
	for i := range card {
		card[i] = -1
	}
	used := make([]bool, n)
	seen := make([]map[int]bool, n)
	for _, pos := range nodes {
		seen[pos] = map[int]bool{}
	}
	fits := func(pos, c int) bool {
		if used[c] || ps[c] != cs[pos] {
			return false
		}
		card[pos] = c
		defer func() { card[pos] = -1 }()
		for _, r := range touching[pos] {
			u, v, w := card[r.a], card[r.b], card[r.c]
			if u >= 0 && v >= 0 && w >= 0 && !isRel[relation{min(u, v), max(u, v), w}] {
				return false
			}
		}
		return true
	}
	var solve func(left int)
	solve = func(left int) {
		if left == 0 {
			for _, pos := range nodes {
				seen[pos][card[pos]] = true
			}
			return
		}
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

// attack runs both searches on every first-pass deck of a 52-card deal
// among `seats` seats whose cards are `cards` (nil: the package's
// hash-to-group points), and checks what they pin against the cards the
// audit recomputes. It returns the relations found in the deck after the
// last first pass and the positions pinned there, all right.
func attack(t *testing.T, seats int, cards []group.Element) (rels, pinned int) {
	t.Helper()
	d := newHand(t, seats, 52, 1, "relations")
	if cards != nil {
		for j := range d.tables {
			d.tables[j], _ = newTable("g1", 1, cards, d.pubs)
			d.seats[j], _ = NewSeat(d.tables[j], j, d.privs[j], seeded("relations/"+string(rune('a'+j))))
		}
		d.server, _ = newTable("g1", 1, cards, d.pubs)
	}
	d.deal(t)
	truth, err := d.server.Audit(d.reveals(t))
	if err != nil {
		t.Fatal(err)
	}
	// Pass 2 keeps positions, so a card pinned after the last first pass is
	// the card of that position in the final deck.
	for step := 1; step <= seats; step++ {
		deck := d.server.decks[step]
		r := findRelations(deck)
		byRel := deduce(52, r, plainRelations(52))
		byMul := findMultiples(deck)
		n := 0
		for pos := range 52 {
			for _, c := range []int{byRel[pos], byMul[pos]} {
				if c >= 0 && step == seats && c != truth[pos] {
					t.Errorf("position %d: read card %d, it is %d", pos, c, truth[pos])
				}
			}
			if byRel[pos] >= 0 || byMul[pos] >= 0 {
				n++
			}
		}
		if step == seats {
			rels, pinned = len(r), n
		} else if cards == nil && (len(r) != 0 || n != 0) || cards != nil && len(r) != 676 {
			t.Errorf("after seat %d's first pass: %d relations, %d positions read", step-1, len(r), n)
		}
	}
	return rels, pinned
}

// TestNoRelationsInFirstPassDecks: in the public decks after each first
// pass of real 52-card deals among 2 and 4 seats, neither search finds a
// relation or reads a card.
func TestNoRelationsInFirstPassDecks(t *testing.T) {
	for _, seats := range []int{2, 4} {
		rels, pinned := attack(t, seats, nil)
		t.Logf("%d seats, hash-to-group cards: %d relations, %d of 52 positions read", seats, rels, pinned)
		if rels != 0 || pinned != 0 {
			t.Errorf("%d seats: %d relations, %d positions read; want none", seats, rels, pinned)
		}
	}
}

// TestRelationsCaughtWithMultiplesOfG is the positive control: the same
// deal and the same searches with cards encoded as C_i = (i+1)·G find all
// 676 relations of the encoding and read every one of the 52 cards, every
// one right.
func TestRelationsCaughtWithMultiplesOfG(t *testing.T) {
	cards := make([]group.Element, 52)
	for i := range cards {
		cards[i] = g.NewElement().MulGen(g.NewScalar().SetUint64(uint64(i + 1)))
	}
	for _, seats := range []int{2, 4} {
		rels, pinned := attack(t, seats, cards)
		t.Logf("%d seats, i·G cards: %d relations, %d of 52 positions read", seats, rels, pinned)
		if rels != len(plainRelations(52)) || rels != 676 || pinned != 52 {
			t.Errorf("%d seats: %d relations (want 676), %d positions read (want 52)", seats, rels, pinned)
		}
	}
}
