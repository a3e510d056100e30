package client

import (
	"crypto/ed25519"
	"encoding/hex"
	"errors"
	"fmt"
	"slices"

	"github.com/fairboard/fairboard/match"
	"github.com/fairboard/fairboard/rng/mentalpoker"
	"github.com/fairboard/fairboard/table"
	"github.com/fairboard/fairboard/table/trustdeal"
)

// A Table whose game it knows (Def) also checks a dealing table's hand
// that ends in the deal's passes naming a seat a proven cheat (reason
// "cheat", the seat's refused pass shown as the evidence: the view's
// deal.Refused), as anyone can: the published passes taken in turn, the
// refused pass must fail its proof as the server's check failed it
// (trustdeal.CheckCheat, match.ProvenCheat, over circl's group). A pass
// that verifies, a missing one, or one that is no signed message of the
// seat named, is the server naming an honest seat a cheat: a
// *TableFalseCheat. The player's own view: where the server shows no
// refused pass, the player's own pass it holds the acknowledgement of
// (LastAck), named and not published, is checked in its place; the
// player knows what it sent.

// TableFalseCheat is what a Table found when a dealing table's hand
// ended naming a seat a cheat in the deal's passes that the evidence
// does not prove (Err, a *match.FalseCheat: the refused pass verifies,
// is missing, or is not that seat's signed pass). The Table sends
// nothing more (Send answers it). It is a lie too (errors.As finds a
// *Lie and the *match.FalseCheat in it).
type TableFalseCheat struct {
	GameID string
	// Seat is the seat named, 0-based, UID its player; Pass the pass
	// (1 or 2) named a cheat.
	Seat int
	UID  string
	Pass int
	// Own: the pass checked is the player's own, which Ack (the server's
	// acknowledgement of it) shows the server took.
	Own bool
	Ack *TableAck
	Err error
}

func (e *TableFalseCheat) Error() string { return e.lie().Error() }

// Unwrap is the lie it is and the record check's error.
func (e *TableFalseCheat) Unwrap() []error { return []error{e.lie(), e.Err} }

func (e *TableFalseCheat) lie() *Lie {
	whose := fmt.Sprintf("seat %d's (%s)", e.Seat, e.UID)
	if e.Own {
		whose = "this seat's"
		if a := e.Ack; a != nil && a.Server != nil {
			whose = fmt.Sprintf("this seat's (acknowledged at version %d, signed by the server's key at %d: %s)", a.Version, a.Server.At, a.Server.Signature)
		}
	}
	return &Lie{What: fmt.Sprintf("the server ended the hand at table %s naming %s pass %d a proven cheat, which its evidence does not prove: %v",
		e.GameID, whose, e.Pass, e.Err)}
}

// checkCheat checks v's deal against a cheat named in its passes (the
// comment above): a *TableFalseCheat (kept: Send then refuses), an
// error for an end that does not check otherwise (also kept as a lie),
// or nil, also for a table not dealing, a Table without Def, and the
// check switched off (checks.NamedCheat, in match.ProvenCheat).
func (t *Table) checkCheat(v *TableView, tv *table.TrustlessView) error {
	dv := tv.Deal
	if t.Def == nil || dv == nil || dv.Forfeit == nil || dv.Forfeit.Reason != match.ForfeitCheat {
		return nil
	}
	rules, err := t.Def.DecodeRuleset(v.Rules)
	if err != nil {
		return fmt.Errorf("client: the table's rules: %w", err)
	}
	keys := make([]ed25519.PublicKey, len(tv.Seats))
	for i, s := range tv.Seats {
		if keys[i], err = hex.DecodeString(s.PublicKey); err != nil || len(keys[i]) != ed25519.PublicKeySize {
			return fmt.Errorf("client: seat %d's public key is not 64 hex digits", i)
		}
	}
	refused, own := dv.Refused, t.ownPass(v, dv)
	if refused == nil {
		refused = own
	}
	cfg := trustdeal.Config{Def: t.Def, Rules: rules, GameID: tv.GameID, Keys: keys}
	err = trustdeal.CheckCheat(cfg, dv.Passes, dv.Forfeit, refused)
	var fc *match.FalseCheat
	switch {
	case err == nil:
		return nil
	case errors.As(err, &fc):
		e := &TableFalseCheat{GameID: t.id, Seat: fc.Seat, Pass: fc.Pass, Err: fc}
		if u := uidsOf(v, []int{fc.Seat}); len(u) == 1 {
			e.UID = u[0]
		}
		if own != nil && samePass(refused, own) {
			e.Own, e.Ack = true, t.last
		}
		err = e
	default:
		err = &Lie{What: fmt.Sprintf("the server ended the hand at table %s naming seats %v cheats, which does not check: %v", t.id, dv.Forfeit.Seats, err)}
	}
	if t.lie == nil {
		t.lie = &Lie{What: err.Error()}
	}
	return err
}

// ownPass is the player's own pass of the deal the Table holds the
// acknowledgement of, when the hand's end names its seat and the passes
// published lack it; nil otherwise.
func (t *Table) ownPass(v *TableView, dv *trustdeal.View) *mentalpoker.PassMessage {
	a := t.last
	if a == nil || a.GameID != t.id || a.Action.Deal == nil || a.Action.Deal.Pass == nil {
		return nil
	}
	p := a.Action.Deal.Pass
	seat := slices.IndexFunc(v.Seats, func(s TableSeat) bool { return s.UID == a.Action.Actor })
	if seat < 0 || !slices.Contains(dv.Forfeit.Seats, seat) ||
		slices.ContainsFunc(dv.Passes, func(x *mentalpoker.PassMessage) bool { return samePass(x, p) }) {
		return nil
	}
	return p
}
