package mentalpoker

import (
	"errors"
	"testing"
)

// caught checks that err wraps want and names seat.
func caught(t *testing.T, what string, err, want error, seat int) {
	t.Helper()
	if !errors.Is(err, want) {
		t.Fatalf("%s: %v, want %v", what, err, want)
	}
	if s, ok := Culprit(err); !ok || s != seat {
		t.Fatalf("%s: named seat %d (%v), want %d", what, s, ok, seat)
	}
}

// sync rebuilds seat j's table from the server's messages, as a cheating
// seat that sent a tampered message goes on from what it sent.
func (d *hand) sync(t *testing.T, j int) {
	t.Helper()
	tb, _ := NewTable(d.server.game, d.server.hand, d.server.n, d.pubs)
	for _, m := range d.server.Messages() {
		if err := tb.Accept(m); err != nil {
			t.Fatal(err)
		}
	}
	tb.released = d.tables[j].released
	d.tables[j] = tb
}

// TestCheatsRefusedAtOnce: a seat that drops a card, duplicates one, sends
// a pass-2 output that is not its input times k/a (under its own valid
// signature), a bad signature, a message from another hand, or a message
// out of turn is refused by every other table, named, and the tables are
// unchanged. Each case is played at seat 1 of 3, in the pass it concerns.
func TestCheatsRefusedAtOnce(t *testing.T) {
	other := newHand(t, 3, 52, 7, "other-hand")
	other.deal(t)
	cases := []struct {
		name   string
		pass   int
		tamper func(d *hand, m *PassMessage)
		want   error
	}{
		{"drop", 1, func(d *hand, m *PassMessage) { m.Deck = m.Deck[:51]; d.resign(m) }, ErrCount},
		{"duplicate", 1, func(d *hand, m *PassMessage) { m.Deck[3] = m.Deck[10]; d.resign(m) }, ErrDuplicate},
		{"drop in pass 2", 2, func(d *hand, m *PassMessage) { m.Deck = m.Deck[:51]; d.resign(m) }, ErrCount},
		{"duplicate in pass 2", 2, func(d *hand, m *PassMessage) { m.Deck[3] = m.Deck[10]; d.resign(m) }, ErrDuplicate},
		{"not a point", 1, func(d *hand, m *PassMessage) { m.Deck[3] = [PointSize]byte{1}; d.resign(m) }, ErrPoint},
		{"output not k/a of input", 2, func(d *hand, m *PassMessage) {
			x, _ := decodePoint(m.Deck[3])
			m.Deck[3] = encode(x.Dbl(x))
			d.resign(m)
		}, ErrProof},
		{"keyed point changed", 2, func(d *hand, m *PassMessage) {
			x, _ := decodePoint(m.Keyed[3])
			m.Keyed[3] = encode(x.Dbl(x))
			d.resign(m)
		}, ErrProof},
		{"keyed points swapped", 2, func(d *hand, m *PassMessage) { m.Keyed[3], m.Keyed[4] = m.Keyed[4], m.Keyed[3]; d.resign(m) }, ErrProof},
		{"outputs swapped", 2, func(d *hand, m *PassMessage) { m.Deck[3], m.Deck[4] = m.Deck[4], m.Deck[3]; d.resign(m) }, ErrProof},
		{"proof of another hand", 2, func(d *hand, m *PassMessage) { m.Proof = other.server.msgs[4].Proof; d.resign(m) }, ErrProof},
		{"garbled proof", 2, func(d *hand, m *PassMessage) { m.Proof[40] ^= 1; d.resign(m) }, ErrProof},
		{"missing proof", 2, func(d *hand, m *PassMessage) { m.Proof = nil; d.resign(m) }, ErrProof},
		{"missing keyed points", 2, func(d *hand, m *PassMessage) { m.Keyed = nil; d.resign(m) }, ErrProof},
		{"keyed point not a point", 2, func(d *hand, m *PassMessage) { m.Keyed[0] = [PointSize]byte{}; d.resign(m) }, ErrProof},
		{"bad signature", 1, func(d *hand, m *PassMessage) { m.Sig[7] ^= 1 }, ErrSignature},
		{"bad signature in pass 2", 2, func(d *hand, m *PassMessage) { m.Sig[7] ^= 1 }, ErrSignature},
		{"content changed after signing", 1, func(d *hand, m *PassMessage) { m.Deck[0], m.Deck[1] = m.Deck[1], m.Deck[0] }, ErrSignature},
		{"replay from another hand", 1, func(d *hand, m *PassMessage) { *m = *other.server.msgs[1] }, ErrContext},
		{"replay of pass 2 from another hand", 2, func(d *hand, m *PassMessage) { *m = *other.server.msgs[4] }, ErrContext},
		{"replay relabelled by the server", 1, func(d *hand, m *PassMessage) {
			prev := m.Prev
			*m = *other.server.msgs[1]
			m.Hand, m.Prev = 1, prev
		}, ErrSignature},
		{"another seat's message", 1, func(d *hand, m *PassMessage) { m.Seat = 2; d.resign(m) }, ErrContext},
		{"unsigned fields of the other pass", 1, func(d *hand, m *PassMessage) { m.Proof = []byte{1} }, ErrInput},
		{"commitment in pass 2", 2, func(d *hand, m *PassMessage) { m.Commit[0] = 1 }, ErrInput},
		{"off the transcript", 1, func(d *hand, m *PassMessage) { m.Prev[0] ^= 1; d.resign(m) }, ErrTranscript},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d := newHand(t, 3, 52, 1, "cheat")
			for d.server.step != (c.pass-1)*3+1 {
				if err := d.step(t, nil); err != nil {
					t.Fatal(err)
				}
			}
			before := d.server.Transcript()
			err := d.step(t, func(m *PassMessage) { c.tamper(d, m) })
			caught(t, c.name, err, c.want, 1)
			for i, tb := range append(d.tables, d.server) {
				if i != 1 && (tb.Transcript() != before || tb.step != (c.pass-1)*3+1) {
					t.Fatalf("table %d changed by a refused message", i)
				}
			}
		})
	}
}

