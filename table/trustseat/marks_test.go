package trustseat_test

import (
	"bytes"
	"crypto/ed25519"
	"encoding/hex"
	"errors"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/internal/checks"
	"github.com/fairboard/fairboard/match"
	"github.com/fairboard/fairboard/rng/trustless"
	"github.com/fairboard/fairboard/table"
	"github.com/fairboard/fairboard/table/trustseat"
)

// marksTable is a two-seat table's view with a pending round at index 5
// whose markers are signed here, with ed25519 keys of fixed seeds, over
// trustless.RevealMessage (the signed bytes docs/fairness.md names),
// not by any code of trustseat's.
type marksTable struct {
	keys   []ed25519.PrivateKey
	digest [32]byte
	tr     [32]byte
}

func newMarksTable() *marksTable {
	m := &marksTable{}
	for i := range 2 {
		m.keys = append(m.keys, ed25519.NewKeyFromSeed(bytes.Repeat([]byte{byte(0x10 + i)}, ed25519.SeedSize)))
	}
	copy(m.digest[:], bytes.Repeat([]byte{0xd1}, 32))
	copy(m.tr[:], bytes.Repeat([]byte{0x7e}, 32))
	return m
}

// sign is seat's signature of round index's reveal over digest d.
func (m *marksTable) sign(seat int, index uint32, d [32]byte) string {
	return hex.EncodeToString(ed25519.Sign(m.keys[seat], trustless.RevealMessage("g-marks", index, &d, &m.tr)))
}

// view shows the pending round with markers rs.
func (m *marksTable) view(rs ...table.RevealMarker) *table.TrustlessView {
	tv := &table.TrustlessView{RecordTrustless: match.RecordTrustless{GameID: "g-marks"}}
	for i, uid := range []string{"p0", "p1"} {
		tv.Seats = append(tv.Seats, match.TrustlessSeat{UID: uid, PublicKey: hex.EncodeToString(m.keys[i].Public().(ed25519.PublicKey))})
	}
	tv.Pending = &table.PendingRound{Index: 5, Move: `{"seat":0,"kind":"roll"}`, Version: 9,
		Digest: hex.EncodeToString(m.digest[:]), Transcript: hex.EncodeToString(m.tr[:]), Reveals: rs}
	return tv
}

// The markers of a pending round (trustseat.CheckMarks): a valid set
// passes (none, one, both seats); a marker of another uid, a seat
// shown twice, a signature over another digest (the split view's) or
// over another index, a forged signature (one bit flipped), and a round
// whose digest is not hex are each refused as the server's lie. The
// positive control: with checks.MarkDigest off every one passes.
func TestCheckMarks(t *testing.T) {
	m := newMarksTable()
	good0 := table.RevealMarker{Seat: 0, UID: "p0", At: 1, Signature: m.sign(0, 5, m.digest)}
	good1 := table.RevealMarker{Seat: 1, UID: "p1", At: 2, Signature: m.sign(1, 5, m.digest)}
	for _, tv := range []*table.TrustlessView{nil, {}, m.view(), m.view(good0), m.view(good0, good1), m.view(good1, good0)} {
		require.NoError(t, trustseat.CheckMarks(tv))
	}

	other := m.digest
	other[0] ^= 1
	forged, err := hex.DecodeString(good1.Signature)
	require.NoError(t, err)
	forged[10] ^= 1 // one bit of the signature flipped
	bad := func(r table.RevealMarker, f func(*table.RevealMarker)) table.RevealMarker { f(&r); return r }
	badDigest := m.view(good0)
	badDigest.Pending.Digest = "not hex"
	cases := []struct {
		name string
		tv   *table.TrustlessView
		want string
	}{
		{"another uid", m.view(good0, bad(good1, func(r *table.RevealMarker) { r.UID = "p0" })), "not that seat's player"},
		{"a seat out of range", m.view(bad(good1, func(r *table.RevealMarker) { r.Seat = 2 })), "not that seat's player"},
		{"a seat twice", m.view(good0, good1, bad(good1, func(r *table.RevealMarker) { r.At = 3 })), "seat 1's reveal twice"},
		{"a signature over another digest", m.view(good0, bad(good1, func(r *table.RevealMarker) { r.Signature = m.sign(1, 5, other) })), "did not sign over the pending move shown here"},
		{"a signature of another round", m.view(bad(good0, func(r *table.RevealMarker) { r.Signature = m.sign(0, 4, m.digest) })), "did not sign"},
		{"another seat's signature", m.view(bad(good1, func(r *table.RevealMarker) { r.Signature = good0.Signature })), "did not sign"},
		{"a forged signature", m.view(good0, bad(good1, func(r *table.RevealMarker) { r.Signature = hex.EncodeToString(forged) })), "did not sign"},
		{"a signature not hex", m.view(bad(good0, func(r *table.RevealMarker) { r.Signature = "zz" })), "did not sign"},
		{"a digest not hex", badDigest, "not 64 hex digits each"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := trustseat.CheckMarks(c.tv)
			var lie *trustseat.MarksLie
			require.True(t, errors.As(err, &lie), "%s passed: %v", c.name, err)
			require.Contains(t, lie.What, c.want)
			require.Contains(t, err.Error(), "the server lies")
		})
	}
	t.Run("control without MarkDigest", func(t *testing.T) {
		checks.Off(t, checks.MarkDigest)
		for _, c := range cases {
			require.NoError(t, trustseat.CheckMarks(c.tv), c.name)
		}
	})
}
