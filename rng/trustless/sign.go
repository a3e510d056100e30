package trustless

import (
	"crypto/ed25519"
	"crypto/rand"
	"crypto/sha256"
	"encoding/binary"
	"fmt"
)

// ActionFields are the fields of an action that its canonical encoding
// covers: everything the engine reads from a player's decision, nothing the
// server adds (the time, the action id) and nothing that belongs to a
// reveal (whose own signature covers it). A field an action kind does not
// use is its zero value.
type ActionFields struct {
	Kind    string // "move", "join", ...
	Actor   string // the uid of whoever sends it
	Version uint64 // the game version it was made against
	// create
	Mode        string
	Audit       bool
	ChainLength uint32
	DeadlineMs  uint64
	// join
	Seat          uint32
	Class         string
	KeepSmokeBomb bool
	ChainHead     []byte // 32 bytes in a trustless join, else empty
	PublicKey     []byte // 32 bytes in a trustless join, else empty
	// offerDuel, useItem, dropItem, discard
	Target string
	CardID string
}

// AppendCanonical appends canonical(action) to dst, every field in this
// fixed order whatever the kind:
//
//	field(kind) ‖ field(actor) ‖ u64be(version) ‖ field(mode) ‖ u8(audit)
//	‖ u32be(chainLength) ‖ u64be(deadlineMs) ‖ u32be(seat) ‖ field(class)
//	‖ u8(keepSmokeBomb) ‖ field(chainHead) ‖ field(publicKey)
//	‖ field(target) ‖ field(cardId)
//
// with u8(b) one byte, 1 for true and 0 for false.
func (f *ActionFields) AppendCanonical(dst []byte) []byte {
	b := appendFieldString(dst, f.Kind)
	b = appendFieldString(b, f.Actor)
	b = binary.BigEndian.AppendUint64(b, f.Version)
	b = appendFieldString(b, f.Mode)
	b = appendBool(b, f.Audit)
	b = binary.BigEndian.AppendUint32(b, f.ChainLength)
	b = binary.BigEndian.AppendUint64(b, f.DeadlineMs)
	b = binary.BigEndian.AppendUint32(b, f.Seat)
	b = appendFieldString(b, f.Class)
	b = appendBool(b, f.KeepSmokeBomb)
	b = AppendField(b, f.ChainHead)
	b = AppendField(b, f.PublicKey)
	b = appendFieldString(b, f.Target)
	return appendFieldString(b, f.CardID)
}

func appendBool(b []byte, v bool) []byte {
	if v {
		return append(b, 1)
	}
	return append(b, 0)
}

// ActionDigest returns the action digest: SHA-256(field("fairboard/action-digest/v1")
// ‖ field(gameId) ‖ field(canonical)). It names an action in R_v, in a
// reveal's signature and in the transcript.
func ActionDigest(gameID string, canonical []byte) [32]byte {
	b := make([]byte, 0, 64+len(gameID)+len(canonical))
	b = appendFieldString(b, DomainActionDigest)
	b = appendFieldString(b, gameID)
	b = AppendField(b, canonical)
	return sha256.Sum256(b)
}

// ActionMessage returns the bytes a player signs to submit an action:
// field("fairboard/sign-action/v1") ‖ field(gameId) ‖ field(canonical).
func ActionMessage(gameID string, canonical []byte) []byte {
	b := make([]byte, 0, 64+len(gameID)+len(canonical))
	b = appendFieldString(b, DomainSignAction)
	b = appendFieldString(b, gameID)
	return AppendField(b, canonical)
}

// RevealMessage returns the bytes a player signs with its link for index
// v: field("fairboard/sign-reveal/v1") ‖ field(gameId) ‖ u32be(v) ‖
// field(digest) ‖ field(transcript), where digest is the pending action's
// and transcript the hash of the public transcript the player has checked,
// up to and including the pending action's record.
func RevealMessage(gameID string, v uint32, digest, transcript *[32]byte) []byte {
	b := make([]byte, 0, 128+len(gameID))
	b = appendFieldString(b, DomainSignReveal)
	b = appendFieldString(b, gameID)
	b = binary.BigEndian.AppendUint32(b, v)
	b = AppendField(b, digest[:])
	return AppendField(b, transcript[:])
}

// TranscriptStart returns T_0, the transcript of a game before its first
// action: SHA-256(field("fairboard/transcript/v1") ‖ field(gameId) ‖
// field(rulesHash)), rulesHash as the 64 hex digits the game publishes.
func TranscriptStart(gameID, rulesHash string) [32]byte {
	var buf [256]byte
	b := appendFieldString(buf[:0], DomainTranscript)
	b = appendFieldString(b, gameID)
	b = appendFieldString(b, rulesHash)
	return sha256.Sum256(b)
}

// TranscriptAction returns the transcript after an action record: an
// action applied at once or made pending (create and every join included),
// its digest and its signature (empty for an actor without a seat):
// SHA-256(field("fairboard/transcript/v1") ‖ prev ‖ 0x01 ‖ digest ‖ field(signature)).
func TranscriptAction(prev, digest *[32]byte, sig []byte) [32]byte {
	var buf [256]byte
	b := appendFieldString(buf[:0], DomainTranscript)
	b = append(b, prev[:]...)
	b = append(b, 1)
	b = append(b, digest[:]...)
	b = AppendField(b, sig)
	return sha256.Sum256(b)
}

// TranscriptRound returns the transcript after a round closes: its index
// and every seated seat's link, in seat order: SHA-256(field("fairboard/transcript/v1")
// ‖ prev ‖ 0x02 ‖ u32be(v) ‖ u32be(n) ‖ links[0] ‖ … ‖ links[n-1]).
func TranscriptRound(prev *[32]byte, v uint32, links [][32]byte) [32]byte {
	h := sha256.New()
	var buf [128]byte
	b := appendFieldString(buf[:0], DomainTranscript)
	b = append(b, prev[:]...)
	b = append(b, 2)
	b = binary.BigEndian.AppendUint32(b, v)
	b = binary.BigEndian.AppendUint32(b, uint32(len(links)))
	h.Write(b)
	for i := range links {
		h.Write(links[i][:])
	}
	var out [32]byte
	h.Sum(out[:0])
	return out
}

// GenerateKey draws a seat's Ed25519 key pair from crypto/rand.
func GenerateKey() (ed25519.PublicKey, ed25519.PrivateKey, error) {
	pub, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		return nil, nil, fmt.Errorf("trustless: drawing a key: %w", err)
	}
	return pub, priv, nil
}

// Verify reports whether sig is a valid Ed25519 signature of msg by the
// public key pub; a key or signature of the wrong size is not.
func Verify(pub, msg, sig []byte) bool {
	if len(pub) != KeySize || len(sig) != SignatureSize {
		return false
	}
	return ed25519.Verify(ed25519.PublicKey(pub), msg, sig)
}
