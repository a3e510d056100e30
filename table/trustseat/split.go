package trustseat

import (
	"encoding/hex"
	"fmt"
	"strings"

	"github.com/fairboard/fairboard/match"
	"github.com/fairboard/fairboard/rng/trustless"
	"github.com/fairboard/fairboard/table"
)

// A marker states the round's index, the pending move's digest and the
// transcript hash its seat signed over (table.RevealMarker), so its
// signature can be checked on its own, by anyone holding the seats'
// public keys (the record's, or a view's). That tells two lies apart
// that a marker with a signature alone could not:
//
//   - a forged marker (ForgedMarker): its signature does not verify over
//     what it states; only the server, which shows it, can have made it
//     up or altered it;
//   - a split view (SplitView): the marker is its seat's valid signature
//     over another pending move (digest or transcript) than the round the
//     reader is shown, which its replay has, or than another seat's valid
//     marker of the same round. A table accepts a reveal only over its one
//     pending move (wrong_digest), so two valid reveals of one index over
//     two moves show that the seats were shown different games: the
//     actor signed two moves at one version (tricked or colluding). The
//     two digests are the evidence, each under its seat's signature.
//
// A third party checks two markers with CheckSplit, and a marker against
// the table's record (whose move at that round the actor signed) with
// CheckMarkRecord.
//
// A marker that states no digest (Digest and Transcript "", Index 0:
// a view from before markers stated them) is checked, as before, over
// the round it is shown in, and a signature that fails there is either
// lie: a *MarksLie that does not say which.

// SplitView is the evidence of a split view at table GameID's round
// Index: Marker, its seat's valid reveal signature over Marker.Digest
// and Marker.Transcript, and the other round, Digest and Transcript
// (64 hex digits each), which differs in one or both: the round the
// reader's view shows pending (which the reader's replay has), or when
// Record the move the table's record has at that round
// (CheckMarkRecord), or when Witness is not nil the digest and
// transcript Witness, another valid marker of that round, states.
type SplitView struct {
	GameID     string
	Index      uint32
	Digest     string
	Transcript string
	Record     bool
	Witness    *table.RevealMarker
	Marker     table.RevealMarker
}

func (e *SplitView) Error() string { return e.lie().Error() }

// Unwrap is the *MarksLie it is (the page's WebAssembly says its What).
func (e *SplitView) Unwrap() error { return e.lie() }

func (e *SplitView) lie() *MarksLie {
	other := fmt.Sprintf("the pending move shown here (digest %s, transcript %s)", e.Digest, e.Transcript)
	if e.Record {
		other = fmt.Sprintf("the record's move of that round (digest %s, transcript %s)", e.Digest, e.Transcript)
	}
	if w := e.Witness; w != nil {
		other = fmt.Sprintf("seat %d (%s)'s reveal of the same round, signed over digest %s, transcript %s (signature %.16s…)",
			w.Seat, w.UID, w.Digest, w.Transcript, w.Signature)
	}
	return &MarksLie{What: fmt.Sprintf("seat %d (%s) revealed round %d with a valid signature %.16s… over digest %s, transcript %s, another move than %s: the server shows the seats different games (a split view)",
		e.Marker.Seat, e.Marker.UID, e.Index, e.Marker.Signature, e.Marker.Digest, e.Marker.Transcript, other)}
}

// ForgedMarker is a marker of table GameID that states the round's
// index, digest and transcript, and whose signature its seat's key Key
// (hex) does not verify over them (or that states them not as 64 hex
// digits, or a signature not hex): the server forged or altered it.
// Shown: what it states is the pending round of the view it was shown
// in (CheckMarks).
type ForgedMarker struct {
	GameID string
	Key    string
	Marker table.RevealMarker
	Shown  bool
}

func (e *ForgedMarker) Error() string { return e.lie().Error() }

// Unwrap is the *MarksLie it is (the page's WebAssembly says its What).
func (e *ForgedMarker) Unwrap() error { return e.lie() }

