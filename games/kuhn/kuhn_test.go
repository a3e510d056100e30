package kuhn_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/games/kuhn"
	"github.com/fairboard/fairboard/match"
)

// deal sets a hand up with the shuffle's draws: Fisher-Yates over J, Q,
// K swaps a[2] with a[j1], then a[1] with a[j2].
func deal(t *testing.T, j1, j2 int64) (game.State, []game.Event) {
	t.Helper()
	script := game.Script(j1, j2)
	st, ev, err := kuhn.Def.Setup(kuhn.Rules{}, make([]game.Seat, 2), script, nil)
	require.NoError(t, err)
	require.True(t, script.Done())
	return st, ev
}

// The betting lines, worked by hand from OpenSpiel's rules: each seat
// antes 1; a fold loses what the folder put in; a showdown loses the
// loser's ante and bet.
func TestBettingLines(t *testing.T) {
	for _, c := range []struct {
		j1, j2       int64
		card0, card1 int
		line         string
		pay0, pay1   float64
		winner       int
		shown        bool
	}{
		// (2, 1) leaves J, Q, K in order: seat 0 J, seat 1 Q.
		{2, 1, 0, 1, "pp", -1, 1, 1, true},
		{2, 1, 0, 1, "pbp", -1, 1, 1, false},
		{2, 1, 0, 1, "pbb", -2, 2, 1, true},
		{2, 1, 0, 1, "bp", 1, -1, 0, false},
		{2, 1, 0, 1, "bb", -2, 2, 1, true},
		// (1, 0): J Q K -> J K Q -> K J Q: seat 0 K, seat 1 J.
		{1, 0, 2, 0, "pp", 1, -1, 0, true},
		{1, 0, 2, 0, "pbp", -1, 1, 1, false},
		{1, 0, 2, 0, "pbb", 2, -2, 0, true},
		{1, 0, 2, 0, "bp", 1, -1, 0, false},
		{1, 0, 2, 0, "bb", 2, -2, 0, true},
	} {
		t.Run(fmt.Sprintf("%d%d-%s", c.card0, c.card1, c.line), func(t *testing.T) {
			st, ev := deal(t, c.j1, c.j2)
			require.Equal(t, []game.Event{
				{To: 0, Type: kuhn.EventDealt, Vals: [game.MaxVals]int64{int64(c.card0)}},
				{To: 1, Type: kuhn.EventDealt, Vals: [game.MaxVals]int64{int64(c.card1)}},
			}, ev)
			for i, a := range c.line {
				seat := i % 2
				require.Equal(t, seat, st.ToMove())
				require.False(t, st.Outcome().Over)
				kind := kuhn.KindPass
				if a == 'b' {
					kind = kuhn.KindBet
				}
				var err error
				ev, err = st.Apply(game.Move{Seat: seat, Kind: kind}, game.Script(), nil)
				require.NoError(t, err)
			}
			o := st.Outcome()
			require.True(t, o.Over)
			require.Equal(t, game.Nobody, st.ToMove())
			require.Equal(t, []float64{c.pay0, c.pay1}, o.Payoffs)
			require.Equal(t, []int{c.winner}, o.Winners)
			var shown bool
			for _, e := range ev {
				require.Equal(t, game.All, e.To)
				if e.Type == kuhn.EventShowdown {
					shown = true
					require.Equal(t, [game.MaxVals]int64{int64(c.card0), int64(c.card1)}, e.Vals)
				}
			}
			require.Equal(t, c.shown, shown)
			last := ev[len(ev)-1]
			require.Equal(t, kuhn.EventWon, last.Type)
			require.Equal(t, int64(2+countBets(c.line)), last.Vals[1])
			_, err := st.Apply(game.Move{Seat: 0, Kind: kuhn.KindPass}, game.Script(), nil)
			require.ErrorContains(t, err, "over")
		})
	}
}

