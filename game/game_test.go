package game_test

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/rng"
)

var kinds = []game.KindSpec{
	{Name: "roll"},
	{Name: "bet", Args: []game.ArgSpec{{Name: "amount", Min: 1, Max: 10}, {Name: "to", Min: 0, Max: 5}}},
}

func TestDecodeMove(t *testing.T) {
	m, err := game.DecodeMove(kinds, 1, []byte(` {"kind":"bet","to":2,"amount":10} `))
	require.NoError(t, err)
	require.Equal(t, game.Move{Seat: 1, Kind: "bet", Args: [game.MaxArgs]int64{10, 2}}, m)
	m, err = game.DecodeMove(kinds, 0, []byte(`{"kind":"roll"}`))
	require.NoError(t, err)
	require.Equal(t, game.Move{Kind: "roll"}, m)

	for in, want := range map[string]string{
		`{"kind":"fly"}`:                     `unknown move kind "fly"`,
		`{"kind":"roll","x":1}`:              `unknown field "x" on roll`,
		`{"kind":"bet","amount":1}`:          `bet needs "to"`,
		`{"kind":"bet","amount":11,"to":0}`:  `bet.amount must be a whole number in [1, 10], not 11`,
		`{"kind":"bet","amount":1.5,"to":0}`: `not 1.5`,
		`{"kind":"bet","amount":"1","to":0}`: `not "1"`,
		`{"kind":"roll","kind":"roll"}`:      `field "kind" given twice`,
		`{"kind":"roll"} {}`:                 `trailing data`,
		`["roll"]`:                           `a JSON object`,
		`{"kind":3}`:                         `a string "kind"`,
		`{}`:                                 `a string "kind"`,
		`{"kind":"roll"`:                     `malformed`,
	} {
		_, err := game.DecodeMove(kinds, 0, []byte(in))
		require.ErrorIs(t, err, game.CodeInvalidAction, in)
		require.ErrorContains(t, err, want, in)
	}
}

// The canonical bytes are pinned: signatures cover them.
func TestCanonicalBytes(t *testing.T) {
	bet := game.Move{Seat: 3, Kind: "bet", Args: [game.MaxArgs]int64{7, 0}}
	require.Equal(t, `{"seat":3,"kind":"bet","amount":7,"to":0}`, string(game.AppendMoveCanonical(nil, kinds, bet)))
	require.Equal(t, `{"seat":0,"kind":"roll"}`, string(game.AppendMoveCanonical(nil, kinds, game.Move{Kind: "roll"})))
	js := game.AppendMoveJSON(nil, kinds, bet)
	require.Equal(t, `{"kind":"bet","amount":7,"to":0}`, string(js))
	back, err := game.DecodeMove(kinds, 3, js)
	require.NoError(t, err)
	require.Equal(t, bet, back)

	seats := game.Seats{Min: 1, Max: 4, Default: 2, Options: []game.SeatOption{{Name: "class", Values: []string{"warrior", "monk"}}}}
	require.Equal(t, `{"seat":2,"class":"monk"}`, string(game.AppendSeatCanonical(nil, seats, 2, game.Seat{Options: []string{"monk"}})))
	require.Equal(t, `{"seat":1}`, string(game.AppendSeatCanonical(nil, game.Seats{Min: 2, Max: 6, Default: 2}, 1, game.Seat{})))
}

func TestEventJSON(t *testing.T) {
	types := []game.EventSpec{{Type: "Rolled", Fields: []string{"seat", "value"}}}
	e := game.Event{To: game.All, Type: "Rolled", Vals: [game.MaxVals]int64{1, 6}}
	require.Equal(t, `{"seq":4,"type":"Rolled","seat":1,"value":6}`, string(game.AppendEventJSON(nil, types, 4, e)))
	e.To = 1
	require.Equal(t, `{"seq":4,"type":"Rolled","to":1,"seat":1,"value":6}`, string(game.AppendEventJSON(nil, types, 4, e)))
	require.True(t, e.Visible(1))
	require.False(t, e.Visible(0))
}

func TestScripted(t *testing.T) {
	s := game.Script(3, 1, 0, 2, -4)
	d, err := s.Dice(6, "t.die", nil)
	require.NoError(t, err)
	require.Equal(t, rng.DiceRoll{Sides: 6, Value: 3}, d)
	a := []int{10, 20, 30}
	s.Shuffle(a, "t.shuffle", nil) // i=2, j=1; i=1, j=0
	require.Equal(t, []int{30, 10, 20}, a)
	v, err := s.UniformInt(0, 5, "t.int", nil)
	require.NoError(t, err)
	require.EqualValues(t, 2, v)
	require.Equal(t, []rng.Tag{"t.die", "t.shuffle", "t.int"}, s.Calls)
	require.False(t, s.Done())
	require.PanicsWithValue(t, "game.Scripted: value -4 of draw 5 (t.int) outside [0, 5]", func() { s.UniformInt(0, 5, "t.int", nil) })
	s = game.Script()
	require.True(t, s.Done())
	require.Panics(t, func() { s.Dice(6, "t.die", nil) })
	_, err = s.Dice(0, "t.die", nil)
	require.ErrorIs(t, err, rng.ErrRange)
}

// FromStream draws exactly what the stream's own calls draw.
func TestFromStream(t *testing.T) {
	a, _ := rng.NewSeeded("from-stream")
	b, _ := rng.NewSeeded("from-stream")
	r := game.FromStream(a)
	for range 50 {
		x, err := r.Dice(6, "t.die", nil)
		require.NoError(t, err)
		y, _ := b.Dice(6, "t.die", nil)
		require.Equal(t, y, x)
		i, _ := r.UniformInt(-3, 9, "t.int", nil)
		j, _ := b.UniformInt(-3, 9, "t.int", nil)
		require.Equal(t, j, i)
	}
	d1, d2 := []int{1, 2, 3, 4, 5}, []int{1, 2, 3, 4, 5}
	r.Shuffle(d1, "t.shuffle", &rng.Ctx{DeckID: "d"})
	rng.Shuffle(b, d2, "t.shuffle", &rng.Ctx{DeckID: "d"})
	require.Equal(t, d2, d1)
	require.Equal(t, b.Seq(), a.Seq())
}

func TestDecodeStrict(t *testing.T) {
	var v struct {
		Goal int `json:"goal"`
	}
	require.NoError(t, game.DecodeStrict([]byte(`{"goal":5}`), &v))
	require.Equal(t, 5, v.Goal)
	for _, in := range []string{`{"goal":5,"x":1}`, `{"goal":5} 1`, `{"goal":"5"}`, ``} {
		require.ErrorIs(t, game.DecodeStrict([]byte(in), &v), game.CodeBadRuleset, in)
	}
}

func TestErrorIs(t *testing.T) {
	err := error(game.Reject(game.CodeNotYourTurn, "seat 1 moved"))
	require.True(t, errors.Is(err, game.CodeNotYourTurn))
	require.False(t, errors.Is(err, game.CodeGameOver))
	require.Equal(t, "not_your_turn: seat 1 moved", err.Error())
	require.Len(t, game.Codes, 6)
}

func TestCheckParam(t *testing.T) {
	p := game.Param{Path: "goal", Default: 100, Min: 1, Max: 1000, Integer: true}
	require.NoError(t, game.CheckParam(p, 1))
	require.ErrorContains(t, game.CheckParam(p, 0), "goal must be a whole number in [1, 1000], not 0")
	require.Error(t, game.CheckParam(p, 2.5))
}
