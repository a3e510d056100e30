package trustseat

import (
	"fmt"
	"slices"

	"github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/table"
	"github.com/fairboard/fairboard/table/trustdeal"
)

// Server is how the bots reach a trustless table: its store's Do and
// View for one game id, over any transport (table.Memory, the
// functions).
type Server interface {
	Do(a table.Action) (*table.Result, error)
	View(uid string) (*table.View, error)
}

// Choose picks seat's move from its view (one of v.Legal).
type Choose func(v *table.View) game.Move

// Play drives a started trustless table to its end with one Seat per
// seat: the awaited seat moves (with its own reveal when its move draws),
// every other seat reveals a pending round; stop, when not nil, is asked
// before each step and ends the play early when it returns true. It
// returns the table's last public view, or the first refusal or failed
// check, named, after at most maxSteps actions.
func Play(srv Server, seats []*Seat, choose Choose, stop func(*table.View) bool, maxSteps int) (*table.View, error) {
	for step := 0; step < maxSteps; step++ {
		pub, err := srv.View("")
		if err != nil {
			return nil, err
		}
		if pub.Phase == table.PhaseFinished || stop != nil && stop(pub) {
			return pub, nil
		}
		id := fmt.Sprintf("a%d", step)
		if dv := pub.Trustless.Deal; dv != nil && dv.Phase != trustdeal.PhasePlay {
			// At the deal, the seat to move sends its keys with its
			// move once no other seat owes any.
			skip := -1
			if dv.Phase == trustdeal.PhaseDeal {
				skip = pub.ToMove
			}
			acted, err := dealStep(srv, seats, id, skip)
			if err != nil {
				return nil, err
			}
			if acted || dv.Phase != trustdeal.PhaseDeal {
				if !acted {
					return nil, fmt.Errorf("trustseat: no seat has a deal action")
				}
				continue
			}
		}
		if p := pub.Trustless.Pending; p != nil {
			s := nextRevealer(seats, p)
			v, err := srv.View(s.uid)
			if err != nil {
				return nil, err
			}
			a, err := s.Reveal(id, v)
			if err != nil {
				return nil, err
			}
			if _, err := srv.Do(a); err != nil {
				return nil, fmt.Errorf("seat %d's reveal of round %d: %w", s.seat, p.Index, err)
			}
			continue
		}
		s := seats[pub.ToMove]
		v, err := srv.View(s.uid)
		if err != nil {
			return nil, err
		}
		a, err := s.Move(id, v, choose(v))
		if err != nil {
			return nil, err
		}
		if _, err := srv.Do(a); err != nil {
			return nil, fmt.Errorf("seat %d's move: %w", s.seat, err)
		}
	}
	return nil, fmt.Errorf("trustseat: the game did not end in %d actions", maxSteps)
}

// nextRevealer is the first seat that has not revealed round p.
func nextRevealer(seats []*Seat, p *table.PendingRound) *Seat {
	for _, s := range seats {
		if !slices.ContainsFunc(p.Reveals, func(r table.RevealMarker) bool { return r.Seat == s.seat }) {
			return s
		}
	}
	return seats[0] // every seat revealed: the round closed before the view
}

// dealStep sends the first deal action a seat but skip has for its own
// view, and reports whether one did.
func dealStep(srv Server, seats []*Seat, id string, skip int) (bool, error) {
	for _, s := range seats {
		if s.seat == skip {
			continue
		}
		v, err := srv.View(s.uid)
		if err != nil {
			return false, err
		}
		a, err := s.DealTo(id, v)
		if err != nil {
			return false, fmt.Errorf("seat %d: %w", s.seat, err)
		}
		if a == nil {
			continue
		}
		if _, err := srv.Do(*a); err != nil {
			return false, fmt.Errorf("seat %d's deal action: %w", s.seat, err)
		}
		return true, nil
	}
	return false, nil
}
