package engine

import (
	"encoding/hex"
	"slices"
	"strconv"

	"github.com/fairboard/fairboard/rng/fair"
)

// OpenContribution is the handler of ActOpen, a seat's opening of its contribution in a fair game with
// openings: 32 bytes that must be the ones its join committed to. The
// first opening fixes the seats (no join after it) and starts the public
// deadline after which the owner may remove a seat still unopened.
func OpenContribution(c *Ctx, a *Action) error {
	p := c.P
	f := p.Fairness
	switch {
	case f == nil || !f.Openings:
		return Reject(CodeInvalidAction, "open belongs to fair games with openings")
	case p.Phase != PhaseLobby:
		return Reject(CodeAlreadyStarted, "the game has started")
	}
	pl, i := p.Player(a.Actor)
	if pl == nil {
		return Reject(CodeUnknownPlayer, a.Actor+" has no seat in this game")
	}
	fs := &f.Seats[i]
	if fs.Opened {
		return Reject(CodeAlreadyOpened, a.Actor+" has already opened its contribution")
	}
	contribution, err := fair.ParseContribution(a.Entropy)
	if err != nil {
		return Reject(CodeInvalidAction, err.Error())
	}
	if got := fair.ContributionCommitment(p.GameID, uint32(pl.Seat), contribution); Hash32(got) != fs.CommitmentHex {
		return Reject(CodeWrongOpening, "the contribution opened by "+a.Actor+" is not the one its join committed to ("+fs.CommitmentHex.String()+")")
	}
	fs.Opened = true
	c.G.Secret.Entropy[i] = hex.EncodeToString(contribution)
	if f.OpenDeadline == 0 {
		f.OpenDeadline = a.At + f.DeadlineMs
	}
	e := c.Add(EvEntropyOpened)
	e.UID, e.Seat = pl.UID, pl.Seat
	return nil
}

// RemoveUnopenedSeat is the handler of ActRemoveSeat, the owner's removal of a seat that did not open its
// contribution by the openings' public deadline, in a fair game with
// openings. It is public and counted (Fairness.Removed): each removal
// lets a seat allied with the server choose between two game seeds.
func RemoveUnopenedSeat(c *Ctx, a *Action) error {
	p := c.P
	f := p.Fairness
	switch {
	case f == nil || !f.Openings:
		return Reject(CodeInvalidAction, "removeSeat belongs to fair games with openings")
	case p.Phase != PhaseLobby:
		return Reject(CodeAlreadyStarted, "the game has started")
	case a.Actor != p.Owner:
		return Reject(CodeNotOwner, "only the owner "+p.Owner+" may remove a seat")
	}
	pl, i := p.Player(a.Target)
	switch {
	case pl == nil:
		return Reject(CodeUnknownPlayer, "no player "+a.Target+" to remove")
	case f.Seats[i].Opened:
		return Reject(CodeInvalidAction, a.Target+" has opened its contribution; only a seat that never opened may be removed")
	case f.OpenDeadline == 0:
		return Reject(CodeDeadlineNotPassed, "no seat has opened yet: the openings' deadline has not begun")
	case a.At <= f.OpenDeadline:
		return Reject(CodeDeadlineNotPassed, "a seat may be removed only after the openings' deadline "+strconv.FormatInt(f.OpenDeadline, 10))
	}
	uid, seat := pl.UID, pl.Seat
	p.Players = slices.Delete(p.Players, i, i+1)
	f.Seats = slices.Delete(f.Seats, i, i+1)
	c.G.Secret.Entropy = slices.Delete(c.G.Secret.Entropy, i, i+1)
	f.Removed = append(f.Removed, RemovedSeat{UID: uid, Seat: seat, At: a.At})
	e := c.Add(EvSeatRemoved)
	e.UID, e.Seat, e.Reason = uid, seat, "unopened"
	return nil
}
