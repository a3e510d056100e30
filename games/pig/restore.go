package pig

import (
	"fmt"

	"github.com/fairboard/fairboard/game"
)

// RestoreState implements game.Restorer: the state of its public part
// (AppendPublic's {"banked","turn","turnTotal","turns","over"}; Pig has
// no private or secret part, so every private part and the secret are
// empty). Errors: a ruleset that is not Pig's, seats that Setup would
// refuse, a part that does not decode strictly, a state that breaks an
// invariant (Check).
func (Definition) RestoreState(r game.Ruleset, seats []game.Seat, public []byte, private [][]byte, secret []byte) (game.State, error) {
	rules, ok := r.(*Rules)
	if !ok {
		return nil, fmt.Errorf("not a Pig ruleset: %T", r)
	}
	if len(seats) < 2 || len(seats) > 6 {
		return nil, fmt.Errorf("Pig takes 2 to 6 seats, not %d", len(seats))
	}
	for i, p := range private {
		if len(p) != 0 {
			return nil, fmt.Errorf("seat %d: Pig has no private part", i)
		}
	}
	if len(secret) != 0 {
		return nil, fmt.Errorf("Pig has no secret part")
	}
	var p struct {
		Banked    []int `json:"banked"`
		Turn      *int  `json:"turn"`
		TurnTotal *int  `json:"turnTotal"`
		Turns     *int  `json:"turns"`
		Over      *bool `json:"over"`
	}
	if err := game.DecodePart("public", public, &p); err != nil {
		return nil, err
	}
	if len(p.Banked) != len(seats) || p.Turn == nil || p.TurnTotal == nil || p.Turns == nil || p.Over == nil {
		return nil, fmt.Errorf("public part: want banked (one per seat), turn, turnTotal, turns and over")
	}
	s := &State{rules: rules, banked: p.Banked, turn: *p.Turn, turnTotal: *p.TurnTotal, turns: *p.Turns, over: *p.Over}
	if err := s.Check(); err != nil {
		return nil, err
	}
	return s, nil
}
