package bot

import (
	"math"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/games/dungeon/engine"
	"github.com/fairboard/fairboard/rng"
)

// heldOut returns the mean log-likelihood of d's winners under v.
func heldOut(v *valueModel, d *fitData) float64 {
	ll, _, _ := logitStep(v, d)
	return ll
}

// TestValueModelPredicts: a model fitted on some games tells who wins
// other games (seeds it never saw) far better than chance: its mean
// log-likelihood of the winner at a turn's start beats the uniform
// guess's, log(1/4), by more than 0.2 (about 0.36 measured). The positive
// control, the same fit on the same games with each winner replaced by a
// seat drawn at random, learns nothing that holds on the other games.
func TestValueModelPredicts(t *testing.T) {
	r := engine.DefaultRules()
	train := valueSamples(r, 4, 1500, 2, "value-test-train")
	held := valueSamples(r, 4, 1500, 2, "value-test-held")
	require.Greater(t, len(train.players), 10000)
	uniform := math.Log(0.25)

	var v valueModel
	fitValue(&v, train)
	got := heldOut(&v, held)
	t.Logf("held-out log-likelihood %.4f, uniform %.4f", got, uniform)
	require.Greater(t, got, uniform+0.2)

	s, err := rng.NewSeeded("value-test-shuffle")
	require.NoError(t, err)
	noise := *train
	noise.winner = make([]int, len(train.winner))
	for i := range noise.winner {
		w, err := s.UniformInt(0, int64(train.players[i]-1), rng.TagTestOnly, nil)
		require.NoError(t, err)
		noise.winner[i] = int(w)
	}
	var c valueModel
	fitValue(&c, &noise)
	ctl := heldOut(&c, held)
	t.Logf("control (random winners): held-out log-likelihood %.4f", ctl)
	require.Less(t, ctl, uniform+0.05, "a model fitted on random winners must not predict")
}

// TestValueFitIsAPureFunction: the fit depends on the ruleset and the
// number of players only. Fitting twice gives the same weights bit for
// bit, and bots asking for the model at once, from several goroutines,
// all get the one model.
func TestValueFitIsAPureFunction(t *testing.T) {
	r := engine.DefaultRules()
	var a, b valueModel
	fitValue(&a, valueSamples(r, 3, 600, 2, "value-test-pure"))
	fitValue(&b, valueSamples(r, 3, 600, 2, "value-test-pure"))
	require.Equal(t, a.w, b.w)

	got := make([]*valueModel, 4)
	var wg sync.WaitGroup
	for i := range got {
		wg.Add(1)
		go func() {
			defer wg.Done()
			got[i] = valueFor(r, 4)
		}()
	}
	wg.Wait()
	for _, v := range got {
		require.Same(t, got[0], v)
	}
}

// TestSimulationEndsAtTheDecidersNextTurn pins the horizon: a simulation
// of a decision at turn T of an n-player game stops when turn T + n (the
// deciding player's next turn) begins, and is judged there; only one that
// reaches the game's last round plays on to the end. The last simulation
// of each decision is left in the bot's memory (m.det), which the test
// reads after the decision, over the recorded decisions of every phase.
func TestSimulationEndsAtTheDecidersNextTurn(t *testing.T) {
	rules := engine.DefaultRules()
	m := NewMCTS(40)
	s, err := StreamFor("horizon", 0)
	require.NoError(t, err)
	m.NewGame(s)
	judged, ended := 0, 0
	states := recordStates(t)
	for _, ph := range searchPhases {
		for _, st := range states[ph][:30] {
			m.Choose(&st.view, rules, st.uid)
			p := &m.det.Public
			if p.Phase == engine.PhaseFinished {
				ended++
				continue
			}
			judged++
			require.Equal(t, st.view.Turn+len(st.view.Players), p.Turn, "%s decision at turn %d", ph, st.view.Turn)
			require.False(t, p.EndTriggered, "a simulation in the last round plays to the end")
		}
	}
	t.Logf("%d simulations judged a round later, %d played to the end", judged, ended)
	require.Greater(t, judged, 60)
	require.Greater(t, ended, 0, "some end-of-game decisions play to the end")
}

