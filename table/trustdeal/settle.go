package trustdeal

import (
	"encoding/json"
	"fmt"
	"slices"

	"github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/match"
)

// Abort ends a hand whose wait is past its deadline at now: the seats
// whose pass or keys are missing forfeit what they have put in, those
// whose end-of-hand reveal is missing forfeit as cheats (the reveal is
// what shows a deal honest); every seat named voids the hand. The keys
// staged for a pending move are published (they open no card without the
// missing ones). ErrPhase before the deadline or once done.
func (s *Server) Abort(now int64) ([]int, error) {
	if s.phase == PhaseDone || s.phase == PhasePlay || now <= s.deadline {
		return nil, fmt.Errorf("%w: no wait past its deadline (phase %s, deadline %d, now %d)", ErrPhase, s.phase, s.deadline, now)
	}
	missing := s.Missing()
	reason := match.ForfeitDeadline
	if s.pending != nil {
		mv := *s.pending
		s.rec.Pending = &mv
		// The staged keys are published: the record then shows who had
		// sent its keys in time (they open no card without the rest).
		for seat := range s.cfg.Keys {
			for _, k := range s.staged[seat] {
				if err := s.tb.AcceptKey(k); err != nil {
					panic("trustdeal: a staged key the twin table took was refused: " + err.Error())
				}
				s.rec.Keys = append(s.rec.Keys, k)
			}
		}
	}
	if s.phase == PhaseReveal {
		reason = match.ForfeitCheat
		s.rec.Reveals = slices.Clone(s.reveals)
	}
	s.forfeit(reason, missing)
	return missing, nil
}

// abandon is Action.Abandon: the table's owner ends the hand in any phase
// but done. Nothing is revealed (the cards not shown stay closed, to the
// server too); the record says match.ForfeitAbandoned, naming no seat,
// and each seat gets the game's AbortPayoffs of the state reached (a
// move waiting for its cards is not applied). ErrPhase once done.
func (s *Server) abandon() error {
	if s.phase == PhaseDone {
		return fmt.Errorf("%w: the hand is over", ErrPhase)
	}
	s.rec.Pending, s.pending = nil, nil
	s.settle(&match.DealForfeit{Reason: match.ForfeitAbandoned, Seats: []int{}})
	return nil
}

// Missing returns the seats the current wait lacks, ascending.
func (s *Server) Missing() []int {
	var out []int
	for seat := range s.cfg.Keys {
		var lacks bool
		switch s.phase {
		case PhasePass:
			_, next := s.tb.Next()
			lacks = seat == next
		case PhaseDeal:
			lacks = slices.ContainsFunc(s.d.PrivateKeysDue(), func(x [2]int) bool { return x[1] == seat })
		case PhaseOpen:
			lacks = s.staged[seat] == nil
		case PhaseReveal:
			lacks = s.reveals[seat] == nil
		}
		if lacks {
			out = append(out, seat)
		}
	}
	return out
}

func (s *Server) forfeit(reason string, seats []int) {
	s.settle(&match.DealForfeit{Reason: reason, Seats: seats})
}

func (s *Server) settle(f *match.DealForfeit) {
	s.rec.Forfeit = f
	st, err := match.StakesAfter(s.m.State(), s.rec.Pending)
	if err != nil {
		panic("trustdeal: settling: " + err.Error())
	}
	pay, err := match.DealPayoffs(s.cfg.Def, s.m.Rules(), st, f)
	if err != nil {
		panic("trustdeal: settling: " + err.Error())
	}
	s.rec.Payoffs, s.phase = pay, PhaseDone
}

// Match returns the hand's game as the server runs it (every dealt card
// game.Hidden until shown). The caller must not apply moves to it.
func (s *Server) Match() *match.Match { return s.m }

// Events returns the game's events since the last call (a move's, once
// applied) and forgets them.
func (s *Server) Events() []game.Event {
	ev := s.events
	s.events = nil
	return ev
}

// Log returns every action that changed the hand, in order: with the
// config, what Restore needs (it holds the staged keys: the server's
// alone).
func (s *Server) Log() []Action { return slices.Clone(s.log) }

// Restore makes the hand again from its config and its Log, replaying
// every action. An error if one is refused otherwise than as logged.
func Restore(cfg Config, log []Action) (*Server, error) {
	s, err := NewServer(cfg)
	if err != nil {
		return nil, err
	}
	for i, a := range log {
		before := s.fingerprint()
		_ = s.Do(a)
		if s.fingerprint() == before {
			return nil, fmt.Errorf("trustdeal: restore: action %d changes nothing", i+1)
		}
	}
	s.events = nil
	return s, nil
}

// Record returns the hand's record (match.VerifyDeal checks it); its
// reveals and payoffs once done.
func (s *Server) Record() *match.RecordDeal {
	b, err := json.Marshal(&s.rec)
	if err != nil {
		panic("trustdeal: encoding the record: " + err.Error())
	}
	var r match.RecordDeal
	if err := json.Unmarshal(b, &r); err != nil {
		panic("trustdeal: decoding the record: " + err.Error())
	}
	return &r // a deep copy: the caller may change it
}
