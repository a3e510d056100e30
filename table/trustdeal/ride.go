package trustdeal

import (
	"fmt"

	"github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/rng/mentalpoker"
)

// Keys that ride with another message (docs/fairness.md, "Cost in
// commits"): the last seat's keys with the pass that completes the deal,
// and the keys still due, when only the seat to move owes them, with its
// first move. Each is taken with what it rides with, or both are refused.

// keysWithPass checks the keys that ride with the pass completing the
// deal (the last seat's pass 2: the deck is fixed by it, so its keys of
// the others' cards need no commit of their own; docs/fairness.md, "Cost
// in commits"): exactly the seat's keys of the positions dealt to the
// other seats, each once, checked on the twin table after the pass. On
// any refusal nothing changes (the twin is made again from the table)
// and the pass is not taken either: the seat sends it again. A pass the
// twin refuses is left to the table (the same refusal, a signed cheat
// forfeiting).
func (s *Server) keysWithPass(a Action) error {
	if len(s.tb.Messages())+1 != 2*len(s.cfg.Keys) {
		return fmt.Errorf("%w: keys ride only with the pass that completes the deal", ErrNotDue)
	}
	var due []int
	for p, o := range s.d.Owners() {
		if o != game.All && o != a.Seat {
			due = append(due, p)
		}
	}
	if len(a.Keys) != len(due) {
		return fmt.Errorf("%w: %d keys with the pass; the deal waits for seat %d's keys of positions %v", ErrNotDue, len(a.Keys), a.Seat, due)
	}
	for i, k := range a.Keys {
		if k == nil || int(k.Seat) != a.Seat || int(k.Position) != due[i] {
			return fmt.Errorf("%w: the keys with seat %d's pass must be for positions %v in order", ErrNotDue, a.Seat, due)
		}
	}
	if err := s.twin.Accept(a.Pass); err != nil {
		return nil // the table refuses it the same way
	}
	for _, k := range a.Keys {
		if err := s.twin.AcceptKey(k); err != nil {
			s.twin = s.remakeTwin()
			return err
		}
	}
	return nil
}

// moveWithKeys applies, at the deal, the first move with its sender's
// keys when they are every key the deal still waits for (the mover's of
// the others' cards: they ride with its move; docs/fairness.md, "Cost in
// commits"): the move is checked first (its seat, the game's dry run),
// then the keys on the twin table, and only then is anything taken, so a
// refusal changes nothing.
func (s *Server) moveWithKeys(a Action) error {
	mv := *a.Move
	if mv.Seat != a.Seat {
		return fmt.Errorf("%w: seat %d sends a move of seat %d", ErrPhase, a.Seat, mv.Seat)
	}
	due := s.d.PrivateKeysDue()
	if len(a.Keys) != len(due) {
		return fmt.Errorf("%w: %d keys with the move; the deal waits for %v (position, seat)", ErrNotDue, len(a.Keys), due)
	}
	for i, k := range a.Keys {
		if k == nil || int(k.Seat) != a.Seat || due[i] != [2]int{int(k.Position), a.Seat} {
			return fmt.Errorf("%w: a move carries every key the deal waits for, all its seat's, in order: %v (position, seat)", ErrNotDue, due)
		}
	}
	if _, err := s.m.WouldDraw(mv); err != nil {
		return fmt.Errorf("%w: %v", ErrMove, err)
	}
	for _, k := range a.Keys {
		if err := s.twin.AcceptKey(k); err != nil {
			s.twin = s.remakeTwin()
			return err
		}
	}
	for _, k := range a.Keys {
		if err := s.tb.AcceptKey(k); err != nil {
			panic("trustdeal: a key the twin table took was refused: " + err.Error())
		}
		s.rec.Keys = append(s.rec.Keys, k)
	}
	s.afterDealKeys()
	if err := s.move(a); err != nil {
		panic("trustdeal: a move its dry run took was refused: " + err.Error())
	}
	return nil
}

// remakeTwin makes the twin table again from the table's passes and
// published keys (the twin holds no staged key in the pass and deal
// phases).
func (s *Server) remakeTwin() *mentalpoker.Table {
	twin, _ := mentalpoker.NewTable(s.cfg.GameID, s.cfg.Hand, s.tb.Cards(), s.cfg.Keys)
	for _, m := range s.tb.Messages() {
		if err := twin.Accept(m); err != nil {
			panic("trustdeal: remaking the twin: " + err.Error())
		}
	}
	for _, k := range s.rec.Keys {
		if err := twin.AcceptKey(k); err != nil {
			panic("trustdeal: remaking the twin: " + err.Error())
		}
	}
	return twin
}
