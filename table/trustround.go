package table

import (
	"bytes"
	"fmt"
	"slices"
	"strconv"

	"github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/match"
	"github.com/fairboard/fairboard/rng/trustless"
	"github.com/fairboard/fairboard/table/trustdeal"
)

// Reveal is a seat's link for a pending round (docs/fairness.md, "The
// trustless mode"): the round's Index, the seat's Link x_v, the pending
// move's Digest and the Transcript hash the seat checked (64 hex digits
// each), and its Signature (128 hex digits) over
// trustless.RevealMessage(gameId, index, digest, transcript).
type Reveal struct {
	Seat       int
	Index      uint32
	Link       string
	Digest     string
	Transcript string
	Signature  string
}

// moveTrustless applies a seated actor's move at a trustless table: its
// signature (bad_signature), then a move that draws nothing at once, a
// move that draws pending at the next index (with the actor's own reveal
// applied in the same step, or refused with it), a move that would need
// an index past the chains the end of the game (chainExhausted).
func (t *Table) moveTrustless(a *Action, mv game.Move) *Error {
	tl := t.tl
	sig, err := parseSig(a.Signature)
	if err != nil {
		return err
	}
	draws, gerr := t.m.WouldDraw(mv)
	if gerr != nil {
		return fromGame(gerr)
	}
	canon := t.moveCanonical(a.Actor, a.Version, mv)
	if !trustless.Verify(tl.Seats[mv.Seat].Key[:], trustless.ActionMessage(tl.GameID, canon), sig) {
		return reject(CodeBadSignature, "the move's signature does not verify under seat "+strconv.Itoa(mv.Seat)+"'s key")
	}
	digest := trustless.ActionDigest(tl.GameID, canon)
	tr := trustless.TranscriptAction((*[32]byte)(&tl.Transcript), &digest, sig)
	if t.dl != nil {
		return t.moveDealing(a, mv, tr)
	}
	if !draws {
		if a.Reveal != nil {
			return reject(CodeInvalidAction, "a reveal with a move that draws nothing")
		}
		ev, gerr := t.m.ApplyKeyed(mv, nil)
		if gerr != nil {
			return fromGame(gerr)
		}
		tl.Transcript = tr
		tl.Moves = append(tl.Moves, trustMove{Version: a.Version, Sig: a.Signature})
		t.emitGame(ev)
		t.finishIfOver()
		return nil
	}
	p := &trustPending{Move: mv, Version: a.Version, Sig: a.Signature, Index: tl.Next, Digest: digest, Transcript: tr,
		At: a.At, Deadline: a.At + int64(tl.DeadlineMs)}
	if tl.Next > tl.ChainLength {
		if a.Reveal != nil {
			return reject(CodeWrongIndex, fmt.Sprintf("the chains have %d links: this move ends the game", tl.ChainLength))
		}
		tl.Transcript, tl.Pending = tr, p
		t.endTrust(a.Actor, match.AbortChainExhausted, nil)
		return nil
	}
	var own *trustReveal
	if a.Reveal != nil {
		r, err := t.checkReveal(p, a.Actor, a.At, a.Reveal)
		if err != nil {
			return err
		}
		own = r
	}
	tl.Transcript, tl.Pending = tr, p
	t.emit(Event{To: game.All, Type: "Pending", Vals: [game.MaxVals]int64{int64(p.Index), int64(mv.Seat)}, UID: a.Actor})
	if own != nil {
		t.acceptReveal(own)
	}
	return nil
}

// checkReveal checks a reveal against the pending round p, in the
// dungeon's order: the actor holds a seat (not_seated) and reveals for it
// (wrong_seat), the index is p's (wrong_index), the deadline has not
// passed (deadline_passed), the seat has not revealed (already_revealed),
// the digest and transcript are p's (wrong_digest), the signature
// verifies under the seat's key (bad_signature), the link hashes to the
// seat's previous link (wrong_link).
func (t *Table) checkReveal(p *trustPending, actor string, at int64, r *Reveal) (*trustReveal, *Error) {
	s := t.seatOf(actor)
	switch {
	case s == NoSeat:
		return nil, reject(CodeNotSeated, "the actor holds no seat")
	case r.Seat != s:
		return nil, reject(CodeWrongSeat, fmt.Sprintf("the actor holds seat %d, not %d", s, r.Seat))
	case r.Index != p.Index:
		return nil, reject(CodeWrongIndex, fmt.Sprintf("the pending round is %d, not %d", p.Index, r.Index))
	case at > p.Deadline:
		return nil, reject(CodeDeadlinePassed, "the round's deadline has passed")
	case slices.ContainsFunc(p.Reveals, func(x trustReveal) bool { return x.Seat == s }):
		return nil, reject(CodeAlreadyRevealed, "seat "+strconv.Itoa(s)+" has revealed round "+strconv.Itoa(int(p.Index)))
	}
	link, err := parse32(r.Link, "link")
	if err != nil {
		return nil, err
	}
	digest, err := parse32(r.Digest, "digest")
	if err != nil {
		return nil, err
	}
	tr, err := parse32(r.Transcript, "transcript")
	if err != nil {
		return nil, err
	}
	sig, err := parseSig(r.Signature)
	if err != nil {
		return nil, err
	}
	if !bytes.Equal(digest[:], p.Digest[:]) || !bytes.Equal(tr[:], p.Transcript[:]) {
		return nil, reject(CodeWrongDigest, "the reveal is for another move or another transcript than the pending one")
	}
	if !trustless.Verify(t.tl.Seats[s].Key[:], trustless.RevealMessage(t.tl.GameID, p.Index, &digest, &tr), sig) {
		return nil, reject(CodeBadSignature, "the reveal's signature does not verify under seat "+strconv.Itoa(s)+"'s key")
	}
	if !trustless.CheckLink(t.tl.GameID, uint32(s), p.Index, &link, (*[32]byte)(&t.tl.Seats[s].Last)) {
		return nil, reject(CodeWrongLink, "the link does not hash to seat "+strconv.Itoa(s)+"'s previous link")
	}
	return &trustReveal{Seat: s, UID: actor, At: at, Link: link, Sig: r.Signature}, nil
}

