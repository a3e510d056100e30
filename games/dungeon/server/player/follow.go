// Package player is the player's side of a trustless game, without I/O:
// a [Seat] holds the seat's hash chain and Ed25519 key, signs its actions,
// follows the game's public log with a [Follower] (a replica of the game
// rebuilt from the log alone, every action and reveal replayed through the
// engine and every event compared), and reveals a link only when the game
// it has checked is waiting for exactly that link. A client that talks to
// a server (Cloud Functions, or any transport) wraps a Seat: it stores the
// seat's secrets where they survive a restart, feeds the Follower the log
// as it arrives and sends what the Seat returns.
//
// docs/fairness.md ("The trustless mode") is the protocol.
package player

import (
	"bytes"
	"fmt"

	"github.com/fairboard/fairboard/games/dungeon/engine"
	"github.com/fairboard/fairboard/games/dungeon/server/session"
	"github.com/fairboard/fairboard/internal/checks"
)

// Divergence is what a [Follower] found wrong in a game's public log: the
// event seq and what the log holds against what the replay made. A client
// that gets one stops revealing, and shows it.
type Divergence struct {
	Seq  uint64
	What string
}

func (d *Divergence) Error() string {
	return fmt.Sprintf("the game diverges at event %d: %s", d.Seq, d.What)
}

// Follower rebuilds a trustless game from its public log alone. Every
// action comes with its record (ActionAccepted, ActionPending), every
// round's reveals with RoundRevealed, an abort with GameAborted: the
// follower replays each through the engine under the game's ruleset, as
// a server applies it (the signatures, the links against their
// predecessors, R_v, every draw), and requires the log's events to be
// exactly the replay's. So it knows, from nothing but public data, the
// transcript hash, the next index and the pending action a reveal must
// sign. Not safe for concurrent use.
type Follower struct {
	eng    *engine.Engine
	g      engine.Game
	seq    uint64         // the last event seq read
	held   []engine.Event // events read that wait for their action's record
	expect []engine.Event // events the replay made that the log has still to show
	out    []engine.Event
	err    error
}

// NewFollower returns a follower for games under the ruleset.
func NewFollower(rules *engine.Ruleset) *Follower {
	return &Follower{eng: engine.NewReference(rules)}
}

// Game returns the replica: the game as the log so far makes it (its
// Secret holds nothing but what the log published).
func (f *Follower) Game() *engine.Game { return &f.g }

// Seq returns the seq of the last event read.
func (f *Follower) Seq() uint64 { return f.seq }

// Err returns the divergence that stopped the follower, if any.
func (f *Follower) Err() error { return f.err }

// Follow reads the next events of the log, in seq order (any chunks: a
// round's events may arrive over several calls). Events already read are
// skipped. It returns a *Divergence at the first event that is not what
// the replay makes, and from then on the same error.
func (f *Follower) Follow(events []engine.Event) error {
	if f.err != nil {
		return f.err
	}
	for i := range events {
		e := &events[i]
		if e.Seq <= f.seq {
			continue
		}
		if e.Seq != f.seq+1 {
			return f.fail(e.Seq, fmt.Sprintf("the log skips from seq %d to %d", f.seq, e.Seq))
		}
		f.seq = e.Seq
		if err := f.read(e); err != nil {
			return err
		}
	}
	return nil
}

func (f *Follower) fail(seq uint64, what string) error {
	f.err = &Divergence{Seq: seq, What: what}
	return f.err
}

// read takes one event of the log.
func (f *Follower) read(e *engine.Event) error {
	if len(f.expect) > 0 {
		want := f.expect[0]
		f.expect = f.expect[1:]
		return f.same(&want, e)
	}
	switch e.Type {
	case engine.EvActionAccepted:
		if e.Trust == nil || e.Trust.Action == nil {
			return f.fail(e.Seq, "an ActionAccepted without its action")
		}
		a := *e.Trust.Action
		a.Signature = e.Trust.Signature
		ev, err := f.apply(e.Seq, &a)
		if err != nil {
			return err
		}
		held := f.held
		f.held = nil
		if len(ev) != len(held)+1 {
			return f.fail(e.Seq, fmt.Sprintf("%s by %s made %d events; the log shows %d", a.Kind, a.Actor, len(ev), len(held)+1))
		}
		for k := range held {
			if err := f.same(&ev[k], &held[k]); err != nil {
				return err
			}
		}
		return f.same(&ev[len(ev)-1], e)
	case engine.EvActionPending:
		if e.Trust == nil || e.Trust.Action == nil {
			return f.fail(e.Seq, "an ActionPending without its action")
		}
		if len(f.held) > 0 {
			return f.fail(f.held[0].Seq, "events no action made, before a pending action")
		}
		a := *e.Trust.Action
		a.Signature = e.Trust.Signature
		return f.applyExpect(e, &a)
	case engine.EvRoundRevealed:
		if e.Trust == nil || len(e.Trust.Reveals) == 0 {
			return f.fail(e.Seq, "a RoundRevealed without its reveals")
		}
		if len(f.held) > 0 {
			return f.fail(f.held[0].Seq, "events no action made, before a round")
		}
		pd := f.g.Public.Trustless.Pending
		if pd == nil {
			return f.fail(e.Seq, fmt.Sprintf("the links of round %d, but no action is pending (a missing pending record)", e.Trust.Index))
		}
		rs := e.Trust.Reveals
		for k := range rs[:len(rs)-1] {
			if _, err := f.apply(e.Seq, revealOf(&rs[k], pd)); err != nil {
				return err
			}
		}
		return f.applyExpect(e, revealOf(&rs[len(rs)-1], pd))
	case engine.EvGameAborted:
		if e.Trust == nil {
			return f.fail(e.Seq, "a GameAborted without its record")
		}
		if len(f.held) > 0 {
			return f.fail(f.held[0].Seq, "events no action made, before an abort")
		}
		return f.applyAbort(e)
	}
	f.held = append(f.held, *e)
	return nil
}

