package pig_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/games/pig"
)

func setup(t *testing.T, r *pig.Rules, n int) (*pig.State, []game.Event) {
	t.Helper()
	st, ev, err := pig.Def.Setup(r, make([]game.Seat, n), game.Script(), nil)
	require.NoError(t, err)
	return st.(*pig.State), ev
}

func ev(typ string, vals ...int64) game.Event {
	e := game.Event{To: game.All, Type: typ}
	copy(e.Vals[:], vals)
	return e
}

func roll(seat int) game.Move { return game.Move{Seat: seat, Kind: pig.KindRoll} }
func hold(seat int) game.Move { return game.Move{Seat: seat, Kind: pig.KindHold} }

// play applies the moves with the scripted dice and returns the events;
// every die of the script must be used.
func play(t *testing.T, s *pig.State, dice []int64, moves ...game.Move) []game.Event {
	t.Helper()
	rnd := game.Script(dice...)
	var out []game.Event
	for _, m := range moves {
		var err error
		out, err = s.Apply(m, rnd, out)
		require.NoError(t, err, "%+v", m)
		require.NoError(t, s.Check())
	}
	require.True(t, rnd.Done(), "dice left over")
	for _, tag := range rnd.Calls {
		require.Equal(t, pig.TagRoll, tag)
	}
	return out
}

// A hand-computed game: turn totals add up, a 1 loses the turn total, a
// hold banks it, and the turn passes in seat order.
func TestRulesByHand(t *testing.T) {
	s, start := setup(t, pig.DefaultRules(), 2)
	require.Equal(t, []game.Event{ev(pig.EventStarted, 2, 100, 6)}, start)
	require.Equal(t, 0, s.ToMove())
	got := play(t, s, []int64{4, 3, 1, 6, 1, 5},
		roll(0), roll(0), hold(0), // 4, 7, bank 7
		roll(1),          // a 1 at once: loses 0
		roll(0), roll(0), // 6, then a 1 loses 6
		roll(1), hold(1)) // 5, bank 5
	require.Equal(t, []game.Event{
		ev(pig.EventRolled, 0, 4, 4), ev(pig.EventRolled, 0, 3, 7), ev(pig.EventHeld, 0, 7),
		ev(pig.EventRolled, 1, 1, 0), ev(pig.EventBusted, 1, 0),
		ev(pig.EventRolled, 0, 6, 6), ev(pig.EventRolled, 0, 1, 0), ev(pig.EventBusted, 0, 6),
		ev(pig.EventRolled, 1, 5, 5), ev(pig.EventHeld, 1, 5),
	}, got)
	require.Equal(t, 7, s.Banked(0))
	require.Equal(t, 5, s.Banked(1))
	require.Equal(t, 0, s.ToMove())
	require.Equal(t, `{"banked":[7,5],"turn":0,"turnTotal":0,"turns":5,"over":false}`, string(s.AppendPublic(nil)))
	require.False(t, s.Outcome().Over)
}

// You win the moment banked plus turn total reaches the goal: a roll wins
// without a hold; the game then awaits nobody and refuses every move.
func TestWinOnARoll(t *testing.T) {
	r, err := pig.Def.DecodeRuleset([]byte(`{"goal":10,"dieSides":6}`))
	require.NoError(t, err)
	s, _ := setup(t, r.(*pig.Rules), 3)
	got := play(t, s, []int64{2, 1, 3, 1, 6, 4},
		roll(0), roll(0), // 2, then a 1
		roll(1), roll(1), // 3, then a 1
		roll(2), roll(2)) // 6, 10: reaches the goal of 10 without holding
	require.Equal(t, ev(pig.EventRolled, 2, 4, 10), got[len(got)-2])
	require.Equal(t, ev(pig.EventWon, 2, 10), got[len(got)-1])
	require.Equal(t, game.Nobody, s.ToMove())
	o := s.Outcome()
	require.Equal(t, game.Outcome{Over: true, Winners: []int{2}, Payoffs: []float64{0, 0, 1}}, o)
	require.Empty(t, s.Legal(2, nil))
	require.Equal(t, []float64{0, 0, 0}, s.AbortPayoffs())
}