// reveal applies a reveal action: wrong_index when no round is pending,
// then checkReveal's refusals.
func (t *Table) reveal(a *Action) *Error {
	p := t.tl.Pending
	switch {
	case p == nil:
		return reject(CodeWrongIndex, "no round is pending")
	case a.Reveal == nil:
		return reject(CodeInvalidAction, "a reveal needs its link, digest, transcript and signature")
	}
	r, err := t.checkReveal(p, a.Actor, a.At, a.Reveal)
	if err != nil {
		return err
	}
	t.acceptReveal(r)
	return nil
}

// acceptReveal keeps a checked reveal and closes the round with the last
// seat's: R_v of every seat's link in seat order, the round record, then
// the pending move applied with R_v's stream.
func (t *Table) acceptReveal(r *trustReveal) {
	tl, p := t.tl, t.tl.Pending
	p.Reveals = append(p.Reveals, *r)
	t.emit(Event{To: game.All, Type: "Revealed", Vals: [game.MaxVals]int64{int64(p.Index), int64(r.Seat)}, UID: r.UID})
	if len(p.Reveals) < len(t.seats) {
		return
	}
	reveals := slices.Clone(p.Reveals)
	slices.SortFunc(reveals, func(x, y trustReveal) int { return x.Seat - y.Seat })
	links := make([][32]byte, len(reveals))
	for i, x := range reveals {
		links[i] = x.Link
	}
	rv := trustless.Randomness(tl.GameID, p.Index, (*[32]byte)(&p.Digest), links)
	ev, err := t.m.ApplyKeyed(p.Move, &rv)
	if err != nil {
		panic("table: a pending move checked by WouldDraw was refused with its round: " + err.Error())
	}
	tl.Transcript = trustless.TranscriptRound((*[32]byte)(&tl.Transcript), p.Index, links)
	for i := range tl.Seats {
		tl.Seats[i].Last = links[i]
	}
	tl.Moves = append(tl.Moves, trustMove{Version: p.Version, Sig: p.Sig, Index: p.Index, Reveals: reveals})
	tl.Next++
	tl.Pending = nil
	t.emit(Event{To: game.All, Type: "RoundClosed", Vals: [game.MaxVals]int64{int64(p.Index)}})
	t.emitGame(ev)
	t.finishIfOver()
}

// abortDue applies an abort action: wrong_index when no round is
// pending, deadline_not_passed before its deadline; then the game ends
// as aborted, naming the seats that did not reveal.
func (t *Table) abortDue(a *Action) *Error {
	if t.tl == nil {
		return t.abortUnopened(a)
	}
	if t.dl != nil {
		return t.abortDeal(a)
	}
	p := t.tl.Pending
	switch {
	case p == nil:
		return reject(CodeWrongIndex, "no round is pending")
	case a.At <= p.Deadline:
		return reject(CodeDeadlineNotPassed, fmt.Sprintf("the round's deadline is %d, not passed at %d", p.Deadline, a.At))
	}
	var missing []int
	for s := range t.seats {
		if !slices.ContainsFunc(p.Reveals, func(x trustReveal) bool { return x.Seat == s }) {
			missing = append(missing, s)
		}
	}
	t.endTrust(a.Actor, match.AbortDeadline, missing)
	return nil
}

// AbortDue reports whether a trustless table's pending round is past its
// deadline at now (unix ms): the server then applies an abort action
// (KindAbort, by ServerActor) at its next call on the table or from a
// sweep. The table never reads a clock.
func (t *Table) AbortDue(now int64) bool {
	if d := t.openDeadline(); d > 0 {
		return now > d
	}
	if t.phase == PhasePlaying && t.dl != nil {
		return t.dl.Phase() != trustdeal.PhasePlay && now > t.dl.Deadline()
	}
	return t.phase == PhasePlaying && t.tl != nil && t.tl.Pending != nil && now > t.tl.Pending.Deadline
}

// endTrust ends a trustless game before its end: the game's AbortPayoffs,
// the reason and the seats named missing in the outcome, and the event
// Aborted {index; UID: by; Options: the reason, then the missing seats'
// uids}.
func (t *Table) endTrust(by, reason string, missing []int) {
	tl := t.tl
	tl.Abort = &match.TrustlessAbort{Reason: reason, Missing: missing}
	t.out = &Outcome{Abandoned: true, Payoffs: slices.Clone(t.m.State().AbortPayoffs()), Reason: reason, Missing: missing}
	t.phase = PhaseFinished
	var idx int64
	if tl.Pending != nil {
		idx = int64(tl.Pending.Index)
	}
	opts := []string{reason}
	for _, s := range missing {
		opts = append(opts, t.seats[s].UID)
	}
	t.emit(Event{To: game.All, Type: "Aborted", Vals: [game.MaxVals]int64{idx}, UID: by, Options: opts})
}
