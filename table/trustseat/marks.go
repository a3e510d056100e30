package trustseat

import (
	"encoding/hex"
	"fmt"

	"github.com/fairboard/fairboard/internal/checks"
	"github.com/fairboard/fairboard/rng/trustless"
	"github.com/fairboard/fairboard/table"
)

// A trustless table's pending round shows who has revealed it, each with
// its reveal signature (table.RevealMarker), never its link. A client
// checks every marker of every view it reads against the pending round
// the same view shows (CheckMarks): the marker's uid is its seat's
// player, each seat is shown once, and its signature verifies, under
// that seat's published key, over the round's index, digest and
// transcript (trustless.RevealMessage). The pending round's own digest
// and transcript are checked against the seat's replay by Seat.Reveal
// before the seat reveals; so a server that shows one seat another
// pending move than the others (the split view of docs/fairness.md,
// "Split view, replays and duplicates at a table") is named by every
// seat as soon as it shows a marker signed over the other move. A
// table's marker carries no digest (the dungeon's does): a signature
// over another round and a forged one look the same, and the lie names
// both. The Go table client (client.Table) and the play page's
// WebAssembly (web/play/wasm/tablemarks.go) both check with CheckMarks.

// MarksLie is a marker of a pending round that is not its seat's
// signature over that round: the server lies (it shows the seats
// different games, or forged a reveal). What says it in a sentence.
type MarksLie struct{ What string }

func (e *MarksLie) Error() string { return "trustseat: the server lies: " + e.What }

// CheckMarks is nil when tv (nil: nothing to check) shows no pending
// round, or every marker of its pending round is its seat's signature
// over that round (the comment above), else a *MarksLie naming the
// first marker that is not: one whose seat is out of range or not its
// uid's, a seat shown twice, a signature or key that is not hex, or a
// signature the seat's key does not verify; and a round whose digest or
// transcript is not 64 hex digits. With checks.MarkDigest off no marker
// is checked (the positive control of the split view).
func CheckMarks(tv *table.TrustlessView) error {
	if tv == nil || tv.Pending == nil || !checks.On(checks.MarkDigest) {
		return nil
	}
	p := tv.Pending
	var digest, tr [32]byte
	d, derr := hex.DecodeString(p.Digest)
	r, terr := hex.DecodeString(p.Transcript)
	if derr != nil || terr != nil || len(d) != 32 || len(r) != 32 {
		return &MarksLie{What: fmt.Sprintf("the pending round %d shows digest %q and transcript %q, not 64 hex digits each", p.Index, p.Digest, p.Transcript)}
	}
	copy(digest[:], d)
	copy(tr[:], r)
	msg := trustless.RevealMessage(tv.GameID, p.Index, &digest, &tr)
	seen := make([]bool, len(tv.Seats))
	for _, m := range p.Reveals {
		if m.Seat < 0 || m.Seat >= len(tv.Seats) || tv.Seats[m.Seat].UID != m.UID {
			return &MarksLie{What: fmt.Sprintf("a reveal marker of %s for seat %d of round %d, which is not that seat's player", m.UID, m.Seat, p.Index)}
		}
		if seen[m.Seat] {
			return &MarksLie{What: fmt.Sprintf("round %d shows seat %d's reveal twice", p.Index, m.Seat)}
		}
		seen[m.Seat] = true
		key, kerr := hex.DecodeString(tv.Seats[m.Seat].PublicKey)
		sig, serr := hex.DecodeString(m.Signature)
		if kerr != nil || serr != nil || !trustless.Verify(key, msg, sig) {
			return &MarksLie{What: fmt.Sprintf("seat %d (%s) revealed round %d with signature %.16s…, which its key %.16s… did not sign over the pending move shown here (%s at version %d, digest %s, transcript %s): the server shows the seats different games (or forged the reveal)",
				m.Seat, m.UID, p.Index, m.Signature, tv.Seats[m.Seat].PublicKey, p.Move, p.Version, p.Digest, p.Transcript)}
		}
	}
	return nil
}
