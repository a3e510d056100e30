package eights

import (
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/match"
)

// A state made again from parts written by hand: the one TestReshuffle
// starts from (seat 1 holds 9 against top 0, the discards 4, 5 under
// it, the draw pile 6, 3), seat 0 holding every other card.
func TestRestoreStateByHand(t *testing.T) {
	want := built(t, 500, []int{9}, 0, []int{6, 3}, []int{4, 5}, 11)
	r := want.rules
	public := `{"top":0,"suit":0,"toMove":1,"hands":[18,1],"stock":2,"discards":[4,5],"moves":11,"passes":0,"winner":-1,"ended":0}`
	private := [][]byte{[]byte(`{"hand":[1,2,7,8,10,11,12,13,14,15,16,17,18,19,20,21,22,23]}`), []byte(`{"hand":[9]}`)}
	st, err := game.RestoreState(Def, r, make([]game.Seat, 2), []byte(public), private, []byte(`{"stock":[6,3]}`))
	require.NoError(t, err)
	s := st.(*State)
	require.Equal(t, want.hands, s.hands)
	require.Equal(t, []int{6, 3}, s.pile.Cards)
	require.Equal(t, []int{4, 5}, s.pile.Discards)
	require.Equal(t, DeckID, s.pile.ID)
	require.Equal(t, string(want.AppendPublic(nil)), public)
	require.Equal(t, want.Legal(1, nil), s.Legal(1, nil))

	for _, c := range []struct {
		name, public, hand1, secret, msg string
	}{
		{"a card twice", public, `{"hand":[9,0]}`, `{"stock":[6,3]}`, "card 0 is held 2 times"},
		{"a card missing", public, `{"hand":[9]}`, `{"stock":[6]}`, "card 3 is held 0 times"},
		{"no stock", public, `{"hand":[9]}`, `{}`, "no stock"},
		{"an unknown field", public, `{"hand":[9],"jokers":1}`, `{"stock":[6,3]}`, "jokers"},
		{"no top", `{"suit":0,"toMove":1,"hands":[18,1],"stock":2,"discards":[4,5],"moves":11,"passes":0,"winner":-1,"ended":0}`, `{"hand":[9]}`, `{"stock":[6,3]}`, "want top"},
		{"a suit out of range", `{"top":0,"suit":3,"toMove":1,"hands":[18,1],"stock":2,"discards":[4,5],"moves":11,"passes":0,"winner":-1,"ended":0}`, `{"hand":[9]}`, `{"stock":[6,3]}`, "suit 3 out of range"},
	} {
		_, err := Def.(game.Restorer).RestoreState(r, make([]game.Seat, 2), []byte(c.public), [][]byte{private[0], []byte(c.hand1)}, []byte(c.secret))
		require.ErrorContains(t, err, c.msg, c.name)
	}
	_, err = Def.(game.Restorer).RestoreState(DefaultRules(), make([]game.Seat, 5), []byte(public), make([][]byte, 5), nil)
	require.ErrorContains(t, err, "2 to 4 seats")
}

// A restorer that loses the draw pile's order (reversed) is caught by the
// contract suite (the positive control of its restore check).
func TestContractCatchesALossyRestorer(t *testing.T) {
	require.ErrorContains(t, match.CheckContract(lossy{}, match.ContractOptions{Games: 2}), "RestoreState")
}

type lossy struct{ Definition }

func (l lossy) RestoreState(r game.Ruleset, seats []game.Seat, public []byte, private [][]byte, secret []byte) (game.State, error) {
	st, err := l.Definition.RestoreState(r, seats, public, private, secret)
	if err != nil {
		return nil, err
	}
	slices.Reverse(st.(*State).pile.Cards)
	return st, nil
}
