package service

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/fairboard/fairboard/audit"
	"github.com/fairboard/fairboard/games/dungeon/engine"
	"github.com/fairboard/fairboard/games/dungeon/server/store"
	"github.com/fairboard/fairboard/internal/checks"
	"github.com/fairboard/fairboard/rng"
)

// The server's side of the trustless protocol and of deadlines
// (docs/functions.md, "Trustless games" and "Deadlines"; docs/store.md,
// "Reveals"):
//
//   - A reveal is checked by the engine on a copy of the game (a seat
//     staged already is already_revealed) and staged: its public marker,
//     the reveal itself (which holds the link, never readable by clients)
//     and its record, written without the game document, so a round's
//     reveals, which arrive together, do not contend for it.
//   - One reveal of the round, its closer (the highest seat not revealed
//     into the game: awaits), is not staged at once when others are
//     missing: the store waits, reading only, until they are staged and
//     asks again, and the closer then applies the round in its own
//     commit, conditional on the game document: every staged reveal in
//     the order they were accepted, itself with the R_v stream, and the
//     pending action. So reveals sent together close their round in one
//     commit each, none waiting for another but the closer.
//   - After staging (a closer whose wait ended, or a reveal that came
//     after it), the reveal reads the round's staged reveals again; if
//     every seated seat has staged, the one staged last closes the round
//     in a commit of its own. Of two reveals that both see the round
//     complete, one closes it and the other's retry finds it closed.
//   - Every action on a game applies the staged reveals first (a round
//     complete but not closed closes then), and every call on a game first
//     settles what is due: a round past its deadline and grace is aborted
//     (the reveals that came are published with the abort; nothing is
//     re-rolled), a fair game past the fair deadline is abandoned by the
//     server (its seeds revealed). Sweep does the same for the games whose
//     time has come, found by one indexed query.

// errSettleFirst: the game is due (a round past its deadline and grace, a
// fair game past its deadline); the service settles it before the call
// runs again. Nothing was written.
var errSettleFirst = errors.New("service: the game is due; settle it first")

// errNothingToSettle: settle or a round's close found nothing to do (the
// round closed, or is not complete, or the game is not due). Nothing was
// written.
var errNothingToSettle = errors.New("service: nothing to settle")

// due reports whether the server owes g an action of its own at now (unix
// ms): a trustless round whose deadline and grace have passed, or a fair
// game unfinished past the fair deadline.
func (s *Service) due(g *engine.Game, now int64) bool {
	p := &g.Public
	if p.Phase == engine.PhaseFinished || p.Phase == engine.PhaseNone {
		return false
	}
	if p.RNG.Mode == rng.ModeTrustless {
		return g.AbortDue(now - s.cfg.AbortGrace.Milliseconds())
	}
	return p.RNG.Mode == rng.ModeFair && s.cfg.FairDeadline > 0 && now > p.CreatedAt+s.cfg.FairDeadline.Milliseconds()
}

// dueAt is when the server will owe p an action of its own (unix ms; 0
// for never): what the store keeps beside the game (store.Outcome.DueAt)
// for Sweep to find it. A game is due from the millisecond after.
func (s *Service) dueAt(p *engine.Public) int64 {
	switch {
	case p.Phase == engine.PhaseFinished || p.Phase == engine.PhaseNone:
		return 0
	case p.RNG.Mode == rng.ModeTrustless:
		if t := p.Trustless; t != nil && t.Pending != nil {
			return t.Pending.Deadline + s.cfg.AbortGrace.Milliseconds()
		}
	case p.RNG.Mode == rng.ModeFair && s.cfg.FairDeadline > 0:
		return p.CreatedAt + s.cfg.FairDeadline.Milliseconds()
	}
	return 0
}

// applyStaged applies the staged reveals of g's open round to g, in the
// order given (the order they were accepted), each with the stream
// session.StreamFor makes (the one that completes the round: its R_v).
// It returns their events and the actions to list as applied. The engine
// checked each when it was staged; a refusal now means the store holds a
// reveal the game cannot take, which is reported (never skipped: the
// round would then close without a link, or with another order).
func (s *Service) applyStaged(g *engine.Game, staged []engine.Action, col *collector) ([]engine.Event, []engine.Action, error) {
	var ev []engine.Event
	for i := range staged {
		e, err := s.reduce(g, staged[i], col)
		if err != nil {
			return nil, nil, fmt.Errorf("service: staged reveal of seat %d for index %d (%s) refused: %w", staged[i].Seat, staged[i].Index, staged[i].ID, err)
		}
		ev = append(ev, e...)
	}
	return ev, staged, nil
}