func countBets(line string) int {
	n := 0
	for _, a := range line {
		if a == 'b' {
			n++
		}
	}
	return n
}

// Views, keys and the sampler, worked by hand.
func TestPartsAndInfoKey(t *testing.T) {
	st, _ := deal(t, 2, 1) // J, Q; K undealt
	require.Equal(t, `{"history":"","pot":2,"toMove":0}`, string(st.AppendPublic(nil)))
	require.Equal(t, `{"card":1}`, string(st.AppendPrivate(nil, 1)))
	require.Equal(t, `{"undealt":2}`, string(st.AppendSecret(nil)))
	require.Equal(t, `{"public":{"history":"","pot":2,"toMove":0},"private":{"card":0}}`, string(st.AppendView(nil, 0)))
	require.Equal(t, "J", string(st.AppendInfoKey(nil, 0)))
	_, err := st.Apply(game.Move{Seat: 0, Kind: kuhn.KindPass}, game.Script(), nil)
	require.NoError(t, err)
	_, err = st.Apply(game.Move{Seat: 1, Kind: kuhn.KindBet}, game.Script(), nil)
	require.NoError(t, err)
	require.Equal(t, "Jpb", string(st.AppendInfoKey(nil, 0)))
	require.Equal(t, "Qpb", string(st.AppendInfoKey(nil, 1)))
	// seat 0 holds J: the sampler deals Q and K again; a shuffle of [Q, K]
	// with j = 0 swaps them: seat 1 K, undealt Q.
	sm := st.Sample(0, game.Script(0)).(*kuhn.State)
	require.Equal(t, 2, sm.Card(1))
	require.Equal(t, `{"undealt":1}`, string(sm.AppendSecret(nil)))
	require.Equal(t, "Jpb", string(sm.AppendInfoKey(nil, 0)))
	_, err = st.Apply(game.Move{Seat: 0, Kind: kuhn.KindBet}, game.Script(), nil)
	require.NoError(t, err)
	require.Equal(t, `{"history":"pbb","pot":4,"toMove":-1,"shown":[0,1]}`, string(st.AppendPublic(nil)))
	require.Equal(t, "Jpbb/Q", string(st.AppendInfoKey(nil, 0)))
}

func TestContract(t *testing.T) {
	require.NoError(t, game.ValidateDefinition(kuhn.Def))
	require.NoError(t, match.CheckContract(kuhn.Def, match.ContractOptions{Games: 40}))
	_, err := kuhn.Def.DecodeRuleset([]byte(`{"ante":1}`))
	require.Error(t, err)
	r, err := kuhn.Def.DecodeRuleset([]byte(`{}`))
	require.NoError(t, err)
	require.Equal(t, "{}", string(r.CanonicalJSON()))
}

// leaky is Kuhn poker whose view shows the other seat's card: the
// contract suite's hidden-information check must catch it.
type leaky struct{ kuhn.Definition }

type leakyState struct{ *kuhn.State }

func (l leaky) Setup(r game.Ruleset, seats []game.Seat, rnd game.Rand, ev []game.Event) (game.State, []game.Event, error) {
	st, ev, err := l.Definition.Setup(r, seats, rnd, ev)
	if err != nil {
		return nil, ev, err
	}
	return leakyState{st.(*kuhn.State)}, ev, nil
}

func (s leakyState) Clone() game.State { return leakyState{s.State.Clone().(*kuhn.State)} }
func (s leakyState) Sample(seat int, rnd game.Rand) game.State {
	return leakyState{s.State.Sample(seat, rnd).(*kuhn.State)}
}
func (s leakyState) AppendView(b []byte, seat int) []byte {
	return fmt.Appendf(s.State.AppendView(b, seat), " other %d", s.Card(1-seat))
}

func TestContractCatchesLeak(t *testing.T) {
	require.ErrorContains(t, match.CheckContract(leaky{}, match.ContractOptions{Games: 40}), "view or legal moves differ")
}
