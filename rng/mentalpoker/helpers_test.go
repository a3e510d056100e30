package mentalpoker

import (
	"crypto/ed25519"
	"io"
	"testing"

	"github.com/fairboard/fairboard/rng"
)

// seeded returns a deterministic reader: the ChaCha20 keystream of seed.
func seeded(seed string) io.Reader { return rng.NewChaCha20([]byte(seed)) }

// hand is one deal among n seats: every seat's table and secrets, plus an
// observer's table (the server's, or a verifier's).
type hand struct {
	tables []*Table // tables[j] is seat j's
	seats  []*Seat
	server *Table
	privs  []ed25519.PrivateKey
	pubs   []ed25519.PublicKey
}

// keys returns n Ed25519 key pairs seeded by prefix.
func keys(t testing.TB, n int, prefix string) ([]ed25519.PublicKey, []ed25519.PrivateKey) {
	t.Helper()
	pubs, privs := make([]ed25519.PublicKey, n), make([]ed25519.PrivateKey, n)
	for i := range n {
		seed := make([]byte, ed25519.SeedSize)
		if _, err := io.ReadFull(seeded(prefix+"/sign/"+string(rune('a'+i))), seed); err != nil {
			t.Fatal(err)
		}
		privs[i] = ed25519.NewKeyFromSeed(seed)
		pubs[i] = privs[i].Public().(ed25519.PublicKey)
	}
	return pubs, privs
}

// newHand sets up a deal of cards among n seats of game "g1", hand h, with
// readers seeded by prefix (nil readers, crypto/rand, if prefix is "").
func newHand(t testing.TB, n, cards int, h uint64, prefix string) *hand {
	t.Helper()
	pubs, privs := keys(t, n, prefix)
	d := &hand{privs: privs, pubs: pubs}
	var err error
	if d.server, err = NewTable("g1", h, cards, pubs); err != nil {
		t.Fatal(err)
	}
	for j := range n {
		tb, err := NewTable("g1", h, cards, pubs)
		if err != nil {
			t.Fatal(err)
		}
		var r io.Reader
		if prefix != "" {
			r = seeded(prefix + "/seat/" + string(rune('a'+j)))
		}
		s, err := NewSeat(tb, j, privs[j], r)
		if err != nil {
			t.Fatal(err)
		}
		d.tables, d.seats = append(d.tables, tb), append(d.seats, s)
	}
	return d
}

// step lets the seat in turn play, with tamper (if not nil) applied to its
// message before the others and the server see it, and returns the first
// error of the others' Accept.
func (d *hand) step(t testing.TB, tamper func(*PassMessage)) error {
	t.Helper()
	_, j := d.server.Next()
	m, err := d.seats[j].Pass(d.tables[j])
	if err != nil {
		t.Fatal(err)
	}
	if tamper != nil {
		tamper(m)
	}
	for i, tb := range append(d.tables, d.server) {
		if i == j {
			continue
		}
		if err := tb.Accept(m); err != nil {
			return err
		}
	}
	return nil
}

// deal plays both passes honestly.
func (d *hand) deal(t testing.TB) {
	t.Helper()
	for !d.server.Dealt() {
		if err := d.step(t, nil); err != nil {
			t.Fatal(err)
		}
	}
}

// publish has every seat but owner publish its key for p to every table
// (owner -1: every seat).
func (d *hand) publish(t testing.TB, p, owner int) {
	t.Helper()
	for j, s := range d.seats {
		if j == owner {
			continue
		}
		m, err := s.Key(d.tables[j], p)
		if err != nil {
			t.Fatal(err)
		}
		for _, tb := range append(d.tables, d.server) {
			if err := tb.AcceptKey(m); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// reveals returns every seat's end-of-hand reveal.
func (d *hand) reveals(t testing.TB) []*RevealMessage {
	t.Helper()
	out := make([]*RevealMessage, len(d.seats))
	for j, s := range d.seats {
		var err error
		if out[j], err = s.Reveal(d.tables[j]); err != nil {
			t.Fatal(err)
		}
	}
	return out
}

// resign re-signs a tampered pass message with seat j's key, as a cheating
// seat would.
func (d *hand) resign(m *PassMessage) {
	m.Sig = ed25519.Sign(d.privs[m.Seat], m.SignedBytes())
}

func signKey(d *hand, m *KeyMessage) []byte {
	return ed25519.Sign(d.privs[m.Seat], m.SignedBytes())
}

func signReveal(d *hand, m *RevealMessage) []byte {
	return ed25519.Sign(d.privs[m.Seat], m.SignedBytes())
}