// Settled says what settle applied to a game.
type Settled string

// What settle can do.
const (
	// SettledClosed: a round every seat had revealed was closed.
	SettledClosed Settled = "closed"
	// SettledAborted: a round past its deadline and grace was aborted.
	SettledAborted Settled = "aborted"
	// SettledAbandoned: a fair game past the fair deadline was abandoned.
	SettledAbandoned Settled = "abandoned"
)

// settle applies to the game what the server owes it now, in one commit:
// the reveals staged for its open round (which close it if every seat has
// revealed), then, if the round is still open and past its deadline and
// grace, the abort (engine.ServerActor; the reveals that came are
// published with it), or, for a fair game unfinished past the fair
// deadline, the server's abandon, which reveals its seeds. It returns
// errNothingToSettle (nothing written) if there is nothing to do.
func (s *Service) settle(ctx context.Context, gameID string) (Settled, error) {
	var did Settled
	m := s.settler(gameID, &did)
	cctx, cancel := context.WithTimeout(ctx, s.cfg.Timeout)
	defer cancel()
	_, err := s.cfg.Store.Apply(cctx, store.Request{GameID: gameID, Actor: engine.ServerActor, Kind: engine.ActAbort}, m)
	if err != nil {
		return "", err
	}
	return did, nil
}

// settler is settle's Mutator for the game gameID: it sets *did to what
// it applied (nothing: errNothingToSettle).
func (s *Service) settler(gameID string, did *Settled) store.Mutator {
	return func(g *engine.Game, staged []engine.Action) (store.Outcome, error) {
		*did = ""
		p := &g.Public
		if p.Phase == engine.PhaseNone {
			return store.Outcome{}, errNothingToSettle
		}
		now := s.cfg.Now().UnixMilli()
		var col collector
		var ev []engine.Event
		var run []engine.Action
		round, open := store.OpenRound(p)
		if open && revealed(p)+len(staged) == len(p.Trustless.Seats) {
			var err error
			if ev, run, err = s.applyStaged(g, staged, &col); err != nil {
				return store.Outcome{}, err
			}
			*did = SettledClosed
		}
		if s.due(g, now) {
			var a engine.Action
			if _, still := store.OpenRound(p); still {
				// The reveals that came are applied first, so that the
				// abort publishes them (and names only the seats missing).
				e, r, err := s.applyStaged(g, staged, &col)
				if err != nil {
					return store.Outcome{}, err
				}
				ev, run = append(ev, e...), append(run, r...)
				a, *did = engine.Action{Kind: engine.ActAbort, Actor: engine.ServerActor, At: now}, SettledAborted
			} else {
				a, *did = engine.Action{Kind: engine.ActAbandon, Actor: engine.ServerActor, At: now}, SettledAbandoned
			}
			e, err := s.reduce(g, a, &col)
			if err != nil {
				return store.Outcome{}, fmt.Errorf("service: the server's %s of game %s (round %d) refused: %w", a.Kind, gameID, round, err)
			}
			ev, run = append(ev, e...), append(run, a)
		}
		if *did == "" {
			return store.Outcome{}, errNothingToSettle
		}
		return store.Outcome{Events: ev, Audit: audit.Stamp(col.entries, now), Applied: run, DueAt: s.dueAt(p)}, nil
	}
}

// revealed is how many seats of p's open round have revealed into the
// game itself (Public.trustless.pending.reveals), apart from the staged
// reveals the store holds.
func revealed(p *engine.Public) int {
	if t := p.Trustless; t != nil && t.Pending != nil {
		return len(t.Pending.Reveals)
	}
	return 0
}

