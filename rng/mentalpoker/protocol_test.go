package mentalpoker

import (
	"errors"
	"math/big"
	"slices"
	"testing"
)

// TestProtocol plays the whole shuffle with 2 and 3 players on 52 cards:
// every position opens, with every player's key, to a distinct card of
// the deck.
func TestProtocol(t *testing.T) {
	g := testGroup(t)
	for _, n := range []int{2, 3} {
		players := newPlayers(t, g, n, "protocol")
		final, _ := run(t, players, 52)
		cards := openAll(t, players, final)
		sorted := slices.Sorted(slices.Values(cards))
		for i, c := range sorted {
			if c != i {
				t.Fatalf("%d players: opened cards %v are not 0..51 once each", n, cards)
			}
		}
		if slices.IsSorted(cards) {
			t.Fatalf("%d players: the deck was not shuffled", n)
		}
	}
}

// TestEveryKeyNeeded: with any one player's key left out, or replaced by
// another position's key, no position opens.
func TestEveryKeyNeeded(t *testing.T) {
	g := testGroup(t)
	players := newPlayers(t, g, 3, "needed")
	final, _ := run(t, players, 52)
	for k := range final {
		keys := make([]Key, 3)
		for i, p := range players {
			keys[i], _ = RevealKey(p, k)
		}
		for miss := range keys {
			partial := slices.Delete(slices.Clone(keys), miss, miss+1)
			if c, err := Open(final[k], partial...); !errors.Is(err, ErrNotCard) {
				t.Fatalf("position %d without player %d opened: %d, %v", k, miss, c, err)
			}
			wrong := slices.Clone(keys)
			wrong[miss], _ = RevealKey(players[miss], (k+1)%len(final))
			if c, err := Open(final[k], wrong...); !errors.Is(err, ErrNotCard) {
				t.Fatalf("position %d with player %d's key of another position opened: %d, %v", k, miss, c, err)
			}
		}
		// Order of the keys does not matter (commutativity).
		a, err1 := Open(final[k], keys...)
		slices.Reverse(keys)
		b, err2 := Open(final[k], keys...)
		if err1 != nil || err2 != nil || a != b {
			t.Fatalf("position %d: %d, %v vs %d, %v", k, a, err1, b, err2)
		}
		// Keys survive the trip as their exponent.
		for i := range keys {
			keys[i], _ = KeyFromD(g, keys[i].D())
		}
		if c, err := Open(final[k], keys...); err != nil || c != a {
			t.Fatalf("position %d via KeyFromD: %d, %v", k, c, err)
		}
	}
}

// TestCommutative: encrypting with A then B equals B then A, and removing
// the keys in either order restores the card.
func TestCommutative(t *testing.T) {
	g := testGroup(t)
	r := seeded("commute")
	a, _ := newKey(g, r)
	b, _ := newKey(g, r)
	for i := range 52 {
		x, _ := Encode(i)
		ab, ba := b.encrypt(a.encrypt(x)), a.encrypt(b.encrypt(x))
		if ab.Cmp(ba) != 0 {
			t.Fatalf("card %d: E_B(E_A(x)) != E_A(E_B(x))", i)
		}
		if a.decrypt(b.decrypt(ab)).Cmp(x) != 0 || b.decrypt(a.decrypt(ab)).Cmp(x) != 0 {
			t.Fatalf("card %d: decryption order matters", i)
		}
	}
}

// TestNoPlaintextInTransit: no deck passed between players holds a card's
// plaintext (after the initial one), and no player, applying every key it
// has to the final deck, can read any card before the others release
// theirs.
func TestNoPlaintextInTransit(t *testing.T) {
	g := testGroup(t)
	plain := map[string]bool{}
	for i := range MaxCards {
		m, _ := Encode(i)
		plain[string(m.Bytes())] = true
	}
	for _, n := range []int{2, 3} {
		players := newPlayers(t, g, n, "transit")
		final, passed := run(t, players, 52)
		for step, d := range passed[1:] {
			for k, x := range d {
				if plain[string(x.Bytes())] {
					t.Fatalf("%d players, step %d, position %d: a plaintext card", n, step+1, k)
				}
			}
		}
		for i, p := range players {
			for k := range final {
				own, _ := RevealKey(p, k)
				if c, err := Open(final[k], own); !errors.Is(err, ErrNotCard) {
					t.Fatalf("%d players: player %d alone opened position %d: %d, %v", n, i, k, c, err)
				}
			}
		}
	}
}

