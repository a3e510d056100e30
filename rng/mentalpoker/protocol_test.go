package mentalpoker

import (
	"crypto/ed25519"
	"errors"
	"slices"
	"testing"
)

// TestDealAndOpen deals 52 cards among 2, 3 and 4 seats, gives position p
// to seat p mod n (every other seat publishes its key for p), and checks:
// the owner opens it, no other seat can without the owner's key, every
// table (seats' and server's) agrees on the transcript, the cards are
// 0..51 once each and not in order, and the end-of-hand audit recomputes
// the same cards, as does opening every position to everyone.
func TestDealAndOpen(t *testing.T) {
	for _, n := range []int{2, 3, 4} {
		d := newHand(t, n, 52, 1, "open")
		d.deal(t)
		for _, tb := range d.tables {
			if tb.Transcript() != d.server.Transcript() || tb.Deal() != d.server.Deal() {
				t.Fatalf("%d seats: transcripts differ", n)
			}
		}
		cards := make([]int, 52)
		for p := range 52 {
			owner := p % n
			d.publish(t, p, owner)
			other := (owner + 1) % n
			if _, err := d.seats[other].Open(d.tables[other], p); !errors.Is(err, ErrMissing) {
				t.Fatalf("seat %d opened seat %d's card without its key: %v", other, owner, err)
			}
			if _, err := d.server.OpenPublic(p); !errors.Is(err, ErrMissing) {
				t.Fatalf("the server opened position %d: %v", p, err)
			} else if s, _ := Culprit(err); s != owner {
				t.Fatalf("missing key named seat %d, want %d", s, owner)
			}
			c, err := d.seats[owner].Open(d.tables[owner], p)
			if err != nil {
				t.Fatalf("%d seats, position %d: %v", n, p, err)
			}
			cards[p] = c
		}
		if s := slices.Sorted(slices.Values(cards)); !slices.Equal(s, seq(52)) || slices.IsSorted(cards) {
			t.Fatalf("%d seats: cards %v", n, cards)
		}
		audited, err := d.server.Audit(d.reveals(t))
		if err != nil || !slices.Equal(audited, cards) {
			t.Fatalf("%d seats: audit %v, %v; opened %v", n, audited, err, cards)
		}
		for p := range 52 {
			m, _ := d.seats[p%n].Key(d.tables[p%n], p)
			if err := d.server.AcceptKey(m); err != nil {
				t.Fatal(err)
			}
			if c, err := d.server.OpenPublic(p); err != nil || c != cards[p] {
				t.Fatalf("public opening of %d: %d, %v; want %d", p, c, err, cards[p])
			}
		}
	}
}

func seq(n int) []int {
	s := make([]int, n)
	for i := range s {
		s[i] = i
	}
	return s
}

// TestNoOneSeesBeforeTheDeal: no deck after the first pass holds a card
// point, and no seat, applying its own keys to the final deck, finds a card.
func TestNoOneSeesBeforeTheDeal(t *testing.T) {
	d := newHand(t, 3, 52, 1, "transit")
	d.deal(t)
	for step := 1; step < len(d.server.wire); step++ {
		for p, x := range d.server.wire[step] {
			if _, ok := d.server.index[x]; ok {
				t.Fatalf("step %d position %d holds a card point", step, p)
			}
		}
	}
	for j, s := range d.seats {
		for p := range 52 {
			inv := s.k[p].Copy()
			inv.Inv(inv)
			if _, ok := d.server.index[encode(g.NewElement().Mul(d.server.decks[len(d.server.decks)-1][p], inv))]; ok {
				t.Fatalf("seat %d opened position %d alone", j, p)
			}
		}
	}
}

// TestKeysFreshPerHand: the same seats with the same kind of reader deal
// two hands with different commitments, card points and deals; the same
// seed deals the same hand twice (determinism for tests).
func TestKeysFreshPerHand(t *testing.T) {
	deal := func(h uint64, prefix string) *hand {
		d := newHand(t, 2, 52, h, prefix)
		d.deal(t)
		return d
	}
	a, b, c := deal(1, ""), deal(2, ""), deal(1, "")
	if encode(a.server.commits[0]) == encode(b.server.commits[0]) || encode(a.server.commits[0]) == encode(c.server.commits[0]) {
		t.Fatal("a common key was reused")
	}
	if encode(a.server.cards[0]) == encode(b.server.cards[0]) || encode(a.server.cards[0]) != encode(c.server.cards[0]) {
		t.Fatal("card points do not depend on the hand exactly")
	}
	x, y := deal(1, "same"), deal(1, "same")
	if x.server.Deal() != y.server.Deal() {
		t.Fatal("equal seeds dealt differently")
	}
}