// Reveal is a seat's reveal of its chain link for the pending index of a
// trustless game (engine.ActReveal: Seat, Index, Link, Digest,
// Transcript, Signature), sent by a.Actor with the client's action id
// a.ID (required). It is checked by the engine on a copy of the game (a
// seat whose reveal is staged already is already_revealed) and staged
// without writing the game document; then,
// if every seated seat has staged, the round is closed (see the top of
// this file). The answer is the staged reveal's: Staged, the version it
// was staged against, no events (the round's are in the log once it
// closes). Errors: as [Service.Do].
func (s *Service) Reveal(ctx context.Context, gameID string, a engine.Action) (*Result, error) {
	a.Kind = engine.ActReveal
	if a.ID == "" {
		return nil, &FieldError{"actionId", "is required"}
	}
	if err := checkAction(s.cfg.Engine.Rules(), gameID, &a); err != nil {
		return nil, err
	}
	a.At = s.cfg.Now().UnixMilli()
	req := request(gameID, a)
	req.Staging = true
	ea := a
	ea.ID = EngineActionID(a.Actor, a.ID)
	seats := 0
	req.Round = a.Index
	m := func(g *engine.Game, staged []engine.Action) (store.Outcome, error) {
		if !visible(&g.Public, a.Actor) {
			return store.Outcome{}, notFound(gameID)
		}
		now := s.cfg.Now().UnixMilli()
		if s.due(g, now) {
			return store.Outcome{}, errSettleFirst
		}
		// The engine's checks, on a copy of the game as stored (its
		// pending round shows no reveal: they are staged). A seat staged
		// already is refused here, as the engine would refuse it with the
		// staged reveals applied; the others were checked when they were
		// staged, and are checked again, once, by the commit that closes
		// the round (all but their signatures, which kept their check's
		// engine.RevealFingerprint).
		var err error
		for i := range staged {
			if staged[i].Seat == ea.Seat && staged[i].Actor == ea.Actor && checks.On(checks.StagedOnce) {
				err = engine.Reject(engine.CodeAlreadyRevealed, fmt.Sprintf("seat %d has already revealed index %d", ea.Seat, staged[i].Index))
			}
		}
		last := false
		if t := g.Public.Trustless; err == nil && t != nil && t.Pending != nil {
			last = revealed(&g.Public)+len(staged)+1 == len(t.Seats)
		}
		if err == nil && last {
			// Every other seat has staged: this reveal completes the round,
			// and applies it in its own commit (the staged reveals in the
			// order they were accepted, then this one with the round's R_v
			// stream, then the pending action), conditional on the game
			// document like any action; it is not staged itself.
			var col collector
			ev, run, aerr := s.applyStaged(g, staged, &col)
			if aerr != nil {
				return store.Outcome{}, aerr
			}
			own, err := s.reduce(g, ea, &col)
			if err == nil {
				return store.Outcome{Events: append(ev, own...), Audit: audit.Stamp(col.entries, a.At),
					Applied: append(run, ea), DueAt: s.dueAt(&g.Public)}, nil
			}
			var rej *engine.Error
			if errors.As(err, &rej) && !member(&g.Public, a.Actor) {
				return store.Outcome{}, &store.Unrecorded{Rejection: rej}
			}
			return store.Outcome{}, err
		}
		if err == nil {
			_, err = s.reduce(g.Clone(), ea, nil)
			if err == nil {
				// Checked: kept with the staged reveal (and for this
				// mutator's next call, after a closer's wait), so that the
				// close does not verify its signature again.
				ea.Verified = engine.RevealFingerprint(&g.Public, &ea)
			}
		}
		var rej *engine.Error
		if errors.As(err, &rej) && !member(&g.Public, a.Actor) {
			return store.Outcome{}, &store.Unrecorded{Rejection: rej}
		}
		if err != nil {
			return store.Outcome{}, err
		}
		pd := g.Public.Trustless.Pending
		if now > pd.Deadline+s.cfg.AbortGrace.Milliseconds()/2 {
			// Accepted in time, but its commit would be sent too late: an
			// abort may be under way and must not miss it. (Only a retry
			// after a lost answer gets here.)
			return store.Outcome{}, engine.Reject(engine.CodeDeadlinePassed,
				fmt.Sprintf("the reveal for index %d could not be stored before the round's deadline %d passed", pd.Index, pd.Deadline))
		}
		seats = len(g.Public.Trustless.Seats) - revealed(&g.Public) // the staged reveals that complete the round
		st := ea
		aw, waits := awaits(&g.Public, staged, ea.Seat)
		return store.Outcome{Stage: &st, Await: aw, CloserWaits: waits}, nil
	}
	// Once staged, the store reads the round's staged reveals again and,
	// if they complete it, closes it at once on the game it read
	// (settle's Mutator; of several reveals that see it complete, one
	// commit lands).
	var did Settled
	req.Close = s.settler(gameID, &did)
	rec, err := s.apply(ctx, req, m)
	if err != nil {
		return nil, err
	}
	rerr := rec.Err()
	if !rec.Staged && rerr == nil {
		// It completed the round: the answer is the round's commit.
		return &Result{GameID: gameID, ActionID: a.ID, Version: rec.Version, Events: rec.Events, Replayed: rec.Replayed, Ack: s.ack(gameID, a.Actor, &a)}, nil
	}
	if rec.CloseErr != nil {
		s.cfg.Logger.Warn("closing a complete round after a staged reveal failed; trying again", "game", gameID, "index", a.Index, "err", rec.CloseErr)
	}
	if rec.CloseErr != nil || rec.Replayed || errors.Is(rerr, engine.CodeAlreadyRevealed) {
		// This reveal, or another's, may have completed the round, and no
		// close followed its staging here: a retried reveal whose first
		// answer was lost (the process that staged it may have stopped
		// before it closed the round), or a close that failed.
		if err := s.closeIfComplete(ctx, gameID, a.Index, seats); err != nil {
			s.cfg.Logger.Warn("closing a complete round failed; the next call on the game or the sweep closes it",
				"game", gameID, "index", a.Index, "err", err)
		}
	}
	if rerr != nil {
		return nil, rerr
	}
	return &Result{GameID: gameID, ActionID: a.ID, Version: rec.Version, Events: []engine.Event{}, Replayed: rec.Replayed, Staged: true,
		Ack: s.ack(gameID, a.Actor, &a)}, nil
}

