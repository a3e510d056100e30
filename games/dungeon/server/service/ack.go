package service

import (
	"crypto/ed25519"
	"encoding/hex"

	"github.com/fairboard/fairboard/games/dungeon/engine"
	"github.com/fairboard/fairboard/rng/trustless"
)

// Ack is the server's signed acknowledgement of a seat's reveal: its
// signature, by Config.AckKey, over rng/trustless.AckMessage of the
// reveal's game, uid, seat, index, digest, transcript and signature and
// of At. A seat that the server later names as missing that round shows
// it: the server's own key says it held the reveal at At.
type Ack struct {
	// At is the server's time of the acknowledgement (unix ms).
	At int64 `json:"at"`
	// Signature is the server's, hex.
	Signature string `json:"signature"`
}

// ack signs the acknowledgement of uid's reveal rv in game gameID, now
// (nil without an AckKey, or for a reveal whose fields do not parse,
// which the engine refused anyway).
func (s *Service) ack(gameID, uid string, rv *engine.Action) *Ack {
	if s.cfg.AckKey == nil {
		return nil
	}
	d, derr := engine.ParseHash32(rv.Digest, "digest")
	tr, terr := engine.ParseHash32(rv.Transcript, "transcript")
	sig, serr := hex.DecodeString(rv.Signature)
	if derr != nil || terr != nil || serr != nil || rv.Seat < 0 {
		return nil
	}
	at := s.cfg.Now().UnixMilli()
	msg := trustless.AckMessage(gameID, uid, uint32(rv.Seat), rv.Index, (*[32]byte)(&d), (*[32]byte)(&tr), sig, at)
	return &Ack{At: at, Signature: hex.EncodeToString(ed25519.Sign(s.cfg.AckKey, msg))}
}
