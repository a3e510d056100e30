package engine

import (
	"encoding/hex"
	"fmt"
	"strconv"

	"github.com/fairboard/fairboard/internal/checks"
	"github.com/fairboard/fairboard/rng"
	"github.com/fairboard/fairboard/rng/trustless"
)

// A trustless game's dispatch: signatures, the dry run, reveal rounds and aborts (docs/fairness.md, "Trustless mode").

// trustlessDispatch is Dispatch's part for a trustless game's actions but
// create (whose handler runs as in every mode, then [Engine.accepted]).
// It may replace *g with a copy the action was applied to, so that a
// rejection leaves g exactly as it was; c is bound to g.
func (e *Engine) trustlessDispatch(c *Ctx, g *Game, a *Action, s *rng.Stream, h Handler) error {
	p := c.P
	t := p.Trustless
	if t == nil {
		return Reject(CodeInvalidAction, "the trustless game has no protocol state")
	}
	switch a.Kind {
	case ActReveal:
		return e.reveal(c, g, a, s)
	case ActAbort:
		if t.Pending == nil {
			return Reject(CodeWrongStep, "no action is pending: there is no round to abort")
		}
		if a.At <= t.Pending.Deadline {
			return Reject(CodeDeadlineNotPassed, fmt.Sprintf("the round of index %d may be aborted only after its deadline %d (the action's time is %d)",
				t.Pending.Index, t.Pending.Deadline, a.At))
		}
		return e.abort(c, g, a, AbortDeadline)
	}
	ownerAbort := t.Pending != nil && a.Kind == ActAbandon && a.Actor == p.Owner
	if t.Pending != nil && !ownerAbort {
		return Reject(CodePending, fmt.Sprintf("%s by %s (index %d) is pending its reveal round: until it closes only reveals, the deadline's abort and the owner's abandon are accepted",
			t.Pending.Action.Kind, t.Pending.Action.Actor, t.Pending.Index))
	}
	if a.Version == 0 {
		return Reject(CodeInvalidAction, "an action of a trustless game names the version it was made against (it is part of what the player signs)")
	}
	sig, err := e.checkSignature(g, a)
	if err != nil {
		return err
	}
	if ownerAbort {
		return e.abort(c, g, a, AbortAbandoned)
	}
	if !s.Refuses() {
		return Reject(CodeBadStream, "a trustless game's action is dry-run with a stream that refuses its first word (session.StreamFor): only a round that closes gets randomness")
	}
	cl, ev, draws, err := e.dryRun(g, a, s, h, c.Events)
	if err != nil {
		return err
	}
	if !draws {
		*g = *cl
		c.Events = ev
		e.accepted(c, a, sig)
		return nil
	}
	if t.NextIndex > t.ChainLength {
		return e.abort(c, g, a, AbortChainExhausted)
	}
	digest, _ := ActionDigest(p.GameID, a) // canonical: checked by checkSignature
	t.Transcript = trustless.TranscriptAction((*[32]byte)(&t.Transcript), (*[32]byte)(&digest), sig)
	pd := &Pending{Index: t.NextIndex, Action: *a.Recorded(), Digest: digest, Signature: a.Signature,
		Transcript: t.Transcript, Deadline: a.At + t.DeadlineMs}
	t.Pending = pd
	c.Add(EvActionPending).Trust = &TrustRecord{Index: pd.Index, Action: a.Recorded(), Digest: digest,
		Signature: a.Signature, Deadline: pd.Deadline, Transcript: pd.Transcript}
	return nil
}

// accepted records an action of a trustless game applied at once: its
// transcript record and the ActionAccepted event that closes its events.
func (e *Engine) accepted(c *Ctx, a *Action, sig []byte) {
	t := c.P.Trustless
	digest, _ := ActionDigest(c.P.GameID, a)
	t.Transcript = trustless.TranscriptAction((*[32]byte)(&t.Transcript), (*[32]byte)(&digest), sig)
	c.Add(EvActionAccepted).Trust = &TrustRecord{Action: a.Recorded(), Digest: digest, Signature: a.Signature, Transcript: t.Transcript}
}

