package table

import (
	"encoding/hex"
	"errors"
	"fmt"

	"github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/rng/trustless"
)

// checkTrustState checks a trustless table's protocol state against its
// applied moves' protocol from the start (RestoreReplay: the whole
// table, its chunks joined): the transcript's hash recomputed from the
// seats' joins, each move's signature and each round's links
// (docs/fairness.md, "The transcript"), the rounds' indexes 1, 2, ...,
// the next round's index, each seat's last link (its head before its
// first round) and the pending round's index, digest and transcript. A
// head restored alone goes on from this state (the transcript, the next
// index and the last links are where its next round starts), so the
// replay checks it as it checks the snapshot. A dealing table is not
// checked here: its deal's log replays (trustdeal.Restore) and its
// record is checked as a whole (match.CheckRecord). Errors name the
// first part that differs.
func (t *Table) checkTrustState(moves []game.Move) error {
	tl := t.tl
	if tl == nil || tl.Dealing {
		return nil
	}
	if len(tl.Moves) != len(moves) {
		return fmt.Errorf("%d moves' protocol for %d moves", len(tl.Moves), len(moves))
	}
	tr := trustless.TranscriptStart(tl.GameID, t.rules.Hash())
	last := make([][32]byte, len(tl.Seats))
	for i, s := range tl.Seats {
		canon := t.joinCanonical(t.seats[i].UID, s.JoinVersion, i, t.seats[i].Options, s.Head[:], s.Key[:])
		d := trustless.ActionDigest(tl.GameID, canon)
		tr = trustless.TranscriptAction(&tr, &d, decodeSig(s.JoinSig))
		last[i] = s.Head
	}
	next := uint32(1)
	for i, pm := range tl.Moves {
		mv := moves[i]
		if mv.Seat < 0 || mv.Seat >= len(t.seats) {
			return fmt.Errorf("move %d's seat %d", i+1, mv.Seat)
		}
		d := trustless.ActionDigest(tl.GameID, t.moveCanonical(t.seats[mv.Seat].UID, pm.Version, mv))
		tr = trustless.TranscriptAction(&tr, &d, decodeSig(pm.Sig))
		if pm.Index == 0 {
			continue
		}
		if pm.Index != next || len(pm.Reveals) != len(t.seats) {
			return fmt.Errorf("move %d's round %d of %d reveals, not round %d of every seat's", i+1, pm.Index, len(pm.Reveals), next)
		}
		links := make([][32]byte, len(pm.Reveals))
		for j, r := range pm.Reveals {
			if r.Seat != j {
				return fmt.Errorf("move %d's reveals are not in seat order", i+1)
			}
			links[j] = r.Link
		}
		tr = trustless.TranscriptRound(&tr, pm.Index, links)
		copy(last, links)
		next++
	}
	if p := tl.Pending; p != nil {
		if p.Move.Seat < 0 || p.Move.Seat >= len(t.seats) {
			return errors.New("the pending move's seat")
		}
		d := trustless.ActionDigest(tl.GameID, t.moveCanonical(t.seats[p.Move.Seat].UID, p.Version, p.Move))
		tr = trustless.TranscriptAction(&tr, &d, decodeSig(p.Sig))
		if p.Index != next || p.Digest != d || p.Transcript != tr {
			return fmt.Errorf("the pending round %d is not the one after the applied moves", p.Index)
		}
	}
	switch {
	case tl.Transcript != tr:
		return errors.New("the saved transcript is not the one of the applied moves")
	case tl.Next != next:
		return fmt.Errorf("the saved next round %d is not %d, the one after the applied moves", tl.Next, next)
	}
	for i, s := range tl.Seats {
		if s.Last != last[i] {
			return fmt.Errorf("seat %d's saved last link is not its last revealed one", i)
		}
	}
	return nil
}

// decodeSig is a saved signature's bytes (checked when it was taken).
func decodeSig(s string) []byte {
	b, _ := hex.DecodeString(s)
	return b
}
