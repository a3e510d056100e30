package trustseat

import (
	"encoding/hex"
	"fmt"
	"slices"

	"github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/match"
	"github.com/fairboard/fairboard/table"
)

// CheckMarkRecord is what a third party runs on a reveal marker m and
// the record r of a trustless table of def that does not deal (the
// fairboard-game/v1 record `gamectl verify` reads, or a whole view's
// protocol in that shape, its pending round as Pending): m must be its seat's player's (else a *MarksLie),
// state its round (else an error) and be its seat's signature over what
// it states (else a *ForgedMarker, first). r must hold the move of m's
// round, applied or pending (an aborted table's), signed by its actor,
// its moves before it checking (match.FollowTrustless; else an error).
// Then the *SplitView (Record; Digest and Transcript the record's
// move's, match.TrustlessFollower.Round) when m is over another move
// than the record's at that round: the seat was shown another game
// than the record's. Nil when m is over the record's move.
func CheckMarkRecord(def game.Definition, r *match.Record, m table.RevealMarker) (*SplitView, error) {
	if r == nil || r.Trustless == nil {
		return nil, fmt.Errorf("trustseat: no trustless record")
	}
	tr := r.Trustless
	key, err := seatKey(tr.Seats, &m, m.Index)
	if err != nil {
		return nil, err
	}
	if !stated(&m) {
		return nil, fmt.Errorf("trustseat: seat %d (%s)'s marker states no round, digest nor transcript: it can be checked only against the round a view shows it in (CheckMarks)", m.Seat, m.UID)
	}
	if f := verifyStated(tr.GameID, key, &m); f != nil {
		return nil, f
	}
	if len(tr.Moves) != len(r.Moves) {
		return nil, fmt.Errorf("trustseat: the record has %d moves and %d moves' protocol", len(r.Moves), len(tr.Moves))
	}
	// The record cut before the move of m's round, and that move.
	cut, ct := *r, *tr
	ct.Pending, ct.Abort, ct.Deal = nil, nil, nil
	var tm match.TrustlessMove
	if i := slices.IndexFunc(tr.Moves, func(x match.TrustlessMove) bool { return x.Index == m.Index }); i >= 0 {
		tm = tr.Moves[i]
		tm.Move = r.Moves[i]
		cut.Moves, ct.Moves = r.Moves[:i], tr.Moves[:i]
	} else if tr.Pending != nil && tr.Pending.Index == m.Index {
		tm = *tr.Pending
	} else {
		return nil, fmt.Errorf("trustseat: the record has no move of round %d", m.Index)
	}
	cut.Trustless = &ct
	f, err := match.FollowTrustless(def, &cut)
	if err != nil {
		return nil, fmt.Errorf("trustseat: the record before round %d: %w", m.Index, err)
	}
	_, digest, transcript, err := f.Round(tm)
	if err != nil {
		return nil, fmt.Errorf("trustseat: the record's move: %w", err)
	}
	if sameHex(m.Digest, digest[:]) && sameHex(m.Transcript, transcript[:]) {
		return nil, nil
	}
	return &SplitView{GameID: tr.GameID, Index: m.Index, Digest: hex.EncodeToString(digest[:]),
		Transcript: hex.EncodeToString(transcript[:]), Record: true, Marker: m}, nil
}