// checkSignature checks the signature of an action of a trustless game
// and returns it: a seated actor's (or a join's, by the key it brings)
// must verify over rng/trustless.ActionMessage; an actor without a seat
// signs nothing.
func (e *Engine) checkSignature(g *Game, a *Action) ([]byte, error) {
	p := &g.Public
	var key []byte
	who := ""
	if a.Kind == ActJoin {
		k, err := ParseHash32(a.PublicKey, "a trustless join's publicKey (the seat's Ed25519 key)")
		if err != nil {
			return nil, Reject(CodeInvalidAction, err.Error())
		}
		key, who = k[:], "the key the join brings"
	} else if ts, _ := p.Trustless.Seat(a.Actor); ts != nil {
		key, who = ts.PublicKey[:], "seat "+strconv.Itoa(ts.Seat)+"'s key"
	}
	if key == nil {
		if a.Signature != "" {
			return nil, Reject(CodeInvalidAction, a.Actor+" has no seat and signs nothing")
		}
		return nil, nil
	}
	sig, err := hex.DecodeString(a.Signature)
	if err != nil || len(sig) != trustless.SignatureSize {
		return nil, Reject(CodeInvalidAction, "a seated player's action carries its Ed25519 signature: 128 hex digits")
	}
	msg, err := ActionMessage(p.GameID, a)
	if err != nil {
		return nil, Reject(CodeInvalidAction, err.Error())
	}
	if !trustless.Verify(key, msg, sig) && checks.On(checks.ActionSignature) {
		return nil, Reject(CodeBadSignature, fmt.Sprintf("the signature of %s by %s (version %d) does not verify under %s", a.Kind, a.Actor, a.Version, who))
	}
	return sig, nil
}

// dryRun applies a to a copy of g with the refusing stream s, to learn
// whether it draws: draws reports that the handler asked for a word (the
// copy is then dropped); otherwise cl is the game the action made and ev
// the events, or err the handler's rejection.
func (e *Engine) dryRun(g *Game, a *Action, s *rng.Stream, h Handler, out []Event) (cl *Game, ev []Event, draws bool, err error) {
	cl = g.Clone()
	dc := &Ctx{G: cl, P: &cl.Public, Rules: e.rules, RNG: s, Action: a, Events: out}
	defer func() {
		if r := recover(); r != nil {
			if r != rng.Refusal {
				panic(r)
			}
			cl, ev, draws, err = nil, out, true, nil
		}
	}()
	err = h(dc, a)
	return cl, dc.Events, false, err
}

