package client

import (
	"encoding/json"
	"fmt"

	"github.com/fairboard/fairboard/internal/checks"
	"github.com/fairboard/fairboard/rng/mentalpoker"
	"github.com/fairboard/fairboard/table"
	"github.com/fairboard/fairboard/table/trustseat"
)

// A Table compares each view it reads (View) with the last
// acknowledgement it holds (LastAck), as the dungeon's client does
// (Dropped): a table that ends naming its player's seat as missing what
// the server acknowledged taking (a reveal of the aborted round, a deal
// message the hand's record lacks) is a lie, a *TableDropped. The
// comparison is table/trustseat's (CheckDropped, whose comment says what
// is looked for), which the play page's WebAssembly runs too. Whether a
// pass named a cheat was one is checkCheat's (tablecheat.go), which also
// checks the player's own acknowledged pass.

// TableDropped is what a Table found when its table ended naming its
// player's seat as missing what the server had acknowledged taking (a
// reveal of the aborted round, a deal message the hand's record lacks):
// the server took it, then dropped it. The Table sends nothing more
// (Send answers it); the player should be told, with the
// acknowledgement, which VerifyTableAck checks where it is signed. It is
// a lie too (errors.As finds a *Lie in it).
type TableDropped struct {
	Ack TableAck
	// Index is the aborted round's index (a reveal's; 0 at a dealing
	// table), Reason the end's reason, Missing the uids it named.
	Index   uint32
	Reason  string
	Missing []string
	// Absent names the parts of the acknowledged deal message the hand's
	// record lacks ("pass 2", "key of position 1", "reveal"); none for a
	// reveal.
	Absent []string
}

func (d *TableDropped) Error() string { return d.lie().Error() }

// Unwrap is the lie it is.
func (d *TableDropped) Unwrap() error { return d.lie() }

func (d *TableDropped) lie() *Lie {
	td := trustseat.Dropped{Ack: d.Ack, Index: d.Index, Reason: d.Reason, Missing: d.Missing, Absent: d.Absent}
	return &Lie{What: td.Words()}
}

// checkBlame checks the pending round's markers (checkMarks,
// tablemarks.go), then compares the view v with the acknowledgement the
// Table holds: a *TableDropped (kept: Send then refuses) when v ends the table
// naming the player as missing what the server acknowledged (unless the
// comparison is switched off, checks.AckHeld); otherwise checkCheat's
// answer (tablecheat.go).
func (t *Table) checkBlame(v *TableView) error {
	if len(v.Trustless) == 0 || string(v.Trustless) == "null" {
		return nil
	}
	var tv table.TrustlessView
	if err := json.Unmarshal(v.Trustless, &tv); err != nil {
		return fmt.Errorf("client: the trustless protocol: %w", err)
	}
	if err := t.checkMarks(&tv); err != nil {
		return err
	}
	var d *TableDropped
	if td := trustseat.CheckDropped(t.last, endedOf(v, &tv)); td != nil {
		d = &TableDropped{Ack: td.Ack, Index: td.Index, Reason: td.Reason, Missing: td.Missing, Absent: td.Absent}
	}
	if d == nil || !checks.On(checks.AckHeld) {
		// Nothing dropped (or the abort taken, the acknowledgement not
		// compared); a cheat named in the deal's passes is checked.
		return t.checkCheat(v, &tv)
	}
	if t.lie == nil {
		t.lie = &Lie{What: d.Error()}
	}
	return d
}

// endedOf is what trustseat.CheckDropped reads of v (its protocol tv):
// its seats' uids and its log's Aborted events.
func endedOf(v *TableView, tv *table.TrustlessView) *trustseat.Ended {
	e := &trustseat.Ended{GameID: v.GameID, Trustless: tv}
	for _, s := range v.Seats {
		e.Seats = append(e.Seats, s.UID)
	}
	for _, ev := range v.Log {
		if !ev.Game && ev.Type == "Aborted" {
			e.Aborted = append(e.Aborted, trustseat.Aborted{Index: ev.Vals["index"], Options: ev.Options})
		}
	}
	return e
}

// samePass reports whether x (nil: no) is m: the same signed bytes and
// signature.
func samePass(x, m *mentalpoker.PassMessage) bool { return trustseat.SamePass(x, m) }

// uidsOf names v's seats by uid.
func uidsOf(v *TableView, seats []int) []string {
	out := []string{}
	for _, s := range seats {
		if s >= 0 && s < len(v.Seats) {
			out = append(out, v.Seats[s].UID)
		}
	}
	return out
}

// KeepIn keeps the Table's last acknowledgement in s, its player's seat
// (trustseat's KeepAck), so that the seat's secrets (s.Export) carry it
// and a restart keeps it (HoldFrom); TrustTable.Do does it after each
// acknowledgement where it has the actor's seat. Nothing to keep: s
// keeps what it had. Errors: a seat of another table or uid, and
// KeepAck's.
func (t *Table) KeepIn(s *trustseat.Seat) error {
	a := t.last
	if a == nil {
		return nil
	}
	if s.UID() != a.Action.Actor {
		return fmt.Errorf("client: the acknowledgement is %q's, the seat %q's", a.Action.Actor, s.UID())
	}
	b, err := json.Marshal(a)
	if err != nil {
		return fmt.Errorf("client: writing the acknowledgement: %w", err)
	}
	return s.KeepAck(b)
}

// HoldFrom takes back, as the Table's last acknowledgement (LastAck),
// the one s (its player's seat, restored from its secrets) keeps: after
// a restart, the Table compares the views it reads with it as before.
// Nothing kept: the Table holds what it had. Errors: what s keeps is no
// acknowledgement (not a TableAck's JSON, or of nothing a seat can be
// named as missing), is another table's or another uid's, or, where the
// Table pins the server's key (ServerKey), carries a signature that key
// does not verify.
func (t *Table) HoldFrom(s *trustseat.Seat) error {
	b := s.KeptAck()
	if b == nil {
		return nil
	}
	a, err := trustseat.ParseAck(b)
	switch {
	case err != nil:
		return fmt.Errorf("client: the seat's kept acknowledgement: %w", err)
	case a.GameID != t.id:
		return fmt.Errorf("client: the seat's kept acknowledgement is table %q's, not %q's", a.GameID, t.id)
	case a.Action.Actor != s.UID():
		return fmt.Errorf("client: the seat's kept acknowledgement is %q's, not %q's", a.Action.Actor, s.UID())
	case t.ServerKey != nil && a.Server != nil && !VerifyTableAck(t.ServerKey, a):
		return fmt.Errorf("client: the seat's kept acknowledgement is not signed by the server's key")
	}
	t.last = a
	return nil
}
