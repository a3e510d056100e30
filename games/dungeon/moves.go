package dungeon

import (
	"errors"
	"fmt"
	"slices"
	"strconv"

	"github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/games/dungeon/engine"
)

// The moves: a seat's legal list, the mapping between a move and the
// engine action it stands for, and Apply.

// choose notes that a policy chose m for seat, m being what Move returned
// for the engine action a, and keeps the action m stands for (what action
// would build for m: its kind and actor, and the card or the target m
// names, a's own, found by Move). Apply then dispatches it without
// building it again, if nothing was dispatched in between. An a that is
// turn is kept as it is (it is in that form); any other is copied into
// act field by field, not as a literal: the action is some 380 bytes.
func (s *State) choose(seat int, m game.Move, a *engine.Action) {
	if a != &s.turn {
		k, card, target := a.Kind, a.CardID, a.Target
		s.act = engine.Action{}
		s.act.Kind, s.act.Actor = k, s.uids[seat]
		switch k {
		case engine.ActUseItem, engine.ActDropItem, engine.ActDiscard:
			s.act.CardID = card
		case engine.ActOfferDuel:
			s.act.Target = target
		}
		a = &s.act
	}
	s.chosen, s.chosenAct, s.chosenOK = m, a, true
}

// Legal lists engine.LegalActions of seat's uid, the turn kinds only, as
// moves in its order (by kind, then items in inventory order, targets in
// seat order): none when the engine does not await seat.
func (s *State) Legal(seat int, buf []game.Move) []game.Move {
	buf = buf[:0]
	if seat < 0 || seat >= len(s.uids) || s.g.Public.Phase != engine.PhasePlaying {
		return buf
	}
	s.acts = engine.LegalActions(&s.g.Public, s.rules.r, s.uids[seat], engine.TurnKinds, s.acts)
	for i := range s.acts {
		if m, ok := s.Move(seat, &s.acts[i]); ok {
			buf = append(buf, m)
		}
	}
	return buf
}

// Move returns the move of seat that stands for the engine turn action a
// (its item as an index in the mover's inventory, its target as a seat),
// and false for an action no move stands for (another kind, a card seat
// does not hold, a target not seated).
func (s *State) Move(seat int, a *engine.Action) (game.Move, bool) {
	var m game.Move
	ok := s.moveInto(&m, seat, a)
	return m, ok
}

// moveInto is Move writing the move into *m (set whole, also when it
// returns false): the policies' path, which a 56-byte result copied
// through two calls a move slowed.
func (s *State) moveInto(m *game.Move, seat int, a *engine.Action) bool {
	m.Seat, m.Kind, m.Args = seat, string(a.Kind), [4]int64{}
	switch a.Kind {
	case engine.ActUseItem, engine.ActDropItem, engine.ActDiscard:
		me, _ := s.g.Public.Player(s.uids[seat])
		i := -1
		if me != nil {
			i = slices.Index(me.Items, a.CardID)
		}
		if i < 0 || i > MaxItem {
			return false
		}
		m.Args[0] = int64(i)
	case engine.ActOfferDuel:
		t := s.seat(a.Target)
		if t < 0 {
			return false
		}
		m.Args[0] = int64(t)
	case engine.ActEndManage, engine.ActSkipDuel, engine.ActMove, engine.ActSleep, engine.ActCombatRound,
		engine.ActDuelRound, engine.ActReroll, engine.ActDeclineReroll:
	default:
		return false
	}
	return true
}

// action returns the engine action m stands for (the one choose kept,
// for the move chosen; else act, written), or a refusal: game_over
// once finished, unknown_player for a seat out of range, not_your_turn for
// a seat the engine does not await, invalid_action for an unknown kind
// (named), an argument out of its range or one the kind does not take, an
// item index past the mover's inventory, or a target seat out of range.
func (s *State) action(m game.Move) (*engine.Action, error) {
	n := len(s.uids)
	switch to := s.ToMove(); {
	case to == game.Nobody:
		return nil, game.Reject(game.CodeGameOver, "the game has finished")
	case m.Seat < 0 || m.Seat >= n:
		return nil, game.Reject(game.CodeUnknownPlayer, "no seat "+strconv.Itoa(m.Seat))
	case m.Seat != to:
		return nil, game.Reject(game.CodeNotYourTurn, "the game awaits seat "+strconv.Itoa(to))
	}
	if s.chosenOK && m == s.chosen {
		return s.chosenAct, nil
	}
	s.chosenOK = false // act is written below
	a := &s.act
	k, ok := game.Kind(kinds, m.Kind)
	if !ok {
		return nil, game.Reject(game.CodeInvalidAction, "unknown move kind "+strconv.Quote(m.Kind))
	}
	for i, v := range m.Args {
		if i >= len(k.Args) {
			if v != 0 {
				return nil, game.Reject(game.CodeInvalidAction, fmt.Sprintf("%s takes %d arguments", k.Name, len(k.Args)))
			}
			continue
		}
		if as := k.Args[i]; v < as.Min || v > as.Max {
			return nil, game.Reject(game.CodeInvalidAction, fmt.Sprintf("%s's %s %d is outside [%d, %d]", k.Name, as.Name, v, as.Min, as.Max))
		}
	}
	*a = engine.Action{Kind: engine.ActionKind(m.Kind), Actor: s.uids[m.Seat]}
	switch a.Kind {
	case engine.ActUseItem, engine.ActDropItem, engine.ActDiscard:
		me, _ := s.g.Public.Player(a.Actor)
		if me == nil || m.Args[0] >= int64(len(me.Items)) {
			return nil, game.Reject(game.CodeInvalidAction, fmt.Sprintf("seat %d holds no item %d", m.Seat, m.Args[0]))
		}
		a.CardID = me.Items[m.Args[0]]
	case engine.ActOfferDuel:
		if m.Args[0] >= int64(n) {
			return nil, game.Reject(game.CodeInvalidAction, fmt.Sprintf("no seat %d to challenge", m.Args[0]))
		}
		a.Target = s.uids[m.Args[0]]
	}
	return a, nil
}

// Apply maps m to the engine action of its seat's uid (see action) and
// dispatches it with rnd's draws. The engine's own refusals (a kind of
// another step, a target not on the tile, ...) keep their code when
// game.Codes has it and are invalid_action otherwise, the engine's code
// leading the message. On refusal nothing changed and nothing was drawn.
func (s *State) Apply(m game.Move, rnd game.Rand, ev []game.Event) ([]game.Event, error) {
	a, err := s.action(m)
	if err != nil {
		return ev, err
	}
	s.buf = s.buf[:0]
	out, err := s.dispatch(a, rnd, ev)
	if err != nil {
		return ev, fromEngine(err)
	}
	return out, nil
}

// fromEngine maps an engine refusal to a game one.
func fromEngine(err error) error {
	var ee *engine.Error
	if !errors.As(err, &ee) {
		return game.Reject(game.CodeInvalidAction, err.Error())
	}
	if c := game.Code(ee.Code); slices.Contains(game.Codes, c) {
		return game.Reject(c, ee.Msg)
	}
	return game.Reject(game.CodeInvalidAction, string(ee.Code)+": "+ee.Msg)
}

// Outcome: over once the engine's phase is finished; the winner