// reveal is a seat's reveal of its link for the pending index. It is held
// in Secret.Links until the last seat's, which closes the round: the links
// are published at once (RoundRevealed), and the pending action is applied
// with the stream s, which must be ChaCha20 keyed by R_v.
func (e *Engine) reveal(c *Ctx, g *Game, a *Action, s *rng.Stream) error {
	p := c.P
	t := p.Trustless
	pd := t.Pending
	if pd == nil {
		return Reject(CodeWrongIndex, fmt.Sprintf("no action is pending: nothing to reveal (the next action that draws will use index %d)", t.NextIndex))
	}
	ts, i := t.Seat(a.Actor)
	if ts == nil {
		return Reject(CodeUnknownPlayer, a.Actor+" has no seat in this game")
	}
	switch {
	case a.Seat != ts.Seat && checks.On(checks.RevealSeat):
		return Reject(CodeWrongSeat, fmt.Sprintf("%s holds seat %d and reveals for it only, not seat %d", a.Actor, ts.Seat, a.Seat))
	case a.Index != pd.Index && checks.On(checks.RevealIndex):
		return Reject(CodeWrongIndex, fmt.Sprintf("a reveal for index %d; the pending action uses index %d (a client reveals only its last index + 1)", a.Index, pd.Index))
	case a.At > pd.Deadline && checks.On(checks.RevealDeadline):
		return Reject(CodeDeadlinePassed, fmt.Sprintf("the round of index %d closed for reveals at %d; this one came at %d", pd.Index, pd.Deadline, a.At))
	}
	for _, m := range pd.Reveals {
		if m.Seat == ts.Seat && checks.On(checks.RevealOnce) {
			return Reject(CodeAlreadyRevealed, fmt.Sprintf("seat %d has already revealed index %d", ts.Seat, pd.Index))
		}
	}
	digest, err := ParseHash32(a.Digest, "a reveal's digest")
	if err != nil {
		return Reject(CodeInvalidAction, err.Error())
	}
	tr, err := ParseHash32(a.Transcript, "a reveal's transcript")
	if err != nil {
		return Reject(CodeInvalidAction, err.Error())
	}
	if digest != pd.Digest && checks.On(checks.RevealDigest) {
		return Reject(CodeWrongDigest, "the reveal signs action digest "+digest.String()+"; the pending action's is "+pd.Digest.String())
	}
	if tr != pd.Transcript && checks.On(checks.RevealDigest) {
		return Reject(CodeWrongDigest, "the reveal signs transcript "+tr.String()+"; the game's after the pending action is "+pd.Transcript.String())
	}
	sig, err := hex.DecodeString(a.Signature)
	if err != nil || len(sig) != trustless.SignatureSize {
		return Reject(CodeInvalidAction, "a reveal carries its Ed25519 signature: 128 hex digits")
	}
	msg := trustless.RevealMessage(p.GameID, pd.Index, (*[32]byte)(&digest), (*[32]byte)(&tr))
	verified := a.Verified != "" && a.Verified == revealFingerprint(ts.PublicKey[:], msg, sig)
	if !verified && !trustless.Verify(ts.PublicKey[:], msg, sig) && checks.On(checks.RevealSignature) {
		return Reject(CodeBadSignature, fmt.Sprintf("the reveal's signature does not verify under seat %d's key", ts.Seat))
	}
	link, err := ParseHash32(a.Link, "a reveal's link")
	if err != nil {
		return Reject(CodeInvalidAction, err.Error())
	}
	if !trustless.CheckLink(p.GameID, uint32(ts.Seat), pd.Index, (*[32]byte)(&link), (*[32]byte)(&ts.Link)) && checks.On(checks.RevealLink) {
		return Reject(CodeWrongLink, fmt.Sprintf("seat %d's link for index %d does not hash to its previous link %s", ts.Seat, pd.Index, ts.Link))
	}
	mark := RevealMark{UID: ts.UID, Seat: ts.Seat, At: a.At, Signature: a.Signature}
	if len(pd.Reveals)+1 < len(t.Seats) {
		pd.Reveals = append(pd.Reveals, mark)
		g.Secret.Links = append(g.Secret.Links, RoundLink{Seat: ts.Seat, Link: link})
		return nil
	}
	return e.closeRound(c, g, s, mark, link, i)
}

