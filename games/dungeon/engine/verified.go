package engine

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"

	"github.com/fairboard/fairboard/rng/trustless"
)

// RevealFingerprint is what a server keeps with a reveal it has checked
// ([Action.Verified]): 64 hex digits of SHA-256 over a domain tag, the
// key of the reveal's seat, the message it signs for p's pending round
// (rng/trustless.RevealMessage of the pending index and the reveal's
// digest and transcript) and its signature; "" if p has no pending
// round, a has no seat in it, or a's fields do not parse. It binds the
// check to everything the signature covers, so a reveal changed in any
// of them (or for another round, or seat) no longer matches it and is
// verified again. It is no secret: whoever can write what the server
// keeps can make it, as they could write the game's private state, whose
// links the engine takes without verifying them again; the links are
// still checked against the seats' chains, and every client verifies
// every signature a round publishes.
func RevealFingerprint(p *Public, a *Action) string {
	t := p.Trustless
	if t == nil || t.Pending == nil {
		return ""
	}
	ts, _ := t.Seat(a.Actor)
	if ts == nil {
		return ""
	}
	digest, err1 := ParseHash32(a.Digest, "digest")
	tr, err2 := ParseHash32(a.Transcript, "transcript")
	sig, err3 := hex.DecodeString(a.Signature)
	if err1 != nil || err2 != nil || err3 != nil {
		return ""
	}
	return revealFingerprint(ts.PublicKey[:], trustless.RevealMessage(p.GameID, t.Pending.Index, (*[32]byte)(&digest), (*[32]byte)(&tr)), sig)
}

// revealFingerprint is RevealFingerprint of a reveal's key, signed
// message and signature.
func revealFingerprint(key, msg, sig []byte) string {
	h := sha256.New()
	for _, b := range [][]byte{[]byte("fairboard/verified-reveal/v1"), key, msg, sig} {
		var n [4]byte
		binary.BigEndian.PutUint32(n[:], uint32(len(b)))
		h.Write(n[:])
		h.Write(b)
	}
	return hex.EncodeToString(h.Sum(nil))
}