// revealOf rebuilds the reveal action of a published reveal.
func revealOf(r *engine.RevealRecord, pd *engine.Pending) *engine.Action {
	return &engine.Action{Kind: engine.ActReveal, Actor: r.UID, Seat: r.Seat, At: r.At, Index: pd.Index,
		Link: r.Link.String(), Digest: pd.Digest.String(), Transcript: pd.Transcript.String(), Signature: r.Signature}
}

// applyAbort replays the abort a GameAborted records.
func (f *Follower) applyAbort(e *engine.Event) error {
	rec := e.Trust
	pd := f.g.Public.Trustless.Pending
	var a engine.Action
	switch rec.Reason {
	case engine.AbortDeadline:
		if pd == nil {
			return f.fail(e.Seq, "an abort at the deadline with no action pending")
		}
		// Reveals that came before the deadline are published with the
		// abort; replay them first, then the abort after the deadline.
		for k := range rec.Reveals {
			if _, err := f.apply(e.Seq, revealOf(&rec.Reveals[k], pd)); err != nil {
				return err
			}
		}
		a = engine.Action{Kind: engine.ActAbort, Actor: rec.By, At: rec.At}
	case engine.AbortAbandoned:
		if pd == nil {
			return f.fail(e.Seq, "the owner's abort with no action pending")
		}
		for k := range rec.Reveals {
			if _, err := f.apply(e.Seq, revealOf(&rec.Reveals[k], pd)); err != nil {
				return err
			}
		}
		if rec.Action == nil {
			return f.fail(e.Seq, "the owner's abort without its abandon")
		}
		a = *rec.Action
		a.Signature = rec.Signature
	case engine.AbortChainExhausted:
		if rec.Action == nil {
			return f.fail(e.Seq, "a chainExhausted abort without the action that needed a link")
		}
		a = *rec.Action
		a.Signature = rec.Signature
	default:
		return f.fail(e.Seq, "an abort for an unknown reason "+rec.Reason)
	}
	return f.applyExpect(e, &a)
}

// Pending returns the record the checked game would hold pending if it
// applied a now (a seated player's signed action): nil for an action the
// game would apply at once, an error naming the refusal for one the rules
// refuse. The replica is left as it is.
func (f *Follower) Pending(a *engine.Action) (*engine.Pending, error) {
	if f.err != nil {
		return nil, f.err
	}
	cl := f.g.Clone()
	if t := cl.Public.Trustless; t == nil || t.Pending != nil {
		return nil, fmt.Errorf("player: %s cannot be made now: the checked game is not a trustless game waiting for an action", a.Kind)
	}
	s, err := session.StreamFor(cl, a)
	if err != nil {
		return nil, err
	}
	if _, err := f.eng.Dispatch(cl, a, s, nil); err != nil {
		return nil, err
	}
	return cl.Public.Trustless.Pending, nil
}

// applyExpect replays a, whose first event is e; the rest are expected.
func (f *Follower) applyExpect(e *engine.Event, a *engine.Action) error {
	ev, err := f.apply(e.Seq, a)
	if err != nil {
		return err
	}
	if len(ev) == 0 {
		return f.fail(e.Seq, fmt.Sprintf("%s by %s made no event; the log shows %s", a.Kind, a.Actor, e.Type))
	}
	f.expect = append(f.expect[:0], ev[1:]...)
	return f.same(&ev[0], e)
}

// apply replays one action on the replica, with the stream a server uses.
func (f *Follower) apply(seq uint64, a *engine.Action) ([]engine.Event, error) {
	g := &f.g
	var err error
	if a.Kind != engine.ActCreate {
		s, serr := session.StreamFor(g, a)
		if serr != nil {
			return nil, f.fail(seq, "no stream for "+string(a.Kind)+": "+serr.Error())
		}
		f.out, err = f.eng.Dispatch(g, a, s, f.out[:0])
	} else {
		f.out, err = f.eng.Dispatch(g, a, nil, f.out[:0])
	}
	if err != nil {
		return nil, f.fail(seq, fmt.Sprintf("%s by %s is refused by the rules: %v", a.Kind, a.Actor, err))
	}
	return f.out, nil
}

// same requires the log's event got to be the replay's want, byte for byte.
func (f *Follower) same(want, got *engine.Event) error {
	w, g := want.AppendJSON(nil), got.AppendJSON(nil)
	if !bytes.Equal(w, g) && checks.On(checks.ReplaySame) {
		return f.fail(got.Seq, fmt.Sprintf("the log shows %s; the replay makes %s", g, w))
	}
	return nil
}
