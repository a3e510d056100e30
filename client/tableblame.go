package client

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/fairboard/fairboard/internal/checks"
	"github.com/fairboard/fairboard/match"
	"github.com/fairboard/fairboard/rng/mentalpoker"
	"github.com/fairboard/fairboard/table"
	"github.com/fairboard/fairboard/table/trustseat"
)

// A Table compares each view it reads (View) with the last
// acknowledgement it holds (LastAck), as the dungeon's client does
// (Dropped): a table that ends naming its player's seat as missing what
// the server acknowledged taking is a lie, a *TableDropped.
//
//   - A reveal acknowledged for index i: the table's abort (its Aborted
//     event, or the protocol's abort with its pending round) at index i
//     names the player (its uid, or its seat) as missing. The server
//     names as missing the seats whose reveal of the pending round it
//     does not hold; holding the player's, it cannot name the player.
//   - A deal message acknowledged at a dealing table (Kuhn poker, Leduc
//     hold'em): the hand ends forfeited naming the player's seat while
//     the hand's public record lacks a part of that message. The wait an
//     abort names cannot be read from a finished hand (its view then
//     says only "done"), so the message is looked for instead: every
//     message the deal takes is published by the hand's end (a pass, and
//     the keys of the others' cards, when taken; the keys staged for a
//     pending move, at the abort at the latest; the end-of-hand reveals,
//     once the hand is done), the one exception being a pass the server
//     refuses as a proven cheat (the record's refused pass, which ends
//     the hand naming its seat "cheat"), with the keys that rode with it.
//     So under the reason "deadline" every part is looked for; under
//     "cheat" (an end-of-hand reveal missing at the deadline, or a cheat
//     proven) the end-of-hand reveal only, which the audit that proves a
//     cheat has among the published ones; "abandoned" names no seat.
//     Whether a pass named a cheat was one is checkCheat's
//     (tablecheat.go), which also checks the player's own acknowledged
//     pass.

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
	a := &d.Ack
	how := "answered success"
	if a.Server != nil {
		how += fmt.Sprintf(", signed by the server's key at %d: %s", a.Server.At, a.Server.Signature)
	}
	what := fmt.Sprintf("this seat's reveal for index %d (digest %s)", d.Index, revealDigest(a))
	end := fmt.Sprintf("aborted the table (%s) naming %s as missing that round", d.Reason, strings.Join(d.Missing, ", "))
	if a.Action.Reveal == nil {
		what = fmt.Sprintf("this seat's deal message (%s)", strings.Join(d.Absent, ", "))
		end = fmt.Sprintf("ended the hand (%s) naming %s, its record without that message", d.Reason, strings.Join(d.Missing, ", "))
	}
	return &Lie{What: fmt.Sprintf("the server acknowledged %s at table %s (%s %s %s at version %d, received %s), then %s: it dropped it",
		what, a.GameID, a.Action.Kind, a.Action.ActionID, how, a.Version, a.At.UTC().Format(time.RFC3339Nano), end)}
}