// closeRound applies the pending action once the last reveal (mark, link,
// of the seat at index last of the seats) has come: on a copy of g, so
// that a failure leaves g as it was.
func (e *Engine) closeRound(c *Ctx, g *Game, s *rng.Stream, mark RevealMark, link Hash32, last int) error {
	t := c.P.Trustless
	pd := t.Pending
	links := make([][32]byte, len(t.Seats))
	found := make([]bool, len(t.Seats))
	reveals := make([]RevealRecord, 0, len(t.Seats))
	for k, m := range pd.Reveals {
		_, j := t.Seat(m.UID)
		if j < 0 || k >= len(g.Secret.Links) || g.Secret.Links[k].Seat != m.Seat {
			return Reject(CodeInvalidAction, "the pending round's secret links do not match its reveals")
		}
		links[j], found[j] = g.Secret.Links[k].Link, true
		reveals = append(reveals, RevealRecord{UID: m.UID, Seat: m.Seat, At: m.At, Link: g.Secret.Links[k].Link, Signature: m.Signature})
	}
	links[last], found[last] = link, true
	reveals = append(reveals, RevealRecord{UID: mark.UID, Seat: mark.Seat, At: mark.At, Link: link, Signature: mark.Signature})
	for j := range found {
		if !found[j] {
			return Reject(CodeInvalidAction, "the pending round is missing seat "+strconv.Itoa(t.Seats[j].Seat)+"'s link")
		}
	}
	r := trustless.Randomness(c.P.GameID, pd.Index, (*[32]byte)(&pd.Digest), links)
	if s == nil || s.Mode() != rng.ModeTrustless || s.Refuses() || s.Seed() != hex.EncodeToString(r[:]) {
		return Reject(CodeBadStream, "the round's last reveal is applied with ChaCha20 keyed by its R_v (session.StreamFor)")
	}
	if st, err := s.State(); err != nil || st != "chacha20:0" {
		return Reject(CodeBadStream, "the round's stream has been read already")
	}
	h := e.handler(pd.Action.Kind)
	if h == nil {
		return Reject(CodeInvalidAction, "no handler for the pending "+string(pd.Action.Kind))
	}
	cl := g.Clone()
	ct := cl.Public.Trustless
	pa := pd.Action
	cc := &Ctx{G: cl, P: &cl.Public, Rules: e.rules, RNG: s, Action: &pa, Events: c.Events}
	ct.Transcript = trustless.TranscriptRound((*[32]byte)(&pd.Transcript), pd.Index, links)
	for j := range ct.Seats {
		ct.Seats[j].Link = links[j]
	}
	ct.NextIndex = pd.Index + 1
	ct.Pending, cl.Secret.Links = nil, nil
	cc.Add(EvRoundRevealed).Trust = &TrustRecord{Index: pd.Index, Digest: pd.Digest, Reveals: reveals, Transcript: ct.Transcript}
	if err := h(cc, &pa); err != nil {
		return err
	}
	*g = *cl
	c.Events = cc.Events
	return nil
}

// abort ends a trustless game as aborted (GameAborted, then the table's
// abort handler: GameFinished outcome "aborted" and the reveal): at the
// deadline, by the owner's abandon during a round, or for an action that
// needs an index past the chains. Nothing is re-rolled: the randomness of
// a round with a link missing is never derived.
func (e *Engine) abort(c *Ctx, g *Game, a *Action, reason string) error {
	h := e.handler(ActAbort)
	if h == nil {
		return Reject(CodeInvalidAction, "the handler table has no abort")
	}
	t := c.P.Trustless
	rec := &TrustRecord{Reason: reason, By: a.Actor, At: a.At}
	if a.Kind != ActAbort {
		// the owner's abandon, or the action that needed a link past the
		// chains: recorded with its signature
		rec.Action, rec.Signature = a.Recorded(), a.Signature
	}
	if pd := t.Pending; pd != nil {
		rec.Index, rec.Digest = pd.Index, pd.Digest
		revealed := map[int]bool{}
		for k, m := range pd.Reveals {
			revealed[m.Seat] = true
			r := RevealRecord{UID: m.UID, Seat: m.Seat, At: m.At, Signature: m.Signature}
			if k < len(g.Secret.Links) {
				r.Link = g.Secret.Links[k].Link
			}
			rec.Reveals = append(rec.Reveals, r)
		}
		for _, ts := range t.Seats {
			if !revealed[ts.Seat] {
				rec.Missing = append(rec.Missing, ts.UID)
			}
		}
	} else {
		rec.Index = t.NextIndex
	}
	t.Pending, g.Secret.Links = nil, nil
	c.Add(EvGameAborted).Trust = rec
	return h(c, a)
}
