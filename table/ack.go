package table

import (
	"encoding/hex"

	"github.com/fairboard/fairboard/rng/trustless"
)

// AckMessage returns the bytes a server signs, with the key whose public
// half it publishes, to acknowledge what the action a, applied by its
// actor at a trustless table of game id gameID at time at (unix ms),
// brought that the actor's seat could later be named as missing
// (docs/fairness.md, "Dropped, then blamed"):
//
//   - a reveal (KindReveal, or a move carrying its actor's own reveal):
//     rng/trustless.AckMessage of the actor's uid and the reveal's seat,
//     index, digest, transcript and signature;
//   - a deal message (KindDeal, or a move carrying its seat's deal keys):
//     rng/trustless.DealAckMessage of the actor's uid and the message's
//     parts (DealMessage.Parts).
//
// ok is false for an action that brings neither (a move that draws
// nothing, a join, an abort, ...), and for one whose fields do not parse
// or that carries a nil message (which the table refuses anyway). It
// reads only a, never a table: the functions sign what a table accepted,
// and a seat's client computes the same bytes from what it sent.
func AckMessage(gameID string, a *Action, at int64) (msg []byte, ok bool) {
	switch {
	case a.Reveal != nil && (a.Kind == KindReveal || a.Kind == KindMove):
		r := a.Reveal
		d, derr := parse32(r.Digest, "digest")
		tr, terr := parse32(r.Transcript, "transcript")
		sig, serr := hex.DecodeString(r.Signature)
		if derr != nil || terr != nil || serr != nil || r.Seat < 0 {
			return nil, false
		}
		return trustless.AckMessage(gameID, a.Actor, uint32(r.Seat), r.Index, &d, &tr, sig, at), true
	case a.Deal != nil && (a.Kind == KindDeal || a.Kind == KindMove):
		parts, ok := a.Deal.Parts()
		if !ok {
			return nil, false
		}
		return trustless.DealAckMessage(gameID, a.Actor, parts, at), true
	}
	return nil, false
}

// Parts returns the messages d carries as its seat signed them, in the
// order rng/trustless.DealAckMessage reads them: the pass, then each key
// in order, then the reveal. ok is false when d carries none, or a nil
// key.
func (d *DealMessage) Parts() (parts []trustless.SignedPart, ok bool) {
	if d.Pass != nil {
		parts = append(parts, trustless.SignedPart{Signed: d.Pass.SignedBytes(), Sig: d.Pass.Sig})
	}
	for _, k := range d.Keys {
		if k == nil {
			return nil, false
		}
		parts = append(parts, trustless.SignedPart{Signed: k.SignedBytes(), Sig: k.Sig})
	}
	if d.Reveal != nil {
		parts = append(parts, trustless.SignedPart{Signed: d.Reveal.SignedBytes(), Sig: d.Reveal.Sig})
	}
	return parts, len(parts) > 0
}