// TestFeaturesByHand: the value model's features of two players of a
// state built by hand, against values worked out by hand from the default
// ruleset (board of 36 tiles: the final tile is 35; zone 2 is tiles 12 to
// 23, zone 3 24 to 34; enemies at 17 (tier 2) and 33 (tier 3); a d4 move,
// a mean of 2.5). A, a scout on tile 13 with 4 HP, two potions (3 + 6 HP),
// a smoke bomb, attack 2 and defense 1, yet to move this round; B, a
// warrior with boots on tile 30 at full HP, who has moved.
//
//	A: speed 2.5 + 1 (scout) = 3.5, t = 22/3.5 = 6.285714; B: speed 3.5, t = 5/3.5 = 1.428571
//	sharp = 1/sqrt(1 + 1.428571) = 0.641689
//	A: loss (13-12)/35 = 0.028571; reach 5: tiles 15..18, the tier-2 enemy at 17: danger 2/12
//	B: loss (30-24)/35 = 0.171429; reach 5: tiles 32..34, the tier-3 enemy at 33: danger 3/12
//
// And the model's answer for weights set by hand: with weight 1 on HP
// alone, A's chance is e^0.4 / (e^0.4 + e^1) = 1/(1 + e^0.6) = 0.354344.
func TestFeaturesByHand(t *testing.T) {
	r := engine.DefaultRules()
	require.Equal(t, 35, r.FinalTile())
	p := &engine.Public{
		Players: []engine.Player{
			{UID: "a", Seat: 0, Class: engine.ClassScout, HP: 4, Pos: 13, Items: []string{"t1-potion-1", "t2-gpotion-2", "t1-smoke-1"}, AtkBonus: 2, DefBonus: 1},
			{UID: "b", Seat: 1, Class: engine.ClassWarrior, HP: 10, Pos: 30, MoveBonus: 1},
		},
		Order:     []string{"b", "a"},
		TurnIndex: 1,
	}
	const sharp = 0.641689
	want := [2][numFeat]float64{{
		fRace: 6.285714 * sharp, fMoves: 6.285714, fMoved: 0, fHP: 0.4, fLowHP: 0,
		fMidLoss: 0.028571, fAtk: 2, fDef: 1, fGearEnd: 3 * sharp, fHeal: 0.9, fSmoke: 1,
		fKORisk: 0.028571 * 0.6, fOneMove: 0, fMidHP: 1,
		fDanger: 2.0 / 12 * 0.6, fDangerKO: 2.0 / 12 * 0.028571 * 0.6, fMonkCancel: 0, fLeader: 0,
	}, {
		fRace: 1.428571 * sharp, fMoves: 1.428571, fMoved: sharp, fHP: 1, fLowHP: 0,
		fMidLoss: 0, fAtk: 1, fDef: 0, fGearEnd: 1 * sharp, fHeal: 0, fSmoke: 0, fWarrior: 1,
		fKORisk: 0, fOneMove: 0, fMidHP: 0, fDanger: 0, fDangerKO: 0, fLeader: 1,
	}}
	var fc featureCtx
	fc.init(p, r)
	for i := range want {
		var got [numFeat]float64
		fc.featuresOf(p, r, i, &got)
		for k := range numFeat {
			require.InDelta(t, want[i][k], got[k], 1e-5, "player %d, feature %d", i, k)
		}
	}

	v := &valueModel{}
	v.w[fHP] = 1
	out := make([]float32, 2)
	v.eval(p, r, &fc, out)
	require.InDelta(t, 0.354344, out[0], 1e-6)
	require.InDelta(t, 1-0.354344, out[1], 1e-6)
}
