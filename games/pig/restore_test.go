package pig_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/games/pig"
	"github.com/fairboard/fairboard/match"
)

func restore(public string, n int) (game.State, error) {
	return game.RestoreState(pig.Def, pig.Def.DefaultRuleset(), make([]game.Seat, n), []byte(public), make([][]byte, n), nil)
}

// A game made again from its public part, written here by hand: seat 1
// to move with a turn total of 7 on turn 6, banked 12 and 30; its hold
// banks 37 and passes the turn to seat 0.
func TestRestoreStateByHand(t *testing.T) {
	st, err := restore(`{"banked":[12,30],"turn":1,"turnTotal":7,"turns":6,"over":false}`, 2)
	require.NoError(t, err)
	s := st.(*pig.State)
	require.Equal(t, 30, s.Banked(1))
	require.Equal(t, 7, s.TurnTotal())
	require.Equal(t, 1, s.ToMove())
	_, err = st.Apply(game.Move{Seat: 1, Kind: pig.KindHold}, nil, nil)
	require.NoError(t, err)
	require.Equal(t, 37, s.Banked(1))
	require.Equal(t, 0, s.ToMove())
}

// Parts that are no game are errors naming the problem, never a panic.
func TestRestoreStateRefusals(t *testing.T) {
	for _, c := range []struct {
		name, pub string
		n         int
		msg       string
	}{
		{"a banked score per seat", `{"banked":[12],"turn":0,"turnTotal":0,"turns":1,"over":false}`, 2, "one per seat"},
		{"a seat to move out of range", `{"banked":[1,2],"turn":5,"turnTotal":0,"turns":1,"over":false}`, 2, "out of range"},
		{"over below the goal", `{"banked":[1,2],"turn":0,"turnTotal":0,"turns":1,"over":true}`, 2, "goal"},
		{"a field missing", `{"banked":[1,2],"turn":0,"turns":1,"over":false}`, 2, "turnTotal"},
		{"an unknown field", `{"banked":[1,2],"turn":0,"turnTotal":0,"turns":1,"over":false,"x":0}`, 2, "unknown field"},
		{"seven seats", `{"banked":[0,0,0,0,0,0,0],"turn":0,"turnTotal":0,"turns":1,"over":false}`, 7, "2 to 6"},
	} {
		_, err := restore(c.pub, c.n)
		require.ErrorContains(t, err, c.msg, c.name)
	}
	_, err := game.RestoreState(pig.Def, pig.Def.DefaultRuleset(), make([]game.Seat, 2), []byte(`{"banked":[0,0],"turn":0,"turnTotal":0,"turns":1,"over":false}`), [][]byte{[]byte("x"), nil}, nil)
	require.ErrorContains(t, err, "no private part")
}

// The contract's restore check fails a Restorer that loses part of the
// state (a positive control: the turn total dropped).
func TestContractCatchesALossyRestorer(t *testing.T) {
	require.ErrorContains(t, match.CheckContract(lossy{pig.Def.(pig.Definition)}, match.ContractOptions{Games: 2}), "RestoreState")
}

type lossy struct{ pig.Definition }

func (l lossy) RestoreState(r game.Ruleset, seats []game.Seat, public []byte, private [][]byte, secret []byte) (game.State, error) {
	st, err := l.Definition.RestoreState(r, seats, public, private, secret)
	if err != nil {
		return nil, err
	}
	s := st.(*pig.State)
	b := make([]int, s.NumSeats())
	for i := range b {
		b[i] = s.Banked(i)
	}
	return pig.At(s.Rules(), b, s.ToMove(), 0, 1)
}