// awaits is what the reveal of seat, staged beside staged, would wait
// for to complete the round in its own commit (store.Outcome.Await): the
// seats neither revealed into the game nor staged, if seat is the round's
// closer, the highest seat that has not revealed into the game; nothing
// for any other seat. Every reveal of a round reads the same game (frozen
// while the action is pending), so all name the same closer: it alone
// waits, the others stage at once, and it applies the round in its one
// commit once they are staged (a seat that comes later than the store
// waits finds the closer staged, and closes the round itself).
func awaits(p *engine.Public, staged []engine.Action, seat int) ([]int, bool) {
	t := p.Trustless
	if t == nil || t.Pending == nil {
		return nil, false
	}
	in := func(s int) bool {
		for _, m := range t.Pending.Reveals {
			if m.Seat == s {
				return true
			}
		}
		return false
	}
	closer := -1
	for _, ts := range t.Seats {
		if !in(ts.Seat) {
			closer = max(closer, ts.Seat)
		}
	}
	if closer != seat {
		return nil, closer >= 0 && !slices.ContainsFunc(staged, func(a engine.Action) bool { return a.Seat == closer })
	}
	var out []int
	for _, ts := range t.Seats {
		if ts.Seat == seat || in(ts.Seat) || slices.ContainsFunc(staged, func(a engine.Action) bool { return a.Seat == ts.Seat }) {
			continue
		}
		out = append(out, ts.Seat)
	}
	return out, false
}

// closeIfComplete reads the round's staged reveals and, if there are
// seats of them (the reveals the round needs beyond those in the game
// itself; 0: not known, try anyway), closes the round with settle.
func (s *Service) closeIfComplete(ctx context.Context, gameID string, index uint32, seats int) error {
	if seats > 0 {
		cctx, cancel := context.WithTimeout(ctx, s.cfg.Timeout)
		staged, err := s.cfg.Store.Staged(cctx, gameID, index)
		cancel()
		if err != nil {
			return err
		}
		if len(staged) < seats {
			return nil
		}
	}
	if _, err := s.settle(ctx, gameID); err != nil && !errors.Is(err, errNothingToSettle) {
		return err
	}
	return nil
}
