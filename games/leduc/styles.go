package leduc

import "github.com/fairboard/fairboard/game"

// styles are OpenSpiel's fixed Leduc policies (its GetAlwaysCallPolicy
// and GetAlwaysRaisePolicy).
var styles = []game.Style{
	{Name: "caller", Doc: "always calls (checks when there is nothing to call); never raises or folds", New: func(int) game.Policy { return prefer(KindCall) }},
	{Name: "raiser", Doc: "raises whenever it may, else calls; never folds", New: func(int) game.Policy { return prefer(KindRaise) }},
}

// Styles returns caller and raiser.
func (Definition) Styles() []game.Style { return styles }

// prefer plays its kind when listed, else a call.
type prefer string

// Choose returns the move of p's kind in legal, else the call, else the
// first listed.
func (p prefer) Choose(_ game.State, _ int, legal []game.Move) game.Move {
	call := -1
	for i, m := range legal {
		if m.Kind == string(p) {
			return m
		}
		if m.Kind == KindCall {
			call = i
		}
	}
	if call >= 0 {
		return legal[call]
	}
	return legal[0]
}