// TestWaitingNamesTheStaller: the table names the seat it awaits, pass by
// pass, and the seats whose keys are missing.
func TestWaitingNamesTheStaller(t *testing.T) {
	d := newHand(t, 3, 8, 1, "wait")
	for want := range 6 {
		if pass, seat := d.server.Next(); pass != want/3+1 || seat != want%3 {
			t.Fatalf("step %d: awaiting pass %d seat %d", want, pass, seat)
		}
		if err := d.step(t, nil); err != nil {
			t.Fatal(err)
		}
	}
	if pass, seat := d.server.Next(); pass != 0 || seat != -1 {
		t.Fatalf("after the deal: %d %d", pass, seat)
	}
	m, _ := d.seats[2].Key(d.tables[2], 5)
	if err := d.server.AcceptKey(m); err != nil {
		t.Fatal(err)
	}
	if got := d.server.Missing(5, 0); !slices.Equal(got, []int{1}) {
		t.Fatalf("missing for position 5, owner 0: %v", got)
	}
	if got := d.server.Missing(5, -1); !slices.Equal(got, []int{0, 1}) {
		t.Fatalf("missing for position 5: %v", got)
	}
}

// TestInvalidInputs: every malformed call fails with its error.
func TestInvalidInputs(t *testing.T) {
	pubs, privs := keys(t, 2, "bad")
	for name, err := range map[string]error{
		"empty game": second(NewTable("", 1, 52, pubs)),
		"long game":  second(NewTable(string(make([]byte, MaxGameID+1)), 1, 52, pubs)),
		"no cards":   second(NewTable("g", 1, 0, pubs)),
		"too many":   second(NewTable("g", 1, MaxCards+1, pubs)),
		"no seats":   second(NewTable("g", 1, 52, nil)),
		"short key":  second(NewTable("g", 1, 52, []ed25519.PublicKey{pubs[0][:31]})),
		"same key":   second(NewTable("g", 1, 52, []ed25519.PublicKey{pubs[0], pubs[0]})),
		"card count": second(CardPoints("g", 1, 0)),
	} {
		if !errors.Is(err, ErrInput) {
			t.Errorf("%s: %v, want ErrInput", name, err)
		}
	}
	tb, _ := NewTable("g", 1, 4, pubs)
	if _, err := NewSeat(tb, 0, privs[1], nil); !errors.Is(err, ErrInput) {
		t.Errorf("another seat's signing key: %v", err)
	}
	if _, err := NewSeat(tb, 2, privs[0], nil); !errors.Is(err, ErrInput) {
		t.Errorf("seat out of range: %v", err)
	}
	s1, _ := NewSeat(tb, 1, privs[1], nil)
	if _, err := s1.Pass(tb); !errors.Is(err, ErrPhase) {
		t.Errorf("seat 1 before seat 0: %v", err)
	}
	if _, err := s1.Key(tb, 0); !errors.Is(err, ErrPhase) {
		t.Errorf("key before the deal: %v", err)
	}
	if _, err := tb.OpenPublic(0); !errors.Is(err, ErrPhase) {
		t.Errorf("open before the deal: %v", err)
	}
	if _, err := tb.Audit(nil); !errors.Is(err, ErrPhase) {
		t.Errorf("audit before the deal: %v", err)
	}
	if err := tb.AcceptKey(&KeyMessage{}); !errors.Is(err, ErrPhase) {
		t.Errorf("key before the deal: %v", err)
	}
	s0, _ := NewSeat(tb, 0, privs[0], &failingReader{n: 70})
	if _, err := s0.Pass(tb); !errors.Is(err, ErrRandom) || tb.step != 0 {
		t.Errorf("failing reader: %v, step %d", err, tb.step)
	}
	d := newHand(t, 2, 4, 1, "bad")
	d.deal(t)
	for _, p := range []int{-1, 4} {
		if _, err := d.seats[0].Key(d.tables[0], p); !errors.Is(err, ErrInput) {
			t.Errorf("key %d: %v", p, err)
		}
		if _, err := d.server.OpenPublic(p); !errors.Is(err, ErrInput) {
			t.Errorf("open %d: %v", p, err)
		}
	}
	if err := d.server.Accept(&PassMessage{}); !errors.Is(err, ErrPhase) {
		t.Errorf("a third pass: %v", err)
	}
}

func second[T any](_ T, err error) error { return err }

// failingReader returns n zero bytes then fails.
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