// TestDeterministic: the same seeded readers give the same decks and the
// same deal; other seeds give another deal.
func TestDeterministic(t *testing.T) {
	g := testGroup(t)
	deal := func(prefix string) (Deck, []int) {
		ps := newPlayers(t, g, 2, prefix)
		final, _ := run(t, ps, 52)
		return final, openAll(t, ps, final)
	}
	d1, c1 := deal("same")
	d2, c2 := deal("same")
	_, c3 := deal("other")
	for k := range d1 {
		if d1[k].Cmp(d2[k]) != 0 {
			t.Fatalf("position %d differs between equal seeds", k)
		}
	}
	if !slices.Equal(c1, c2) || slices.Equal(c1, c3) {
		t.Fatalf("deals %v / %v / %v", c1, c2, c3)
	}
}

// TestInvalidInputs: every malformed call fails with its error and leaves
// the player as it was.
func TestInvalidInputs(t *testing.T) {
	g := testGroup(t)
	if _, err := NewPlayer(nil, nil); !errors.Is(err, ErrGroup) {
		t.Fatal(err)
	}
	p, _ := NewPlayer(g, seeded("invalid"))
	good, _ := InitialDeck(52)
	with := func(k int, v *big.Int) Deck { d := slices.Clone(good); d[k] = v; return d }
	nonResidue := big.NewInt(2) // the smallest quadratic non-residue mod p
	for big.Jacobi(nonResidue, g.p) != -1 {
		nonResidue.Add(nonResidue, big.NewInt(1))
	}
	badDecks := map[string]Deck{
		"empty":       nil,
		"too long":    make(Deck, MaxCards+1),
		"nil value":   with(3, nil),
		"zero":        with(3, big.NewInt(0)),
		"one":         with(3, big.NewInt(1)),
		"negative":    with(3, big.NewInt(-4)),
		"p":           with(3, g.P()),
		"above p":     with(3, new(big.Int).Add(g.P(), big.NewInt(4))),
		"non-residue": with(3, nonResidue),
		"duplicate":   with(3, good[10]),
		"p-1":         with(3, new(big.Int).Sub(g.P(), big.NewInt(1))),
	}
	for name, d := range badDecks {
		if _, err := Shuffle1(p, d); !errors.Is(err, ErrDeck) {
			t.Errorf("Shuffle1 with %s: %v, want ErrDeck", name, err)
		}
	}
	// Out of order.
	if _, err := Shuffle2(p, good); !errors.Is(err, ErrPhase) {
		t.Errorf("Shuffle2 first: %v", err)
	}
	if _, err := RevealKey(p, 0); !errors.Is(err, ErrPhase) {
		t.Errorf("RevealKey first: %v", err)
	}
	if _, err := Shuffle1(nil, good); !errors.Is(err, ErrPhase) {
		t.Errorf("nil player: %v", err)
	}
	d1, err := Shuffle1(p, good)
	if err != nil {
		t.Fatalf("the player was spoilt by the bad calls: %v", err)
	}
	if _, err := Shuffle1(p, good); !errors.Is(err, ErrPhase) {
		t.Errorf("Shuffle1 twice: %v", err)
	}
	if _, err := Shuffle2(p, d1[:51]); !errors.Is(err, ErrDeck) {
		t.Errorf("Shuffle2 with a short deck: %v", err)
	}
	if _, err := Shuffle2(p, with(0, nonResidue)); !errors.Is(err, ErrDeck) {
		t.Errorf("Shuffle2 with a non-residue: %v", err)
	}
	d2, err := Shuffle2(p, d1)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Shuffle2(p, d1); !errors.Is(err, ErrPhase) {
		t.Errorf("Shuffle2 twice: %v", err)
	}
	for _, k := range []int{-1, 52} {
		if _, err := RevealKey(p, k); !errors.Is(err, ErrDeck) {
			t.Errorf("RevealKey(%d): %v", k, err)
		}
	}
	// One player alone: its key opens its own deck.
	key, _ := RevealKey(p, 0)
	if c, err := Open(d2[0], key); err != nil || c < 0 || c >= 52 {
		t.Errorf("single player Open: %d, %v", c, err)
	}
	// Open's own checks.
	other, _ := NewPlayer(MODP2048(), seeded("x"))
	otherKey, _ := newKey(other.g, other.r)
	for name, err := range map[string]error{
		"no keys":       second(Open(d2[0])),
		"zero key":      second(Open(d2[0], key, Key{})),
		"other group":   second(Open(d2[0], key, otherKey)),
		"bad value":     second(Open(big.NewInt(1), key)),
		"nil value":     second(Open(nil, key)),
		"non-residue c": second(Open(nonResidue, key)),
	} {
		want := ErrKey
		if name == "bad value" || name == "nil value" || name == "non-residue c" {
			want = ErrDeck
		}
		if !errors.Is(err, want) {
			t.Errorf("Open %s: %v, want %v", name, err, want)
		}
	}
}

