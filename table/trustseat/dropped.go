package trustseat

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/fairboard/fairboard/match"
	"github.com/fairboard/fairboard/rng/mentalpoker"
	"github.com/fairboard/fairboard/table"
)

// A client compares each view of the table it reads with the last
// acknowledgement it holds (docs/fairness.md, "Dropped, then blamed, at
// a table"): a table that ends naming its player's seat as missing what
// the server acknowledged taking is a lie, a Dropped.
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
//     Whether a pass named a cheat was one is client.Table's check
//     (client/tablecheat.go).

// Ended is what the comparison reads of a view of the table (getView's
// answer): its game id ("" : the acknowledgement's), its seats' uids in
// seat order, its trustless protocol, and the Aborted events of its log.
type Ended struct {
	GameID    string
	Seats     []string
	Trustless *table.TrustlessView
	Aborted   []Aborted
}

// Aborted is an Aborted event of the table's log: the round's index, and
// its options, the reason then the missing uids.
type Aborted struct {
	Index   int64
	Options []string
}

// Dropped is what the comparison found: the table ended naming the
// player's seat as missing what the server had acknowledged taking (a
// reveal of the aborted round, a deal message the hand's record lacks):
// the server took it, then dropped it.
type Dropped struct {
	Ack Ack
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

// Words says, in a sentence for the player, what the server did: the
// acknowledgement (the message, the table, the action, the signature if
// any, the version answered and when), then the end that contradicts it.
func (d *Dropped) Words() string {
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
	return fmt.Sprintf("the server acknowledged %s at table %s (%s %s %s at version %d, received %s), then %s: it dropped it",
		what, a.GameID, a.Action.Kind, a.Action.ActionID, how, a.Version, a.At.UTC().Format(time.RFC3339Nano), end)
}

func revealDigest(a *Ack) string {
	if a.Action.Reveal == nil {
		return ""
	}
	return a.Action.Reveal.Digest
}

// CheckDropped compares the view e with ack (nil: nothing to compare):
// the Dropped it shows, or nil when e does not end the table naming the
// player as missing what ack covers (or is another table's, or shows no
// trustless protocol).
func CheckDropped(ack *Ack, e *Ended) *Dropped {
	switch {
	case ack == nil || e == nil || e.Trustless == nil:
		return nil
	case e.GameID != "" && ack.GameID != e.GameID:
		return nil
	case ack.Action.Reveal != nil:
		return revealDropped(ack, e)
	case ack.Action.Deal != nil:
		return dealDropped(ack, e)
	}
	return nil
}

// revealDropped is the abort of the acknowledged reveal's round naming
// its seat, read from the log's Aborted event or from the protocol.
func revealDropped(ack *Ack, e *Ended) *Dropped {
	r, uid := ack.Action.Reveal, ack.Action.Actor
	for _, ev := range e.Aborted {
		if ev.Index != int64(r.Index) || len(ev.Options) < 2 || !slices.Contains(ev.Options[1:], uid) {
			continue
		}
		return &Dropped{Ack: *ack, Index: r.Index, Reason: ev.Options[0], Missing: slices.Clone(ev.Options[1:])}
	}
	// The record's pending round (the view's own, PendingRound, is shown
	// only while the table plays).
	tv := e.Trustless
	if a, p := tv.Abort, tv.RecordTrustless.Pending; a != nil && p != nil && p.Index == r.Index && slices.Contains(a.Missing, r.Seat) {
		return &Dropped{Ack: *ack, Index: r.Index, Reason: a.Reason, Missing: uidsOf(e.Seats, a.Missing)}
	}
	return nil
}

// dealDropped is a hand forfeited naming the acknowledged deal message's
// seat while its record lacks a part of that message that the reason
// does not excuse (the comment above).
func dealDropped(ack *Ack, e *Ended) *Dropped {
	dv := e.Trustless.Deal
	seat := slices.Index(e.Seats, ack.Action.Actor)
	if dv == nil || dv.Forfeit == nil || seat < 0 || !slices.Contains(dv.Forfeit.Seats, seat) {
		return nil
	}
	m := ack.Action.Deal
	var absent []string
	switch dv.Forfeit.Reason {
	case match.ForfeitDeadline:
		if p := m.Pass; p != nil && !slices.ContainsFunc(dv.Passes, func(x *mentalpoker.PassMessage) bool { return SamePass(x, p) }) {
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
	return &Dropped{Ack: *ack, Reason: dv.Forfeit.Reason, Missing: uidsOf(e.Seats, dv.Forfeit.Seats), Absent: absent}
}

// SamePass reports whether x (nil: no) is m: the same signed bytes and
// signature.
func SamePass(x, m *mentalpoker.PassMessage) bool {
	return x != nil && bytes.Equal(x.SignedBytes(), m.SignedBytes()) && bytes.Equal(x.Sig, m.Sig)
}

func sameKey(x, m *mentalpoker.KeyMessage) bool {
	return x != nil && bytes.Equal(x.SignedBytes(), m.SignedBytes()) && bytes.Equal(x.Sig, m.Sig)
}

func sameReveal(x, m *mentalpoker.RevealMessage) bool {
	return x != nil && bytes.Equal(x.SignedBytes(), m.SignedBytes()) && bytes.Equal(x.Sig, m.Sig)
}

// uidsOf names seats by the uids in seats (seat order).
func uidsOf(uids []string, seats []int) []string {
	out := []string{}
	for _, s := range seats {
		if s >= 0 && s < len(uids) {
			out = append(out, uids[s])
		}
	}
	return out
}
