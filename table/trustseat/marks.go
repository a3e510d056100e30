package trustseat

import (
	"encoding/hex"
	"fmt"

	"github.com/fairboard/fairboard/internal/checks"
	"github.com/fairboard/fairboard/rng/trustless"
	"github.com/fairboard/fairboard/table"
)

// A trustless table's pending round shows who has revealed it, each with
// its reveal signature and what it signed over (table.RevealMarker),
// never its link. A client checks every marker of every view it reads
// against the pending round the same view shows (CheckMarks): the
// marker's uid is its seat's player, each seat is shown once, and its
// signature verifies, under that seat's published key, over the round's
// index, digest and transcript (trustless.RevealMessage). The pending
// round's own digest and transcript are checked against the seat's
// replay by Seat.Reveal before the seat reveals; so a server that shows
// one seat another pending move than the others (the split view of
// docs/fairness.md, "Split view, replays and duplicates at a table") is
// named by every seat as soon as it shows a marker signed over the
// other move: a *SplitView with both digests, told apart from a forged
// marker (a *ForgedMarker) by the digest the marker states (split.go).
// The Go table client (client.Table) and the play page's WebAssembly
// (web/play/wasm/tablemarks.go) both check with CheckMarks.

// MarksLie is a marker of a pending round that is not its seat's
// signature over that round: the server lies (it shows the seats
// different games, or forged a reveal). What says it in a sentence.
// A *SplitView and a *ForgedMarker unwrap to one, saying which.
type MarksLie struct{ What string }

func (e *MarksLie) Error() string { return "trustseat: the server lies: " + e.What }

// CheckMarks is nil when tv (nil: nothing to check) shows no pending
// round, or every marker of its pending round is its seat's signature
// over that round (the comment above), else an error naming the first
// marker that is not (a split is named last, once every marker is
// checked, so that it carries its witness):
//   - a *ForgedMarker: one that states its round, digest and transcript
//     (split.go) and whose signature its seat's key does not verify over
//     them;
//   - a *SplitView: one whose signature verifies over a digest or
//     transcript it states other than the round's (Witness another
//     marker of the view that is a valid signature over the round's,
//     when there is one);
//   - a *MarksLie: one whose seat is out of range or not its uid's, a
//     seat shown twice, a marker of another round, a marker that states
//     no digest (one from before markers did) whose signature does not
//     verify over the round's (split or forgery: it cannot say which),
//     and a round whose digest or transcript is not 64 hex digits.
//
// With checks.MarkDigest off no marker is checked (the positive control
// of the split view).
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
	var split *SplitView
	var witness *table.RevealMarker
	for i := range p.Reveals {
		m := &p.Reveals[i]
		key, err := seatKey(tv.Seats, m, p.Index)
		if err != nil {
			return err
		}
		if seen[m.Seat] {
			return &MarksLie{What: fmt.Sprintf("round %d shows seat %d's reveal twice", p.Index, m.Seat)}
		}
		seen[m.Seat] = true
		if stated(m) {
			if m.Index != p.Index {
				return &MarksLie{What: fmt.Sprintf("seat %d (%s)'s marker of round %d is shown in round %d", m.Seat, m.UID, m.Index, p.Index)}
			}
			shown := sameHex(m.Digest, digest[:]) && sameHex(m.Transcript, tr[:])
			if f := verifyStated(tv.GameID, key, m); f != nil {
				f.Shown = shown
				return f
			}
			if !shown {
				if split == nil {
					split = &SplitView{GameID: tv.GameID, Index: p.Index, Digest: p.Digest, Transcript: p.Transcript, Marker: *m}
				}
			} else if witness == nil {
				witness = m
			}
			continue
		}
		kb, kerr := hex.DecodeString(key)
		sig, serr := hex.DecodeString(m.Signature)
		if kerr != nil || serr != nil || !trustless.Verify(kb, msg, sig) {
			return &MarksLie{What: fmt.Sprintf("seat %d (%s) revealed round %d with signature %.16s…, which its key %.16s… did not sign over the pending move shown here (%s at version %d, digest %s, transcript %s): the server shows the seats different games (or forged the reveal)",
				m.Seat, m.UID, p.Index, m.Signature, key, p.Move, p.Version, p.Digest, p.Transcript)}
		}
		if witness == nil {
			witness = m
		}
	}
	if split != nil {
		if witness != nil && stated(witness) {
			w := *witness
			split.Witness = &w
		}
		return split
	}
	return nil
}

// sameHex reports whether h is the hex of b (in either case).
func sameHex(h string, b []byte) bool {
	x, err := hex.DecodeString(h)
	return err == nil && string(x) == string(b)
}
