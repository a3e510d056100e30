package client

import (
	"encoding/hex"
	"fmt"

	"github.com/fairboard/fairboard/internal/checks"
	"github.com/fairboard/fairboard/rng/trustless"
	"github.com/fairboard/fairboard/table"
)

// A trustless table's pending round shows who has revealed it, each with
// its reveal signature (table.RevealMarker), never its link. A Table
// checks every marker of every view it reads (View) against the pending
// round the same view shows: the marker's uid is its seat's player, each
// seat is shown once, and its signature verifies, under that seat's
// published key, over the round's index, digest and transcript
// (trustless.RevealMessage). The pending round's own digest and
// transcript are checked against the seat's replay by its
// table/trustseat.Seat before it reveals; so a server that shows one seat
// another pending move than the others (the split view of
// docs/fairness.md, "Attacks on the trustless mode") is named by every
// seat as soon as it shows a marker signed over the other move. A table's
// marker carries no digest (the dungeon's does): a signature over another
// round and a forged one look the same, and the lie names both.

// checkMarks is nil when every marker of tv's pending round is its
// seat's signature over that round, else a *Lie (kept: Send then
// refuses). With checks.MarkDigest off no marker is checked (the
// positive control of the split view).
func (t *Table) checkMarks(tv *table.TrustlessView) error {
	p := tv.Pending
	if p == nil || !checks.On(checks.MarkDigest) {
		return nil
	}
	lie := marksLie(tv.GameID, tv, p)
	if lie == nil {
		return nil
	}
	if t.lie == nil {
		t.lie = lie
	}
	return lie
}

// marksLie is the first marker of p that is not its seat's signature over
// p, as a *Lie (nil: none).
func marksLie(gameID string, tv *table.TrustlessView, p *table.PendingRound) *Lie {
	var digest, tr [32]byte
	d, derr := hex.DecodeString(p.Digest)
	r, terr := hex.DecodeString(p.Transcript)
	if derr != nil || terr != nil || len(d) != 32 || len(r) != 32 {
		return &Lie{What: fmt.Sprintf("the pending round %d shows digest %q and transcript %q, not 64 hex digits each", p.Index, p.Digest, p.Transcript)}
	}
	copy(digest[:], d)
	copy(tr[:], r)
	msg := trustless.RevealMessage(gameID, p.Index, &digest, &tr)
	seen := make([]bool, len(tv.Seats))
	for _, m := range p.Reveals {
		if m.Seat < 0 || m.Seat >= len(tv.Seats) || tv.Seats[m.Seat].UID != m.UID {
			return &Lie{What: fmt.Sprintf("a reveal marker of %s for seat %d of round %d, which is not that seat's player", m.UID, m.Seat, p.Index)}
		}
		if seen[m.Seat] {
			return &Lie{What: fmt.Sprintf("round %d shows seat %d's reveal twice", p.Index, m.Seat)}
		}
		seen[m.Seat] = true
		key, kerr := hex.DecodeString(tv.Seats[m.Seat].PublicKey)
		sig, serr := hex.DecodeString(m.Signature)
		if kerr != nil || serr != nil || !trustless.Verify(key, msg, sig) {
			return &Lie{What: fmt.Sprintf("seat %d (%s) revealed round %d with signature %.16s…, which its key %.16s… did not sign over the pending move shown here (%s at version %d, digest %s, transcript %s): the server shows the seats different games (or forged the reveal)",
				m.Seat, m.UID, p.Index, m.Signature, tv.Seats[m.Seat].PublicKey, p.Move, p.Version, p.Digest, p.Transcript)}
		}
	}
	return nil
}
