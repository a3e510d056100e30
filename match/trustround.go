package match

import (
	"fmt"

	"github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/rng/trustless"
)

// Round is what a reveal of tm's round signs (trustless.RevealMessage),
// when tm, a move of the record f follows (its Move field the move's
// canonical bytes, as a record's pending move and a view's moves carry
// it), comes next after the moves f has checked: tm's round index, the
// move's digest and the transcript hash after it. Every reveal marker
// of that round must state these (table/trustseat's CheckMarkRecord
// shows a split view with them). Errors: a move that does not decode, a
// seat out of range, a signature that is not 128 hex digits or that the
// actor's key does not verify over the move, and an index that is not
// the next round's (0: a move that draws no round).
func (f *TrustlessFollower) Round(tm TrustlessMove) (index uint32, digest, transcript [32]byte, err error) {
	mv, err := decodeCanonicalMove(f.kinds, tm.Move)
	if err != nil {
		return 0, digest, transcript, fmt.Errorf("trustless: round %d's move: %w", tm.Index, err)
	}
	if mv.Seat < 0 || mv.Seat >= len(f.seats) || mv.Seat >= len(f.c.keys) {
		return 0, digest, transcript, fmt.Errorf("trustless: round %d's move is seat %d's, not a seat's", tm.Index, mv.Seat)
	}
	if tm.Index == 0 || tm.Index != f.Next {
		return 0, digest, transcript, fmt.Errorf("trustless: the move is of round %d, but the next round is %d", tm.Index, f.Next)
	}
	sig, err := hexSig(tm.Signature, fmt.Sprintf("round %d's move's signature", tm.Index))
	if err != nil {
		return 0, digest, transcript, err
	}
	canon := TableAction("move", f.seats[mv.Seat].UID, tm.Version, game.AppendMoveCanonical(nil, f.kinds, mv), nil, nil)
	if !trustless.Verify(f.c.keys[mv.Seat], trustless.ActionMessage(f.c.id, canon), sig) {
		return 0, digest, transcript, fmt.Errorf("trustless: round %d's move's signature does not verify under seat %d's key", tm.Index, mv.Seat)
	}
	digest = trustless.ActionDigest(f.c.id, canon)
	return tm.Index, digest, trustless.TranscriptAction(&f.Transcript, &digest, sig), nil
}