func (e *ForgedMarker) lie() *MarksLie {
	m := e.Marker
	what := "the move the marker states"
	if e.Shown {
		what = "the pending move shown here, which the marker states"
	}
	return &MarksLie{What: fmt.Sprintf("seat %d (%s) revealed round %d with signature %.16s…, which its key %.16s… did not sign over %s (digest %s, transcript %s): the server forged the reveal",
		m.Seat, m.UID, m.Index, m.Signature, e.Key, what, m.Digest, m.Transcript)}
}

// stated reports whether m states what it was signed over (a marker
// from before markers did states none of it).
func stated(m *table.RevealMarker) bool { return m.Index != 0 || m.Digest != "" || m.Transcript != "" }

// seatKey is the public key (hex) of seats' seat m.Seat when m.UID is
// its player, else a *MarksLie.
func seatKey(seats []match.TrustlessSeat, m *table.RevealMarker, index uint32) (string, error) {
	if m.Seat < 0 || m.Seat >= len(seats) || seats[m.Seat].UID != m.UID {
		return "", &MarksLie{What: fmt.Sprintf("a reveal marker of %s for seat %d of round %d, which is not that seat's player", m.UID, m.Seat, index)}
	}
	return seats[m.Seat].PublicKey, nil
}

// verifyStated is nil when m, which states its round, is its seat's
// signature (key, hex) over what it states, else the *ForgedMarker.
func verifyStated(gameID, key string, m *table.RevealMarker) *ForgedMarker {
	d, derr := hex.DecodeString(m.Digest)
	r, terr := hex.DecodeString(m.Transcript)
	k, kerr := hex.DecodeString(key)
	sig, serr := hex.DecodeString(m.Signature)
	if derr != nil || terr != nil || kerr != nil || serr != nil || len(d) != 32 || len(r) != 32 || m.Index == 0 ||
		!trustless.Verify(k, trustless.RevealMessage(gameID, m.Index, (*[32]byte)(d), (*[32]byte)(r)), sig) {
		return &ForgedMarker{GameID: gameID, Key: key, Marker: *m}
	}
	return nil
}

// CheckSplit is what a third party runs on two reveal markers a and b of
// table gameID, whose seats (the record's or a view's
// match.TrustlessSeat, by seat: uid and public key) it holds. Each must
// be its seat's player's (else a *MarksLie), state its round (else an
// error: a marker from before markers did cannot be checked on its
// own), and be its seat's signature over what it states (else a
// *ForgedMarker naming it, a first). Then, for two markers of one round
// over two moves (digest or transcript), the *SplitView that proves the
// split (Witness a, Marker b); nil for two of one move (no split), and
// an error for two of different rounds (which prove nothing).
func CheckSplit(gameID string, seats []match.TrustlessSeat, a, b table.RevealMarker) (*SplitView, error) {
	for _, m := range []*table.RevealMarker{&a, &b} {
		key, err := seatKey(seats, m, m.Index)
		if err != nil {
			return nil, err
		}
		if !stated(m) {
			return nil, fmt.Errorf("trustseat: seat %d (%s)'s marker states no round, digest nor transcript: it can be checked only against the round a view shows it in (CheckMarks)", m.Seat, m.UID)
		}
		if f := verifyStated(gameID, key, m); f != nil {
			return nil, f
		}
	}
	switch {
	case a.Index != b.Index:
		return nil, fmt.Errorf("trustseat: markers of rounds %d and %d, not of one round", a.Index, b.Index)
	case strings.EqualFold(a.Digest, b.Digest) && strings.EqualFold(a.Transcript, b.Transcript): // hex of 32 bytes each: one in either case
		return nil, nil
	}
	return &SplitView{GameID: gameID, Index: a.Index, Digest: a.Digest, Transcript: a.Transcript, Witness: &a, Marker: b}, nil
}