// Every refusal leaves the state, the events and the dice as they were.
func TestRefusalsChangeNothing(t *testing.T) {
	s, _ := setup(t, pig.DefaultRules(), 2)
	play(t, s, []int64{5}, roll(0)) // seat 0 on 5
	fresh, _ := setup(t, pig.DefaultRules(), 2)
	won, err := pig.At(pig.DefaultRules(), []int{98, 40}, 0, 0, 9)
	require.NoError(t, err)
	play(t, won, []int64{2}, roll(0))
	require.True(t, won.Outcome().Over)
	for _, c := range []struct {
		name string
		s    *pig.State
		m    game.Move
		code game.Code
	}{
		{"hold at 0", fresh, hold(0), game.CodeInvalidAction},
		{"out of turn", s, roll(1), game.CodeNotYourTurn},
		{"hold out of turn", s, hold(1), game.CodeNotYourTurn},
		{"after the end", won, roll(1), game.CodeGameOver},
		{"winner after the end", won, hold(0), game.CodeGameOver},
		{"unknown kind", s, game.Move{Seat: 0, Kind: "pass"}, game.CodeInvalidAction},
		{"an argument", s, game.Move{Seat: 0, Kind: pig.KindRoll, Args: [game.MaxArgs]int64{0, 1}}, game.CodeInvalidAction},
		{"no such seat", s, roll(2), game.CodeUnknownPlayer},
		{"negative seat", s, roll(-1), game.CodeUnknownPlayer},
	} {
		before := c.s.AppendPublic(nil)
		buf := []game.Event{ev("Marker")}
		rnd := game.Script(6)
		out, err := c.s.Apply(c.m, rnd, buf)
		require.ErrorIs(t, err, c.code, c.name)
		require.Equal(t, buf, out, c.name)
		require.Equal(t, string(before), string(c.s.AppendPublic(nil)), c.name)
		require.Zero(t, rnd.Next, c.name+": drew")
	}
	_, err = s.Apply(game.Move{Seat: 0, Kind: "pass"}, game.Script(), nil)
	require.ErrorContains(t, err, `unknown move kind "pass"`)
	for in, want := range map[string]string{`{"kind":"roll","n":1}`: `unknown field "n" on roll`, `{"kind":"pass"}`: `unknown move kind "pass"`} {
		_, err := game.DecodeMove(pig.Def.Kinds(), 0, []byte(in))
		require.ErrorContains(t, err, want)
	}
}

func TestLegal(t *testing.T) {
	s, _ := setup(t, pig.DefaultRules(), 2)
	require.Equal(t, []game.Move{roll(0)}, s.Legal(0, nil))
	require.Empty(t, s.Legal(1, nil))
	play(t, s, []int64{3}, roll(0))
	require.Equal(t, []game.Move{roll(0), hold(0)}, s.Legal(0, nil))
	ch, ok := s.ChanceOutcomes(roll(0))
	require.True(t, ok)
	require.Len(t, ch, 6)
	sum := 0.0
	for i, c := range ch {
		require.Equal(t, []int64{int64(i + 1)}, c.Draws)
		sum += c.P
	}
	require.InDelta(t, 1, sum, 1e-15)
	ch, ok = s.ChanceOutcomes(hold(0))
	require.True(t, ok)
	require.Empty(t, ch)
	_, ok = s.ChanceOutcomes(roll(1))
	require.False(t, ok)
}

