package match

import (
	"errors"
	"fmt"

	"github.com/fairboard/fairboard/internal/checks"
	"github.com/fairboard/fairboard/rng/mentalpoker"
)

// A hand the server ends in the deal's passes naming a seat a cheat
// (ForfeitCheat) keeps, as its evidence, the seat's signed pass it
// refused (RecordDeal.Refused). Anyone holding the passes before it
// checks that evidence as the server did (mentalpoker.Table.Accept: the
// signature, the deck, the points, the re-masking proofs): a pass that
// verifies, or one that is no signed message of the seat the deal
// awaited, names an honest seat a cheat. The server's refusal and the
// verifier's check share ProvesCheat, so they cannot disagree on what is
// proven.

// FalseCheat is a forfeit for cheating in the deal's passes that its
// evidence does not prove: the refused pass verifies (Err nil), is
// missing (Missing), or is refused otherwise than as a cheat signed by
// the seat named (Err).
type FalseCheat struct {
	// Seat is the seat named, 0-based; Pass the pass (1 or 2) it was
	// named a cheat in.
	Seat, Pass int
	// Missing: no refused pass at all.
	Missing bool
	// Err is what the check of the refused pass gave (nil: it verifies).
	Err error
}

func (e *FalseCheat) Error() string {
	switch {
	case e.Missing:
		return fmt.Sprintf("a forfeit for cheating names seat %d in pass %d, but holds no refused pass of it: no signed evidence", e.Seat, e.Pass)
	case e.Err == nil:
		return fmt.Sprintf("a forfeit for cheating names seat %d, but its refused pass %d verifies (signature, deck and proofs): an honest pass named a cheat",
			e.Seat, e.Pass)
	}
	return fmt.Sprintf("a forfeit for cheating names seat %d, but its refused pass %d is no signed evidence (%v)", e.Seat, e.Pass, e.Err)
}

// ProvesCheat reports whether err, a refusal of a pass by
// mentalpoker.Table.Accept, proves its seat cheated: the message is its
// seat's, signed, for this hand and turn, and its deck or proofs are
// wrong (a drop, a duplicate, a point that is none, a bad proof). Any
// other refusal (a signature, a context, a transcript, a malformed
// message) says nothing of the seat: anyone could have sent it.
func ProvesCheat(err error) bool {
	for _, e := range []error{mentalpoker.ErrCount, mentalpoker.ErrDuplicate, mentalpoker.ErrPoint, mentalpoker.ErrProof} {
		if errors.Is(err, e) {
			return true
		}
	}
	return false
}

// ProvenCheat checks refused, the pass a hand was ended on as a proven
// cheat, against tb, a table holding the passes published before it (so
// awaiting the named seat's): nil when Accept refuses it as a cheat
// (ProvesCheat) naming the seat tb awaits; otherwise a *FalseCheat
// naming that seat and pass. A refused pass that verifies is taken by
// tb. With the check switched off (checks.NamedCheat, a positive
// control) it is nil. After both passes tb awaits no pass: a
// *FalseCheat of seat -1.
func ProvenCheat(tb *mentalpoker.Table, refused *mentalpoker.PassMessage) error {
	if !checks.On(checks.NamedCheat) {
		return nil
	}
	pass, seat := tb.Next()
	if refused == nil {
		return &FalseCheat{Seat: seat, Pass: pass, Missing: true}
	}
	err := tb.Accept(refused)
	if s, named := mentalpoker.Culprit(err); named && s == seat && ProvesCheat(err) {
		return nil
	}
	return &FalseCheat{Seat: seat, Pass: pass, Err: err}
}