func revealDigest(a *TableAck) string {
	if a.Action.Reveal == nil {
		return ""
	}
	return a.Action.Reveal.Digest
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
	ack := t.last
	var d *TableDropped
	switch {
	case ack == nil || ack.GameID != v.GameID && v.GameID != "":
	case ack.Action.Reveal != nil:
		d = revealDropped(ack, v, &tv)
	case ack.Action.Deal != nil:
		d = dealDropped(ack, v, &tv)
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

// revealDropped is the abort of the acknowledged reveal's round naming
// its seat, read from the log's Aborted event or from the protocol.
func revealDropped(ack *TableAck, v *TableView, tv *table.TrustlessView) *TableDropped {
	r, uid := ack.Action.Reveal, ack.Action.Actor
	for _, e := range v.Log {
		if e.Game || e.Type != "Aborted" || e.Vals["index"] != int64(r.Index) || len(e.Options) < 2 || !slices.Contains(e.Options[1:], uid) {
			continue
		}
		return &TableDropped{Ack: *ack, Index: r.Index, Reason: e.Options[0], Missing: slices.Clone(e.Options[1:])}
	}
	// The record's pending round (the view's own, PendingRound, is shown
	// only while the table plays).
	if a, p := tv.Abort, tv.RecordTrustless.Pending; a != nil && p != nil && p.Index == r.Index && slices.Contains(a.Missing, r.Seat) {
		return &TableDropped{Ack: *ack, Index: r.Index, Reason: a.Reason, Missing: uidsOf(v, a.Missing)}
	}
	return nil
}

// dealDropped is a hand forfeited naming the acknowledged deal message's
// seat while its record lacks a part of that message that the reason
// does not excuse (the comment above).
func dealDropped(ack *TableAck, v *TableView, tv *table.TrustlessView) *TableDropped {
	dv := tv.Deal
	seat := slices.IndexFunc(v.Seats, func(s TableSeat) bool { return s.UID == ack.Action.Actor })
	if dv == nil || dv.Forfeit == nil || seat < 0 || !slices.Contains(dv.Forfeit.Seats, seat) {
		return nil
	}
	m := ack.Action.Deal
	var absent []string
	switch dv.Forfeit.Reason {
	case match.ForfeitDeadline:
		if p := m.Pass; p != nil && !slices.ContainsFunc(dv.Passes, func(x *mentalpoker.PassMessage) bool { return samePass(x, p) }) {
			absent = append(absent, fmt.Sprintf("pass %d", p.Pass))
		}
		for _, k := range m.Keys {
			if k != nil && !slices.ContainsFunc(dv.Keys, func(x *mentalpoker.KeyMessage) bool { return sameKey(x, k) }) {
				absent = append(absent, fmt.Sprintf("key of position %d", k.Position))
			}
		}
		fallthrough
	case match.ForfeitCheat:
		if r := m.Reveal; r != nil && !slices.ContainsFunc(dv.Reveals, func(x *mentalpoker.RevealMessage) bool { return sameReveal(x, r) }) {
			absent = append(absent, "reveal")
		}
	}
	if len(absent) == 0 {
		return nil
	}
	return &TableDropped{Ack: *ack, Reason: dv.Forfeit.Reason, Missing: uidsOf(v, dv.Forfeit.Seats), Absent: absent}
}

// samePass, sameKey and sameReveal report whether x (nil: no) is m:
// the same signed bytes and signature.
func samePass(x, m *mentalpoker.PassMessage) bool {
	return x != nil && bytes.Equal(x.SignedBytes(), m.SignedBytes()) && bytes.Equal(x.Sig, m.Sig)
}

func sameKey(x, m *mentalpoker.KeyMessage) bool {
	return x != nil && bytes.Equal(x.SignedBytes(), m.SignedBytes()) && bytes.Equal(x.Sig, m.Sig)
}

func sameReveal(x, m *mentalpoker.RevealMessage) bool {
	return x != nil && bytes.Equal(x.SignedBytes(), m.SignedBytes()) && bytes.Equal(x.Sig, m.Sig)
}

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
	var a TableAck
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&a); err != nil {
		return fmt.Errorf("client: the seat's kept acknowledgement: %w", err)
	}
	switch _, ok := table.AckMessage(a.GameID, &a.Action, 0); {
	case !ok:
		return fmt.Errorf("client: the seat's kept acknowledgement is of no reveal nor deal message")
	case a.GameID != t.id:
		return fmt.Errorf("client: the seat's kept acknowledgement is table %q's, not %q's", a.GameID, t.id)
	case a.Action.Actor != s.UID():
		return fmt.Errorf("client: the seat's kept acknowledgement is %q's, not %q's", a.Action.Actor, s.UID())
	case t.ServerKey != nil && a.Server != nil && !VerifyTableAck(t.ServerKey, &a):
		return fmt.Errorf("client: the seat's kept acknowledgement is not signed by the server's key")
	}
	t.last = &a
	return nil
}