func TestHoldAt(t *testing.T) {
	styles := pig.Def.Styles()
	require.Len(t, styles, 1)
	require.Equal(t, 20, styles[0].Default)
	p := styles[0].New(20)
	for _, c := range []struct {
		banked, total int
		want          string
	}{{0, 0, pig.KindRoll}, {0, 19, pig.KindRoll}, {0, 20, pig.KindHold}, {50, 25, pig.KindHold}, {90, 5, pig.KindRoll}} {
		s, err := pig.At(pig.DefaultRules(), []int{c.banked, 0}, 0, c.total, 1)
		require.NoError(t, err)
		require.Equal(t, c.want, p.Choose(s, 0, s.Legal(0, nil)).Kind, "%+v", c)
	}
	// Banked plus turn total at the goal: holds (a state the rules end at
	// once, so only a smaller goal on the ruleset reaches it: goal 10,
	// banked 8, total 1 is below; the style holds at N=1 anyway).
	s, err := pig.At(pig.DefaultRules(), []int{8, 0}, 0, 1, 1)
	require.NoError(t, err)
	require.Equal(t, pig.KindHold, pig.HoldAt(1).Choose(s, 0, s.Legal(0, nil)).Kind)
}

func TestRuleset(t *testing.T) {
	r := pig.DefaultRules()
	require.Equal(t, `{"goal":100,"dieSides":6}`, string(r.CanonicalJSON()))
	require.Equal(t, "pig", r.Game())
	require.Equal(t, game.HashJSON([]byte(`{"goal":100,"dieSides":6}`)), r.Hash())
	back, err := pig.Def.DecodeRuleset(r.CanonicalJSON())
	require.NoError(t, err)
	require.Equal(t, r.Hash(), back.Hash())
	for in, want := range map[string]string{
		`{"goal":100,"dieSides":6,"x":1}`: `unknown field "x"`,
		`{"goal":100}`:                    "missing dieSides",
		`{"goal":0,"dieSides":6}`:         "goal must be a whole number in [1, 10000], not 0",
		`{"goal":100,"dieSides":1}`:       "dieSides must be a whole number in [2, 1000], not 1",
		`{"goal":2.5,"dieSides":6}`:       "not 2.5",
		`{"goal":100,"dieSides":6} {}`:    "trailing data",
		`{"goal":"100","dieSides":6}`:     "goal",
	} {
		_, err := pig.Def.DecodeRuleset([]byte(in))
		require.ErrorIs(t, err, game.CodeBadRuleset, in)
		require.ErrorContains(t, err, want, in)
	}
	v, err := game.Number(pig.Def, r, "dieSides")
	require.NoError(t, err)
	require.EqualValues(t, 6, v)
	r2, err := game.WithNumber(pig.Def, r, "goal", 50)
	require.NoError(t, err)
	require.Equal(t, `{"goal":50,"dieSides":6}`, string(r2.CanonicalJSON()))
	_, err = game.WithNumber(pig.Def, r, "goal", 0)
	require.ErrorIs(t, err, game.CodeBadRuleset)
	_, err = game.WithNumber(pig.Def, r, "speed", 1)
	require.ErrorContains(t, err, `pig has no ruleset number "speed" (known: goal, dieSides)`)
	require.NoError(t, game.ValidateDefinition(pig.Def))
}

func TestSetupRefusals(t *testing.T) {
	for _, n := range []int{0, 1, 7} {
		_, _, err := pig.Def.Setup(pig.DefaultRules(), make([]game.Seat, n), game.Script(), nil)
		require.ErrorIs(t, err, game.CodeBadSetup, fmt.Sprint(n))
	}
	_, _, err := pig.Def.Setup(pig.DefaultRules(), []game.Seat{{}, {Options: []string{"warrior"}}}, game.Script(), nil)
	require.ErrorContains(t, err, "seat 1: Pig has no seat options")
}

func TestCheck(t *testing.T) {
	for _, c := range []struct {
		banked           []int
		turn, total, trn int
	}{{[]int{0}, 0, 0, 1}, {[]int{100, 0}, 1, 0, 1}, {[]int{0, 0}, 2, 0, 1}, {[]int{-1, 0}, 0, 0, 1}, {[]int{90, 0}, 0, 10, 1}, {[]int{0, 0}, 0, 0, 0}} {
		_, err := pig.At(pig.DefaultRules(), c.banked, c.turn, c.total, c.trn)
		require.Error(t, err, "%+v", c)
	}
}