func second[T any](_ T, err error) error { return err }

// failingReader returns n bytes then fails.
type failingReader struct{ n int }

func (f *failingReader) Read(b []byte) (int, error) {
	if f.n <= 0 {
		return 0, errors.New("entropy exhausted")
	}
	k := min(len(b), f.n)
	clear(b[:k])
	f.n -= k
	return k, nil
}

// TestReaderFailure: a failing source is reported as ErrRandom wherever it
// fails (drawing the key or shuffling, in either pass), and the player stays
// in its phase.
func TestReaderFailure(t *testing.T) {
	g := testGroup(t)
	good, _ := InitialDeck(52)
	for _, n := range []int{0, 96, 200} {
		p, _ := NewPlayer(g, &failingReader{n: n})
		if _, err := Shuffle1(p, good); !errors.Is(err, ErrRandom) {
			t.Errorf("reader failing after %d bytes: %v", n, err)
		}
		if p.phase != fresh {
			t.Errorf("phase moved on failure")
		}
	}
	p, _ := NewPlayer(g, seeded("r"))
	d1, _ := Shuffle1(p, good)
	p.r = &failingReader{n: 500}
	if _, err := Shuffle2(p, d1); !errors.Is(err, ErrRandom) || p.phase != shuffled1 {
		t.Errorf("Shuffle2 with a failing reader: %v, phase %d", err, p.phase)
	}
}

// TestModp2048 plays the whole protocol once at the real size: 2 players,
// 52 cards, every card opened.
func TestModp2048(t *testing.T) {
	if testing.Short() {
		t.Skip("2048-bit protocol run skipped in -short mode")
	}
	players := newPlayers(t, MODP2048(), 2, "2048")
	final, _ := run(t, players, 52)
	cards := openAll(t, players, final)
	if s := slices.Sorted(slices.Values(cards)); s[0] != 0 || s[51] != 51 || len(slices.Compact(s)) != 52 {
		t.Fatalf("opened %v", cards)
	}
}

// BenchmarkShuffle2048: Shuffle1 then Shuffle2 by 2 players on 52 cards
// with the RFC 3526 2048-bit prime and crypto/rand, per whole shuffle.
func BenchmarkShuffle2048(b *testing.B) {
	g := MODP2048()
	deck, _ := InitialDeck(52)
	for b.Loop() {
		ps := make([]*Player, 2)
		for i := range ps {
			ps[i], _ = NewPlayer(g, nil)
		}
		d := deck
		var err error
		for _, pass := range []func(*Player, Deck) (Deck, error){Shuffle1, Shuffle2} {
			for _, p := range ps {
				if d, err = pass(p, d); err != nil {
					b.Fatal(err)
				}
			}
		}
	}
}
