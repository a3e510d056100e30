package mentalpoker

import (
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/binary"
)

// PassMessage is one seat's turn of a pass, as it travels: its output deck
// and what lets the others check it, signed with the seat's Ed25519 key.
type PassMessage struct {
	Game string
	Hand uint64
	Pass uint8  // 1 or 2
	Seat uint32 // 0-based
	// Prev is the transcript hash before this message.
	Prev [32]byte
	// Deck is the seat's output, one point per position.
	Deck [][PointSize]byte
	// Commit is pass 1's A = a·G, a the seat's common key (zero in pass 2).
	Commit [PointSize]byte
	// Keyed is pass 2's z_p = k_p·in_p, in_p the seat's input at position
	// p and k_p its key for p: what a published k_p is checked against.
	// Deck[p] is then a⁻¹·z_p, and Proof a batch DLEQ proof (circl zk/dleq)
	// that log_A G = log_{z_p} Deck[p] for every p, so that
	// Deck[p] = (k_p/a)·in_p. Both empty in pass 1.
	Keyed [][PointSize]byte
	Proof []byte
	Sig   []byte
}

// SignedBytes returns what the seat signs:
//
//	field("fairboard/mentalpoker/pass/v1") ‖ field(gameId) ‖ u64be(hand) ‖ u8(pass)
//	‖ u32be(seat) ‖ prev ‖ u32be(n) ‖ deck[0] ‖ … ‖ deck[n-1]
//	‖ pass 1: commit | pass 2: z_0 ‖ … ‖ z_(n-1) ‖ field(proof)
func (m *PassMessage) SignedBytes() []byte {
	n := len(m.Deck)
	b := make([]byte, 0, 96+len(m.Game)+n*PointSize*2+ProofSize+4)
	b = fieldString(b, DomainPass)
	b = fieldString(b, m.Game)
	b = binary.BigEndian.AppendUint64(b, m.Hand)
	b = append(b, m.Pass)
	b = binary.BigEndian.AppendUint32(b, m.Seat)
	b = append(b, m.Prev[:]...)
	b = binary.BigEndian.AppendUint32(b, uint32(n))
	for i := range m.Deck {
		b = append(b, m.Deck[i][:]...)
	}
	if m.Pass == 1 {
		return append(b, m.Commit[:]...)
	}
	for i := range m.Keyed {
		b = append(b, m.Keyed[i][:]...)
	}
	return field(b, m.Proof)
}

// KeyMessage publishes one seat's key for one position, so that the
// position's owner (or everyone) can open it.
type KeyMessage struct {
	Game     string
	Hand     uint64
	Seat     uint32
	Position uint32
	// Deal is the transcript hash after the last pass.
	Deal [32]byte
	Key  [ScalarSize]byte
	Sig  []byte
}

// SignedBytes: field("fairboard/mentalpoker/key/v1") ‖ field(gameId) ‖
// u64be(hand) ‖ u32be(seat) ‖ u32be(position) ‖ deal ‖ key.
func (m *KeyMessage) SignedBytes() []byte {
	b := make([]byte, 0, 128+len(m.Game))
	b = fieldString(b, DomainKey)
	b = fieldString(b, m.Game)
	b = binary.BigEndian.AppendUint64(b, m.Hand)
	b = binary.BigEndian.AppendUint32(b, m.Seat)
	b = binary.BigEndian.AppendUint32(b, m.Position)
	b = append(b, m.Deal[:]...)
	return append(b, m.Key[:]...)
}

// RevealMessage publishes every key of a seat at the end of the hand, for
// the full recomputation ([Table.Audit]).
type RevealMessage struct {
	Game   string
	Hand   uint64
	Seat   uint32
	Deal   [32]byte
	Common [ScalarSize]byte   // a
	Keys   [][ScalarSize]byte // k_0 … k_(n-1)
	Sig    []byte
}

// SignedBytes: field("fairboard/mentalpoker/reveal/v1") ‖ field(gameId) ‖
// u64be(hand) ‖ u32be(seat) ‖ deal ‖ a ‖ u32be(n) ‖ k_0 ‖ … ‖ k_(n-1).
func (m *RevealMessage) SignedBytes() []byte {
	b := make([]byte, 0, 128+len(m.Game)+len(m.Keys)*ScalarSize)
	b = fieldString(b, DomainReveal)
	b = fieldString(b, m.Game)
	b = binary.BigEndian.AppendUint64(b, m.Hand)
	b = binary.BigEndian.AppendUint32(b, m.Seat)
	b = append(b, m.Deal[:]...)
	b = append(b, m.Common[:]...)
	b = binary.BigEndian.AppendUint32(b, uint32(len(m.Keys)))
	for i := range m.Keys {
		b = append(b, m.Keys[i][:]...)
	}
	return b
}

// TranscriptStart is T_0 of a hand: SHA-256(field("fairboard/mentalpoker/transcript/v1")
// ‖ field(gameId) ‖ u64be(hand) ‖ u32be(cards) ‖ u32be(seats) ‖ pub_0 ‖ … ‖ pub_(seats-1)).
func TranscriptStart(game string, hand uint64, cards int, pubs []ed25519.PublicKey) [32]byte {
	b := fieldString(nil, DomainTranscript)
	b = fieldString(b, game)
	b = binary.BigEndian.AppendUint64(b, hand)
	b = binary.BigEndian.AppendUint32(b, uint32(cards))
	b = binary.BigEndian.AppendUint32(b, uint32(len(pubs)))
	for _, p := range pubs {
		b = append(b, p...)
	}
	return sha256.Sum256(b)
}

// TranscriptNext is the transcript after a pass message:
// SHA-256(field("fairboard/mentalpoker/transcript/v1") ‖ prev ‖
// field(signedBytes) ‖ field(signature)).
func TranscriptNext(prev [32]byte, signed, sig []byte) [32]byte {
	h := sha256.New()
	b := fieldString(nil, DomainTranscript)
	b = append(b, prev[:]...)
	h.Write(b)
	h.Write(field(nil, signed))
	h.Write(field(nil, sig))
	var out [32]byte
	h.Sum(out[:0])
	return out
}

func verifySig(pub ed25519.PublicKey, msg, sig []byte) bool {
	return len(pub) == ed25519.PublicKeySize && len(sig) == ed25519.SignatureSize &&
		ed25519.Verify(pub, msg, sig)
}
