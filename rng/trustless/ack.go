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
