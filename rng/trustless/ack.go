package trustless

import "encoding/binary"

// DomainRevealAck is the domain of a server's acknowledgement of a reveal.
const DomainRevealAck = "fairboard/reveal-ack/v1"

// AckMessage returns the bytes a server signs, with the key whose public
// half it publishes, to acknowledge that it holds a seat's reveal:
//
//	field("fairboard/reveal-ack/v1") ‖ field(gameId) ‖ field(uid) ‖ u32be(seat)
//	‖ u32be(v) ‖ field(digest) ‖ field(transcript) ‖ field(revealSignature) ‖ u64be(at)
//
// where uid, seat, v, digest and transcript are the reveal's, the reveal
// signature is the seat's over them (RevealMessage: it binds the ack to a
// reveal the seat made, without the link, which an ack never shows), and
// at is the server's time of the acknowledgement (unix ms). A seat the
// server later names as missing round v shows the ack: the server's own
// signature says it held the reveal before the deadline
// (docs/fairness.md, the threat model).
func AckMessage(gameID, uid string, seat, v uint32, digest, transcript *[32]byte, revealSig []byte, at int64) []byte {
	b := make([]byte, 0, 256+len(gameID)+len(uid))
	b = appendFieldString(b, DomainRevealAck)
	b = appendFieldString(b, gameID)
	b = appendFieldString(b, uid)
	b = binary.BigEndian.AppendUint32(b, seat)
	b = binary.BigEndian.AppendUint32(b, v)
	b = AppendField(b, digest[:])
	b = AppendField(b, transcript[:])
	b = AppendField(b, revealSig)
	return binary.BigEndian.AppendUint64(b, uint64(at))
}

// DomainDealAck is the domain of a server's acknowledgement of a seat's
// mental-poker messages at a dealing table.
const DomainDealAck = "fairboard/deal-ack/v1"

// SignedPart is one message a seat signed: the bytes it signed (the
// message's own, with its domain: rng/mentalpoker's SignedBytes) and its
// Ed25519 signature over them.
type SignedPart struct {
	Signed, Sig []byte
}

// DealAckMessage returns the bytes a server signs, with the key whose
// public half it publishes, to acknowledge that it holds the messages
// parts that uid sent to the deal of game gameID (a pass, its keys of
// the others' cards or of a card a move opens, its end-of-hand reveal;
// a pass with the keys that ride with it, in that order):
//
//	field("fairboard/deal-ack/v1") ‖ field(gameId) ‖ field(uid) ‖ u32be(n)
//	‖ field(signed_1) ‖ field(sig_1) ‖ … ‖ field(signed_n) ‖ field(sig_n) ‖ u64be(at)
//
// where n is the number of parts and at the server's time of the
// acknowledgement (unix ms). Each signed part names its game, hand and
// seat itself, and its signature binds the acknowledgement to a message
// only that seat could sign. A seat the server later names as missing
// that wait shows the acknowledgement: the server's own signature says
// it held the messages at at (docs/fairness.md, the threat model).
func DealAckMessage(gameID, uid string, parts []SignedPart, at int64) []byte {
	n := 64 + len(gameID) + len(uid)
	for _, p := range parts {
		n += 8 + len(p.Signed) + len(p.Sig)
	}
	b := make([]byte, 0, n)
	b = appendFieldString(b, DomainDealAck)
	b = appendFieldString(b, gameID)
	b = appendFieldString(b, uid)
	b = binary.BigEndian.AppendUint32(b, uint32(len(parts)))
	for _, p := range parts {
		b = AppendField(b, p.Signed)
		b = AppendField(b, p.Sig)
	}
	return binary.BigEndian.AppendUint64(b, uint64(at))
}
