package kuhn_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/games/kuhn"
)

func restore(public, p0, p1, secret string) (game.State, error) {
	return game.RestoreState(kuhn.Def, kuhn.Def.DefaultRuleset(), make([]game.Seat, 2), []byte(public), [][]byte{[]byte(p0), []byte(p1)}, []byte(secret))
}

// A hand made again from its parts, written here by hand: seat 0 holds
// K, seat 1 J, Q undealt, after a pass and a bet (pot 1+1+1 = 3, seat 0
// to call or fold). Its call goes to a showdown that K wins: +2 and -2
// (each seat put in 2).
func TestRestoreStateByHand(t *testing.T) {
	st, err := restore(`{"history":"pb","pot":3,"toMove":0}`, `{"card":2}`, `{"card":0}`, `{"undealt":1}`)
	require.NoError(t, err)
	s := st.(*kuhn.State)
	require.Equal(t, 2, s.Card(0))
	require.Equal(t, 0, s.Card(1))
	require.Equal(t, "pb", s.History())
	require.Equal(t, 0, s.ToMove())
	_, err = st.Apply(game.Move{Seat: 0, Kind: kuhn.KindBet}, nil, nil)
	require.NoError(t, err)
	require.Equal(t, []float64{2, -2}, st.Outcome().Payoffs)
}

// Parts that are no hand are errors naming the problem, never a panic.
func TestRestoreStateRefusals(t *testing.T) {
	for _, c := range []struct{ name, pub, p0, p1, secret, msg string }{
		{"another pot", `{"history":"pb","pot":4,"toMove":0}`, `{"card":2}`, `{"card":0}`, `{"undealt":1}`, "public part"},
		{"another undealt card", `{"history":"pb","pot":3,"toMove":0}`, `{"card":2}`, `{"card":0}`, `{"undealt":2}`, "secret part"},
		{"a card twice", `{"history":"","pot":2,"toMove":0}`, `{"card":2}`, `{"card":2}`, `{"undealt":1}`, "J, Q, K once each"},
		{"a card out of range", `{"history":"","pot":2,"toMove":0}`, `{"card":7}`, `{"card":0}`, `{"undealt":1}`, "J, Q, K once each"},
		{"no card", `{"history":"","pot":2,"toMove":0}`, `{}`, `{"card":0}`, `{"undealt":1}`, "no card"},
		{"a history no line has", `{"history":"bpb","pot":4,"toMove":0}`, `{"card":2}`, `{"card":0}`, `{"undealt":1}`, "prefix"},
		{"an unknown field", `{"history":"","pot":2,"toMove":0,"x":1}`, `{"card":2}`, `{"card":0}`, `{"undealt":1}`, "unknown field"},
		{"trailing data", `{"history":"","pot":2,"toMove":0}{}`, `{"card":2}`, `{"card":0}`, `{"undealt":1}`, "trailing"},
		{"not JSON", `{`, `{"card":2}`, `{"card":0}`, `{"undealt":1}`, "public part"},
	} {
		_, err := restore(c.pub, c.p0, c.p1, c.secret)
		require.ErrorContains(t, err, c.msg, c.name)
	}
	_, err := game.RestoreState(kuhn.Def, kuhn.Def.DefaultRuleset(), make([]game.Seat, 3), nil, make([][]byte, 3), nil)
	require.ErrorContains(t, err, "2 seats")
}