// TestSubstitutionCaughtByTheAudit: seat 1 replaces one point of its first
// pass by a point it made (its key times a point of its own choosing). No
// check refuses it during the deal, since there is no shuffle proof; the
// card at that position opens to no card, and the end-of-hand audit names
// seat 1. The control: the honest hand's audit passes (TestDealAndOpen).
func TestSubstitutionCaughtByTheAudit(t *testing.T) {
	d := newHand(t, 3, 52, 1, "subst")
	if err := d.step(t, nil); err != nil {
		t.Fatal(err)
	}
	err := d.step(t, func(m *PassMessage) {
		mine := g.HashToElement([]byte("a point seat 1 will recognise"), []byte("cheat"))
		m.Deck[5] = encode(mine.Mul(mine, d.seats[1].a))
		d.resign(m)
	})
	if err != nil {
		t.Fatalf("the substitution was refused during the deal: %v", err)
	}
	d.sync(t, 1)
	d.deal(t)
	bad := 0
	for p := range 52 {
		d.publish(t, p, -1)
		if _, err := d.server.OpenPublic(p); errors.Is(err, ErrNotCard) {
			bad++
		} else if err != nil {
			t.Fatal(err)
		}
	}
	if bad != 1 {
		t.Fatalf("%d positions open to no card, want 1", bad)
	}
	_, err = d.server.Audit(d.reveals(t))
	caught(t, "substitution", err, ErrRecompute, 1)
}

// TestBadKeysNamed: a published per-position key that is not its
// commitment's (another position's, re-signed), a key with a bad
// signature, one from another deal, and at the end a missing reveal or a
// reveal with a wrong key: each refused, naming the seat.
func TestBadKeysNamed(t *testing.T) {
	d := newHand(t, 3, 52, 1, "keys")
	d.deal(t)
	m, _ := d.seats[2].Key(d.tables[2], 4)
	wrong, _ := d.seats[2].Key(d.tables[2], 5)
	m.Key = wrong.Key
	m.Sig = signKey(d, m)
	caught(t, "wrong per-position key", d.server.AcceptKey(m), ErrKey, 2)
	m, _ = d.seats[0].Key(d.tables[0], 4)
	m.Sig[0] ^= 1
	caught(t, "bad key signature", d.server.AcceptKey(m), ErrSignature, 0)
	other := newHand(t, 3, 52, 2, "keys")
	other.deal(t)
	m, _ = other.seats[1].Key(other.tables[1], 4)
	caught(t, "key from another hand", d.server.AcceptKey(m), ErrContext, 1)
	if d.server.released[2][4] != nil || d.server.released[0][4] != nil || d.server.released[1][4] != nil {
		t.Fatal("a refused key was recorded")
	}

	rs := d.reveals(t)
	missing := append([]*RevealMessage(nil), rs...)
	missing[2] = nil
	caught(t, "missing reveal", second(d.server.Audit(missing)), ErrMissing, 2)
	bad := *rs[1]
	bad.Keys = append([][ScalarSize]byte(nil), rs[1].Keys...)
	bad.Keys[9] = bad.Keys[10]
	bad.Sig = signReveal(d, &bad)
	caught(t, "wrong key in the reveal", second(d.server.Audit([]*RevealMessage{rs[0], &bad, rs[2]})), ErrKey, 1)
	bad = *rs[0]
	bad.Common = rs[0].Keys[0]
	bad.Sig = signReveal(d, &bad)
	caught(t, "wrong common key in the reveal", second(d.server.Audit([]*RevealMessage{&bad, rs[1], rs[2]})), ErrKey, 0)
	bad = *rs[2]
	bad.Sig = append([]byte(nil), rs[2].Sig...)
	bad.Sig[1] ^= 1
	caught(t, "bad reveal signature", second(d.server.Audit([]*RevealMessage{rs[0], rs[1], &bad})), ErrSignature, 2)
	if _, err := d.server.Audit(rs); err != nil {
		t.Fatalf("control: the honest reveals fail: %v", err)
	}
}
