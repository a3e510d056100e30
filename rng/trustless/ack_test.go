package trustless

import (
	"bytes"
	"crypto/ed25519"
	"encoding/hex"
	"testing"
)

// TestAckMessageLayout: the acknowledgement's bytes are the fields in the
// order AckMessage's doc gives, written out here by hand for a small case
// (each field's 4-byte length, then its bytes), and any field changed
// changes them.
func TestAckMessageLayout(t *testing.T) {
	var d, tr [32]byte
	for i := range d {
		d[i], tr[i] = byte(i), byte(0xff-i)
	}
	got := AckMessage("g", "p1", 2, 7, &d, &tr, []byte{0xaa, 0xbb}, 0x0102030405060708)
	want := "00000017" + hex.EncodeToString([]byte("fairboard/reveal-ack/v1")) +
		"00000001" + "67" + // "g"
		"00000002" + "7031" + // "p1"
		"00000002" + "00000007" +
		"00000020" + hex.EncodeToString(d[:]) +
		"00000020" + hex.EncodeToString(tr[:]) +
		"00000002" + "aabb" +
		"0102030405060708"
	if hex.EncodeToString(got) != want {
		t.Fatalf("AckMessage = %x\nwant        %s", got, want)
	}
	changed := [][]byte{
		AckMessage("h", "p1", 2, 7, &d, &tr, []byte{0xaa, 0xbb}, 0x0102030405060708),
		AckMessage("g", "p2", 2, 7, &d, &tr, []byte{0xaa, 0xbb}, 0x0102030405060708),
		AckMessage("g", "p1", 3, 7, &d, &tr, []byte{0xaa, 0xbb}, 0x0102030405060708),
		AckMessage("g", "p1", 2, 8, &d, &tr, []byte{0xaa, 0xbb}, 0x0102030405060708),
		AckMessage("g", "p1", 2, 7, &tr, &d, []byte{0xaa, 0xbb}, 0x0102030405060708),
		AckMessage("g", "p1", 2, 7, &d, &tr, []byte{0xaa}, 0x0102030405060708),
		AckMessage("g", "p1", 2, 7, &d, &tr, []byte{0xaa, 0xbb}, 0x0102030405060709),
	}
	for i, c := range changed {
		if bytes.Equal(c, got) {
			t.Errorf("change %d leaves the message as it was", i)
		}
	}
	// Signed with a key, it verifies under that key only.
	pub, priv, _ := ed25519.GenerateKey(nil)
	other, _, _ := ed25519.GenerateKey(nil)
	sig := ed25519.Sign(priv, got)
	if !Verify(pub, got, sig) || Verify(other, got, sig) || Verify(pub, changed[0], sig) {
		t.Fatal("an acknowledgement verifies under its key, over its message, only")
	}
}

// TestDealAckMessageLayout: the deal acknowledgement's bytes are the
// fields in the order DealAckMessage's doc gives, written out here by
// hand for two parts, and any field changed (a part dropped or swapped
// included) changes them.
func TestDealAckMessageLayout(t *testing.T) {
	parts := []SignedPart{{Signed: []byte("ab"), Sig: []byte{0x01}}, {Signed: []byte{}, Sig: []byte{0xfe, 0xff}}}
	got := DealAckMessage("g", "p1", parts, 0x0102030405060708)
	want := "00000015" + hex.EncodeToString([]byte("fairboard/deal-ack/v1")) +
		"00000001" + "67" + // "g"
		"00000002" + "7031" + // "p1"
		"00000002" + // two parts
		"00000002" + "6162" + "00000001" + "01" +
		"00000000" + "00000002" + "feff" +
		"0102030405060708"
	if hex.EncodeToString(got) != want {
		t.Fatalf("DealAckMessage = %x\nwant            %s", got, want)
	}
	changed := [][]byte{
		DealAckMessage("h", "p1", parts, 0x0102030405060708),
		DealAckMessage("g", "p2", parts, 0x0102030405060708),
		DealAckMessage("g", "p1", parts[:1], 0x0102030405060708),
		DealAckMessage("g", "p1", []SignedPart{parts[1], parts[0]}, 0x0102030405060708),
		DealAckMessage("g", "p1", []SignedPart{{Signed: []byte("ab"), Sig: []byte{0x02}}, parts[1]}, 0x0102030405060708),
		DealAckMessage("g", "p1", parts, 0x0102030405060709),
		// The reveal's acknowledgement never reads as a deal's.
		AckMessage("g", "p1", 2, 7, &[32]byte{}, &[32]byte{}, []byte{0x01}, 0x0102030405060708),
	}
	for i, c := range changed {
		if bytes.Equal(c, got) {
			t.Errorf("change %d leaves the message as it was", i)
		}
	}
}
